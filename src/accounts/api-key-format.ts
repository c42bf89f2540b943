// API keys: `txm_` + 32 random bytes in base64url. Only their SHA-256 is stored: a key has 256 bits of
// entropy, so a fast hash is enough (no dictionary to guess from) and lookups stay one index probe.
import { hash, randomBytes } from 'node:crypto';

export const API_KEY_PREFIX = 'txm_';

export interface NewApiKey {
  /** The key itself: shown once, never stored. */
  key: string;
  hash: string;
  /** Enough of the key for a person to recognise it in a list. */
  prefix: string;
}

export function generateApiKey(): NewApiKey {
  const key = API_KEY_PREFIX + randomBytes(32).toString('base64url');
  return { key, hash: hashApiKey(key), prefix: key.slice(0, API_KEY_PREFIX.length + 6) };
}

export function hashApiKey(key: string): string {
  // One-shot hash: hashing every request's key through a Hash object cost 2 % of the send route.
  return hash('sha256', key, 'hex');
}

/** Cheap shape check before touching the database. */
export function looksLikeApiKey(key: string): boolean {
  return key.startsWith(API_KEY_PREFIX) && /^[A-Za-z0-9_-]{43}$/.test(key.slice(API_KEY_PREFIX.length));
}
