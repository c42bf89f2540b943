// The suppression list of an account, as the API and the operator commands use it: list, add by hand,
// remove. Bounces and complaints add entries through the inbound side and the delivery worker.
import { domainToASCII } from 'node:url';
import type { Clock } from '../clock.js';
import type { SuppressionsRepo } from '../db/suppressions-repo.js';
import type { SuppressionRow } from '../db/schema.js';
import { AppError } from '../errors.js';
import { isId, newId } from '../ids.js';
import { parseAddress } from '../messages/address.js';

export interface SuppressionPage {
  data: SuppressionJson[];
  next_cursor: string | null;
}

export type SuppressionJson = ReturnType<typeof suppressionJson>;

/** What no stored address holds: a space or a control character (PostgreSQL refuses a NUL in text). */
const NO_ADDRESS_CHARACTER = /[\s\p{Cc}]/u;

/**
 * A page of at most `limit` entries from `rows` (up to one more, which says there is a next page),
 * with the cursor of its last entry: `cursorOf` gives the value the next page starts after.
 */
function pageOf(
  rows: SuppressionRow[],
  limit: number,
  cursorOf: (last: SuppressionRow) => string,
): SuppressionPage {
  const page = rows.slice(0, limit);
  return {
    data: page.map(suppressionJson),
    next_cursor:
      rows.length > limit ? Buffer.from(cursorOf(page[page.length - 1]!)).toString('base64url') : null,
  };
}

export class Suppressions {
  constructor(
    private readonly repo: SuppressionsRepo,
    private readonly clock: Clock,
  ) {}

  /**
   * Newest first; `cursor` is the `next_cursor` of the previous page. With `startsWith`, the addresses
   * that start with it, alphabetically (a search as one types: `bob@`, `bob@acme`).
   */
  async list(
    accountId: string,
    q: {
      address?: string | undefined;
      startsWith?: string | undefined;
      cursor?: string | undefined;
      limit: number;
    },
  ): Promise<SuppressionPage> {
    if (q.startsWith !== undefined) {
      if (q.address !== undefined) {
        throw new AppError('validation_error', '"address" and "starts_with" cannot be used together');
      }
      return this.listByPrefix(accountId, q.startsWith, q.cursor, q.limit);
    }
    const beforeId = q.cursor === undefined ? undefined : decodeCursor(q.cursor);
    const address = q.address === undefined ? undefined : normalizeAddress(q.address, 'address');
    const rows = await this.repo.list(accountId, { address, beforeId }, q.limit + 1);
    return pageOf(rows, q.limit, (last) => last.id);
  }

  private async listByPrefix(
    accountId: string,
    startsWith: string,
    cursor: string | undefined,
    limit: number,
  ): Promise<SuppressionPage> {
    // Addresses are stored in lower case, their domains in ASCII: so is what they are searched by. The
    // domain's labels first, as parseAddress does: IDNA's case mapping is not JavaScript's (ẞ is "ss"
    // there, "ß" here).
    const prefix = storedPrefix(startsWith.trim()).toLowerCase();
    if (prefix === '' || NO_ADDRESS_CHARACTER.test(prefix)) {
      throw new AppError('validation_error', '"starts_with" must be the start of an address, without spaces');
    }
    let after: string | undefined;
    if (cursor !== undefined) {
      after = Buffer.from(cursor, 'base64url').toString('utf8');
      // A page's cursor is its last address, in base64url exactly as given (so no byte was dropped or
      // replaced in decoding), which starts with the same prefix and holds no space nor control
      // character (PostgreSQL refuses a NUL in text).
      if (
        Buffer.from(after, 'utf8').toString('base64url') !== cursor ||
        !after.startsWith(prefix) ||
        NO_ADDRESS_CHARACTER.test(after)
      ) {
        throw new AppError('validation_error', '"cursor" is not a cursor returned by this API');
      }
    }
    const rows = await this.repo.listByPrefix(accountId, { prefix, after }, limit + 1);
    return pageOf(rows, limit, (last) => last.address);
  }

  /** Adds an address by hand; an address already on the list keeps its entry (created: false). */
  async add(
    accountId: string,
    input: { address: string; reason?: string | undefined },
  ): Promise<{ suppression: SuppressionJson; created: boolean }> {
    const reason = input.reason?.trim() || 'added by hand';
    if (/[\r\n\0]/.test(reason) || reason.length > 500) {
      throw new AppError('validation_error', '"reason" must be one line of at most 500 characters');
    }
    const { row, created } = await this.repo.add({
      id: newId(),
      account_id: accountId,
      address: normalizeAddress(input.address, 'address'),
      origin: 'manual',
      reason,
      enhanced_code: null,
      source_message_id: null,
      created_at: this.clock.now(),
    });
    return { suppression: suppressionJson(row), created };
  }

  /** Removes an address: the next send to it is accepted again. */
  async remove(accountId: string, address: string): Promise<void> {
    const normalized = normalizeAddress(address, 'address');
    if (!(await this.repo.remove(accountId, normalized))) {
      throw new AppError('not_found', `${normalized} is not on the suppression list of this account`);
    }
  }
}

/**
 * A typed start of an address in the form addresses are stored in: after the `@`, each whole label of an
 * internationalised domain in its ASCII form (`jo@bücher.ex` → `jo@xn--bcher-kva.ex`). The ASCII form of
 * part of a label is no start of the whole one's, so `jo@büch` finds nothing until the label is whole.
 */
export function storedPrefix(prefix: string): string {
  const at = prefix.lastIndexOf('@');
  const domain = prefix.slice(at + 1);
  if (at < 0 || ASCII.test(domain)) return prefix;
  const labels = domain
    .split('.')
    .map((label) => (ASCII.test(label) ? label : domainToASCII(label) || label));
  return `${prefix.slice(0, at + 1)}${labels.join('.')}`;
}

/** Nothing past ASCII (an address holds no control character: NO_ADDRESS_CHARACTER refuses them). */
const ASCII = /^[ -~]*$/;

/** The stored form: a bare address, lower case, domain in ASCII (as the send path looks it up). */
export function normalizeAddress(input: string, field: string): string {
  const parsed = parseAddress(input);
  if (!parsed.ok) throw new AppError('validation_error', `"${field}" ${parsed.reason}`);
  return parsed.address.email.toLowerCase();
}

function decodeCursor(cursor: string): string {
  const id = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!isId(id)) throw new AppError('validation_error', '"cursor" is not a cursor returned by this API');
  return id;
}

export function suppressionJson(row: SuppressionRow) {
  return {
    id: row.id,
    address: row.address,
    origin: row.origin,
    reason: row.reason,
    enhanced_code: row.enhanced_code,
    source_email_id: row.source_message_id,
    created_at: new Date(row.created_at).toISOString(),
  };
}
