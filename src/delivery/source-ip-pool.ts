// The local addresses mail leaves from (TXMAIL_SOURCE_IPS). A new address has no reputation, and
// mailbox providers throttle or junk sudden volume from one: it is warmed up, sending at most a daily
// cap that grows day by day (TXMAIL_WARMUP_SCHEDULE), spread over the day, while the rest of the traffic
// goes to the established addresses. Counts are shared by every worker through the database
// (source_ip_usage), synced every few seconds: between syncs, workers may overshoot a cap by what they
// sent meanwhile, a few messages on a cap of hundreds.
import { utcDay } from '../clock.js';

/**
 * The source addresses mail leaves from given the addresses a blocklist holds: the usable ones, or all
 * of them when every one is listed (stopping all mail would do more harm than the listing). The one
 * rule behind the pool (setListed), `txmail status` and the operator's mail (blocklists/).
 */
export function usableSources<T extends string | { address: string }>(
  configured: readonly T[],
  listed: ReadonlySet<string>,
): T[] {
  const usable = configured.filter((ip) => !listed.has(typeof ip === 'string' ? ip : ip.address));
  return usable.length > 0 ? usable : [...configured];
}

export interface SourceIp {
  address: string;
  /** First day (UTC, YYYY-MM-DD) of its warm-up; undefined: established. */
  warmingSince?: string;
}

/** Daily caps of a warming address, by day of its warm-up (day 1 first); after the last, no cap. */
export const DEFAULT_WARMUP_SCHEDULE = [
  50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 40_000, 70_000, 100_000,
];

const DAY_MS = 86_400_000;

/**
 * How many messages a warming address may have sent so far today: its day's cap, paced in 24 hourly
 * steps so that the cap is not spent in the first minutes of the day (providers judge bursts, not
 * daily totals). Infinity once the schedule is over; 0 before the warm-up starts.
 */
export function warmupAllowance(warmingSince: string, schedule: readonly number[], now: number): number {
  const day = Math.floor((now - Date.parse(`${warmingSince}T00:00:00Z`)) / DAY_MS);
  if (day < 0) return 0;
  const cap = schedule[day];
  if (cap === undefined) return Infinity;
  const hour = Math.floor((now % DAY_MS) / 3_600_000);
  return Math.ceil((cap * (hour + 1)) / 24);
}

/** What a pool answers: the address to send from (undefined: the system's choice), or when to retry. */
export type SourceChoice = { address: string | undefined } | { retryAt: number };

/** Shared daily counts: adds this process's new sends and answers every worker's totals for the day. */
export interface SourceIpUsageStore {
  add(day: string, sent: Map<string, number>): Promise<Map<string, number>>;
}

export class SourceIpPool {
  private next = 0;
  private day: string;
  /** Totals for `day` as of the last sync, plus what this process sent since. */
  private readonly sent = new Map<string, number>();
  private unsynced = new Map<string, number>();
  /** The addresses in use: the configured ones but those set aside (setListed). */
  private ips: readonly SourceIp[];

  constructor(
    private readonly configured: readonly SourceIp[],
    private readonly schedule: readonly number[],
    private readonly now: () => number,
    private readonly store?: SourceIpUsageStore,
  ) {
    this.day = utcDay(now());
    this.ips = configured;
  }

  /** Sets aside the addresses a blocklist holds (blocklists/), while others remain (usableSources). */
  setListed(listed: ReadonlySet<string>): void {
    this.ips = usableSources(this.configured, listed);
  }

  /**
   * Picks the address for one message and counts it: a warming address still under its allowance
   * first (it needs the traffic to build its reputation), else the established ones in turn. When every
   * address is a warming one at its allowance, the message waits for the next hour's step. `avoid`:
   * addresses not to use for this message (its destination is paused for them: destination-blocks.ts);
   * when every address is avoided the message waits a minute (the caller normally checks first).
   */
  take(avoid?: ReadonlySet<string>): SourceChoice {
    if (this.ips.length === 0) return { address: undefined };
    const now = this.now();
    this.rollOver(now);
    const ips = avoid?.size ? this.ips.filter((ip) => !avoid.has(ip.address)) : this.ips;
    if (ips.length === 0) return { retryAt: now + 60_000 };
    let best: SourceIp | undefined;
    let bestRoom = 0;
    for (const ip of ips) {
      if (ip.warmingSince === undefined) continue;
      const room = warmupAllowance(ip.warmingSince, this.schedule, now) - (this.sent.get(ip.address) ?? 0);
      if (room > bestRoom) [best, bestRoom] = [ip, room];
    }
    if (!best) {
      const established = ips.filter((ip) => ip.warmingSince === undefined);
      if (established.length === 0) return { retryAt: (Math.floor(now / 3_600_000) + 1) * 3_600_000 };
      best = established[this.next++ % established.length]!;
    }
    this.count(best.address);
    return { address: best.address };
  }

  /** The addresses in use (TXMAIL_SOURCE_IPS but those set aside by setListed); empty: the system chooses. */
  addresses(): string[] {
    return this.ips.map((ip) => ip.address);
  }

  /** Sends this process's counts to the store and takes every worker's totals back. */
  async sync(): Promise<void> {
    if (!this.store || !this.ips.some((ip) => ip.warmingSince !== undefined)) return;
    this.rollOver(this.now());
    const day = this.day;
    const delta = this.unsynced;
    this.unsynced = new Map();
    let totals: Map<string, number>;
    try {
      totals = await this.store.add(day, delta);
    } catch (err) {
      // Keep the counts for the next sync; the caller logs.
      for (const [ip, n] of delta) this.unsynced.set(ip, (this.unsynced.get(ip) ?? 0) + n);
      throw err;
    }
    if (day !== this.day) return;
    for (const [ip, total] of totals) this.sent.set(ip, total + (this.unsynced.get(ip) ?? 0));
  }

  private count(address: string): void {
    this.sent.set(address, (this.sent.get(address) ?? 0) + 1);
    this.unsynced.set(address, (this.unsynced.get(address) ?? 0) + 1);
  }

  private rollOver(now: number): void {
    const day = utcDay(now);
    if (day === this.day) return;
    this.day = day;
    this.sent.clear();
    // What was not synced belongs to yesterday: drop it rather than charge it to today.
    this.unsynced = new Map();
  }
}

/** Parses TXMAIL_SOURCE_IPS entries: `ip` (established) or `ip@YYYY-MM-DD` (warming since that day). */
export function parseSourceIp(entry: string, isIp: (s: string) => boolean): SourceIp {
  const at = entry.lastIndexOf('@');
  const address = at < 0 ? entry : entry.slice(0, at);
  if (!isIp(address)) throw new Error(`"${address}" is not an IP address`);
  if (at < 0) return { address };
  const since = entry.slice(at + 1);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(since) || utcDay(Date.parse(`${since}T00:00:00Z`) || 0) !== since) {
    throw new Error(`"${since}" in "${entry}" is not a date (YYYY-MM-DD)`);
  }
  return { address, warmingSince: since };
}
