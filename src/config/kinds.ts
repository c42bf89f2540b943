// The kinds of value a configuration variable holds. Each parses the variable's text (trimmed, never
// empty) or its default text, and throws ConfigError naming the variable when the text is wrong.
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { Plan } from '../db/schema.js';
import { parseSourceIp, type SourceIp } from '../delivery/source-ip-pool.js';
import { parseAddress } from '../messages/address.js';
import { numberText } from '../number-text.js';

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
    this.name = 'ConfigError';
  }
}

/** Parses the text of the variable `name`. */
export type Kind<T> = (text: string, name: string) => T;

export const text: Kind<string> = (v) => v;

/** The machine's name: letters, digits and hyphens in dot-separated labels, kept as written. */
export const hostName: Kind<string> = (v, name) => {
  if (!isHostname(v)) throw new ConfigError(name, `"${v}" is not a host name`);
  return v;
};

/** Where a listener binds: an IP address (`0.0.0.0`, `::`) or a host name that resolves to one (`localhost`). */
export const listenHost: Kind<string> = (v, name) => {
  if (!isIP(v) && !isHostname(v))
    throw new ConfigError(name, `"${v}" is neither an IP address nor a host name`);
  return v;
};

export const databaseUrl: Kind<string> = (v, name) => {
  if (/^sqlite:.+/.test(v) || /^postgres(ql)?:\/\/.+/.test(v)) return v;
  throw new ConfigError(name, `"${v}" is neither sqlite:PATH nor postgres://…`);
};

export const port: Kind<number> = (v, name) => {
  const n = Number(v);
  if (!/^\d+$/.test(v) || n > 65535) throw new ConfigError(name, `"${v}" is not a port number (0–65535)`);
  return n;
};

/** A largest value and how the error message shows it. */
interface Bound {
  value: number;
  shown: string;
}

/** A whole number ≥ 0 (≥ 1 with `min: 1`), at most `max`. */
export function wholeNumber(options: { min?: 1; max?: Bound } = {}): Kind<number> {
  return (v, name) => {
    if (!/^\d+$/.test(v)) throw new ConfigError(name, `"${v}" is not a non-negative integer`);
    const n = Number(v);
    if (options.min === 1 && n === 0) throw new ConfigError(name, 'must be at least 1');
    return atMost(name, n, options.max);
  };
}

export const positive = wholeNumber({ min: 1 });

/** A power of two from `min` to `max`. */
export function powerOfTwo(min: number, max: number): Kind<number> {
  return (v, name) => {
    const n = /^\d+$/.test(v) ? Number(v) : NaN;
    if (!(n >= min && n <= max && (n & (n - 1)) === 0)) {
      throw new ConfigError(name, `"${v}" must be a power of two from ${min} to ${max}`);
    }
    return n;
  };
}

/**
 * A size in bytes, optionally with a K or M suffix (binary: 10M = 10 MiB); at least 1 KiB, at most
 * `max`; with `zeroOff`, exactly `0` is allowed too (meaning no limit).
 */
export function size(options: { max?: Bound; zeroOff?: boolean } = {}): Kind<number> {
  return (v, name) => {
    if (options.zeroOff && v === '0') return 0;
    const m = /^(\d+)\s*([kKmM])?(i?[bB])?$/.exec(v);
    if (!m) throw new ConfigError(name, `"${v}" is not a size (bytes, or a number with K or M)`);
    const n = Number(m[1]) * (m[2] ? (m[2].toLowerCase() === 'k' ? 1024 : 1024 * 1024) : 1);
    if (n < 1024) throw new ConfigError(name, `"${v}" is below the smallest allowed size, 1K`);
    return atMost(name, n, options.max);
  };
}

const DURATION_UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000 };

/** A duration in seconds, or a number with s, m or h (`10m`), as milliseconds; between `min` and `max`. */
export function duration(options: { min?: Bound; max?: Bound } = {}): Kind<number> {
  return (v, name) => {
    const m = /^(\d+)\s*([smh])?$/i.exec(v);
    if (!m) throw new ConfigError(name, `"${v}" is not a duration (seconds, or a number with s, m or h)`);
    const ms = Number(m[1]) * DURATION_UNITS[(m[2] ?? 's').toLowerCase()]!;
    if (options.min && ms < options.min.value) {
      throw new ConfigError(name, `must be at least ${options.min.shown}`);
    }
    return atMost(name, ms, options.max);
  };
}

/** The text of a duration as the variables take it: `10m` for 600 000 ms. */
export function durationText(ms: number): string {
  for (const unit of ['h', 'm'] as const) {
    if (ms !== 0 && ms % DURATION_UNITS[unit]! === 0)
      return `${numberText(ms / DURATION_UNITS[unit]!)}${unit}`;
  }
  return numberText(ms / 1000);
}

function atMost(name: string, value: number, max: Bound | undefined): number {
  if (max && value > max.value) throw new ConfigError(name, `must be at most ${max.shown}`);
  return value;
}

const TRUE = ['1', 'true', 'yes', 'on'];
const FALSE = ['0', 'false', 'no', 'off'];

export const bool: Kind<boolean> = (text, name) => {
  const v = text.toLowerCase();
  if (TRUE.includes(v)) return true;
  if (FALSE.includes(v)) return false;
  throw new ConfigError(name, `"${v}" is not a boolean (true or false)`);
};

export const boolOrAuto: Kind<boolean | 'auto'> = (text, name) => {
  const v = text.toLowerCase();
  if (v === 'auto') return 'auto';
  if (TRUE.includes(v)) return true;
  if (FALSE.includes(v)) return false;
  throw new ConfigError(name, `"${v}" must be auto, true or false`);
};

export function oneOf<T extends string>(values: readonly T[]): Kind<T> {
  return (v, name) => {
    if ((values as readonly string[]).includes(v)) return v as T;
    throw new ConfigError(name, `"${v}" must be one of ${values.join(', ')}`);
  };
}

/** A URL with one of these protocols (`https:`), without trailing slashes. */
export function url(protocols: string[]): Kind<string> {
  return (v, name) => {
    let parsed: URL;
    try {
      parsed = new URL(v);
    } catch {
      throw new ConfigError(name, `"${v}" is not a URL`);
    }
    if (!protocols.includes(parsed.protocol)) {
      throw new ConfigError(name, `"${v}" must start with ${protocols.map((p) => p + '//').join(' or ')}`);
    }
    return v.replace(/\/+$/, '');
  };
}

export const label: Kind<string> = (v, name) => {
  if (!/^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i.test(v))
    throw new ConfigError(name, `"${v}" is not a DNS label`);
  return v.toLowerCase();
};

/**
 * A domain name, lower-cased; with `noAddress`, never an IP address (RFC 5321 §5.1: MX names a host);
 * with `underscored`, leading labels may start with an underscore, as names of TXT records do
 * (`_spf.example.com`: a record's name, not a host's).
 */
export function domain(options: { noAddress?: boolean; underscored?: boolean } = {}): Kind<string> {
  return (v, name) => {
    const host = options.underscored ? v.replace(/^(?:_[a-z0-9-]{1,62}\.)+/i, '') : v;
    if (!isHostname(host) || (options.noAddress && isIP(v))) {
      throw new ConfigError(name, `"${v}" is not a domain name`);
    }
    return v.toLowerCase();
  };
}

export const secretKey: Kind<string> = (v, name) => {
  if (v.length < 32) {
    throw new ConfigError(name, 'must be at least 32 characters (e.g. `openssl rand -hex 32`)');
  }
  // A key is generated (hex or base64): white space means a sentence was pasted in its place.
  if (/\s/.test(v)) throw new ConfigError(name, 'must not contain spaces (e.g. `openssl rand -hex 32`)');
  return v;
};

/** A token a client presents: long enough not to be guessed, and printable (it travels in a header). */
export const bearerToken: Kind<string> = (v, name) => {
  if (v.length < 16 || !/^[\x21-\x7e]+$/.test(v)) {
    throw new ConfigError(
      name,
      'must be at least 16 printable characters without spaces (e.g. `openssl rand -hex 24`)',
    );
  }
  return v;
};

/** Text in the syntax of another module, whose parser throws an Error saying what is wrong. */
export function parsedBy<T>(parse: (text: string) => T): Kind<T> {
  return (v, name) => {
    try {
      return parse(v);
    } catch (err) {
      throw new ConfigError(name, (err as Error).message);
    }
  };
}

export const dnsServers: Kind<string[]> = (v, name) =>
  list(v).map((s) => {
    if (!isDnsServer(s)) throw new ConfigError(name, `"${s}" is not ip[:port]`);
    return s;
  });

/**
 * Which peers may tell the HTTP listener the client's address (X-Forwarded-For): none (false), all
 * (true), the nearest N hops, or the peers at these addresses, CIDR ranges and named ranges
 * (`loopback`, `linklocal`, `uniquelocal`).
 */
export type TrustProxy = boolean | number | string[];

const NAMED_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

export const trustProxy: Kind<TrustProxy> = (text, name) => {
  const v = text.toLowerCase();
  if (['false', 'no', 'off'].includes(v)) return false;
  if (['true', 'yes', 'on'].includes(v)) return true;
  if (/^\d+$/.test(v)) return Number(v) === 0 ? false : Number(v);
  return list(v).map((entry) => {
    if (NAMED_RANGES.includes(entry) || isIP(entry) !== 0 || isCidr(entry)) return entry;
    throw new ConfigError(
      name,
      `"${entry}" is not an address, a CIDR range or one of ${NAMED_RANGES.join(', ')} ` +
        '(or use true, false, or a number of hops)',
    );
  });
};

export const trustedNetworks: Kind<string[]> = (text, name) => {
  const v = text.toLowerCase();
  if (v === 'none') return [];
  return list(v).map((entry) => {
    if (NAMED_RANGES.includes(entry) || isIP(entry) !== 0 || isCidr(entry)) return entry;
    throw new ConfigError(
      name,
      `"${entry}" is not an address, a CIDR range or one of ${NAMED_RANGES.join(', ')} (or none)`,
    );
  });
};

/** Source addresses, and the first day of warm-up of those marked `ip@YYYY-MM-DD`. */
export const sourceIps: Kind<{ sourceIps: string[]; warmingSince: Record<string, string> }> = (v, name) => {
  const warmingSince: Record<string, string> = {};
  const addresses = list(v).map((entry) => {
    let ip: SourceIp;
    try {
      ip = parseSourceIp(entry, (s) => isIP(s) !== 0);
    } catch (err) {
      throw new ConfigError(name, (err as Error).message);
    }
    if (ip.warmingSince) warmingSince[ip.address] = ip.warmingSince;
    return ip.address;
  });
  return { sourceIps: addresses, warmingSince };
};

export const warmupSchedule: Kind<number[]> = (v, name) => {
  const caps = v.split(',').map((c) => c.trim());
  for (const cap of caps) {
    if (!/^[1-9]\d*$/.test(cap)) {
      throw new ConfigError(name, `"${cap}" is not a positive whole number of messages`);
    }
  }
  return caps.map(Number);
};

export const DEFAULT_ACCOUNT_RATE_LIMITS: Record<Plan, number> = { free: 10, pro: 100, scale: 500 };

/** `plan=N,…`; a plan left out keeps its default. */
export const accountRateLimits: Kind<Record<Plan, number>> = (v, name) => {
  const limits = { ...DEFAULT_ACCOUNT_RATE_LIMITS };
  for (const part of v.split(',')) {
    const m = /^\s*(free|pro|scale)\s*=\s*([1-9]\d*)\s*$/.exec(part);
    if (!m) throw new ConfigError(name, `"${part.trim()}" is not plan=N (free, pro or scale; N ≥ 1)`);
    limits[m[1] as Plan] = Number(m[2]);
  }
  return limits;
};

/** A bare address (no display name), lower-cased. */
export const emailAddress: Kind<string> = (v, name) => {
  const parsed = parseAddress(v);
  if (!parsed.ok || parsed.address.name !== '') {
    throw new ConfigError(name, `"${v}" is not a bare email address`);
  }
  return parsed.address.email.toLowerCase();
};

function list(v: string): string[] {
  return v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

function isCidr(v: string): boolean {
  const slash = v.indexOf('/');
  if (slash < 0 || isIP(v.slice(0, slash)) === 0) return false;
  try {
    ipaddr.parseCIDR(v);
    return true;
  } catch {
    return false;
  }
}

function isHostname(v: string): boolean {
  return (
    v.length <= 253 && v.split('.').every((l) => /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i.test(l) && l !== '')
  );
}

function isDnsServer(v: string): boolean {
  if (isIP(v)) return true;
  const bracketed = /^\[([^\]]+)\]:(\d+)$/.exec(v);
  if (bracketed) return isIP(bracketed[1]!) === 6 && Number(bracketed[2]) <= 65535;
  const m = /^([^:]+):(\d+)$/.exec(v);
  return m !== null && isIP(m[1]!) === 4 && Number(m[2]) <= 65535;
}

// How `txmail config` writes values back in each kind's syntax (setting.ts `text`).

/** A size as the variables take it: `256M` for 268 435 456 bytes, `64K`, else bytes. */
export function sizeSettingText(bytes: number): string {
  if (bytes !== 0 && bytes % (1024 * 1024) === 0) return `${numberText(bytes / (1024 * 1024))}M`;
  if (bytes !== 0 && bytes % 1024 === 0) return `${numberText(bytes / 1024)}K`;
  return numberText(bytes);
}

/** `none` for an empty list (blank would mean the default). */
export const trustedNetworksText = (networks: string[]): string =>
  networks.length === 0 ? 'none' : networks.join(',');

export const sourceIpsText = (v: { sourceIps: string[]; warmingSince: Record<string, string> }): string =>
  v.sourceIps.map((ip) => (v.warmingSince[ip] ? `${ip}@${v.warmingSince[ip]}` : ip)).join(',');

export const accountRateLimitsText = (limits: Record<Plan, number>): string =>
  Object.entries(limits)
    .map(([plan, n]) => `${plan}=${numberText(n)}`)
    .join(',');
