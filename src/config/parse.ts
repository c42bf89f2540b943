// Reads the environment through the configuration table, in the table's order (a default made from
// other values reads fields of variables above it).
import { existsSync } from 'node:fs';
import type { Config } from '../config.js';
import type { Earlier } from './setting.js';
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
  // Rules over several variables at once belong here, after each variable has been read alone. There
  // are none today: every check reads one variable, and the defaults made from other values
  // (TXMAIL_TEST_DOMAIN from TXMAIL_HOSTNAME) are in the table.
  return read as Config; // every field: table.ts fails to compile when one is left out
}

/** A variable's text, trimmed; unset when missing or blank. */
function textOf(env: Env, name: string): string | undefined {
  const v = env[name]?.trim();
  return v === undefined || v === '' ? undefined : v;
}
