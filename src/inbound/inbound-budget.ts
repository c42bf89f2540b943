// The hourly budget of messages and bytes each client may hand the receiver. It lives in the database
// (attempt_counts, shared with the sign-in limits), not in memory: every inbound process on the database
// (one per MX host) counts against the same budget, and a restart does not reset it. The cost is one read
// at MAIL FROM and two conditional upserts per message in the transaction that stores it (no commit of
// their own).
// Keys are SHA-256 hashes of the limit and the client, so the table holds no addresses.
import { createHash } from 'node:crypto';
import type { AttemptCountsRepo, CountCharge } from '../db/attempt-counts-repo.js';

export interface InboundBudgetLimits {
  /** Messages per client per hour; 0 = unlimited. */
  messagesPerHour: number;
  /** Bytes per client per hour, counted in whole KiB per message; 0 = unlimited. */
  bytesPerHour: number;
}

/** Which budget refused: the count of messages or the bytes. */
export type BudgetLimit = 'hourly_messages' | 'hourly_bytes';

/** One count a stored message adds, and the limit it belongs to. */
export interface BudgetCharge extends CountCharge {
  limit: BudgetLimit;
}

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
   * when the client declared one with SIZE, RFC 1870). Reads only: the message is counted when stored (`charges`).
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
   * What storing a message of `size` bytes counts against the client's budget: one message and its KiB
   * (for the limits that are on). The store adds them in its own transaction (InboundRepo.storeCharged),
   * so sessions of one client racing for the last room in any number of processes never pass the budget,
   * and a message that does not fit is neither stored nor counted.
   */
  charges(client: string, size: number): BudgetCharge[] {
    const { messagesPerHour, bytesPerHour } = this.limits;
    const charges: BudgetCharge[] = [];
    if (messagesPerHour !== 0) {
      charges.push({
        limit: 'hourly_messages',
        key: this.key('messages', client),
        amount: 1,
        max: messagesPerHour,
        windowMs: HOUR_MS,
      });
    }
    if (bytesPerHour !== 0) {
      charges.push({
        limit: 'hourly_bytes',
        key: this.key('kib', client),
        amount: kib(size),
        max: kibBudget(bytesPerHour),
        windowMs: HOUR_MS,
      });
    }
    return charges;
  }

  private key(what: 'messages' | 'kib', client: string): string {
    return createHash('sha256').update(`inbound-hourly-${what}\n${client}`).digest('hex');
  }
}
