// The look-ups that route mail (MX, A, AAAA; delivery/mx-route.ts) answered from memory while their
// records' TTLs last. One cache serves every delivery of a worker: without it each message asked the
// same questions again (an MX and two address look-ups per message). Concurrent
// look-ups of one name share one query. ARCHITECTURE.md, "DNS cache".
import type { TimedMx } from './mx-query.js';
import { DnsError, type DnsFailure, type MxRecord, type TimedAddress } from './resolver.js';

/** What mail routing asks (DnsResolver, or this cache in front of it). */
export interface RouteDns {
  mx(name: string): Promise<MxRecord[]>;
  a(name: string): Promise<string[]>;
  aaaa(name: string): Promise<string[]>;
}

/** What the cache asks: the resolver's look-ups that return TTLs (dns/resolver.ts). */
export interface TimedDns {
  mxTimed(name: string): Promise<TimedMx>;
  aTimed(name: string): Promise<TimedAddress[]>;
  aaaaTimed(name: string): Promise<TimedAddress[]>;
}

interface DnsCacheLimits {
  /** A TTL below this is raised to it: a 0 s TTL would make every message ask again. */
  minSeconds: number;
  /** A TTL above this is cut to it: a changed or failing MX host is noticed within this long. */
  maxSeconds: number;
  /**
   * "No such name" and "no such records" (RFC 2308 negative caching; the SOA's TTL is not given to us
   * either). Short: a domain being set up is seen soon.
   */
  negativeSeconds: number;
  /**
   * A failure to answer (SERVFAIL, a time-out): kept a moment (RFC 2308 §7 allows up to 5 minutes), so
   * that a burst of mail to a domain whose servers fail asks once in that moment, not once a message
   * (every message to it is retried then, 30 s on: retry-schedule.ts unreachedRetryAt).
   */
  temporarySeconds: number;
  /** Names kept at most; the oldest go first. */
  maxEntries: number;
}

export const DNS_CACHE_LIMITS: DnsCacheLimits = {
  minSeconds: 5,
  maxSeconds: 3600,
  negativeSeconds: 30,
  temporarySeconds: 5,
  maxEntries: 10_000,
};

/** An answer as the cache sees it: records (with the lowest TTL among them), or a failure. */
export type Answer = { ttl: number } | { failure: DnsFailure };

/** How long (ms) an answer may be kept. */
export function keepMs(answer: Answer, limits: DnsCacheLimits): number {
  if ('failure' in answer)
    return (answer.failure === 'temporary' ? limits.temporarySeconds : limits.negativeSeconds) * 1000;
  return Math.min(limits.maxSeconds, Math.max(limits.minSeconds, answer.ttl)) * 1000;
}

interface Entry {
  /** ms since the epoch; Infinity while the query is in flight. */
  expires: number;
  answer: Promise<{ ok: true; value: readonly unknown[] } | { ok: false; error: unknown }>;
}

export class DnsCache implements RouteDns {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly dns: TimedDns,
    private readonly now: () => number,
    private readonly limits: DnsCacheLimits = DNS_CACHE_LIMITS,
  ) {}

  mx(name: string): Promise<MxRecord[]> {
    return this.get('MX', name, async () => {
      const { records, ttl } = await this.dns.mxTimed(name);
      return { value: records, ttl };
    });
  }

  a(name: string): Promise<string[]> {
    return this.get('A', name, async () => addresses(await this.dns.aTimed(name)));
  }

  aaaa(name: string): Promise<string[]> {
    return this.get('AAAA', name, async () => addresses(await this.dns.aaaaTimed(name)));
  }

  private async get<T>(
    type: string,
    name: string,
    query: () => Promise<{ value: T[]; ttl: number }>,
  ): Promise<T[]> {
    const key = `${type} ${name.toLowerCase()}`;
    let entry = this.entries.get(key);
    if (entry && entry.expires <= this.now()) {
      this.entries.delete(key);
      entry = undefined;
    }
    if (!entry) entry = this.ask(key, query);
    const answer = await entry.answer;
    if (!answer.ok) throw answer.error;
    // A copy: the caller may sort or extend what it gets.
    return [...(answer.value as T[])];
  }

  private ask<T>(key: string, query: () => Promise<{ value: T[]; ttl: number }>): Entry {
    const entry: Entry = {
      expires: Infinity,
      answer: query().then(
        ({ value, ttl }) => {
          this.settle(key, entry, { ttl });
          return { ok: true as const, value };
        },
        (error: unknown) => {
          this.settle(key, entry, { failure: error instanceof DnsError ? error.failure : 'temporary' });
          return { ok: false as const, error };
        },
      ),
    };
    this.entries.set(key, entry);
    while (this.entries.size > this.limits.maxEntries) {
      this.entries.delete(this.entries.keys().next().value!);
    }
    return entry;
  }

  private settle(key: string, entry: Entry, answer: Answer): void {
    const keep = keepMs(answer, this.limits);
    // Only this query's entry: it may have been pushed out (maxEntries) and asked again meanwhile.
    if (this.entries.get(key) !== entry) return;
    if (keep <= 0) this.entries.delete(key);
    else entry.expires = this.now() + keep;
  }
}

/** The addresses, kept as long as the shortest TTL among them. */
function addresses(records: TimedAddress[]): { value: string[]; ttl: number } {
  return {
    value: records.map((r) => r.address),
    ttl: records.length === 0 ? 0 : Math.min(...records.map((r) => r.ttl)),
  };
}
