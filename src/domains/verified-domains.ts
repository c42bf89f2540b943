// Which domains an account may send from, and each one's expiry for its mail (expire_after) and TLS
// setting, read on every send and every delivery attempt: cached briefly, invalidated on change. One
// query loads them all, so the accept path learns a message's deadline and the delivery worker its TLS
// requirement without a query of their own (ARCHITECTURE.md, "Expiry", "TLS policy").
import { TtlCache } from '../cache.js';
import type { DomainsRepo } from '../db/domains-repo.js';
import type { DomainTls } from '../db/schema.js';

interface Sendable {
  names: string[];
  /** Seconds, by name; null: the default retry period. */
  expireAfter: Map<string, number | null>;
  tls: Map<string, DomainTls>;
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

  /**
   * The TLS setting of the account's sendable domain `name`; opportunistic when it has none or may not
   * send.
   */
  async tls(accountId: string, name: string): Promise<DomainTls> {
    return (await this.sendable(accountId)).tls.get(name) ?? 'opportunistic';
  }

  /** Call after a domain of this account changes status, expire_after or tls. */
  invalidate(accountId: string): void {
    this.cache.delete(accountId);
  }

  private sendable(accountId: string): Promise<Sendable> {
    return this.cache.get(accountId, async () => {
      const rows = await this.repo.sendable(accountId);
      return {
        names: rows.map((r) => r.name),
        expireAfter: new Map(rows.map((r) => [r.name, r.expire_after])),
        tls: new Map(rows.map((r) => [r.name, r.tls])),
      };
    });
  }
}
