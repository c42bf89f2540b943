import { parseEnv } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConfigError, configLines, configWarnings, describeConfig, parseConfig } from '../src/config.js';

describe('configuration', () => {
  it('has working defaults for the embedded setup', () => {
    const c = parseConfig({ TXMAIL_HOSTNAME: 'mail.example.com' });
    expect(c).toMatchObject({
      databaseUrl: 'sqlite:./data/txmail.db',
      httpHost: '127.0.0.1',
      httpPort: 8080,
      publicUrl: 'http://localhost:8080',
      mxPort: 25,
      inboundPort: 2525,
      returnPathLabel: 'send',
      testDomain: 'test.mail.example.com',
      spfDomain: 'spf.mail.example.com',
      inboundMx: 'mail.example.com',
      allowPrivateNetworks: false,
      signup: 'open',
      rateLimit: 100,
      trustProxy: false,
      inboundHealthPort: undefined,
      inboundParseTimeoutMs: 5000,
      sqliteWriterThread: 'auto',
      workerLeaseSeconds: 600,
      processHeartbeatSeconds: 5,
    });
  });

  it.each([['_spf.mail.example.com'], ['_spf._mail.example.com'], ['spf.mail.example.com']])(
    'takes the SPF domain %s, a TXT record name may start with underscores',
    (value) => {
      expect(parseConfig({ TXMAIL_HOSTNAME: 'mail.example.com', TXMAIL_SPF_DOMAIN: value }).spfDomain).toBe(
        value,
      );
    },
  );

  it.each([['::'], ['0.0.0.0'], ['localhost'], ['api.internal.example']])(
    'takes the listener address %s',
    (value) => {
      expect(parseConfig({ TXMAIL_HOSTNAME: 'mail.example.com', TXMAIL_HTTP_HOST: value }).httpHost).toBe(
        value,
      );
    },
  );

  it.each([
    ['auto', 'auto'],
    ['true', true],
    ['off', false],
  ] as const)('reads TXMAIL_SQLITE_WRITER_THREAD=%s', (value, parsed) => {
    const c = parseConfig({ TXMAIL_HOSTNAME: 'mail.example.com', TXMAIL_SQLITE_WRITER_THREAD: value });
    expect(c.sqliteWriterThread).toBe(parsed);
  });

  it.each([
    ['TXMAIL_DATABASE_URL', 'mysql://x'],
    ['TXMAIL_HTTP_PORT', '80a'],
    ['TXMAIL_HTTP_PORT', '70000'],
    ['TXMAIL_PUBLIC_URL', 'ftp://x'],
    ['TXMAIL_RELAY_URL', 'http://relay'],
    ['TXMAIL_DNS_SERVERS', '127.0.0.1:53,nope'],
    ['TXMAIL_SOURCE_IPS', '10.0.0.300'],
    ['TXMAIL_SOURCE_IPS', '10.0.0.3@2026-13-01'],
    ['TXMAIL_WARMUP_SCHEDULE', '50,100,0'],
    ['TXMAIL_WARMUP_SCHEDULE', '50,lots'],
    ['TXMAIL_ACCOUNT_RATE_LIMITS', 'gold=5'],
    ['TXMAIL_ACCOUNT_RATE_LIMITS', 'free=0'],
    ['TXMAIL_ALLOW_PRIVATE_NETWORKS', 'maybe'],
    ['TXMAIL_SIGNUP', 'invite'],
    ['TXMAIL_RATE_LIMIT', '-1'],
    ['TXMAIL_PROCESS_HEARTBEAT_SECONDS', '0'],
    ['TXMAIL_PROCESS_HEARTBEAT_SECONDS', 'soon'],
    ['TXMAIL_SECRET_KEY', 'short'],
    ['TXMAIL_RETURN_PATH_LABEL', 'a.b'],
    ['TXMAIL_DESTINATION_LIMITS', 'google.com:connections=lots'],
    ['TXMAIL_BUILD_THREADS', 'two'],
    ['TXMAIL_SQLITE_WRITER_THREAD', 'sometimes'],
    ['TXMAIL_SPF_DOMAIN', 'spf_example'],
    ['TXMAIL_SPF_DOMAIN', 'spf._example.com'],
    ['TXMAIL_HTTP_HOST', 'bogus!value'],
    ['TXMAIL_INBOUND_HOST', 'in valid'],
    ['TXMAIL_INBOUND_MX', '192.0.2.1'],
    ['TXMAIL_INBOUND_MAX_SIZE', '10 GB'],
    ['TXMAIL_INBOUND_MAX_SIZE', '100'],
    ['TXMAIL_INBOUND_CONNECTIONS_PER_MINUTE', 'many'],
    ['TXMAIL_INBOUND_SESSIONS_PER_IP', '-1'],
    ['TXMAIL_INBOUND_SESSION_LIFETIME', '10 minutes'],
    ['TXMAIL_INBOUND_SESSION_LIFETIME', '2d'],
    ['TXMAIL_INBOUND_SESSION_LIFETIME', '25h'],
    ['TXMAIL_INBOUND_HOURLY_MESSAGES', 'lots'],
    ['TXMAIL_INBOUND_HOURLY_MESSAGES', '5000000000'],
    ['TXMAIL_INBOUND_HOURLY_BYTES', '100'],
    ['TXMAIL_INBOUND_HOURLY_BYTES', '2000000M'],
    ['TXMAIL_INBOUND_TRUSTED_NETWORKS', 'mx.example.com'],
    ['TXMAIL_INBOUND_TRUSTED_NETWORKS', 'none,loopback'],
    ['TXMAIL_INBOUND_TRUSTED_NETWORKS', '10.0.0.0/33'],
    ['TXMAIL_INBOUND_HEALTH_PORT', 'yes'],
    ['TXMAIL_INBOUND_PARSE_TIMEOUT_MS', '0'],
    ['TXMAIL_INBOUND_PARSE_TIMEOUT_MS', '5s'],
    ['TXMAIL_WORKER_HEALTH_PORT', '70000'],
    ['TXMAIL_TRUST_PROXY', 'proxy.example.com'],
    ['TXMAIL_TRUST_PROXY', '10.0.0.0/33'],
    ['TXMAIL_TRUST_PROXY', '10.0.0'],
    ['TXMAIL_TRUST_PROXY', '-1'],
    ['TXMAIL_WEBHOOK_ENDPOINT_CONCURRENCY', '0'],
    ['TXMAIL_WEBHOOK_ACCOUNT_CONCURRENCY', '-3'],
    ['TXMAIL_WEBHOOK_MAX_PENDING_REPLAYS', 'lots'],
  ])('stops on a bad %s naming the variable', (variable, value) => {
    let error: unknown;
    try {
      parseConfig({ TXMAIL_HOSTNAME: 'mail.example.com', [variable]: value });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).variable).toBe(variable);
    expect((error as Error).message.startsWith(`${variable}: `)).toBe(true);
  });

  it('reads the webhook dispatch limits: pushes in flight per endpoint and per account, pending replays per endpoint', () => {
    const base = { TXMAIL_HOSTNAME: 'mail.example.com' };
    expect(parseConfig(base)).toMatchObject({
      webhookEndpointConcurrency: 4,
      webhookAccountConcurrency: 10,
      webhookMaxPendingReplays: 1000,
    });
    expect(
      parseConfig({
        ...base,
        TXMAIL_WEBHOOK_ENDPOINT_CONCURRENCY: '8',
        TXMAIL_WEBHOOK_ACCOUNT_CONCURRENCY: '12',
        TXMAIL_WEBHOOK_MAX_PENDING_REPLAYS: '50',
      }),
    ).toMatchObject({
      webhookEndpointConcurrency: 8,
      webhookAccountConcurrency: 12,
      webhookMaxPendingReplays: 50,
    });
  });

  it('reads the inbound receiver limits in bytes or with K and M', () => {
    const base = { TXMAIL_HOSTNAME: 'mail.example.com' };
    expect(parseConfig(base)).toMatchObject({
      inboundMaxSize: 10 * 1024 * 1024,
      inboundConnectionsPerMinute: 60,
    });
    expect(parseConfig({ ...base, TXMAIL_INBOUND_HEALTH_PORT: '9102' }).inboundHealthPort).toBe(9102);
    expect(parseConfig({ ...base, TXMAIL_WORKER_HEALTH_PORT: '9103' }).workerHealthPort).toBe(9103);
    expect(parseConfig(base).workerHealthPort).toBeUndefined();
    expect(parseConfig({ ...base, TXMAIL_INBOUND_MAX_SIZE: '65536' }).inboundMaxSize).toBe(65536);
    expect(parseConfig({ ...base, TXMAIL_INBOUND_MAX_SIZE: '64K' }).inboundMaxSize).toBe(65536);
    expect(parseConfig({ ...base, TXMAIL_INBOUND_MAX_SIZE: '25MiB' }).inboundMaxSize).toBe(25 * 1024 * 1024);
    expect(
      parseConfig({ ...base, TXMAIL_INBOUND_CONNECTIONS_PER_MINUTE: '0' }).inboundConnectionsPerMinute,
    ).toBe(0);
  });

  it('reads the per-client limits of the receiver, each with its default', () => {
    const base = { TXMAIL_HOSTNAME: 'mail.example.com' };
    expect(parseConfig(base)).toMatchObject({
      inboundSessionsPerIp: 10,
      inboundSessionLifetimeMs: 600_000,
      inboundHourlyMessages: 1000,
      inboundHourlyBytes: 100 * 1024 * 1024,
      inboundTrustedNetworks: ['loopback'],
    });
    expect(
      parseConfig({
        ...base,
        TXMAIL_INBOUND_SESSIONS_PER_IP: '0',
        TXMAIL_INBOUND_SESSION_LIFETIME: '90',
        TXMAIL_INBOUND_HOURLY_MESSAGES: '0',
        TXMAIL_INBOUND_HOURLY_BYTES: '0',
        TXMAIL_INBOUND_TRUSTED_NETWORKS: 'none',
      }),
    ).toMatchObject({
      inboundSessionsPerIp: 0,
      inboundSessionLifetimeMs: 90_000,
      inboundHourlyMessages: 0,
      inboundHourlyBytes: 0,
      inboundTrustedNetworks: [],
    });
    const lifetime = (v: string) =>
      parseConfig({ ...base, TXMAIL_INBOUND_SESSION_LIFETIME: v }).inboundSessionLifetimeMs;
    expect([lifetime('30s'), lifetime('15m'), lifetime('2h'), lifetime('0')]).toEqual([
      30_000, 900_000, 7_200_000, 0,
    ]);
    expect(parseConfig({ ...base, TXMAIL_INBOUND_HOURLY_BYTES: '512K' }).inboundHourlyBytes).toBe(512 * 1024);
    expect(
      parseConfig({ ...base, TXMAIL_INBOUND_TRUSTED_NETWORKS: ' Loopback, 192.0.2.0/24,2001:db8::25 ' })
        .inboundTrustedNetworks,
    ).toEqual(['loopback', '192.0.2.0/24', '2001:db8::25']);
  });

  it('reads TXMAIL_TRUST_PROXY as off, on, a number of hops or a list of addresses and ranges', () => {
    const trust = (v?: string) =>
      parseConfig({
        TXMAIL_HOSTNAME: 'mail.example.com',
        ...(v === undefined ? {} : { TXMAIL_TRUST_PROXY: v }),
      }).trustProxy;
    expect(trust()).toBe(false);
    expect(trust('false')).toBe(false);
    expect(trust('0')).toBe(false);
    expect(trust('true')).toBe(true);
    expect(trust('2')).toBe(2);
    expect(trust('10.0.0.1, 10.1.0.0/16,fd00::/8, ::1,loopback')).toEqual([
      '10.0.0.1',
      '10.1.0.0/16',
      'fd00::/8',
      '::1',
      'loopback',
    ]);
  });

  it('parses lists and masks secrets when printed', () => {
    const c = parseConfig({
      TXMAIL_HOSTNAME: 'mail.example.com',
      TXMAIL_DNS_SERVERS: '127.0.0.1:5353, [::1]:53',
      TXMAIL_RELAY_URL: 'smtp://user:hunter2@relay.example.com:587',
      TXMAIL_DATABASE_URL: 'postgres://txmail:pw@db/txmail',
      TXMAIL_SECRET_KEY: 's'.repeat(40),
    });
    expect(c.dnsServers).toEqual(['127.0.0.1:5353', '[::1]:53']);
    const printed = JSON.stringify(describeConfig(c));
    expect(printed).not.toContain('hunter2');
    expect(printed).not.toContain(':pw@');
    expect(printed).not.toContain('s'.repeat(40));
  });

  it('warns of memory limits that could never hold the largest body or message, and only of those', () => {
    const warned = (env: Record<string, string>) =>
      configWarnings(parseConfig({ TXMAIL_DATABASE_URL: 'sqlite::memory:', ...env })).map((w) => w.variable);
    expect(warned({})).toEqual([]);
    expect(warned({ TXMAIL_HTTP_BODY_MEMORY: '0', TXMAIL_HTTP_BODY_MEMORY_PER_IP: '0' })).toEqual([]);
    expect(warned({ TXMAIL_HTTP_BODY_MEMORY_PER_IP: '9M' })).toEqual(['TXMAIL_HTTP_BODY_MEMORY_PER_IP']);
    expect(warned({ TXMAIL_HTTP_BODY_MEMORY: '8M', TXMAIL_HTTP_BODY_MEMORY_PER_IP: '8M' })).toEqual([
      'TXMAIL_HTTP_BODY_MEMORY',
      'TXMAIL_HTTP_BODY_MEMORY_PER_IP',
    ]);
    // A 10 MiB message holds about 10.9 MiB while it is stored: as received, and a part of 384 KiB with
    // its base64 text at a time.
    expect(warned({ TXMAIL_INBOUND_MEMORY_PER_IP: '10M' })).toEqual(['TXMAIL_INBOUND_MEMORY_PER_IP']);
    expect(warned({ TXMAIL_INBOUND_MEMORY_PER_IP: '11M' })).toEqual([]);
    // One of 300 KiB is stored whole: as received, in one piece and in base64 (1,000 KiB).
    expect(warned({ TXMAIL_INBOUND_MEMORY_PER_IP: '999K', TXMAIL_INBOUND_MAX_SIZE: '300K' })).toEqual([
      'TXMAIL_INBOUND_MEMORY_PER_IP',
    ]);
    expect(warned({ TXMAIL_INBOUND_MEMORY_PER_IP: '1M', TXMAIL_INBOUND_MAX_SIZE: '300K' })).toEqual([]);
    // Untrusted clients may use seven eighths of the whole: 12M leaves them 10.5 MiB, 13M 11.375 MiB.
    expect(warned({ TXMAIL_INBOUND_MEMORY: '12M', TXMAIL_INBOUND_MEMORY_PER_IP: '0' })).toEqual([
      'TXMAIL_INBOUND_MEMORY',
    ]);
    expect(warned({ TXMAIL_INBOUND_MEMORY: '13M', TXMAIL_INBOUND_MEMORY_PER_IP: '0' })).toEqual([]);
    const [w] = configWarnings(
      parseConfig({ TXMAIL_DATABASE_URL: 'sqlite::memory:', TXMAIL_INBOUND_MEMORY_PER_IP: '10M' }),
    );
    expect(w?.message).toBe(
      '10 MiB cannot hold the largest message (one message of TXMAIL_INBOUND_MAX_SIZE (10 MiB) holds 10.9 MiB while it is stored): it will be refused with 452 for ever; raise it, lower TXMAIL_INBOUND_MAX_SIZE, or set 0 (unlimited)',
    );
  });
});

describe('txmail config as text', () => {
  const base = { TXMAIL_HOSTNAME: 'mail.example.com' };
  /** The lines read as the `.env` file they are meant to be, and parsed. */
  const readBack = (lines: string) => parseConfig(parseEnv(lines) as Record<string, string>);

  it.each([
    ['the defaults', {}],
    [
      'every kind set away from its default',
      {
        TXMAIL_HTTP_REQUEST_TIMEOUT: '90',
        TXMAIL_HTTP_BODY_MEMORY: '1536K',
        TXMAIL_INBOUND_MAX_SIZE: '12345678',
        TXMAIL_INBOUND_SESSION_LIFETIME: '0',
        TXMAIL_INBOUND_HOURLY_BYTES: '0',
        TXMAIL_INBOUND_TRUSTED_NETWORKS: 'none',
        TXMAIL_TRUST_PROXY: '10.0.0.0/8, loopback',
        TXMAIL_DNS_SERVERS: '127.0.0.1:5353,192.0.2.53',
        TXMAIL_SOURCE_IPS: '192.0.2.10, 2001:db8::25@2026-11-01',
        TXMAIL_DNSBL_ZONES: 'none',
        TXMAIL_DNSBL_INTERVAL: '90m',
        TXMAIL_RATE_LIMIT: '1000000000000000000000',
        TXMAIL_ACCOUNT_RATE_LIMITS: 'pro=250',
        TXMAIL_REPUTATION: 'bounce_warn=0.0000001,complaint_warn=0.007,min_messages=1000000000000000000000',
        TXMAIL_DESTINATION_LIMITS: 'default:connections=3;google.com:connections=10,rate=50;relay:messages=7',
        TXMAIL_DESTINATION_BLOCKS: 'replies=5,pause_minutes=1440',
        TXMAIL_RELAY_URL: 'smtps://relay.example.com:465',
        TXMAIL_WARMUP_SCHEDULE: '10,20,40',
      },
    ],
  ])('prints %s as a .env file that, read again, gives the same configuration', (_what, set) => {
    const config = parseConfig({ ...base, ...set });
    const lines = configLines(config);
    // Written as the variables take them, not in internal units, JSON or exponents.
    expect(lines).not.toMatch(/=[[{"]|\de[+-]\d/);
    expect(readBack(lines)).toEqual(config);
  });

  it('reads back every rate and count of TXMAIL_REPUTATION as it was', () => {
    const percent = fc.double({ min: 1e-9, max: 100, noNaN: true, noDefaultInfinity: true });
    fc.assert(
      fc.property(percent, percent, fc.integer({ min: 1, max: 2 ** 53 - 1 }), (warn, pause, min) => {
        const [w, p] = warn <= pause ? [warn, pause] : [pause, warn];
        const text = `bounce_warn=${w.toFixed(12).replace(/\.?0+$/, '') || '0'},bounce_pause=${p},min_messages=${min}`;
        let config: ReturnType<typeof parseConfig>;
        try {
          config = parseConfig({ ...base, TXMAIL_REPUTATION: text });
        } catch {
          return; // not a valid setting (a rate written as 0 after rounding): nothing to print
        }
        expect(readBack(configLines(config)).reputation).toEqual(config.reputation);
      }),
    );
  });

  it('writes durations and sizes in their largest whole unit, and unset variables blank', () => {
    const lines = configLines(
      parseConfig({ ...base, TXMAIL_HTTP_REQUEST_TIMEOUT: '120', TXMAIL_HTTP_BODY_MEMORY: '2048K' }),
    );
    expect(lines).toContain('TXMAIL_HTTP_REQUEST_TIMEOUT=2m\n');
    expect(lines).toContain('TXMAIL_HTTP_BODY_MEMORY=2M\n');
    expect(lines).toContain('TXMAIL_SOURCE_IPS=  # unset\n');
    expect(lines).toContain('TXMAIL_SECRET_KEY=  # unset: generated once into the data directory\n');
  });

  it('never prints a secret where it would be read back as the value', () => {
    const secret = 'k'.repeat(40);
    const config = parseConfig({
      ...base,
      TXMAIL_SECRET_KEY: secret,
      TXMAIL_METRICS_TOKEN: 't'.repeat(40),
      TXMAIL_RELAY_URL: 'smtp://relayuser:hunter2@relay.example.com:587',
      TXMAIL_DATABASE_URL: 'postgres://txmail:s3cret@db.example/txmail',
    });
    const lines = configLines(config);
    expect(lines).not.toMatch(/kkkk|tttt|hunter2|s3cret/);
    expect(lines).toContain('# TXMAIL_SECRET_KEY=***  (set; not shown)');
    expect(lines).toContain(
      '# TXMAIL_RELAY_URL=smtp://relayuser:***@relay.example.com:587  (set; not shown)',
    );
    // Read back, the secrets are unset (the operator sets them again), never "***".
    const back = readBack(lines);
    expect(back.secretKey).toBeUndefined();
    expect(back.relayUrl).toBeUndefined();
    expect(back.databaseUrl).toBe(parseConfig(base).databaseUrl);
  });

  it('refuses a secret key with spaces: a sentence pasted in its place', () => {
    expect(() => parseConfig({ ...base, TXMAIL_SECRET_KEY: '(generated in the data directory)' })).toThrow(
      /TXMAIL_SECRET_KEY: must not contain spaces/,
    );
  });
});
