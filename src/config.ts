// Configuration: environment variables (and a `.env` file), validated once at start-up.
// A bad value throws ConfigError naming the variable, so the process stops before doing anything.
// Each variable is one row of the table in config/table.ts (its field here, parser, default and the
// README's words); config/parse.ts reads the environment through it and config/describe.ts prints it.
import type { Plan } from './db/schema.js';
import type { DestinationRule } from './delivery/destination-limits.js';
import type { ReputationThresholds } from './reputation/thresholds.js';
import type { BlocklistZone } from './blocklists/zones.js';
import type { DestinationBlockSettings } from './delivery/destination-blocks.js';
import type { TrustProxy } from './config/kinds.js';

export { ConfigError, type TrustProxy } from './config/kinds.js';
export { configWarnings, loadConfig, parseConfig, type ConfigWarning } from './config/parse.js';
export { configLines, describeConfig } from './config/describe.js';

export type Signup = 'open' | 'closed';

export interface Config {
  /** PostgreSQL connections per process. */
  databasePool: number;
  databaseUrl: string;
  httpHost: string;
  httpPort: number;
  /** TXMAIL_TRUST_PROXY: whose X-Forwarded-For gives the client address (per-IP limits, logs). */
  trustProxy: TrustProxy;
  /** How long a request to the API may take to arrive whole. */
  httpRequestTimeoutMs: number;
  /** Open connections on the API's listener, in all and per peer (client network), trusted proxies aside. */
  httpMaxConnections: number;
  httpMaxConnectionsPerIp: number;
  /** Bytes of large request bodies the API's listener holds at once, in all and per client network; 0: no limit. */
  httpBodyMemory: number;
  httpBodyMemoryPerIp: number;
  /** Bytes of messages being received the inbound receiver holds at once, in all and per client network; 0: no limit. */
  inboundMemory: number;
  inboundMemoryPerIp: number;
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
  /** TXMAIL_METRICS_TOKEN: the bearer token GET /metrics asks for; unset, it answers this host only. */
  metricsToken: string | undefined;
  /** Local addresses to send from. */
  sourceIps: string[];
  /** Addresses being warmed up, with the first day (YYYY-MM-DD, UTC) of their warm-up. */
  warmingSince: Record<string, string>;
  /** Daily caps of a warming address, day 1 first. */
  warmupSchedule: number[];
  allowPrivateNetworks: boolean;
  signup: Signup;
  /** scrypt's N for passwords set from now on (accounts/passwords.ts). */
  passwordCost: number;
  /** Requests per second per API key; 0 turns every rate limit off. */
  rateLimit: number;
  /** Requests per second per account, by plan. */
  accountRateLimits: Record<Plan, number>;
  logLevel: string;
  /** Messages one worker process delivers at once (those standing aside not counted). */
  workerConcurrency: number;
  /**
   * How long a worker's claim on a message lasts: the backstop after a crash; the registry of live
   * processes (process-registry.ts) releases a dead process's leases within seconds.
   */
  workerLeaseSeconds: number;
  /** How long a stopping worker lets its deliveries in flight finish before giving them up. */
  workerStopSeconds: number;
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
