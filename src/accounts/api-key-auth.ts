// Who is calling: an API key from the x-api-key header → its account. Looked up by hash, cached briefly
// (a revoked key stops working in this process at once, in others within the cache TTL).
import { TtlCache } from '../cache.js';
import type { Clock } from '../clock.js';
import type { AccountsRepo, ApiKeyWithAccount } from '../db/accounts-repo.js';
import { AppError } from '../errors.js';
import { hashApiKey, looksLikeApiKey } from './api-key-format.js';

/** last_used_at is written at most this often per key, off the request path. */
const TOUCH_INTERVAL_MS = 60_000;

export class ApiKeyAuth {
  private readonly cache: TtlCache<ApiKeyWithAccount | undefined>;
  private readonly touched = new Map<string, number>();

  constructor(
    private readonly repo: AccountsRepo,
    private readonly clock: Clock,
    private readonly onError: (err: unknown) => void,
    ttlMs = 1000,
  ) {
    this.cache = new TtlCache(ttlMs);
  }

  /** The key and its account, or `missing_api_key` / `invalid_api_key`. */
  async authenticate(header: string | undefined): Promise<ApiKeyWithAccount> {
    if (header === undefined || header.trim() === '') {
      throw new AppError('missing_api_key', 'send your API key in the x-api-key header');
    }
    const key = header.trim();
    if (!looksLikeApiKey(key)) throw invalidKey();
    const hash = hashApiKey(key);
    const found = await this.cache.get(hash, () => this.repo.findApiKeyByHash(hash), this.clock.now());
    if (!found) throw invalidKey();
    this.touch(found.key.id);
    return found;
  }

  /** Forget cached keys (after a revocation or an account change in this process). */
  invalidate(): void {
    this.cache.clear();
  }

  private touch(keyId: string): void {
    const now = this.clock.now();
    const last = this.touched.get(keyId);
    if (last !== undefined && now - last < TOUCH_INTERVAL_MS) return;
    this.touched.set(keyId, now);
    this.repo.touchApiKey(keyId, now).catch(this.onError);
  }
}

function invalidKey(): AppError {
  return new AppError('invalid_api_key', 'the API key is not valid (unknown or revoked)');
}
