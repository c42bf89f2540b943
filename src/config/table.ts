// The configuration table: every environment variable once, in the README's order, with the Config
// field it sets, how its text is parsed, its default and the README's words for it. parse.ts reads the
// environment through it, describe.ts prints it for `txmail config`, and a test holds the README's
// configuration table to it in both directions.
import { DEFAULT_CONNECTIONS_PER_PEER } from '../http/connection-limits.js';
import { availableParallelism, hostname as osHostname } from 'node:os';
import type { Config } from '../config.js';
import { DEFAULT_BLOCKLIST_ZONES, parseBlocklistZones } from '../blocklists/zones.js';
import { parseDestinationBlocks } from '../delivery/destination-blocks.js';
import { parseDestinationRules } from '../delivery/destination-limits.js';
import { DEFAULT_WARMUP_SCHEDULE } from '../delivery/source-ip-pool.js';
import {
  DEFAULT_SESSION_LIFETIME_MS,
  DEFAULT_SESSIONS_PER_CLIENT,
  DEFAULT_TRUSTED_NETWORKS,
} from '../inbound/client-limits.js';
import { DEFAULT_PASSWORD_COST, PASSWORD_COST_RANGE } from '../accounts/passwords.js';
import { parseReputation } from '../reputation/thresholds.js';
import {
  PENDING_REPLAYS_PER_ENDPOINT,
  PUSHES_PER_ACCOUNT,
  PUSHES_PER_ENDPOINT,
} from '../webhooks/dispatch-limits.js';
import {
  DEFAULT_ACCOUNT_RATE_LIMITS,
  accountRateLimits,
  bearerToken,
  bool,
  boolOrAuto,
  databaseUrl,
  dnsServers,
  domain,
  duration,
  durationText,
  emailAddress,
  hostName,
  label,
  oneOf,
  parsedBy,
  port,
  positive,
  powerOfTwo,
  secretKey,
  size,
  sourceIps,
  text,
  trustProxy,
  trustedNetworks,
  url,
  warmupSchedule,
  wholeNumber,
} from './kinds.js';
import { variable, variables, type Setting } from './setting.js';

/** A URL with its password replaced by `***`. */
const maskPassword = (url: string): string => url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');

export const SETTINGS = [
  variable({
    env: 'TXMAIL_DATABASE_URL',
    field: 'databaseUrl',
    kind: databaseUrl,
    default: 'sqlite:./data/txmail.db',
    mask: maskPassword,
    description: '`sqlite:PATH` or `postgres://…`',
  }),
  variable({
    env: 'TXMAIL_DATABASE_POOL',
    field: 'databasePool',
    kind: positive,
    default: '10',
    description: 'PostgreSQL connections per process (a worker adds one more for queue notifications)',
  }),
  variable({
    env: 'TXMAIL_HTTP_HOST',
    field: 'httpHost',
    kind: text,
    default: '127.0.0.1',
    description: 'address of the API and dashboard listener',
  }),
  variable({
    env: 'TXMAIL_HTTP_PORT',
    field: 'httpPort',
    kind: port,
    default: '8080',
    description: 'port of the API and dashboard listener',
  }),
  variable({
    env: 'TXMAIL_HTTP_REQUEST_TIMEOUT',
    field: 'httpRequestTimeoutMs',
    kind: duration({ min: { value: 1000, shown: '1s' }, max: { value: 3_600_000, shown: '1h' } }),
    default: '1m',
    description: [
      'how long a request to the API may take to arrive whole, its headers and body (`408',
      'request_timeout` past it, and the connection closed); seconds, or a number with `s`, `m` or `h`',
    ],
  }),
  variable({
    env: 'TXMAIL_HTTP_MAX_CONNECTIONS',
    field: 'httpMaxConnections',
    kind: positive,
    default: '4096',
    description: [
      'connections the API and dashboard listener holds open at once; past it new ones are closed at',
      'once, so that clients holding connections cannot take the descriptors the process needs for its',
      'database and mail',
    ],
  }),
  variable({
    env: 'TXMAIL_HTTP_MAX_CONNECTIONS_PER_IP',
    field: 'httpMaxConnectionsPerIp',
    kind: wholeNumber(),
    default: String(DEFAULT_CONNECTIONS_PER_PEER),
    description: [
      "connections one peer (an IPv4 address, an IPv6 /64) may hold open on the API's listener (past",
      'it, closed at once); the proxies `TXMAIL_TRUST_PROXY` trusts are exempt (behind them, every',
      'client comes from their address); `0` = unlimited',
    ],
  }),
  variable({
    env: 'TXMAIL_HTTP_BODY_MEMORY',
    field: 'httpBodyMemory',
    kind: size({ zeroOff: true }),
    default: '256M',
    description: [
      'bytes of request bodies over 64 KiB the API and dashboard listener holds in memory at once, as',
      'they arrive and until they are answered; past it such a request is refused with `429',
      'server_busy` (and `Retry-After`) and its connection closed; in bytes or with `K`/`M`; `0` =',
      'unlimited',
    ],
  }),
  variable({
    env: 'TXMAIL_HTTP_BODY_MEMORY_PER_IP',
    field: 'httpBodyMemoryPerIp',
    kind: size({ zeroOff: true }),
    default: '64M',
    description: [
      'the share of `TXMAIL_HTTP_BODY_MEMORY` one client network (an IPv4 address, an IPv6 /64) may',
      'hold, so that one client cannot take it all; `0` = unlimited',
    ],
  }),
  variable({
    env: 'TXMAIL_TRUST_PROXY',
    field: 'trustProxy',
    kind: trustProxy,
    default: 'false',
    description: [
      'behind a reverse proxy or load balancer: which peers may name the client in `X-Forwarded-For`',
      '(the address logged and counted by the per-IP sign-in limits). `false`: nobody, the peer is the',
      'client; a comma-separated list of addresses and CIDR ranges (`10.0.0.0/8,192.0.2.7`; also',
      '`loopback`, `linklocal`, `uniquelocal`): only those peers, the safe choice; a number `N`: the',
      'nearest N hops, whoever they are; `true`: every peer. With a number or `true`, make sure nothing',
      'but the proxies can reach the HTTP port, or clients can claim any address.',
    ],
  }),
  variable({
    env: 'TXMAIL_PUBLIC_URL',
    field: 'publicUrl',
    kind: url(['http:', 'https:']),
    default: (earlier) => `http://localhost:${earlier('httpPort')}`,
    shown: '`http://localhost:<TXMAIL_HTTP_PORT>`',
    description: [
      'links in mail (verification, password reset) and the dashboard; `https://…` marks the session',
      'cookie Secure',
    ],
  }),
  variable({
    env: 'TXMAIL_HOSTNAME',
    field: 'hostname',
    kind: hostName,
    default: () => osHostname(),
    shown: 'machine host name',
    description: [
      'EHLO name, Message-ID domain. Must be a fully qualified domain name (two labels or more,',
      'letters, digits and hyphens, not an address): `serve`, `api` and `worker` refuse to start with a',
      'bare machine name such as `vm` (receivers penalise such an EHLO, and it can have no A, PTR or',
      'SPF records), unless `TXMAIL_ALLOW_PRIVATE_NETWORKS` is set or for `serve --trial` (`npm',
      'start`), then a warning in the log',
    ],
  }),
  variable({
    env: 'TXMAIL_RELAY_URL',
    field: 'relayUrl',
    kind: url(['smtp:', 'smtps:']),
    unset: () => undefined,
    shown: 'unset',
    mask: (v) => (v === undefined ? null : maskPassword(v)),
    description:
      '`smtp://[user:pass@]host:port` or `smtps://…`: deliver through this relay; unset: direct to MX',
  }),
  variable({
    env: 'TXMAIL_DNS_SERVERS',
    field: 'dnsServers',
    kind: dnsServers,
    unset: () => [],
    shown: 'system resolvers',
    description: '`ip[:port],…` for every MX/TXT/A lookup',
  }),
  variable({
    env: 'TXMAIL_MX_PORT',
    field: 'mxPort',
    kind: port,
    default: '25',
    description: 'port used when connecting to MX hosts',
  }),
  variable({
    env: 'TXMAIL_INBOUND_HOST',
    field: 'inboundHost',
    kind: text,
    default: '0.0.0.0',
    description: 'address of the bounce and complaint receiver (SMTP)',
  }),
  variable({
    env: 'TXMAIL_INBOUND_PORT',
    field: 'inboundPort',
    kind: port,
    default: '2525',
    description: 'port of the bounce and complaint receiver (SMTP; production: port 25, or forward 25 to it)',
  }),
  variable({
    env: 'TXMAIL_INBOUND_MAX_SIZE',
    field: 'inboundMaxSize',
    kind: size(),
    default: '10M',
    description: [
      'largest message the receiver accepts, in bytes or with `K`/`M` (advertised with SIZE; larger',
      'mail gets `552`)',
    ],
  }),
  variable({
    env: 'TXMAIL_INBOUND_CONNECTIONS_PER_MINUTE',
    field: 'inboundConnectionsPerMinute',
    kind: wholeNumber(),
    default: '60',
    description:
      'connections one client IP may open to the receiver per minute (`421` past it); `0` = unlimited',
  }),
  variable({
    env: 'TXMAIL_INBOUND_SESSIONS_PER_IP',
    field: 'inboundSessionsPerIp',
    kind: wholeNumber(),
    default: String(DEFAULT_SESSIONS_PER_CLIENT),
    description: [
      'sessions one client IP (an IPv6 client: its /64) may hold open on the receiver at once (`421',
      '4.7.0` past it, and the connection closed); a slot is freed when the session ends, however it',
      'ends; `0` = unlimited',
    ],
  }),
  variable({
    env: 'TXMAIL_INBOUND_SESSION_LIFETIME',
    field: 'inboundSessionLifetimeMs',
    kind: duration({ max: { value: 24 * 3_600_000, shown: '24h' } }),
    default: durationText(DEFAULT_SESSION_LIFETIME_MS),
    description: [
      'longest a receiver session may last, however busy it keeps itself (`421 4.4.2` and closed, also',
      'in the middle of DATA: nothing of that message is stored); seconds, or a number with `s`, `m` or',
      '`h`, at most `24h`; `0` = no limit',
    ],
  }),
  variable({
    env: 'TXMAIL_INBOUND_HOURLY_MESSAGES',
    field: 'inboundHourlyMessages',
    // The hourly budget is counted in the database's 32-bit integers (bytes as KiB): caps far above use.
    kind: wholeNumber({ max: { value: 1_000_000_000, shown: '1000000000' } }),
    default: '1000',
    description: [
      'messages one client IP (IPv6: /64) may hand the receiver per hour, counted in the database and',
      'so shared by every inbound process (`421 4.7.0` at MAIL FROM once spent, `452 4.7.0` after DATA',
      'for a message that loses the race for the last room; a refused message is never stored); `0` =',
      'unlimited',
    ],
  }),
  variable({
    env: 'TXMAIL_INBOUND_HOURLY_BYTES',
    field: 'inboundHourlyBytes',
    kind: size({ zeroOff: true, max: { value: 1024 ** 4, shown: '1048576M' } }),
    default: '100M',
    description: [
      'bytes of messages one client IP (IPv6: /64) may hand the receiver per hour, counted like the',
      'messages in whole KiB per message (`452 4.7.0` at MAIL FROM for a SIZE that does not fit, or',
      'after DATA; `421 4.7.0` once spent); in bytes or with `K`/`M`; `0` = unlimited',
    ],
  }),
  variable({
    env: 'TXMAIL_INBOUND_TRUSTED_NETWORKS',
    field: 'inboundTrustedNetworks',
    kind: trustedNetworks,
    default: DEFAULT_TRUSTED_NETWORKS.join(','),
    description: [
      'clients exempt from every per-client limit of the receiver (connections per minute, open',
      'sessions, lifetime, hourly budget), as Postfix exempts `mynetworks`: a comma-separated list of',
      'addresses, CIDR ranges and `loopback`, `linklocal`, `uniquelocal`; `none` trusts nobody. List',
      'only your own hosts and relays; if a proxy or port forwarder on the same host hands connections',
      'to the receiver (so every client appears as a loopback address), set `none`',
    ],
  }),
  variable({
    env: 'TXMAIL_INBOUND_PARSE_TIMEOUT_MS',
    field: 'inboundParseTimeoutMs',
    kind: positive,
    default: '5000',
    description: [
      'how long parsing one received message may take; the receiver parses on a thread of its own, and',
      'a parse past this has its thread stopped and is tried once more a minute later with three times',
      'the time, then the message is marked `failed` with the reasons; one that kills its thread is',
      'failed at once (`txmail_inbound_messages_total{kind="failed"}`)',
    ],
  }),
  variable({
    env: 'TXMAIL_INBOUND_HEALTH_PORT',
    field: 'inboundHealthPort',
    kind: port,
    unset: () => undefined,
    shown: 'unset',
    description: [
      "`txmail inbound` only (the other roles answer on the API's listener): also serve `GET /healthz`,",
      '`/readyz` and `/metrics` on this port of `TXMAIL_HTTP_HOST`, for probes and scrapes; unset, the',
      'role opens no HTTP port',
    ],
  }),
  variable({
    env: 'TXMAIL_WORKER_HEALTH_PORT',
    field: 'workerHealthPort',
    kind: port,
    unset: () => undefined,
    shown: 'unset',
    description: [
      'the same for `txmail worker`, which has no API listener either (`serve` and `api` answer on the',
      "API's listener)",
    ],
  }),
  variable({
    env: 'TXMAIL_RETURN_PATH_LABEL',
    field: 'returnPathLabel',
    kind: label,
    default: 'send',
    description: 'customers point `send.<their domain>` at the service',
  }),
  variable({
    env: 'TXMAIL_TEST_DOMAIN',
    field: 'testDomain',
    kind: domain(),
    default: (earlier) => `test.${earlier('hostname')}`,
    shown: '`test.<TXMAIL_HOSTNAME>`',
    description: "the service's own sandbox sender domain",
  }),
  variable({
    env: 'TXMAIL_SPF_DOMAIN',
    field: 'spfDomain',
    kind: domain(),
    default: (earlier) => `spf.${earlier('hostname')}`,
    shown: '`spf.<TXMAIL_HOSTNAME>`',
    description: [
      "the domain every customer's SPF record includes (`v=spf1 include:… ~all`); its own SPF record",
      'lists the sending addresses (`txmail dns`)',
    ],
  }),
  variable({
    env: 'TXMAIL_INBOUND_MX',
    field: 'inboundMx',
    kind: domain({ noAddress: true }),
    default: (earlier) => earlier('hostname'),
    shown: '`<TXMAIL_HOSTNAME>`',
    description: [
      "the host customers' `send.<domain>` MX records point at: the bounce and complaint receiver as",
      'seen from the internet',
    ],
  }),
  variable({
    env: 'TXMAIL_SECRET_KEY',
    field: 'secretKey',
    kind: secretKey,
    unset: () => undefined,
    shown: 'generated once into the data directory',
    mask: (v) => (v ? '***' : '(generated in the data directory)'),
    description:
      'master key (≥ 32 characters); set the same value on every machine of a multi-machine deployment',
  }),
  variable({
    env: 'TXMAIL_METRICS_TOKEN',
    field: 'metricsToken',
    kind: bearerToken,
    unset: () => undefined,
    shown: 'unset',
    mask: (v) => (v ? '***' : '(unset: /metrics answers this host only)'),
    description: [
      "the bearer token `GET /metrics` asks for (`Authorization: Bearer <token>`, Prometheus's",
      '`authorization` setting), at least 16 characters; unset, `/metrics` answers only requests from the',
      'host itself that no proxy passed on (none of `Forwarded`, `X-Forwarded-For`, `X-Real-IP`, `Via`),',
      '`403 metrics_forbidden` to any other: its series name every account and its domains. Behind a',
      'proxy that adds none of those headers, set it',
    ],
  }),
  variables(['sourceIps', 'warmingSince'], {
    env: 'TXMAIL_SOURCE_IPS',
    kind: sourceIps,
    unset: () => ({ sourceIps: [], warmingSince: {} }),
    shown: 'unset',
    description: [
      'local addresses to send from, comma-separated (`txmail dns` lists them in the SPF include',
      'domain, and domain checks evaluate SPF from them); `ip@YYYY-MM-DD` marks an address warming up',
      "since that day (UTC): it sends at most that day's cap of the warm-up schedule, paced hour by",
      'hour, and the rest goes to the established addresses. When every address is warming and at its',
      'cap, mail waits for the next hour.',
    ],
  }),
  variable({
    env: 'TXMAIL_WARMUP_SCHEDULE',
    field: 'warmupSchedule',
    kind: warmupSchedule,
    default: DEFAULT_WARMUP_SCHEDULE.join(','),
    description: 'daily caps of a warming address, day 1 first; after the last day it has no cap',
  }),
  variable({
    env: 'TXMAIL_DNSBL_ZONES',
    field: 'blocklistZones',
    kind: parsedBy(parseBlocklistZones),
    default: DEFAULT_BLOCKLIST_ZONES,
    description: [
      'DNS blocklists the service checks itself in, comma-separated: `zone` (or `zone:addresses`) lists',
      'addresses and is asked about each of `TXMAIL_SOURCE_IPS` (IPv4 reversed octets, IPv6 reversed',
      'nibbles); `zone:names` lists domain names and is asked about `TXMAIL_HOSTNAME` (the HELO name),',
      "`TXMAIL_TEST_DOMAIN` (From and return-path of the service's own mail), `TXMAIL_INBOUND_MX`,",
      "`TXMAIL_SPF_DOMAIN` and the customers' return-path domains",
      '(`<TXMAIL_RETURN_PATH_LABEL>.<domain>` of every verified domain or one in its grace period; at',
      'most 2,000 of them per check, the first by name). A listing shows in `txmail status` (which then',
      'exits 1), as `txmail_blocklist_listed{target,zone}` on `/metrics`, in a warning log line and in',
      'mail to `TXMAIL_OPERATOR_EMAIL`; a listed source address is no longer used while another is',
      'clean (with every one listed, all stay in use). `none` turns monitoring off. Spamhaus and',
      'Barracuda refuse queries from large public resolvers (Spamhaus answers `127.255.255.254`, shown',
      'as "gave no verdict", never as a listing): point `TXMAIL_DNS_SERVERS` at a resolver of your own',
      'or use zones you have access to',
    ],
  }),
  variable({
    env: 'TXMAIL_DNSBL_INTERVAL',
    field: 'blocklistIntervalMs',
    kind: duration({ min: { value: 1000, shown: '1s' } }),
    default: '1h',
    description: [
      'time between two blocklist checks, in seconds or with `s`, `m` or `h` (at least `1s`); one',
      '`serve` or `worker` process checks per interval, whatever their number. A list that does not',
      'answer (timeout, SERVFAIL) leaves the previous verdict',
    ],
  }),
  variable({
    env: 'TXMAIL_OPERATOR_EMAIL',
    field: 'operatorEmail',
    kind: emailAddress,
    unset: () => undefined,
    shown: 'unset',
    description: [
      "where the service's notices to its operator go: a mail from `notifications@<TXMAIL_TEST_DOMAIN>`",
      'when a blocklist lists a target and when the listing ends; also the `rua=` address of the test',
      "domain's DMARC record (`txmail dns`). Like every message it belongs to an account: the account",
      'with this email, created on first use if there is none (scale plan, production, no password).',
      'Unset: the log line, the metric and `txmail status` only',
    ],
  }),
  variable({
    env: 'TXMAIL_MTA_STS',
    field: 'mtaSts',
    kind: bool,
    default: 'on',
    description: [
      "apply recipient domains' MTA-STS policies (RFC 8461) to direct MX delivery: the policy named by",
      '`_mta-sts.<domain>` is fetched from `https://mta-sts.<domain>/.well-known/mta-sts.txt`',
      "(certificate verified against the system's roots and `NODE_EXTRA_CA_CERTS`, no redirects, at",
      "most 64 KiB, 10 s), stored in the database for every process and refreshed when the record's id",
      'changes or its `max_age` ends; a stored policy keeps applying when a refresh fails. `enforce`:',
      'mail goes only to the MX hosts the policy lists, over TLS with a valid certificate, else it is',
      'deferred with the reason; `testing`: delivered as usual, failures only reported. Not used with',
      '`TXMAIL_RELAY_URL`. `off` turns it off',
    ],
  }),
  variable({
    env: 'TXMAIL_TLS_REPORTS',
    field: 'tlsReports',
    kind: bool,
    default: 'on',
    description: [
      "count every MX connection's TLS result per recipient domain and send each domain that publishes",
      '`_smtp._tls` (`v=TLSRPTv1; rua=…`) a daily aggregate report (RFC 8460, gzipped JSON): to',
      '`mailto:` addresses as mail from `tls-reports@<TXMAIL_TEST_DOMAIN>`, DKIM-signed with the test',
      "domain's key and handed straight to the address's MX (or the relay); to `https:` URLs as a POST.",
      'One `serve` or `worker` process sends, about an hour after each UTC day ends; a report not',
      "accepted is tried again hourly for three days. The report's contact is `TXMAIL_OPERATOR_EMAIL`",
      'when set. `off` turns counting and reports off',
    ],
  }),
  variable({
    env: 'TXMAIL_ALLOW_PRIVATE_NETWORKS',
    field: 'allowPrivateNetworks',
    kind: bool,
    default: 'false',
    description: [
      'allow loopback/private MX hosts and webhook URLs, and `http://` webhook URLs (development,',
      'tests), and a `TXMAIL_HOSTNAME` that is not a fully qualified domain name. Off, a webhook URL or',
      'MX host whose address is loopback, private, link-local, unique-local, multicast, unspecified,',
      'documentation or otherwise special-purpose (IANA registries) is refused, the webhook when saved',
      'and at every push; IPv6 must be global unicast, and IPv4-compatible, IPv4-mapped, NAT64 and 6to4',
      'forms are judged by the IPv4 address inside.',
    ],
  }),
  variable({
    env: 'TXMAIL_SIGNUP',
    field: 'signup',
    kind: oneOf(['open', 'closed']),
    default: 'open',
    description:
      '`open`: anyone can sign up in the dashboard; `closed`: accounts only by `txmail account create`',
  }),
  variable({
    env: 'TXMAIL_PASSWORD_COST',
    field: 'passwordCost',
    kind: powerOfTwo(PASSWORD_COST_RANGE.min, PASSWORD_COST_RANGE.max),
    default: String(DEFAULT_PASSWORD_COST),
    description: [
      "scrypt's cost (N, a power of two from 1024 to 131072; a hash takes 1 KiB × N of memory) for",
      'passwords set from now on; each stored hash keeps the cost it was made with and still verifies,',
      'and is stored again at this cost at its next log-in. Lower it only where the passwords guard',
      'nothing, as in tests',
    ],
  }),
  variable({
    env: 'TXMAIL_RATE_LIMIT',
    field: 'rateLimit',
    kind: wholeNumber(),
    default: '100',
    description:
      'API requests per second per key, and for all dashboard sessions of an account together (bursts to twice that); `0` turns every rate limit off',
  }),
  variable({
    env: 'TXMAIL_ACCOUNT_RATE_LIMITS',
    field: 'accountRateLimits',
    kind: accountRateLimits,
    default: Object.entries(DEFAULT_ACCOUNT_RATE_LIMITS)
      .map(([plan, n]) => `${plan}=${n}`)
      .join(','),
    description: [
      'API requests per second per account across all its keys, by plan (bursts to twice that). On',
      'PostgreSQL the limits are shared by every API process; on SQLite they are kept by the one',
      'process.',
    ],
  }),
  variable({
    env: 'TXMAIL_WORKER_CONCURRENCY',
    field: 'workerConcurrency',
    kind: positive,
    default: '50',
    description: 'messages one worker process delivers at once',
  }),
  variable({
    env: 'TXMAIL_BUILD_THREADS',
    field: 'buildThreads',
    kind: wholeNumber(),
    // Every core but the one the event loop needs, at most 4 (signing scales no further per process).
    default: () => String(Math.min(4, availableParallelism() - 1)),
    shown: 'cores − 1, at most 4',
    description: 'threads that compose and DKIM-sign outgoing mail; `0` does it on the event loop',
  }),
  variable({
    env: 'TXMAIL_SQLITE_WRITER_THREAD',
    field: 'sqliteWriterThread',
    kind: boolOrAuto,
    default: 'auto',
    description: [
      'SQLite file: commit accepted mail on a thread with its own connection, so the event loop keeps',
      "serving during the commit's fsync. `auto` does so in `txmail api`, which writes nothing else; in",
      "`txmail serve` the delivery worker writes on the event loop's connection, and two writers",
      "waiting on each other's lock cost more than the thread saves. `true` or `false` forces it.",
    ],
  }),
  variable({
    env: 'TXMAIL_WORKER_LEASE_SECONDS',
    field: 'workerLeaseSeconds',
    kind: positive,
    default: '600',
    description: [
      "how long a worker's claim on a message lasts: only the backstop after a crash, since the live",
      "processes release a dead one's leases within seconds (`TXMAIL_PROCESS_HEARTBEAT_SECONDS`)",
    ],
  }),
  variable({
    env: 'TXMAIL_PROCESS_HEARTBEAT_SECONDS',
    field: 'processHeartbeatSeconds',
    kind: positive,
    default: '5',
    description: [
      'how often a process that takes leases (`serve`, `worker`, `inbound`) writes its heartbeat and',
      'releases the leases (messages, webhook pushes, inbound reports, domain checks) of dead',
      'processes: one whose heartbeat is three beats old, or on the same host one whose pid is gone. A',
      'process that could not write its heartbeat for two beats stops claiming.',
    ],
  }),
  variable({
    env: 'TXMAIL_WEBHOOK_ENDPOINT_CONCURRENCY',
    field: 'webhookEndpointConcurrency',
    kind: positive,
    default: String(PUSHES_PER_ENDPOINT),
    description: [
      'webhook pushes to one endpoint in flight at once, counted across every worker process: a slow or',
      "hanging endpoint holds at most this many of the dispatchers' slots",
    ],
  }),
  variable({
    env: 'TXMAIL_WEBHOOK_ACCOUNT_CONCURRENCY',
    field: 'webhookAccountConcurrency',
    kind: positive,
    default: String(PUSHES_PER_ACCOUNT),
    description: [
      'webhook pushes of one account (all its endpoints) in flight at once, counted across every worker',
      'process. Each worker process pushes at most 20 at once; below 20, one account never holds all of',
      "them, so while one account's endpoints hang another account's push goes out at once (within the",
      "dispatcher's 1 s poll). When several accounts fill every slot, the next slot that frees goes to",
      'the account with the fewest pushes in flight, so an account with none waits for at most one push',
      'to end (its DNS look-up and the 15 s timeout), after other accounts with none in flight and',
      "older pushes. At 20 or more one account can fill a worker's slots.",
    ],
  }),
  variable({
    env: 'TXMAIL_WEBHOOK_MAX_PENDING_REPLAYS',
    field: 'webhookMaxPendingReplays',
    kind: positive,
    default: String(PENDING_REPLAYS_PER_ENDPOINT),
    description: [
      'replays one webhook endpoint may have waiting (queued, in flight or waiting for a retry); the',
      'next replay is refused with `429 replay_limit_exceeded`',
    ],
  }),
  variable({
    env: 'TXMAIL_REPUTATION',
    field: 'reputation',
    kind: parsedBy(parseReputation),
    default: '',
    shown:
      '`bounce_warn=5,bounce_pause=10,complaint_warn=0.1,complaint_pause=0.5,min_messages=500,window_days=7`',
    description: [
      'the reputation guardrails (ARCHITECTURE.md, "Reputation guardrails"): an account whose bounce',
      'rate (addresses that do not exist or are disabled) or complaint rate over the last `window_days`',
      'days reaches a `_warn` percentage is warned (email, dashboard notice, `account.warning`',
      'webhook), and one that reaches a `_pause` percentage is paused: its sends answer `403',
      'account_paused` and its queued mail is held until `txmail account resume`. Nothing is judged',
      'before the window holds `min_messages` messages that reached a final state. Any setting left out',
      'keeps its default',
    ],
  }),
  variable({
    env: 'TXMAIL_DESTINATION_LIMITS',
    field: 'destinationRules',
    kind: parsedBy(parseDestinationRules),
    default: '',
    shown: '`default:connections=5,messages=100,rate=0;relay:connections=20,messages=1000,rate=0`',
    description: [
      'limits per destination, as `pattern:setting=N,…;…`. `pattern` is `default`, `relay`, or a domain',
      "that matches MX host names ending in it (`google.com` covers every domain hosted on Google's MX",
      'hosts). Settings: `connections` (concurrent; halved while the destination throttles), `messages`',
      '(per connection), `rate` (messages per second, `0` = no limit). A rule overrides only the',
      'settings it names.',
    ],
  }),
  variable({
    env: 'TXMAIL_DESTINATION_BLOCKS',
    field: 'destinationBlocks',
    kind: parsedBy(parseDestinationBlocks),
    default: '',
    shown: '`accounts=2,replies=3,window_minutes=60,pause_minutes=60`',
    description: [
      "when a destination (the MX host's registrable name by the Public Suffix List: `google.com` for",
      "Gmail, a rented machine under a hosting company's name by itself) refuses the mail of `accounts`",
      'different accounts, or `replies` messages of any accounts, within `window_minutes` as sender',
      "blocks (a blocklist, the sending address's reputation), it is paused for that source address for",
      '`pause_minutes`: its mail leaves from another address of `TXMAIL_SOURCE_IPS`, or waits. Shown by',
      '`txmail status` and `/metrics`. A setting left out keeps its default.',
    ],
  }),
  variable({
    env: 'TXMAIL_LOG_LEVEL',
    field: 'logLevel',
    kind: oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
    default: 'info',
    description: [
      '`fatal`, `error`, `warn`, `info`, `debug` (adds access logs, with paths but never query strings,',
      "and webhook pushes, with the endpoint's origin and path only), `trace`, `silent`",
    ],
  }),
] as const;

// Every Config field is set by the table: a field left out fails to compile here, naming it.
type FieldsOf<S> = S extends Setting<infer K> ? K : never;
type Unset = Exclude<keyof Config, FieldsOf<(typeof SETTINGS)[number]>>;
const everyFieldSet: [Unset] extends [never] ? true : Unset = true;
void everyFieldSet;
