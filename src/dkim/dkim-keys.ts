// Which keys sign mail from a domain (its active RSA key, and its active Ed25519 key beside it), with
// private keys decrypted and cached (a database read and a decryption per message would cost more than
// the signature). The service's own test domain key is created on first use.
import { createPrivateKey } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { DkimKeysRepo } from '../db/dkim-keys-repo.js';
import type { DkimAlgorithmName, DkimKeyRow, DkimKeyStatus } from '../db/schema.js';
import { newId } from '../ids.js';
import type { SecretBox } from '../crypto/secret-box.js';
import { dkimSelectorFor, generateDkimKey, generateEd25519DkimKey, type DkimKeyPair } from './keys.js';
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

  /**
   * A new key row, private key sealed, not stored yet (the caller stores it with what it belongs to):
   * an active RSA key unless told otherwise.
   */
  async generate(
    domain: string,
    accountId: string | null,
    selector?: string,
    options: { algorithm?: DkimAlgorithmName; status?: DkimKeyStatus } = {},
  ): Promise<DkimKeyRow> {
    const algorithm = options.algorithm ?? 'rsa-sha256';
    const status = options.status ?? 'active';
    const pair = algorithm === 'rsa-sha256' ? await this.generateKeyPair() : await generateEd25519DkimKey();
    const now = this.clock.now();
    return {
      id: newId(),
      account_id: accountId,
      domain,
      selector: selector ?? dkimSelectorFor(algorithm, now),
      private_key: this.box.seal(pair.privateKeyPem),
      public_key: pair.publicKey,
      created_at: now,
      algorithm,
      status,
      activated_at: status === 'active' ? now : null,
      retired_at: null,
      record_checked_at: null,
      record_status: null,
      record_problem: null,
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
    // Only an active RSA key makes a domain's mail signable: the domain is verified by it, and an
    // Ed25519 signature alone fails at receivers that do not know the algorithm (RFC 8463 §5).
    const active = await this.repo.active(domain, accountId);
    const rsa = active.find((k) => k.algorithm === 'rsa-sha256');
    const ed25519 = active.find((k) => k.algorithm === 'ed25519-sha256');
    let key: SigningKey | undefined;
    if (rsa) {
      key = { domain, selector: rsa.selector, privateKey: this.parse(rsa) };
      if (ed25519) key.beside = [{ selector: ed25519.selector, privateKey: this.parse(ed25519) }];
    }
    this.cache.set(cacheKey, { key, expires: now + this.ttlMs });
    return key;
  }

  private parse(row: DkimKeyRow) {
    return createPrivateKey(this.box.open(row.private_key));
  }
}
