// Configuration: environment variables (and a `.env` file), validated once at start-up.
// A bad value throws ConfigError naming the variable, so the process stops before doing anything.
import { existsSync } from 'node:fs';
import { availableParallelism, hostname as osHostname } from 'node:os';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { Plan } from './db/schema.js';
import { parseDestinationRules, type DestinationRule } from './delivery/destination-limits.js';
import { DEFAULT_WARMUP_SCHEDULE, parseSourceIp, type SourceIp } from './delivery/source-ip-pool.js';
import {
  DEFAULT_SESSION_LIFETIME_MS,
  DEFAULT_SESSIONS_PER_CLIENT,
  DEFAULT_TRUSTED_NETWORKS,
} from './inbound/client-limits.js';
import { parseReputation, type ReputationThresholds } from './reputation/thresholds.js';
import { DEFAULT_BLOCKLIST_ZONES, parseBlocklistZones, type BlocklistZone } from './blocklists/zones.js';
import { parseAddress } from './messages/address.js';
import { parseDestinationBlocks, type DestinationBlockSettings } from './delivery/destination-blocks.js';
import {
  PENDING_REPLAYS_PER_ENDPOINT,
  PUSHES_PER_ACCOUNT,
  PUSHES_PER_ENDPOINT,
} from './webhooks/dispatch-limits.js';

export type Signup = 'open' | 'closed';

/**
 * Which peers may tell the HTTP listener the client's address (X-Forwarded-For): none (false), all
 * (true), the nearest N hops, or the peers at these addresses, CIDR ranges and named ranges
 * (`loopback`, `linklocal`, `uniquelocal`).
 */
export type TrustProxy = boolean | number | string[];

export interface Config {
  /** PostgreSQL connections per process. */
  databasePool: number;
  databaseUrl: string;
  httpHost: string;
  httpPort: number;
  /** TXMAIL_TRUST_PROXY: whose X-Forwarded-For gives the client address (per-IP limits, logs). */
  trustProxy: TrustProxy;
  publicUrl: string;
  hostname: string;
  relayUrl: string | undefined;
  dnsServers: string[];
  mxPort: number;
  inboundHost: string;
  inboundPort: number;
  /** Largest message the bounce receiver accepts, in bytes. */
  inboundMaxSize: number;
  /** Connections per minute one client IP may open to the bounce receiver; 0 = unlimited. */
  inboundConnectionsPerMinute: number;
  /** Sessions one client IP may hold open at once on the bounce receiver; 0 = unlimited. */
  inboundSessionsPerIp: number;
  /** Longest a receiver session may last, in milliseconds, however busy; 0 = no limit. */
  inboundSessionLifetimeMs: number;
  /** Messages one client IP may hand the receiver per hour (shared by every inbound process); 0 = unlimited. */
  inboundHourlyMessages: number;
  /** Bytes of messages one client IP may hand the receiver per hour; 0 = unlimited. */
  inboundHourlyBytes: number;
  /**
   * Clients exempt from the receiver's per-client limits, as Postfix exempts mynetworks: addresses,
   * CIDR ranges and named ranges (`loopback`, `linklocal`, `uniquelocal`); empty: nobody.
   */
  inboundTrustedNetworks: string[];
  /** How long parsing one received message may take (on its thread) before it fails. */
  inboundParseTimeoutMs: number;
  /**
   * Port of the `txmail inbound` role's own HTTP listener (/healthz, /readyz, /metrics) on
   * TXMAIL_HTTP_HOST; undefined: none (the default).
   */
  inboundHealthPort: number | undefined;
  /** The same for the `txmail worker` role, which has no API listener either. */
  workerHealthPort: number | undefined;
  returnPathLabel: string;
  testDomain: string;
  /** The domain customers' SPF records include; its own SPF record lists the sending addresses. */
  spfDomain: string;
  /** The host customers' return-path domains (`send.<domain>`) point their MX record at. */
  inboundMx: string;
  /** Explicit master key; when unset, one is generated once into the data directory. */
  secretKey: string | undefined;
  /** Local addresses to send from. */
  sourceIps: string[];
  /** Addresses being warmed up, with the first day (YYYY-MM-DD, UTC) of their warm-up. */
  warmingSince: Record<string, string>;
  /** Daily caps of a warming address, day 1 first. */
  warmupSchedule: number[];
  allowPrivateNetworks: boolean;
  signup: Signup;
  /** API requests per second per API key; 0 disables rate limiting. */
  /** Requests per second per API key; 0 turns every rate limit off. */
  rateLimit: number;
  /** Requests per second per account, by plan. */
  accountRateLimits: Record<Plan, number>;
  logLevel: string;
  /** Messages one worker process delivers at once. */
  workerConcurrency: number;
  /**
   * How long a worker's claim on a message lasts: the backstop after a crash; the registry of live
   * processes (process-registry.ts) releases a dead process's leases within seconds.
   */
  workerLeaseSeconds: number;
  /**
   * How often a process that holds leases writes its heartbeat and releases the leases of dead processes
   * (process-registry.ts); one is dead after three missed beats.
   */
  processHeartbeatSeconds: number;
  /** Pushes of one webhook endpoint in flight at once, across every dispatcher process. */
  webhookEndpointConcurrency: number;
  /**
   * Pushes of one account's webhook endpoints in flight at once, across every dispatcher process; below a
   * dispatcher's 20 slots, one account never holds all of them.
   */
  webhookAccountConcurrency: number;
  /** Replays one webhook endpoint may have pending before the next is refused with 429. */
  webhookMaxPendingReplays: number;
  /** Worker threads that compose and DKIM-sign outgoing mail; 0 builds on the event loop. */
  buildThreads: number;
  /**
   * SQLite: commit accepted messages on a thread of their own instead of the event loop. `auto`: in a
   * process that only accepts (`txmail api`), where nothing else writes on the event loop's connection.
   */
  sqliteWriterThread: 'auto' | boolean;
  /** Per-destination limits (TXMAIL_DESTINATION_LIMITS) over the defaults. */
  destinationRules: Record<string, Partial<DestinationRule>>;
  /** When an account's bounce and complaint rates make it warning or paused (TXMAIL_REPUTATION). */
  reputation: ReputationThresholds;
  /** DNS blocklists the sending addresses and the service's names are looked up in; empty: none. */
  blocklistZones: BlocklistZone[];
  /** Time between two blocklist checks (one process checks per interval). */
  blocklistIntervalMs: number;
  /** Where the service's notices to its operator go (blocklist listings); undefined: logs only. */
  operatorEmail: string | undefined;
  /**
   * When sender blocks of several accounts pause a destination for a source address, and for how long
   * (TXMAIL_DESTINATION_BLOCKS; ARCHITECTURE.md, "Destination blocks").
   */
  destinationBlocks: DestinationBlockSettings;
  /** Apply recipient domains' MTA-STS policies (RFC 8461) to MX delivery (TXMAIL_MTA_STS). */
  mtaSts: boolean;
  /** Count TLS sessions and send daily TLS-RPT reports (RFC 8460) to recipient domains (TXMAIL_TLS_REPORTS). */
  tlsReports: boolean;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

/** Loads `.env` from the working directory (variables already set win) and parses the environment. */
export function loadConfig(env: Env = process.env, envFile = '.env'): Config {
  if (env === process.env && existsSync(envFile)) process.loadEnvFile(envFile);
  return parseConfig(env);
}

export function parseConfig(env: Env): Config {
  const get = (name: string): string | undefined => {
    const v = env[name];
    return v === undefined || v.trim() === '' ? undefined : v.trim();
  };
  const hostname = get('TXMAIL_HOSTNAME') ?? osHostname();
  if (!isHostname(hostname)) throw new ConfigError('TXMAIL_HOSTNAME', `"${hostname}" is not a host name`);
  const httpPort = port(get, 'TXMAIL_HTTP_PORT', 8080);

  return {
    databaseUrl: databaseUrl(get('TXMAIL_DATABASE_URL') ?? 'sqlite:./data/txmail.db'),
    databasePool: positive(get, 'TXMAIL_DATABASE_POOL', 10),
    httpHost: get('TXMAIL_HTTP_HOST') ?? '127.0.0.1',
    httpPort,
    trustProxy: trustProxy(get('TXMAIL_TRUST_PROXY')),
    publicUrl: url(get, 'TXMAIL_PUBLIC_URL', `http://localhost:${httpPort}`, ['http:', 'https:']),
    hostname,
    relayUrl: get('TXMAIL_RELAY_URL') && url(get, 'TXMAIL_RELAY_URL', '', ['smtp:', 'smtps:']),
    dnsServers: list(get('TXMAIL_DNS_SERVERS')).map((s) => {
      if (!isDnsServer(s)) throw new ConfigError('TXMAIL_DNS_SERVERS', `"${s}" is not ip[:port]`);
      return s;
    }),
    mxPort: port(get, 'TXMAIL_MX_PORT', 25),
    inboundHost: get('TXMAIL_INBOUND_HOST') ?? '0.0.0.0',
    inboundPort: port(get, 'TXMAIL_INBOUND_PORT', 2525),
    inboundMaxSize: size(get, 'TXMAIL_INBOUND_MAX_SIZE', 10 * 1024 * 1024),
    inboundConnectionsPerMinute: nonNegativeInt(get, 'TXMAIL_INBOUND_CONNECTIONS_PER_MINUTE', 60),
    inboundSessionsPerIp: nonNegativeInt(get, 'TXMAIL_INBOUND_SESSIONS_PER_IP', DEFAULT_SESSIONS_PER_CLIENT),
    inboundSessionLifetimeMs: atMost(
      'TXMAIL_INBOUND_SESSION_LIFETIME',
      duration(get, 'TXMAIL_INBOUND_SESSION_LIFETIME', DEFAULT_SESSION_LIFETIME_MS),
      24 * 3_600_000,
      '24h',
    ),
    // The hourly budget is counted in the database's 32-bit integers (bytes as KiB): caps far above use.
    inboundHourlyMessages: atMost(
      'TXMAIL_INBOUND_HOURLY_MESSAGES',
      nonNegativeInt(get, 'TXMAIL_INBOUND_HOURLY_MESSAGES', 1000),
      1_000_000_000,
      '1000000000',
    ),
    inboundHourlyBytes:
      get('TXMAIL_INBOUND_HOURLY_BYTES') === '0'
        ? 0
        : atMost(
            'TXMAIL_INBOUND_HOURLY_BYTES',
            size(get, 'TXMAIL_INBOUND_HOURLY_BYTES', 100 * 1024 * 1024),
            1024 ** 4,
            '1048576M',
          ),
    inboundTrustedNetworks: trustedNetworks(get('TXMAIL_INBOUND_TRUSTED_NETWORKS')),
    inboundParseTimeoutMs: positive(get, 'TXMAIL_INBOUND_PARSE_TIMEOUT_MS', 5000),
    inboundHealthPort: optionalPort(get, 'TXMAIL_INBOUND_HEALTH_PORT'),
    workerHealthPort: optionalPort(get, 'TXMAIL_WORKER_HEALTH_PORT'),
    returnPathLabel: label(get, 'TXMAIL_RETURN_PATH_LABEL', 'send'),
    testDomain: domain(get, 'TXMAIL_TEST_DOMAIN', `test.${hostname}`),
    spfDomain: domain(get, 'TXMAIL_SPF_DOMAIN', `spf.${hostname}`),
    // RFC 5321 §5.1: an MX record names a host, never an address.
    inboundMx: domain(get, 'TXMAIL_INBOUND_MX', hostname, { noAddress: true }),
    secretKey: secret(get('TXMAIL_SECRET_KEY')),
    ...sourceIps(list(get('TXMAIL_SOURCE_IPS'))),
    warmupSchedule: warmupSchedule(get('TXMAIL_WARMUP_SCHEDULE')),
    allowPrivateNetworks: bool(get, 'TXMAIL_ALLOW_PRIVATE_NETWORKS', false),
    signup: oneOf(get, 'TXMAIL_SIGNUP', ['open', 'closed'] as const, 'open'),
    rateLimit: nonNegativeInt(get, 'TXMAIL_RATE_LIMIT', 100),
    accountRateLimits: accountRateLimits(get('TXMAIL_ACCOUNT_RATE_LIMITS')),
    workerConcurrency: positive(get, 'TXMAIL_WORKER_CONCURRENCY', 50),
    workerLeaseSeconds: positive(get, 'TXMAIL_WORKER_LEASE_SECONDS', 600),
    processHeartbeatSeconds: positive(get, 'TXMAIL_PROCESS_HEARTBEAT_SECONDS', 5),
    webhookEndpointConcurrency: positive(get, 'TXMAIL_WEBHOOK_ENDPOINT_CONCURRENCY', PUSHES_PER_ENDPOINT),
    webhookAccountConcurrency: positive(get, 'TXMAIL_WEBHOOK_ACCOUNT_CONCURRENCY', PUSHES_PER_ACCOUNT),
    webhookMaxPendingReplays: positive(
      get,
      'TXMAIL_WEBHOOK_MAX_PENDING_REPLAYS',
      PENDING_REPLAYS_PER_ENDPOINT,
    ),
    buildThreads: nonNegativeInt(
      get,
      'TXMAIL_BUILD_THREADS',
      // Every core but the one the event loop needs, at most 4 (signing scales no further per process).
      Math.min(4, availableParallelism() - 1),
    ),
    sqliteWriterThread: boolOrAuto(get, 'TXMAIL_SQLITE_WRITER_THREAD'),
    destinationRules: destinationRules(get('TXMAIL_DESTINATION_LIMITS') ?? ''),
    reputation: reputation(get('TXMAIL_REPUTATION') ?? ''),
    blocklistZones: blocklistZones(get('TXMAIL_DNSBL_ZONES') ?? DEFAULT_BLOCKLIST_ZONES),
    blocklistIntervalMs: atLeast(
      'TXMAIL_DNSBL_INTERVAL',
      duration(get, 'TXMAIL_DNSBL_INTERVAL', 3_600_000),
      1000,
      '1s',
    ),
    operatorEmail: operatorEmail(get('TXMAIL_OPERATOR_EMAIL')),
    destinationBlocks: destinationBlocks(get('TXMAIL_DESTINATION_BLOCKS') ?? ''),
    mtaSts: bool(get, 'TXMAIL_MTA_STS', true),
    tlsReports: bool(get, 'TXMAIL_TLS_REPORTS', true),
    logLevel: oneOf(
      get,
      'TXMAIL_LOG_LEVEL',
      ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const,
      'info',
    ),
  };
}

/** The effective configuration with secrets masked, for `txmail config`. */
export function describeConfig(config: Config): Record<string, unknown> {
  return {
    ...config,
    databaseUrl: config.databaseUrl.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@'),
    relayUrl: config.relayUrl?.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@') ?? null,
    secretKey: config.secretKey ? '***' : '(generated in the data directory)',
  };
}

function destinationRules(value: string): Record<string, Partial<DestinationRule>> {
  try {
    return parseDestinationRules(value);
  } catch (err) {
    throw new ConfigError('TXMAIL_DESTINATION_LIMITS', (err as Error).message);
  }
}

function reputation(value: string): ReputationThresholds {
  try {
    return parseReputation(value);
  } catch (err) {
    throw new ConfigError('TXMAIL_REPUTATION', (err as Error).message);
  }
}

function blocklistZones(value: string): BlocklistZone[] {
  try {
    return parseBlocklistZones(value);
  } catch (err) {
    throw new ConfigError('TXMAIL_DNSBL_ZONES', (err as Error).message);
  }
}

function operatorEmail(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const parsed = parseAddress(value);
  if (!parsed.ok || parsed.address.name !== '') {
    throw new ConfigError('TXMAIL_OPERATOR_EMAIL', `"${value}" is not a bare email address`);
  }
  return parsed.address.email.toLowerCase();
}

function destinationBlocks(value: string): DestinationBlockSettings {
  try {
    return parseDestinationBlocks(value);
  } catch (err) {
    throw new ConfigError('TXMAIL_DESTINATION_BLOCKS', (err as Error).message);
  }
}

function sourceIps(entries: string[]): Pick<Config, 'sourceIps' | 'warmingSince'> {
  const warmingSince: Record<string, string> = {};
  const addresses = entries.map((entry) => {
    let ip: SourceIp;
    try {
      ip = parseSourceIp(entry, (s) => isIP(s) !== 0);
    } catch (err) {
      throw new ConfigError('TXMAIL_SOURCE_IPS', (err as Error).message);
    }
    if (ip.warmingSince) warmingSince[ip.address] = ip.warmingSince;
    return ip.address;
  });
  return { sourceIps: addresses, warmingSince };
}

function warmupSchedule(value: string | undefined): number[] {
  if (value === undefined) return [...DEFAULT_WARMUP_SCHEDULE];
  const caps = value.split(',').map((v) => v.trim());
  for (const cap of caps) {
    if (!/^[1-9]\d*$/.test(cap)) {
      throw new ConfigError('TXMAIL_WARMUP_SCHEDULE', `"${cap}" is not a positive whole number of messages`);
    }
  }
  return caps.map(Number);
}

export const DEFAULT_ACCOUNT_RATE_LIMITS: Record<Plan, number> = { free: 10, pro: 100, scale: 500 };

function accountRateLimits(value: string | undefined): Record<Plan, number> {
  const limits = { ...DEFAULT_ACCOUNT_RATE_LIMITS };
  if (value === undefined) return limits;
  for (const part of value.split(',')) {
    const m = /^\s*(free|pro|scale)\s*=\s*([1-9]\d*)\s*$/.exec(part);
    if (!m) {
      throw new ConfigError(
        'TXMAIL_ACCOUNT_RATE_LIMITS',
        `"${part.trim()}" is not plan=N (free, pro or scale; N ≥ 1)`,
      );
    }
    limits[m[1] as Plan] = Number(m[2]);
  }
  return limits;
}

const NAMED_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

function trustProxy(value: string | undefined): TrustProxy {
  if (value === undefined) return false;
  const v = value.toLowerCase();
  if (['false', 'no', 'off'].includes(v)) return false;
  if (['true', 'yes', 'on'].includes(v)) return true;
  if (/^\d+$/.test(v)) return Number(v) === 0 ? false : Number(v);
  return list(v).map((entry) => {
    if (NAMED_RANGES.includes(entry) || isIP(entry) !== 0 || isCidr(entry)) return entry;
    throw new ConfigError(
      'TXMAIL_TRUST_PROXY',
      `"${entry}" is not an address, a CIDR range or one of ${NAMED_RANGES.join(', ')} ` +
        '(or use true, false, or a number of hops)',
    );
  });
}

function trustedNetworks(value: string | undefined): string[] {
  if (value === undefined) return [...DEFAULT_TRUSTED_NETWORKS];
  if (value.toLowerCase() === 'none') return [];
  return list(value.toLowerCase()).map((entry) => {
    if (NAMED_RANGES.includes(entry) || isIP(entry) !== 0 || isCidr(entry)) return entry;
    throw new ConfigError(
      'TXMAIL_INBOUND_TRUSTED_NETWORKS',
      `"${entry}" is not an address, a CIDR range or one of ${NAMED_RANGES.join(', ')} (or none)`,
    );
  });
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

function databaseUrl(value: string): string {
  if (/^sqlite:.+/.test(value) || /^postgres(ql)?:\/\/.+/.test(value)) return value;
  throw new ConfigError('TXMAIL_DATABASE_URL', `"${value}" is neither sqlite:PATH nor postgres://…`);
}

function port(get: (n: string) => string | undefined, name: string, fallback: number): number {
  const v = get(name);
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!/^\d+$/.test(v) || n > 65535) throw new ConfigError(name, `"${v}" is not a port number (0–65535)`);
  return n;
}

function nonNegativeInt(get: (n: string) => string | undefined, name: string, fallback: number): number {
  const v = get(name);
  if (v === undefined) return fallback;
  if (!/^\d+$/.test(v)) throw new ConfigError(name, `"${v}" is not a non-negative integer`);
  return Number(v);
}

/** A size in bytes, optionally with a K or M suffix (binary: 10M = 10 MiB); at least 1 KiB. */
function size(get: (n: string) => string | undefined, name: string, fallback: number): number {
  const v = get(name);
  if (v === undefined) return fallback;
  const m = /^(\d+)\s*([kKmM])?(i?[bB])?$/.exec(v);
  if (!m) throw new ConfigError(name, `"${v}" is not a size (bytes, or a number with K or M)`);
  const n = Number(m[1]) * (m[2] ? (m[2].toLowerCase() === 'k' ? 1024 : 1024 * 1024) : 1);
  if (n < 1024) throw new ConfigError(name, `"${v}" is below the smallest allowed size, 1K`);
  return n;
}

const DURATION_UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000 };

/** A duration in seconds, or a number with s, m or h (`10m`); returned in milliseconds. */
function duration(get: (n: string) => string | undefined, name: string, fallback: number): number {
  const v = get(name);
  if (v === undefined) return fallback;
  const m = /^(\d+)\s*([smh])?$/i.exec(v);
  if (!m) throw new ConfigError(name, `"${v}" is not a duration (seconds, or a number with s, m or h)`);
  return Number(m[1]) * DURATION_UNITS[(m[2] ?? 's').toLowerCase()]!;
}

function atMost(name: string, value: number, max: number, shown: string): number {
  if (value > max) throw new ConfigError(name, `must be at most ${shown}`);
  return value;
}

function atLeast(name: string, value: number, min: number, shown: string): number {
  if (value < min) throw new ConfigError(name, `must be at least ${shown}`);
  return value;
}

function positive(get: (n: string) => string | undefined, name: string, fallback: number): number {
  const n = nonNegativeInt(get, name, fallback);
  if (n === 0) throw new ConfigError(name, 'must be at least 1');
  return n;
}

function bool(get: (n: string) => string | undefined, name: string, fallback: boolean): boolean {
  const v = get(name)?.toLowerCase();
  if (v === undefined) return fallback;
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off'].includes(v)) return false;
  throw new ConfigError(name, `"${v}" is not a boolean (true or false)`);
}

function optionalPort(get: (n: string) => string | undefined, name: string): number | undefined {
  return get(name) === undefined ? undefined : port(get, name, 0);
}

function boolOrAuto(get: (n: string) => string | undefined, name: string): boolean | 'auto' {
  const v = get(name)?.toLowerCase();
  if (v === undefined || v === 'auto') return 'auto';
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off'].includes(v)) return false;
  throw new ConfigError(name, `"${v}" must be auto, true or false`);
}

function oneOf<T extends string>(
  get: (n: string) => string | undefined,
  name: string,
  values: readonly T[],
  fallback: T,
): T {
  const v = get(name);
  if (v === undefined) return fallback;
  if ((values as readonly string[]).includes(v)) return v as T;
  throw new ConfigError(name, `"${v}" must be one of ${values.join(', ')}`);
}

function url(
  get: (n: string) => string | undefined,
  name: string,
  fallback: string,
  protocols: string[],
): string {
  const v = get(name) ?? fallback;
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
}

function label(get: (n: string) => string | undefined, name: string, fallback: string): string {
  const v = get(name) ?? fallback;
  if (!/^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i.test(v))
    throw new ConfigError(name, `"${v}" is not a DNS label`);
  return v.toLowerCase();
}

function domain(
  get: (n: string) => string | undefined,
  name: string,
  fallback: string,
  options: { noAddress?: boolean } = {},
): string {
  const v = get(name) ?? fallback;
  if (!isHostname(v) || (options.noAddress && isIP(v))) {
    throw new ConfigError(name, `"${v}" is not a domain name`);
  }
  return v.toLowerCase();
}

function secret(v: string | undefined): string | undefined {
  if (v !== undefined && v.length < 32) {
    throw new ConfigError(
      'TXMAIL_SECRET_KEY',
      'must be at least 32 characters (e.g. `openssl rand -hex 32`)',
    );
  }
  return v;
}

function list(v: string | undefined): string[] {
  return v === undefined
    ? []
    : v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
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
