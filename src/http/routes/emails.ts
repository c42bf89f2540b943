// GET /api/emails (the delivery log) and GET /api/emails/:id (one message and its event history).
import { Readable } from 'node:stream';
import { setImmediate } from 'node:timers/promises';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { BOUNCE_CATEGORIES, isBounceCategory, type BounceCategory } from '../../bounce/categories.js';
import {
  MAX_RAW_KEPT_BYTES,
  type MessageDetail,
  type MessageFilter,
  type MessagesRepo,
} from '../../db/messages-repo.js';
import type { Clock } from '../../clock.js';
import { attemptTlsDetailsJson } from '../../delivery/tls-details-json.js';
import type {
  DeliveryAttemptRow,
  EventRow,
  LoggedMessageRow,
  MessageRow,
  MessageStatus,
} from '../../db/schema.js';
import { AppError } from '../../errors.js';
import {
  asciiDomain,
  displayAddress,
  MAX_ADDRESS_FIELD_LENGTH,
  parseAddress,
} from '../../messages/address.js';
import { contentRemovalAt } from '../../accounts/content-retention.js';
import type { Account } from '../../db/schema.js';
import { messageDeadline } from '../../delivery/retry-schedule.js';
import { nextStep, type NextStep } from '../../messages/next-step.js';
import { contentRemovedAfterGrace } from '../../retention/content-grace.js';
import { sealedContent } from '../../messages/system-mail.js';
import { endpointOrigin } from '../../webhooks/webhook-url.js';
import { authOf, callerMay } from '../authenticate.js';
import { csvRow } from '../csv.js';
import { streamedJson } from '../streamed-json.js';
import { MESSAGE_STATUSES } from '../schemas/emails.js';
import { AUTHENTICATED, json, list, ref, responses } from '../schemas/responses.js';
import { ID_PATTERN, isId } from '../../ids.js';

/** An ISO 8601 time is about 30 characters; a cursor is a UUID in base64url (48). */
const MAX_TIME_LENGTH = 64;
const MAX_CURSOR_LENGTH = 64;

/** A search is at most this long, and at most this many words. */
const MAX_SEARCH_LENGTH = 256;
const MAX_SEARCH_WORDS = 8;
/** Rows of one CSV export (newest first); the `x-next-cursor` header continues it. */
export const MAX_CSV_ROWS = 10_000;
const CSV_PAGE = 100;
const MESSAGE_ID = new RegExp(`^<?(${ID_PATTERN})(@[^\\s<>@]+)?>?$`, 'i');

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
    to: {
      type: 'string',
      maxLength: MAX_ADDRESS_FIELD_LENGTH,
      description: 'Recipient address, whole (A–Z in any case)',
    },
    from: {
      type: 'string',
      maxLength: MAX_ADDRESS_FIELD_LENGTH,
      description: 'Sender address, whole (A–Z in any case)',
    },
    since: { type: 'string', maxLength: MAX_TIME_LENGTH, description: 'ISO 8601 time, inclusive' },
    until: { type: 'string', maxLength: MAX_TIME_LENGTH, description: 'ISO 8601 time, exclusive' },
    cursor: {
      type: 'string',
      maxLength: MAX_CURSOR_LENGTH,
      description: 'next_cursor of the previous page',
    },
    limit: { type: 'string', pattern: '^[0-9]{1,3}$', description: '1–100, default 50' },
    q: {
      type: 'string',
      maxLength: MAX_SEARCH_LENGTH,
      description: `A Message-ID (<id@host>), or words that must all appear in the subject (at most ${MAX_SEARCH_WORDS})`,
    },
    domain: {
      type: 'string',
      maxLength: 255,
      description: "The recipient's domain, exactly (an internationalised one as written or in punycode)",
    },
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
  q?: string;
  domain?: string;
}

/** The log's 200: a page of JSON, or the filtered log as CSV (Accept: text/csv). */
const logOrCsv = {
  description: 'A page of the log; with Accept: text/csv, the filtered log as CSV (docs/API.md)',
  content: {
    'application/json': { schema: list(ref('Email'), true) },
    'text/csv': { schema: { type: 'string', description: 'RFC 4180, a header row first' } },
  },
};

export function registerEmailRoutes(app: FastifyInstance, messages: MessagesRepo, clock: Clock): void {
  registerRawRoute(app, messages);
  app.get<{ Querystring: ListQuery }>(
    '/api/emails',
    {
      schema: {
        summary: 'The delivery log, newest first',
        querystring: listQuerySchema,
        response: responses({ 200: logOrCsv }, [...AUTHENTICATED, 'validation_error']),
      },
    },
    async (request, reply) => {
      const { account } = authOf(request);
      const q = request.query;
      const limit = q.limit === undefined ? 50 : Number(q.limit);
      if (limit < 1 || limit > 100)
        throw new AppError('validation_error', '"limit" must be between 1 and 100');
      const to = q.to === undefined ? undefined : addressFilter('to', q.to);
      const filter: MessageFilter = {
        status: q.status,
        category: q.category,
        toEmail: to?.email,
        fromEmail: q.from === undefined ? undefined : addressFilter('from', q.from).email,
        since: q.since === undefined ? undefined : time('since', q.since),
        until: q.until === undefined ? undefined : time('until', q.until),
        beforeId: q.cursor === undefined ? undefined : decodeCursor(q.cursor),
        // An address's domain too: every message to it has that domain, and the account's messages to
        // a domain are one range of an index (messages_account_to_domain), where a search by address
        // alone read the account's whole log for a rare one.
        toDomain: q.domain === undefined ? to?.domain : domainFilter(q.domain),
        ...(q.q === undefined ? {} : searchFilter(q.q)),
      };
      if (wantsCsv(request.headers.accept)) return csvExport(messages, account.id, filter, reply);
      const rows = await messages.list(account.id, filter, limit + 1);
      const page = rows.slice(0, limit);
      const more = rows.length > limit;
      const next = nextSteps(account, page, clock);
      return {
        data: page.map((m) => ({ ...summaryJson(m), next: next(m) })),
        next_cursor: more ? cursorOf(page[page.length - 1]!.id) : null,
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
    async (request, reply) => {
      const auth = authOf(request);
      const { account } = auth;
      const id = request.params.id;
      const detail = isId(id) ? await messages.detail(account.id, id) : undefined;
      if (!detail) throw new AppError('not_found', `no email with id "${id}" in this account`);
      // Its content (one-time codes, links) is never kept by a cache between the client and txmail.
      reply.header('Cache-Control', 'no-store');
      const { message, events, attempts, webhookAttempts: pushes } = detail;
      const days = detail.contentRetentionDays;
      const final = message.next_attempt_at === null;
      const next = nextSteps(account, [message], clock);
      // A sign-in link for its recipient alone: not for the members and keys that read the log.
      const sealed = events.some((e) => e.type === 'email.queued' && sealedContent(e.data));
      const html = sealed ? [] : message.htmlPieces;
      // An endpoint's URL may carry its receiver's token: whole only for who may read the endpoints.
      const shownUrl = callerMay(auth, 'webhooks.read')
        ? (url: string) => url
        : (url: string) => endpointOrigin(url) ?? '';
      const body = {
        ...detailJson(message, events, message.htmlPieces),
        content_sealed: sealed,
        next: next(message),
        raw_bytes: sealed ? null : (detail.rawSize ?? null),
        content_retention_days: days,
        content_removed_at: iso(message.content_removed_at),
        // When the content retention will remove it (docs/design.md §9; after an upgrade's grace,
        // retention/content-grace.ts); null while queued or kept.
        // A sealed message's content goes once it is final (the sweep runs every minute), whatever the
        // account's retention: no date to promise.
        content_removes_at:
          message.content_removed_at === null && final && !sealed ? removesAt(message, detail) : null,
        resent_from: message.resent_from,
        resends: detail.resends,
        events: events.map((e) => eventJson(e, sealed)),
        delivery_attempts: attempts.map(attemptJson),
        webhook_deliveries: pushes.map((p) => ({
          id: p.id,
          webhook_id: p.webhook_id,
          url: shownUrl(p.url),
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
      // A large HTML is written a piece a turn (streamed-json.ts), the rest serialized as usual: by the
      // route's own serializer (its responses are keyed by content type, which reply.serialize misses).
      const serialize = reply.getSerializationFunction('200', 'application/json') ?? JSON.stringify;
      const streamed = streamedJson((placeholder) => serialize({ ...body, message: placeholder }), html);
      if (streamed) return reply.type('application/json; charset=utf-8').send(streamed);
      return { ...body, message: html.join('') };
    },
  );
}

/**
 * GET /api/emails/:id/raw: the bytes of the message's latest attempt as signed, `message/rfc822`
 * (docs/API.md). Kept from the first attempt until the content retention removes them.
 */
export function registerRawRoute(app: FastifyInstance, messages: MessagesRepo): void {
  app.get<{ Params: { id: string } }>(
    '/api/emails/:id/raw',
    {
      schema: {
        summary: 'The message as sent: its bytes as signed, message/rfc822',
        response: responses(
          {
            200: {
              description: 'The bytes of its latest attempt as signed',
              content: { 'message/rfc822': { schema: { type: 'string' } } },
            },
          },
          [...AUTHENTICATED, 'not_found'],
        ),
        params: {
          type: 'object',
          properties: { id: { type: 'string', maxLength: 64 } },
          required: ['id'],
        },
      },
    },
    async (request, reply) => {
      const { account } = authOf(request);
      const id = request.params.id;
      const raw = isId(id) ? await messages.raw(account.id, id) : undefined;
      if (!raw) throw new AppError('not_found', `no email with id "${id}" in this account`);
      if (sealedContent(await messages.queuedEventData(account.id, id))) throw sealedError(id);
      if (raw.kind === 'removed') {
        throw new AppError(
          'not_found',
          `the content of email "${id}" was removed at ${iso(raw.removedAt)} (content retention)`,
        );
      }
      reply.header('Cache-Control', 'no-store');
      if (raw.kind === 'none') {
        throw new AppError(
          'not_found',
          raw.attempted
            ? `the bytes email "${id}" was sent as were not kept (larger than ${MAX_RAW_KEPT_BYTES / 1048576} MiB as sent)`
            : `email "${id}" has not been sent yet: no bytes are kept for it`,
        );
      }
      // The customer's HTML on the dashboard's origin: a download, never rendered or sniffed as a page.
      return reply
        .header('content-type', 'message/rfc822')
        .header('content-disposition', `attachment; filename="${id}.eml"`)
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', 'sandbox')
        .send(raw.raw);
    },
  );
}

/** The answer for the content of a message whose link signs its recipient in (system-mail.ts). */
function sealedError(id: string): AppError {
  return new AppError(
    'not_found',
    `the content of email "${id}" is sealed: it carries a sign-in link meant for its recipient alone`,
  );
}

/**
 * "What happens next" for each queued or deferred message of a page (messages/next-step.ts), with the
 * deadline the worker will apply (messages.deadline_at: ARCHITECTURE.md, "Expiry").
 */
function nextSteps(
  account: Pick<Account, 'id' | 'reputation_status'>,
  page: MessageRow[],
  clock: Clock,
): (m: MessageRow) => NextStep | null {
  const now = clock.now();
  return (m) =>
    nextStep(
      m,
      {
        deadline: messageDeadline(m.created_at, m.deadline_at),
        accountPaused: account.reputation_status === 'paused',
      },
      now,
    );
}

function cursorOf(id: string): string {
  return Buffer.from(id).toString('base64url');
}

/** `Accept: text/csv` (before JSON, when both are named) asks for the CSV export. */
function wantsCsv(accept: string | undefined): boolean {
  if (!accept) return false;
  const types = accept.split(',').map((t) => t.split(';')[0]!.trim().toLowerCase());
  const csv = types.indexOf('text/csv');
  const json = types.indexOf('application/json');
  return csv >= 0 && (json < 0 || csv < json);
}

/**
 * The filtered log as CSV (docs/API.md): newest first, at most MAX_CSV_ROWS rows; when more match,
 * `x-next-cursor` continues after the last row. The header must be known before the body starts, so
 * the ids come first (36 bytes a row); the rows are then read and written a page at a time as the
 * connection takes them. Read whole first, six exports of 10,000 rows at the longest fields held
 * some 60 MB each until sent, and the collector's pauses over that heap held the event loop for
 * more than a second.
 */
async function csvExport(
  messages: MessagesRepo,
  accountId: string,
  filter: MessageFilter,
  reply: FastifyReply,
): Promise<Readable> {
  const ids = await messages.listIds(accountId, filter, MAX_CSV_ROWS + 1);
  const taken = ids.slice(0, MAX_CSV_ROWS);
  if (ids.length > MAX_CSV_ROWS) void reply.header('x-next-cursor', cursorOf(taken.at(-1)!));
  void reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', 'attachment; filename="emails.csv"');
  return Readable.from(csvPages(messages, accountId, filter, taken));
}

/**
 * The CSV's header row, then the rows of `ids` (newest first, as `list` reads them), a page a chunk.
 * A message sent since the ids were read is newer than the first and left out, so the export and its
 * cursor hold the same rows; one that no longer passes the filter (a status changed) is left out too.
 */
async function* csvPages(
  messages: MessagesRepo,
  accountId: string,
  filter: MessageFilter,
  ids: string[],
): AsyncGenerator<Buffer> {
  yield Buffer.from(csvRow(CSV_COLUMNS));
  if (ids.length === 0) return;
  const newest = ids[0]!;
  const oldest = ids.at(-1)!;
  let beforeId = filter.beforeId;
  for (;;) {
    const page = await messages.list(accountId, { ...filter, beforeId }, CSV_PAGE);
    let out = '';
    for (const m of page) {
      if (m.id > newest) continue;
      if (m.id < oldest) break;
      const j = summaryJson(m);
      out += csvRow([
        j.id,
        j.created_at,
        j.status,
        j.category,
        j.from,
        j.to,
        j.subject,
        j.attempts,
        j.updated_at,
      ]);
    }
    if (out !== '') yield Buffer.from(out);
    const last = page.at(-1);
    if (last === undefined || page.length < CSV_PAGE || last.id <= oldest) return;
    beforeId = last.id;
    // A turn of the event loop before the next page, whatever the database: six exports whose clients
    // read fast once built 67 pages (640 ms of encoding alone) before a timer could run. (The SQLite
    // reader now settles one answer a turn itself, db/sqlite/reader.ts; PostgreSQL's answers to several
    // exports can still arrive in one turn.)
    await setImmediate();
  }
}

const CSV_COLUMNS = [
  'id',
  'created_at',
  'status',
  'category',
  'from',
  'to',
  'subject',
  'attempts',
  'updated_at',
];

/** A Message-ID (ours: `<id@host>`) finds that message; anything else is words of the subject. */
function searchFilter(q: string): Pick<MessageFilter, 'id' | 'subjectWords'> {
  const trimmed = q.trim();
  const id = MESSAGE_ID.exec(trimmed);
  if (id) return { id: id[1]!.toLowerCase() };
  const words = trimmed.split(/\s+/).filter((w) => w !== '');
  if (words.length > MAX_SEARCH_WORDS)
    throw new AppError('validation_error', `"q" may hold at most ${MAX_SEARCH_WORDS} words`);
  return words.length === 0 ? {} : { subjectWords: words };
}

/** The recipient domain to filter by, read as the send route reads a recipient's (asciiDomain). */
function domainFilter(value: string): string {
  const ascii = asciiDomain(value.trim());
  if (ascii === undefined) throw new AppError('validation_error', '"domain" must be a domain name');
  return ascii;
}

function decodeCursor(cursor: string): string {
  const id = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!isId(id)) throw new AppError('validation_error', '"cursor" is not a cursor returned by this API');
  return id;
}

/** The address as the send route reads it: its `domain` is what messages' `to_domain` holds. */
function addressFilter(field: string, value: string): { email: string; domain: string } {
  const parsed = parseAddress(value);
  if (!parsed.ok) throw new AppError('validation_error', `"${field}" ${parsed.reason}`);
  return parsed.address;
}

function time(field: string, value: string): number {
  const t = Date.parse(value);
  if (Number.isNaN(t)) throw new AppError('validation_error', `"${field}" must be an ISO 8601 time`);
  return t;
}

function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

function removesAt(message: LoggedMessageRow, detail: MessageDetail): string | null {
  const due = contentRemovalAt(message.updated_at, detail.contentRetentionDays);
  return due === null
    ? null
    : iso(contentRemovedAfterGrace(due, message.updated_at, detail.contentRetentionSince));
}

function summaryJson(m: MessageRow) {
  return {
    id: m.id,
    status: m.status,
    // Stored from the event that carried it; anything else than a known category is shown as none.
    category: m.category !== null && isBounceCategory(m.category) ? m.category : null,
    from: displayAddress(m.from_name, m.from_email),
    to: displayAddress(m.to_name, m.to_email),
    subject: m.subject,
    created_at: iso(m.created_at),
    updated_at: iso(m.updated_at),
    attempts: m.attempts,
    next_attempt_at: iso(m.next_attempt_at),
  };
}

/**
 * The message and what its HTML is (the HTML itself is the caller's: it may be written a piece at a
 * time). A test send keeps at most 64 KiB of it (messages/test-html.ts);
 * its email.test event records the size as sent, so the detail can say what was cut.
 */
function detailJson(m: MessageRow, events: EventRow[], htmlPieces: readonly string[]) {
  const test = m.status === 'test' ? events.find((e) => e.type === 'email.test') : undefined;
  const cut = test && (JSON.parse(test.data) as { html_truncated?: boolean; html_bytes?: number });
  const truncated = cut?.html_truncated === true && typeof cut.html_bytes === 'number';
  return {
    ...summaryJson(m),
    // The HTML, in its place among the fields: set by the caller.
    message: '',
    html_bytes: truncated
      ? cut.html_bytes!
      : htmlPieces.reduce((n, piece) => n + Buffer.byteLength(piece, 'utf8'), 0),
    html_truncated: truncated,
  };
}

/**
 * An event as the log shows it. For a sealed message, a report's text is withheld (''): a notice the
 * recipient's mail system sent back may quote the message, sign-in link and all (an attack probe read
 * a reset link there as a viewer).
 */
function eventJson(e: EventRow, sealed = false) {
  const data = JSON.parse(e.data) as Record<string, unknown>;
  if (sealed && e.type === 'email.report_received' && typeof data.text === 'string') data.text = '';
  return { id: e.id, type: e.type, created_at: iso(e.created_at), data: data as unknown };
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
