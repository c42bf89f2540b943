// GET|POST /api/domains, GET|PATCH|DELETE /api/domains/:id, POST /api/domains/:id/verify,
// POST /api/domains/:id/dkim/rotate (docs/design.md §3, §6; docs/API.md, Domains).
import type { FastifyInstance } from 'fastify';
import { domainToUnicode } from 'node:url';
import type { DkimKeyRow, DomainRow } from '../../db/schema.js';
import { dkimKeyJson } from '../../dkim/dkim-key-json.js';
import type { DomainCheck, RecordFinding } from '../../domains/domain-check.js';
import type { DomainDetail, Domains } from '../../domains/domains.js';
import { MAX_DOMAIN_NAME_FIELD_LENGTH } from '../../domains/domain-name.js';
import { GRACE_PERIOD_MS, VERIFICATION_WINDOW_MS } from '../../domains/domain-status.js';
import { authOf } from '../authenticate.js';
import { AUTHENTICATED, json, list, ref, responses, STATE_CHANGING } from '../schemas/responses.js';

const detail = (description: string) => json(description, ref('DomainDetail'));
/** A domain of another account, or no such id. */
const ONE = [...AUTHENTICATED, 'not_found'] as const;
const CHANGE_ONE = [...ONE, ...STATE_CHANGING] as const;

const TLS_DESCRIPTION =
  '"opportunistic" (default: TLS when offered, any certificate, cleartext after a failed handshake) or "required" (only over TLS with a certificate valid for the host)';

const createBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: {
    name: {
      type: 'string',
      maxLength: MAX_DOMAIN_NAME_FIELD_LENGTH,
      description: 'The domain to send from, e.g. acme.example (IDN allowed)',
    },
    tls: { description: TLS_DESCRIPTION },
    dkim_ed25519: {
      type: 'boolean',
      description: 'Also sign with an Ed25519 key (RFC 8463) beside the RSA key, once its record is found',
    },
  },
} as const;

// The values' own checks are Domains.update's: a schema type here would let Fastify coerce "600" into
// 600, and its message would not say the range or the choices.
const updateBodySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    expire_after: {
      description:
        "Seconds after acceptance when txmail stops trying the domain's mail (60–172800), or null for 2 days",
    },
    tls: { description: TLS_DESCRIPTION },
    dkim_ed25519: {
      description:
        'true: sign with an Ed25519 key beside the RSA key (once its record is found); false: stop',
    },
  },
} as const;

interface CreateBody {
  name: string;
  tls?: unknown;
  dkim_ed25519?: boolean;
}

export function registerDomainRoutes(app: FastifyInstance, domains: Domains): void {
  app.post<{ Body: CreateBody }>(
    '/api/domains',
    {
      schema: {
        summary: 'Add a sending domain; answers the DNS records to publish',
        body: createBodySchema,
        response: responses({ 201: detail('Added: the records to publish') }, [
          ...AUTHENTICATED,
          ...STATE_CHANGING,
          'validation_error',
          'plan_limit',
          'domain_exists',
        ]),
      },
    },
    async (request, reply) => {
      const { account } = authOf(request);
      const created = await domains.create(account, request.body.name, {
        tls: request.body.tls,
        ed25519: request.body.dkim_ed25519,
      });
      return reply.code(201).send(detailJson(created));
    },
  );

  app.get(
    '/api/domains',
    {
      schema: {
        summary: "The account's sending domains",
        response: responses(
          { 200: json('The domains, without records', list(ref('Domain'))) },
          AUTHENTICATED,
        ),
      },
    },
    async (request) => {
      const { account } = authOf(request);
      return { data: (await domains.list(account.id)).map(summaryJson) };
    },
  );

  app.get<{ Params: { id: string } }>(
    '/api/domains/:id',
    {
      schema: {
        summary: 'One domain: the records to publish and what the last check found',
        response: responses({ 200: detail('The domain') }, ONE),
      },
    },
    async (request) => detailJson(await domains.get(authOf(request).account.id, request.params.id)),
  );

  app.patch<{
    Params: { id: string };
    Body: { expire_after?: unknown; tls?: unknown; dkim_ed25519?: unknown };
  }>(
    '/api/domains/:id',
    {
      schema: {
        summary: "Change the domain's settings: expire_after, tls, dkim_ed25519",
        body: updateBodySchema,
        response: responses({ 200: detail('The domain, changed') }, [...CHANGE_ONE, 'validation_error']),
      },
    },
    async (request) =>
      detailJson(await domains.update(authOf(request).account.id, request.params.id, request.body)),
  );

  app.post<{ Params: { id: string } }>(
    '/api/domains/:id/verify',
    {
      schema: {
        summary: "Check the domain's DNS records now",
        response: responses({ 200: detail('The domain as the check left it') }, CHANGE_ONE),
      },
    },
    async (request) => detailJson(await domains.verify(authOf(request).account.id, request.params.id)),
  );

  app.post<{ Params: { id: string } }>(
    '/api/domains/:id/dkim/rotate',
    {
      schema: {
        summary:
          'Start a DKIM key rotation: answers the new key (pending) and its record; the current key signs until the record is found',
        response: responses({ 200: detail('The domain with its pending keys') }, CHANGE_ONE),
      },
    },
    async (request) => detailJson(await domains.rotateDkim(authOf(request).account.id, request.params.id)),
  );

  app.delete<{ Params: { id: string } }>(
    '/api/domains/:id',
    {
      schema: {
        summary: 'Delete a domain and its DKIM key',
        response: responses(
          {
            200: json('Deleted', {
              type: 'object',
              additionalProperties: false,
              required: ['id', 'deleted'],
              properties: { id: { type: 'string' }, deleted: { type: 'boolean', enum: [true] } },
            }),
          },
          CHANGE_ONE,
        ),
      },
    },
    async (request) => {
      await domains.delete(authOf(request).account.id, request.params.id);
      return { id: request.params.id, deleted: true };
    },
  );
}

function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

/** When the domain fails unless its records are found: the end of the window or of the grace period. */
function deadline(d: DomainRow): number | null {
  if (d.status === 'pending') return (d.verification_started_at ?? d.created_at) + VERIFICATION_WINDOW_MS;
  if (d.status === 'temporary_failure' && d.failing_since !== null) return d.failing_since + GRACE_PERIOD_MS;
  return null;
}

function summaryJson(d: DomainRow) {
  return {
    id: d.id,
    name: d.name,
    unicode_name: domainToUnicode(d.name),
    status: d.status,
    created_at: iso(d.created_at),
    verified_at: iso(d.verified_at),
    last_checked_at: iso(d.last_checked_at),
    next_check_at: iso(d.next_check_at),
    fails_at: iso(deadline(d)),
    expire_after: d.expire_after,
    tls: d.tls,
  };
}

function detailJson({ row, records, check, dkimKeys }: DomainDetail) {
  return {
    ...summaryJson(row),
    dkim_ed25519: dkimKeys.some((k) => k.algorithm === 'ed25519-sha256' && k.status !== 'retired'),
    records: records.map((r) => {
      const found: RecordFinding | undefined = check?.records.find((f) => f.record === r.record);
      return {
        ...r,
        status: found?.status ?? 'not_checked',
        seen: found?.seen ?? [],
        problems: found?.problems ?? [],
        warnings: found?.warnings ?? [],
      };
    }),
    dkim_keys: shownKeys(dkimKeys).map(dkimKeyJson),
    last_check: check ? checkJson(check) : null,
  };
}

/** Retired keys shown: the latest few (their records may still be published). */
const RETIRED_KEYS_SHOWN = 3;

/** Active and pending keys, then the latest retired ones; newest first within each. */
function shownKeys(keys: DkimKeyRow[]): DkimKeyRow[] {
  const order = { active: 0, pending: 1, retired: 2 };
  const retired = keys.filter((k) => k.status === 'retired').slice(0, RETIRED_KEYS_SHOWN);
  return [...keys.filter((k) => k.status !== 'retired'), ...retired].sort(
    (a, b) => order[a.status] - order[b.status] || b.created_at - a.created_at,
  );
}

function checkJson(c: DomainCheck) {
  return {
    checked_at: iso(c.checked_at),
    outcome: c.outcome,
    spf_lookups: c.spf_lookups,
    dmarc: c.dmarc,
    // Checks stored before domain warnings existed have none.
    warnings: c.warnings ?? [],
  };
}
