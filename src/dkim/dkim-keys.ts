// Which key signs mail from a domain, with private keys decrypted and cached (a database read and a
// decryption per message would cost more than the signature). The service's own test domain key is created on
// first use.
import { createPrivateKey } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { DkimKeysRepo } from '../db/dkim-keys-repo.js';
import type { DkimKeyRow } from '../db/schema.js';
import { newId } from '../ids.js';
import type { SecretBox } from '../crypto/secret-box.js';
import { dkimSelector, generateDkimKey, type DkimKeyPair } from './keys.js';
import type { SigningKey } from './sign.js';

export type { SigningKey };

export class DkimKeys {
  private readonly cache = new Map<string, { key: SigningKey | undefined; expires: number }>();

  constructor(
    private readonly repo: DkimKeysRepo,
    private readonly box: SecretBox,
    private readonly clock: Clock,
    /** Makes key pairs; tests pass a pool of pre-made ones (an RSA-2048 key costs up to a second of CPU). */
    private readonly generateKeyPair: () => Promise<DkimKeyPair> = generateDkimKey,
    private readonly ttlMs = 60_000,
  ) {}

  /** Creates a key for a domain (a customer's, or the service's when accountId is null). */
  async create(domain: string, accountId: string | null): Promise<DkimKeyRow> {
    const row = await this.generate(domain, accountId);
    await this.repo.insert(row);
    this.forget(domain, accountId);
    return row;
  }

  /** A new key row, private key sealed, not stored yet (the caller stores it with what it belongs to). */
  async generate(domain: string, accountId: string | null, selector?: string): Promise<DkimKeyRow> {
    const pair = await this.generateKeyPair();
    const now = this.clock.now();
    return {
      id: newId(),
      account_id: accountId,
      domain,
      selector: selector ?? dkimSelector(now),
      private_key: this.box.seal(pair.privateKeyPem),
      public_key: pair.publicKey,
      created_at: now,
    };
  }

  /** Drops a cached signing key (after its domain was deleted or got a new key in this process). */
  forget(domain: string, accountId: string | null): void {
    this.cache.delete(`${accountId}\n${domain}`);
  }

  /** The service's key for its own domain, created if it does not exist yet. */
  async ensureServiceKey(domain: string): Promise<DkimKeyRow> {
    const existing = await this.repo.current(domain, null);
    if (existing) return existing;
    try {
      return await this.create(domain, null);
    } catch (err) {
      // Another process created it at the same moment (same dated selector): use theirs.
      const raced = await this.repo.current(domain, null);
      if (raced) return raced;
      throw err;
    }
  }

  /** The signing key for `domain` owned by `accountId` (null: the service), if there is one. */
  async signingKey(domain: string, accountId: string | null): Promise<SigningKey | undefined> {
    const cacheKey = `${accountId}\n${domain}`;
    const now = this.clock.now();
    const hit = this.cache.get(cacheKey);
    if (hit && hit.expires > now) return hit.key;
    const row = await this.repo.current(domain, accountId);
    let key: SigningKey | undefined;
    if (row) {
      const privateKey = createPrivateKey(this.box.open(row.private_key));
      key = { domain, selector: row.selector, privateKey };
    }
    this.cache.set(cacheKey, { key, expires: now + this.ttlMs });
    return key;
  }
}
