// What an audit entry calls its target and its API-key actor, kept with the entry when it is written
// (docs/design.md §2, "Audit log"): a key that is revoked, a domain, webhook endpoint or member that
// is deleted, no longer appears in the account's lists, and an id alone then says nothing to a person.
import { domainToUnicode } from 'node:url';
import type { AuditTargetFacts as TargetFacts, AuditTargetKind } from '../db/audit-repo.js';
import { endpointOrigin } from '../webhooks/webhook-url.js';

export type TargetKind = AuditTargetKind;

// The routes whose `:id` names a target of a kind (http/permissions.ts holds their audit actions).
const KIND_BY_PATH: [string, TargetKind][] = [
  ['/api/api-keys/', 'api_key'],
  ['/api/domains/', 'domain'],
  ['/api/webhooks/', 'webhook'],
  ['/api/members/', 'member'],
];

/** The kind of target a route pattern's `:id` names; undefined when it names none of these. */
export function targetKindOf(pattern: string | undefined): TargetKind | undefined {
  if (pattern === undefined) return undefined;
  for (const [path, kind] of KIND_BY_PATH) if (pattern.startsWith(path)) return kind;
  // The collection itself (POST /api/domains): the created target, named from the answer.
  for (const [path, kind] of KIND_BY_PATH) if (pattern === path.slice(0, -1)) return kind;
  return undefined;
}

/** An API key as the audit log names it: its name and the first characters of the key. */
export function keyLabel(key: { name: string; prefix: string }): string {
  return `${key.name} (${key.prefix}…)`;
}

/** A webhook endpoint by its origin alone (webhook-url.ts): the entry outlives the endpoint. */
function endpointLabel(url: string, description: string | undefined): string {
  // Stored URLs were checked when they were saved: an unreadable one is not shown at all.
  const shown = endpointOrigin(url) ?? 'an endpoint';
  return description ? `${description} (${shown})` : shown;
}

/**
 * The label of a target of `kind` from its facts; undefined when they do not name it. `before`: its
 * facts before the change, when they were read; a member whose role the change moved is named with
 * both roles, so that a role change says what it changed from.
 */
export function targetLabel(kind: TargetKind, facts: TargetFacts, before?: TargetFacts): string | undefined {
  switch (kind) {
    case 'api_key':
      return facts.name !== undefined && facts.prefix !== undefined
        ? keyLabel({ name: facts.name, prefix: facts.prefix })
        : undefined;
    case 'domain':
      return facts.name === undefined ? undefined : domainToUnicode(facts.name) || facts.name;
    case 'webhook':
      return facts.url === undefined ? undefined : endpointLabel(facts.url, facts.description);
    case 'member':
      // With the role it has after the change (a role change's new one, a removal's last one).
      if (facts.email === undefined) return undefined;
      if (facts.role === undefined) return facts.email;
      return before?.role !== undefined && before.role !== facts.role
        ? `${facts.email} as ${facts.role} (was ${before.role})`
        : `${facts.email} as ${facts.role}`;
  }
}

/** The facts of a route's JSON answer (a created or changed target), when it has them as text. */
export function factsOfAnswer(body: Record<string, unknown>): TargetFacts {
  const facts: TargetFacts = {};
  for (const k of ['name', 'prefix', 'url', 'description', 'email', 'role'] as const) {
    const v = body[k];
    if (typeof v === 'string') facts[k] = v;
  }
  return facts;
}
