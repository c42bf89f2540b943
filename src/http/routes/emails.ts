// GET /api/emails (the delivery log) and GET /api/emails/:id (one message and its event history).
import type { FastifyInstance } from 'fastify';
import { BOUNCE_CATEGORIES, isBounceCategory, type BounceCategory } from '../../bounce/categories.js';
import type { MessageSummary, MessagesRepo } from '../../db/messages-repo.js';
import { attemptTlsDetailsJson } from '../../delivery/tls-details-json.js';
import type { DeliveryAttemptRow, EventRow, MessageRow, MessageStatus } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { MAX_ADDRESS_FIELD_LENGTH, parseAddress } from '../../messages/address.js';
import { authOf } from '../authenticate.js';
import { MESSAGE_STATUSES } from '../schemas/emails.js';
import { AUTHENTICATED, json, list, ref, responses } from '../schemas/responses.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** An ISO 8601 time is about 30 characters; a cursor is a UUID in base64url (48). */
const MAX_TIME_LENGTH = 64;
const MAX_CURSOR_LENGTH = 64;

// Every filter has a length limit: a huge one is refused by the schema before anything parses it.
const listQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    status: { type: 'string', enum: MESSAGE_STATUSES },
    category: {
      type: 'string',
      enum: BOUNCE_CATEGORIES,
      description: "The category of the message's latest failure, delay or complaint",
    },
    to: { type: 'string', maxLength: MAX_ADDRESS_FIELD_LENGTH, description: 'Exact recipient address' },
    from: { type: 'string', maxLength: MAX_ADDRESS_FIELD_LENGTH, description: 'Exact sender address' },
    since: { type: 'string', maxLength: MAX_TIME_LENGTH, description: 'ISO 8601 time, inclusive' },
    until: { type: 'string', maxLength: MAX_TIME_LENGTH, description: 'ISO 8601 time, exclusive' },
    cursor: {
      type: 'string',
      maxLength: MAX_CURSOR_LENGTH,
      description: 'next_cursor of the previous page',
    },
    limit: { type: 'string', pattern: '^[0-9]{1,3}$', description: '1–100, default 50' },
  },
} as const;

interface ListQuery {
  status?: MessageStatus;
  category?: BounceCategory;
  to?: string;
  from?: string;
  since?: string;
  until?: string;
  cursor?: string;
  limit?: string;
}

export function registerEmailRoutes(app: FastifyInstance, messages: MessagesRepo): void {
  app.get<{ Querystring: ListQuery }>(
    '/api/emails',
    {
      schema: {
        summary: 'The delivery log, newest first',
        querystring: listQuerySchema,
        response: responses({ 200: json('A page of the log', list(ref('Email'), true)) }, [
          ...AUTHENTICATED,
          'validation_error',
        ]),
      },
    },
    async (request) => {
      const { account } = authOf(request);
      const q = request.query;
      const limit = q.limit === undefined ? 50 : Number(q.limit);
      if (limit < 1 || limit > 100)
        throw new AppError('validation_error', '"limit" must be between 1 and 100');
      const beforeId = q.cursor === undefined ? undefined : decodeCursor(q.cursor);
      const rows = await messages.list(
        account.id,
        {
          status: q.status,
          category: q.category,
          toEmail: q.to === undefined ? undefined : addressFilter('to', q.to),
          fromEmail: q.from === undefined ? undefined : addressFilter('from', q.from),
          since: q.since === undefined ? undefined : time('since', q.since),
          until: q.until === undefined ? undefined : time('until', q.until),
          beforeId,
        },
        limit + 1,
      );
      const page = rows.slice(0, limit);
      const more = rows.length > limit;
      return {
        data: page.map(summaryJson),
        next_cursor: more ? Buffer.from(page[page.length - 1]!.id).toString('base64url') : null,
      };
    },
  );

  app.get<{ Params: { id: string } }>(
    '/api/emails/:id',
    {
      schema: {
        summary: 'One message with its event history, newest first',
        response: responses({ 200: json('The message', ref('EmailDetail')) }, [
          ...AUTHENTICATED,
          'not_found',
        ]),
      },
    },
    async (request) => {
      const { account } = authOf(request);
      const id = request.params.id;
      const detail = UUID.test(id) ? await messages.detail(account.id, id) : undefined;
      if (!detail) throw new AppError('not_found', `no email with id "${id}" in this account`);
      const { message, events, attempts, webhookAttempts: pushes } = detail;
      return {
        ...detailJson(message, events),
        events: events.map(eventJson),
        delivery_attempts: attempts.map(attemptJson),
        webhook_deliveries: pushes.map((p) => ({
          id: p.id,
          webhook_id: p.webhook_id,
          url: p.url,
          event_id: p.event_id,
          event_type: p.event_type,
          attempt: p.attempt,
          started_at: iso(p.started_at),
          duration_ms: p.duration_ms,
          success: p.success === 1,
          status_code: p.status_code,
          error: p.error,
        })),
      };
    },
  );
}

function decodeCursor(cursor: string): string {
  const id = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!UUID.test(id)) throw new AppError('validation_error', '"cursor" is not a cursor returned by this API');
  return id;
}

function addressFilter(field: string, value: string): string {
  const parsed = parseAddress(value);
  if (!parsed.ok) throw new AppError('validation_error', `"${field}" ${parsed.reason}`);
  return parsed.address.email;
}

function time(field: string, value: string): number {
  const t = Date.parse(value);
  if (Number.isNaN(t)) throw new AppError('validation_error', `"${field}" must be an ISO 8601 time`);
  return t;
}

function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

function formatAddress(name: string, email: string): string {
  return name === '' ? email : `${name} <${email}>`;
}

function summaryJson(m: MessageSummary) {
  return {
    id: m.id,
    status: m.status,
    // Stored from the event that carried it; anything else than a known category is shown as none.
    category: m.category !== null && isBounceCategory(m.category) ? m.category : null,
    from: formatAddress(m.from_name, m.from_email),
    to: formatAddress(m.to_name, m.to_email),
    subject: m.subject,
    created_at: iso(m.created_at),
    updated_at: iso(m.updated_at),
    attempts: m.attempts,
    next_attempt_at: iso(m.next_attempt_at),
  };
}

/**
 * The message with its HTML as stored. A test send keeps at most 64 KiB of it (messages/test-html.ts);
 * its email.test event records the size as sent, so the detail can say what was cut.
 */
function detailJson(m: MessageRow, events: EventRow[]) {
  const test = m.status === 'test' ? events.find((e) => e.type === 'email.test') : undefined;
  const cut = test && (JSON.parse(test.data) as { html_truncated?: boolean; html_bytes?: number });
  const truncated = cut?.html_truncated === true && typeof cut.html_bytes === 'number';
  return {
    ...summaryJson(m),
    message: m.html,
    html_bytes: truncated ? cut.html_bytes! : Buffer.byteLength(m.html, 'utf8'),
    html_truncated: truncated,
  };
}

function eventJson(e: EventRow) {
  return { id: e.id, type: e.type, created_at: iso(e.created_at), data: JSON.parse(e.data) as unknown };
}

function attemptJson(a: DeliveryAttemptRow) {
  return {
    id: a.id,
    started_at: iso(a.started_at),
    duration_ms: a.duration_ms,
    outcome: a.outcome,
    remote_host: a.remote_host,
    remote_ip: a.remote_ip,
    tls: a.tls === 1,
    tls_details: attemptTlsDetailsJson(a),
    smtp_code: a.smtp_code,
    enhanced_code: a.enhanced_code,
    reply: a.reply,
    source_ip: a.source_ip,
  };
}
