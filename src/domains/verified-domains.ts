// Which domains an account may send from, and each one's expiry for its mail (expire_after), read on
// every send and every delivery attempt: cached briefly, invalidated on change. One query loads both,
// so the delivery worker learns a message's deadline without a query of its own (ARCHITECTURE.md,
// "Expiry").
import { TtlCache } from '../cache.js';
import type { DomainsRepo } from '../db/domains-repo.js';

interface Sendable {
  names: string[];
  /** Seconds, by name; null: the default retry period. */
  expireAfter: Map<string, number | null>;
}

export class VerifiedDomains {
  private readonly cache: TtlCache<Sendable>;

  constructor(
    private readonly repo: DomainsRepo,
    ttlMs = 1000,
  ) {
    this.cache = new TtlCache(ttlMs);
  }

  async verifiedDomains(accountId: string): Promise<string[]> {
    return (await this.sendable(accountId)).names;
  }

  /**
   * The expire_after (seconds) of the account's sendable domain `name`; null when it has none set or
   * the domain may not send (its mail then fails for that reason: delivery/deliver-message.ts).
   */
  async expireAfter(accountId: string, name: string): Promise<number | null> {
    return (await this.sendable(accountId)).expireAfter.get(name) ?? null;
  }

  /** Call after a domain of this account changes status or expire_after. */
  invalidate(accountId: string): void {
    this.cache.delete(accountId);
  }

  private sendable(accountId: string): Promise<Sendable> {
    return this.cache.get(accountId, async () => {
      const rows = await this.repo.sendable(accountId);
      return {
        names: rows.map((r) => r.name),
        expireAfter: new Map(rows.map((r) => [r.name, r.expire_after])),
      };
    });
  }
}
