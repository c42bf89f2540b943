// Which domains an account may send from, read on every send: cached briefly, invalidated on change.
import { TtlCache } from '../cache.js';
import type { DomainsRepo } from '../db/domains-repo.js';

export class VerifiedDomains {
  private readonly cache: TtlCache<string[]>;

  constructor(
    private readonly repo: DomainsRepo,
    ttlMs = 1000,
  ) {
    this.cache = new TtlCache(ttlMs);
  }

  verifiedDomains(accountId: string): Promise<string[]> {
    return this.cache.get(accountId, () => this.repo.verifiedNames(accountId));
  }

  /** Call after a domain of this account changes status. */
  invalidate(accountId: string): void {
    this.cache.delete(accountId);
  }
}
