// The master secret (TXMAIL_SECRET_KEY): when not configured, generated once into the data directory
// so a fresh `npm start` works; multi-machine deployments must set the same value everywhere.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export function loadSecretKey(configured: string | undefined, sqlitePath: string | undefined): string {
  if (configured) return configured;
  const dir = sqlitePath && sqlitePath !== ':memory:' ? dirname(sqlitePath) : './data';
  const file = join(dir, 'secret.key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dir, { recursive: true });
  const key = randomBytes(32).toString('hex');
  // 'wx': never overwrite a key another process wrote a moment ago.
  try {
    writeFileSync(file, key + '\n', { mode: 0o600, flag: 'wx' });
  } catch {
    return readFileSync(file, 'utf8').trim();
  }
  return key;
}
