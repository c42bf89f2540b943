// The hourly budget of messages and bytes each client may hand the receiver. It lives in the database
// (attempt_counts, shared with the sign-in limits), not in memory: every inbound process on the database
// (one per MX host) counts against the same budget, and a restart does not reset it. The cost is one read
// at MAIL FROM and two conditional upserts per message, beside the insert that stores the message.
// Keys are SHA-256 hashes of the limit and the client, so the table holds no addresses.
import { createHash } from 'node:crypto';
import type { AttemptCountsRepo } from '../db/attempt-counts-repo.js';

export interface InboundBudgetLimits {
  /** Messages per client per hour; 0 = unlimited. */
  messagesPerHour: number;
  /** Bytes per client per hour, counted in whole KiB per message; 0 = unlimited. */
  bytesPerHour: number;
}

/** Which budget refused: the count of messages or the bytes. */
export type BudgetLimit = 'hourly_messages' | 'hourly_bytes';

export type BudgetRoom =
  | { ok: true }
  /** spent: nothing more fits this hour; otherwise only a message of the declared size does not. */
  | { ok: false; limit: BudgetLimit; spent: boolean };

const HOUR_MS = 3_600_000;
/** A message's size in KiB, rounded up; the budget's, rounded down: the count never passes the bytes. */
const kib = (bytes: number) => Math.ceil(bytes / 1024);
const kibBudget = (bytes: number) => Math.floor(bytes / 1024);

export class InboundBudget {
  constructor(
    private readonly repo: AttemptCountsRepo,
    private readonly limits: InboundBudgetLimits,
  ) {}

  /**
   * At MAIL FROM: whether the client's budget has room for one more message (of `declaredSize` bytes,
   * when the client declared one with SIZE, RFC 1870). Reads only: the message is counted by `take`.
   */
  async room(client: string, declaredSize: number | undefined, now: number): Promise<BudgetRoom> {
    const { messagesPerHour, bytesPerHour } = this.limits;
    if (messagesPerHour === 0 && bytesPerHour === 0) return { ok: true };
    const [messagesKey, bytesKey] = [this.key('messages', client), this.key('kib', client)];
    const counts = await this.repo.counts([messagesKey, bytesKey], now);
    if (messagesPerHour !== 0 && counts.get(messagesKey)! >= messagesPerHour) {
      return { ok: false, limit: 'hourly_messages', spent: true };
    }
    if (bytesPerHour !== 0) {
      const used = counts.get(bytesKey)!;
      const max = kibBudget(bytesPerHour);
      if (used >= max) return { ok: false, limit: 'hourly_bytes', spent: true };
      if (declaredSize !== undefined && used + kib(declaredSize) > max) {
        return { ok: false, limit: 'hourly_bytes', spent: false };
      }
    }
    return { ok: true };
  }

  /**
   * After DATA, before the message is stored: counts it and its size against the client's budget, or
   * neither, and says which budget refused. Sessions of one client racing for the last room in any
   * number of processes never pass the budget between them.
   */
  async take(client: string, size: number, now: number): Promise<BudgetLimit | undefined> {
    const { messagesPerHour, bytesPerHour } = this.limits;
    const messagesKey = this.key('messages', client);
    if (messagesPerHour !== 0 && !(await this.repo.add(messagesKey, 1, messagesPerHour, HOUR_MS, now))) {
      return 'hourly_messages';
    }
    if (
      bytesPerHour !== 0 &&
      !(await this.repo.add(this.key('kib', client), kib(size), kibBudget(bytesPerHour), HOUR_MS, now))
    ) {
      // Not stored, so not counted.
      if (messagesPerHour !== 0) await this.repo.refund(messagesKey, now);
      return 'hourly_bytes';
    }
    return undefined;
  }

  private key(what: 'messages' | 'kib', client: string): string {
    return createHash('sha256').update(`inbound-hourly-${what}\n${client}`).digest('hex');
  }
}
