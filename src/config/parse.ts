// Reads the environment through the configuration table, in the table's order (a default made from
// other values reads fields of variables above it).
import { existsSync } from 'node:fs';
import type { Config } from '../config.js';
import type { Earlier } from './setting.js';
import { MAX_BODY_BYTES } from '../http/body-limits.js';
import { memoryFor, TRUSTED_MEMORY_SHARE } from '../inbound/message-memory.js';
import { SETTINGS } from './table.js';

type Env = Record<string, string | undefined>;

/** Loads `.env` from the working directory (variables already set win) and parses the environment. */
export function loadConfig(env: Env = process.env, envFile = '.env'): Config {
  if (env === process.env && existsSync(envFile)) process.loadEnvFile(envFile);
  return parseConfig(env);
}

/** The configuration of this environment; a bad value throws ConfigError naming its variable. */
export function parseConfig(env: Env): Config {
  const read: Partial<Config> = {};
  const earlier: Earlier = (field) => {
    if (!(field in read)) throw new Error(`${field} is used by a default above the variable that sets it`);
    return read[field] as Config[typeof field];
  };
  for (const setting of SETTINGS) Object.assign(read, setting.read(textOf(env, setting.env), earlier));
  // Rules over several variables at once: configWarnings below. The defaults made from other values
  // (TXMAIL_TEST_DOMAIN from TXMAIL_HOSTNAME) are in the table.
  return read as Config; // every field: table.ts fails to compile when one is left out
}

const MiB = 1024 * 1024;
const inMiB = (bytes: number) => `${Math.round((bytes / MiB) * 10) / 10} MiB`;

/** A setting that works but will not do what its operator likely meant: its variable, and why. */
export interface ConfigWarning {
  variable: string;
  message: string;
}

/**
 * Rules over several variables at once, told at start (`txmail serve` and the other roles log them):
 * a memory limit that cannot hold the largest body or message refuses it for ever, with an answer
 * (429, 452) that tells its client to come back later. Warnings, not errors: small limits are also how
 * the limits themselves are tried out.
 */
export function configWarnings(c: Config): ConfigWarning[] {
  const warnings: ConfigWarning[] = [];
  const tooSmall = (limit: number, needed: number) => limit > 0 && limit < needed;
  for (const [variable, limit] of [
    ['TXMAIL_HTTP_BODY_MEMORY', c.httpBodyMemory],
    ['TXMAIL_HTTP_BODY_MEMORY_PER_IP', c.httpBodyMemoryPerIp],
  ] as const) {
    if (tooSmall(limit, MAX_BODY_BYTES)) {
      warnings.push({
        variable,
        message: `${inMiB(limit)} cannot hold one request of the largest size the API takes (${inMiB(MAX_BODY_BYTES)}): larger ones will be refused with 429 for ever; set at least 10M, or 0 (unlimited)`,
      });
    }
  }
  const message = memoryFor(c.inboundMaxSize);
  const because = `one message of TXMAIL_INBOUND_MAX_SIZE (${inMiB(c.inboundMaxSize)}) holds ${inMiB(message)} while it is stored`;
  if (tooSmall(c.inboundMemoryPerIp, message)) {
    warnings.push({
      variable: 'TXMAIL_INBOUND_MEMORY_PER_IP',
      message: `${inMiB(c.inboundMemoryPerIp)} cannot hold the largest message (${because}): it will be refused with 452 for ever; raise it, lower TXMAIL_INBOUND_MAX_SIZE, or set 0 (unlimited)`,
    });
  }
  // Untrusted clients leave a part of the whole to the trusted networks.
  const untrusted = c.inboundMemory - Math.floor(c.inboundMemory * TRUSTED_MEMORY_SHARE);
  if (c.inboundMemory > 0 && untrusted < message) {
    warnings.push({
      variable: 'TXMAIL_INBOUND_MEMORY',
      message: `${inMiB(c.inboundMemory)} cannot hold the largest message from a client outside the trusted networks, which may use ${inMiB(untrusted)} of it (${because}): it will be refused with 452 for ever; raise it, lower TXMAIL_INBOUND_MAX_SIZE, or set 0 (unlimited)`,
    });
  }
  return warnings;
}

/** A variable's text, trimmed; unset when missing or blank. */
function textOf(env: Env, name: string): string | undefined {
  const v = env[name]?.trim();
  return v === undefined || v === '' ? undefined : v;
}
