import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config.js';
import { SETTINGS } from '../src/config/table.js';
import { createServices } from '../src/services.js';
import { TestDnsServer } from './helpers/dns-server.js';
import { runCommand } from './helpers/command.js';
import { runCli, startServer } from './helpers/process.js';
import { testFacade } from './helpers/test-env.js';
import { until } from './helpers/wait.js';
import { apiFetch } from './helpers/server-contract.js';

describe('txmail operator commands', () => {
  const dir = mkdtempSync(join(tmpdir(), 'txmail-cli-'));
  const env = { TXMAIL_DATABASE_URL: `sqlite:${join(dir, 'txmail.db')}`, TXMAIL_HOSTNAME: 'mta.example.com' };
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  // This test and the bad configuration's run the real program (bin/txmail, built); the others run
  // the same main() in this process (helpers/command.ts), which spares a process start each.
  it('creates an account and a key, prints the key once and stores only its hash', async () => {
    const created = await runCli(
      ['account', 'create', '--email', 'Ops@Example.com', '--plan', 'pro', '--json'],
      env,
    );
    expect(created.code).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({
      email: 'ops@example.com',
      plan: 'pro',
      state: 'sandbox',
    });

    const key = await runCli(
      ['key', 'create', '--account', 'ops@example.com', '--name', 'ci', '--json'],
      env,
    );
    expect(key.code).toBe(0);
    const { key: apiKey } = JSON.parse(key.stdout) as { key: string };
    expect(apiKey).toMatch(/^txm_[A-Za-z0-9_-]{43}$/);

    const { default: SQLite } = await import('better-sqlite3');
    const db = new SQLite(join(dir, 'txmail.db'), { readonly: true });
    const dump = JSON.stringify(db.prepare('select * from api_keys').all());
    db.close();
    expect(dump).not.toContain(apiKey);
    expect(dump).toContain(apiKey.slice(0, 10)); // the display prefix
  });

  it('lists and revokes keys', async () => {
    const list = await runCommand(['key', 'list', '--account', 'ops@example.com', '--json'], env);
    const keys = JSON.parse(list.stdout) as { id: string; revoked: boolean }[];
    expect(keys).toHaveLength(1);
    expect(keys[0]!.revoked).toBe(false);
    const revoked = await runCommand(
      ['key', 'revoke', '--account', 'ops@example.com', '--id', keys[0]!.id],
      env,
    );
    expect(revoked.code).toBe(0);
    const after = JSON.parse(
      (await runCommand(['key', 'list', '--account', 'ops@example.com', '--json'], env)).stdout,
    );
    expect(after[0].revoked).toBe(true);
    const again = await runCommand(
      ['key', 'revoke', '--account', 'ops@example.com', '--id', keys[0]!.id],
      env,
    );
    expect(again.code).toBe(2);
  });

  it('changes a plan and refuses an unknown one', async () => {
    expect(
      (await runCommand(['plan', 'set', '--account', 'ops@example.com', '--plan', 'scale'], env)).code,
    ).toBe(0);
    const bad = await runCommand(['plan', 'set', '--account', 'ops@example.com', '--plan', 'gold'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--plan must be one of free, pro, scale');
  });

  /** The audit entries of one account, oldest first. */
  const auditOf = async (accountId: string, columns = 'actor_type, action, target') => {
    const { default: SQLite } = await import('better-sqlite3');
    const db = new SQLite(join(dir, 'txmail.db'), { readonly: true });
    try {
      return db.prepare(`select ${columns} from audit_log where account_id = ? order by id`).all(accountId);
    } finally {
      db.close();
    }
  };

  /** A new account of this test's own, by `txmail account create`: its id. */
  const ownAccount = async (email: string): Promise<string> => {
    const created = await runCommand(['account', 'create', '--email', email, '--json'], env);
    expect(created.code, created.stderr).toBe(0);
    return (JSON.parse(created.stdout) as { id: string }).id;
  };

  it("records the operator's changes in the account's audit log", async () => {
    // Its own account: only the entries of this test's commands are in its log.
    const account = 'audited@example.com';
    const accountId = await ownAccount(account);
    const key = await runCommand(['key', 'create', '--account', account, '--json'], env);
    expect(key.code, key.stderr).toBe(0);
    const { id: keyId } = JSON.parse(key.stdout) as { id: string };
    expect((await runCommand(['key', 'revoke', '--account', account, '--id', keyId], env)).code).toBe(0);
    expect((await runCommand(['plan', 'set', '--account', account, '--plan', 'scale'], env)).code).toBe(0);
    expect((await runCommand(['account', 'suspend', '--account', account], env)).code).toBe(0);
    expect((await runCommand(['account', 'resume', '--account', account], env)).code).toBe(0);
    const suppression = (verb: string) =>
      runCommand(['suppression', verb, '--account', account, '--address', 'gone@dest.example'], env);
    expect((await suppression('add')).code).toBe(0);
    expect((await suppression('add')).code).toBe(0);
    expect((await suppression('remove')).code).toBe(0);
    const rows = await auditOf(accountId);
    // The key is named as it was called (audit/target-label.ts), revoked as when made.
    const keyLabel = expect.stringMatching(/^default \(txm_[0-9A-Za-z_-]+…\)$/);
    expect(
      (await auditOf(accountId, 'target_label')).map((r) => (r as { target_label: unknown }).target_label),
    ).toEqual([keyLabel, keyLabel, null, null, null, null, null]);
    expect(rows).toEqual([
      { actor_type: 'operator', action: 'api_key.created', target: expect.any(String) },
      { actor_type: 'operator', action: 'api_key.revoked', target: expect.any(String) },
      { actor_type: 'operator', action: 'account.plan_changed', target: 'scale' },
      { actor_type: 'operator', action: 'account.suspended', target: null },
      { actor_type: 'operator', action: 'account.resumed', target: null },
      // The second add changed nothing: not in the log.
      { actor_type: 'operator', action: 'suppression.added', target: 'gone@dest.example' },
      { actor_type: 'operator', action: 'suppression.removed', target: 'gone@dest.example' },
    ]);
  });

  it("records a customer's dkim rotate in the account's audit log, and nothing for a refused one", async () => {
    const account = 'rotates@example.com';
    const accountId = await ownAccount(account);
    // A domain of the account, made as the API makes it (a DKIM key that signs), on the same database.
    const services = await createServices(
      parseConfig({
        ...env,
        TXMAIL_BUILD_THREADS: '0',
        TXMAIL_SQLITE_WRITER_THREAD: '0',
      }),
      { logger: pino({ level: 'silent' }) },
    );
    try {
      await services.domains.create((await testFacade(services).account(accountId))!, 'acme.example');
    } finally {
      await services.close();
    }
    const refused = await runCommand(
      ['dkim', 'rotate', '--domain', 'other.example', '--account', account],
      env,
    );
    expect(refused.code).toBe(2);
    expect(await auditOf(accountId)).toEqual([]);
    const rotated = await runCommand(
      ['dkim', 'rotate', '--domain', 'acme.example', '--account', account, '--json'],
      env,
    );
    expect(rotated.code, rotated.stderr).toBe(0);
    expect(JSON.parse(rotated.stdout)).toMatchObject({ domain: 'acme.example', outcome: 'started' });
    expect(await auditOf(accountId)).toEqual([
      { actor_type: 'operator', action: 'dkim_key.rotated', target: 'acme.example' },
    ]);
  });

  it('refuses a duplicate account', async () => {
    const dup = await runCommand(['account', 'create', '--email', 'ops@example.com'], env);
    expect(dup.code).toBe(2);
    expect(dup.stderr).toContain('already exists');
  });

  it('answers an unknown option, or one without its value, as a usage error (exit 2)', async () => {
    const unknown = await runCli(['key', 'list', '--account', 'ops@example.com', '--bogus'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^txmail: Unknown option '--bogus'/);
    const bare = await runCli(['key', 'list', '--account'], env);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toMatch(/^txmail: Option '--account <value>' argument missing/);
  });

  it('stops on a bad configuration value, naming the variable', async () => {
    const res = await runCli(['config'], { ...env, TXMAIL_HTTP_PORT: 'eighty' });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('TXMAIL_HTTP_PORT: "eighty" is not a port number');
  });

  it('prints every variable of the configuration table by its name, unset ones too, secrets masked', async () => {
    const res = await runCli(['config'], {
      ...env,
      TXMAIL_RELAY_URL: 'smtp://relayuser:hunter2@relay.example.com:587',
    });
    expect(res.code).toBe(0);
    const names = res.stdout
      .trim()
      .split('\n')
      .map((line) => line.replace(/^# /, '').slice(0, line.replace(/^# /, '').indexOf('=')));
    expect(names).toEqual(SETTINGS.map((s) => s.env));
    // A secret's line is a comment: read back as a .env file, it sets nothing.
    expect(res.stdout).toContain(
      '# TXMAIL_RELAY_URL=smtp://relayuser:***@relay.example.com:587  (set; not shown)',
    );
    expect(res.stdout).toContain('TXMAIL_OPERATOR_EMAIL=  # unset');
    expect(res.stdout).not.toContain('hunter2');
    const json = JSON.parse((await runCli(['config', '--json'], env)).stdout) as Record<string, unknown>;
    expect(json).toHaveProperty('operatorEmail', null);
  });

  it('prints the DNS records of the service, with the test domain key it creates once', async () => {
    const dnsEnv = {
      ...env,
      TXMAIL_SOURCE_IPS: '192.0.2.10,2001:db8::25',
      TXMAIL_SPF_DOMAIN: 'spf.mail.example.com',
      TXMAIL_INBOUND_MX: 'bounces.example.com',
    };
    const res = await runCommand(['dns', '--json'], dnsEnv);
    expect(res.code, res.stderr).toBe(0);
    const { records } = JSON.parse(res.stdout) as {
      records: { type: string; name: string; value: string; priority?: number }[];
    };
    const dkim = records.find((r) => r.name.endsWith('._domainkey.test.mta.example.com'))!;
    expect(dkim.type).toBe('TXT');
    expect(dkim.name).toMatch(/^txm\d{6}\._domainkey\.test\.mta\.example\.com$/);
    expect(dkim.value).toMatch(/^v=DKIM1; k=rsa; p=[A-Za-z0-9+/]+=*$/);
    expect(records).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          type: 'TXT',
          name: 'test.mta.example.com',
          value: 'v=spf1 include:spf.mail.example.com ~all',
        }),
        expect.objectContaining({
          type: 'MX',
          name: 'test.mta.example.com',
          value: 'bounces.example.com',
          priority: 10,
        }),
        expect.objectContaining({ type: 'TXT', name: '_dmarc.test.mta.example.com' }),
        expect.objectContaining({
          type: 'TXT',
          name: 'spf.mail.example.com',
          value: 'v=spf1 ip4:192.0.2.10 ip6:2001:db8::25 -all',
        }),
        expect.objectContaining({ type: 'A', name: 'bounces.example.com' }),
        expect.objectContaining({ type: 'A', name: 'mta.example.com', value: '192.0.2.10' }),
        expect.objectContaining({ type: 'AAAA', name: 'mta.example.com', value: '2001:db8::25' }),
        expect.objectContaining({ type: 'PTR', name: '10.2.0.192.in-addr.arpa', value: 'mta.example.com' }),
        expect.objectContaining({
          type: 'PTR',
          name: '5.2.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa',
          value: 'mta.example.com',
        }),
        expect.objectContaining({
          type: 'TXT',
          name: 'mta.example.com',
          value: 'v=spf1 ip4:192.0.2.10 ip6:2001:db8::25 -all',
        }),
      ]),
    );

    // The key is created once: a second run prints the same record, and the text form has zone-file lines.
    const text = await runCommand(['dns'], dnsEnv);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(
      `${dkim.name}. IN TXT "${dkim.value.slice(0, 255)}" "${dkim.value.slice(255)}"`,
    );
    expect(text.stdout).toContain(
      'spf.mail.example.com. IN TXT "v=spf1 ip4:192.0.2.10 ip6:2001:db8::25 -all"',
    );
    expect(text.stdout).toContain('test.mta.example.com. IN MX 10 bounces.example.com.');
  });

  it("prints the HELO name's records whatever is configured, and the test domain's DMARC report address", async () => {
    // No TXMAIL_SOURCE_IPS: placeholders for the addresses, an SPF record that names them through "a".
    const bare = await runCommand(['dns'], env);
    expect(bare.code, bare.stderr).toBe(0);
    expect(bare.stdout).toContain('mta.example.com. IN A <the public IPv4 address mail leaves from>');
    expect(bare.stdout).toContain('mta.example.com. IN AAAA <the public IPv6 address mail leaves from>');
    expect(bare.stdout).toContain('<reverse name of each address mail leaves from> IN PTR mta.example.com.');
    expect(bare.stdout).toContain('mta.example.com. IN TXT "v=spf1 a -all"');
    expect(bare.stdout).toMatch(
      /_dmarc\.test\.mta\.example\.com\. IN TXT "v=DMARC1; p=reject; rua=mailto:<[^>]+>"/,
    );

    const withOperator = await runCommand(['dns'], {
      ...env,
      TXMAIL_SOURCE_IPS: '2001:db8::25',
      TXMAIL_OPERATOR_EMAIL: 'dmarc@ops.example.org',
    });
    expect(withOperator.code, withOperator.stderr).toBe(0);
    expect(withOperator.stdout).toContain('mta.example.com. IN AAAA 2001:db8::25');
    expect(withOperator.stdout).toContain(
      '5.2.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa. IN PTR mta.example.com.',
    );
    expect(withOperator.stdout).toContain('mta.example.com. IN TXT "v=spf1 ip6:2001:db8::25 -all"');
    expect(withOperator.stdout).toContain(
      '_dmarc.test.mta.example.com. IN TXT "v=DMARC1; p=reject; rua=mailto:dmarc@ops.example.org"',
    );
    expect(withOperator.stdout).toContain(
      'test.mta.example.com._report._dmarc.ops.example.org. IN TXT "v=DMARC1"',
    );
  });

  it("rotates the test domain's DKIM key: prints the new record, then lets it take over once published", async () => {
    const dns = await new TestDnsServer().start();
    try {
      const dnsEnv = { ...env, TXMAIL_DNS_SERVERS: dns.address };
      const domain = 'test.mta.example.com';
      type Key = {
        selector: string;
        status: string;
        name: string;
        value: string;
        record_status: string | null;
      };
      type Rotation = { outcome: string; keys: Key[] };
      const rotate = async () => {
        const res = await runCommand(['dkim', 'rotate', '--domain', domain, '--json'], dnsEnv);
        expect(res.code, res.stderr).toBe(0);
        return JSON.parse(res.stdout) as Rotation;
      };
      const dnsRecords = async () =>
        (
          JSON.parse((await runCommand(['dns', '--json'], dnsEnv)).stdout) as {
            records: { name: string; value: string; purpose: string }[];
          }
        ).records;
      const before = (await dnsRecords()).find((r) => r.name.endsWith(`._domainkey.${domain}`))!;

      const started = await rotate();
      expect(started.outcome).toBe('started');
      const pending = started.keys.find((k) => k.status === 'pending')!;
      expect(pending.value).toMatch(/^v=DKIM1; k=rsa; p=/);
      expect(pending.name).not.toBe(before.name);
      expect(started.keys.find((k) => k.status === 'active')!.name).toBe(before.name);
      // txmail dns lists both: the current key's record and the new one's.
      const listed = await dnsRecords();
      expect(listed).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ name: before.name, value: before.value }),
          expect.objectContaining({ name: pending.name, value: pending.value }),
        ]),
      );

      // Not published yet: the same pending key, looked up and missing.
      const waiting = await rotate();
      expect(waiting.outcome).toBe('waiting');
      expect(waiting.keys.find((k) => k.status === 'pending')).toMatchObject({
        selector: pending.selector,
        record_status: 'missing',
      });

      dns.add(pending.name, 'TXT', pending.value);
      const text = await runCommand(['dkim', 'rotate', '--domain', domain], dnsEnv);
      expect(text.code, text.stderr).toBe(0);
      expect(text.stdout).toContain(`${domain}: the new DKIM key signs now.`);
      expect(text.stdout).toMatch(
        new RegExp(`its record ${before.name.replaceAll('.', '\\.')} may be removed after `),
      );
      // The new key's record, and the old one's until it may be removed.
      const after = (await dnsRecords()).filter((r) => r.name.endsWith(`._domainkey.${domain}`));
      expect(after).toEqual([
        expect.objectContaining({ name: pending.name, value: pending.value }),
        expect.objectContaining({
          name: before.name,
          value: before.value,
          purpose: expect.stringMatching(/^the test domain's previous DKIM key .*: remove after \d{4}-/),
        }),
      ]);

      // A customer's domain needs its account; an unknown one is refused.
      const noAccount = await runCommand(['dkim', 'rotate', '--domain', 'acme.example'], dnsEnv);
      expect(noAccount.code).toBe(2);
      expect(noAccount.stderr).toContain('--account is required');
      const unknown = await runCommand(
        ['dkim', 'rotate', '--domain', 'acme.example', '--account', 'ops@example.com'],
        dnsEnv,
      );
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toContain('ops@example.com has no domain acme.example');
    } finally {
      await dns.stop();
    }
  });

  it('prints the configuration with secrets masked', async () => {
    const res = await runCommand(['config', '--json'], { ...env, TXMAIL_SECRET_KEY: 'z'.repeat(48) });
    expect(res.code).toBe(0);
    expect(res.stdout).not.toContain('z'.repeat(48));
    expect(JSON.parse(res.stdout)).toMatchObject({ hostname: 'mta.example.com', secretKey: '***' });
  });

  it('lists, adds and removes suppressed addresses', async () => {
    const list = (extra: string[] = []) =>
      runCommand(['suppression', 'list', '--account', 'ops@example.com', '--json', ...extra], env);
    expect(JSON.parse((await list()).stdout)).toEqual([]);

    const added = await runCommand(
      [
        'suppression',
        'add',
        '--account',
        'ops@example.com',
        '--address',
        'Jane@Dest.example',
        '--reason',
        'asked to stop',
        '--json',
      ],
      env,
    );
    expect(added.code, added.stderr).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({
      address: 'jane@dest.example',
      origin: 'manual',
      created: true,
    });
    await runCommand(
      ['suppression', 'add', '--account', 'ops@example.com', '--address', 'joe@dest.example'],
      env,
    );

    const all = JSON.parse((await list()).stdout) as { address: string; reason: string }[];
    expect(all.map((e) => e.address)).toEqual(['joe@dest.example', 'jane@dest.example']);
    expect(all[1]!.reason).toBe('asked to stop');
    const text = await runCommand(
      ['suppression', 'list', '--account', 'ops@example.com', '--address', 'jane@dest.example'],
      env,
    );
    expect(text.stdout).toMatch(/^jane@dest\.example {2}\d{4}-.+Z {2}manual: asked to stop\n$/);

    const removed = await runCommand(
      ['suppression', 'remove', '--account', 'ops@example.com', '--address', 'jane@dest.example'],
      env,
    );
    expect(removed.code).toBe(0);
    expect(JSON.parse((await list()).stdout).map((e: { address: string }) => e.address)).toEqual([
      'joe@dest.example',
    ]);
    const again = await runCommand(
      ['suppression', 'remove', '--account', 'ops@example.com', '--address', 'jane@dest.example'],
      env,
    );
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('jane@dest.example is not on the suppression list');
    const bad = await runCommand(
      ['suppression', 'add', '--account', 'ops@example.com', '--address', 'nope'],
      env,
    );
    expect(bad.code).toBe(2);
  });
});

describe('the host name check of the service roles', () => {
  const dir = mkdtempSync(join(tmpdir(), 'txmail-hostname-'));
  const env = { TXMAIL_DATABASE_URL: `sqlite:${join(dir, 'txmail.db')}`, TXMAIL_LOG_LEVEL: 'info' };
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each(['serve', 'api', 'worker'])(
    'txmail %s refuses to start with a host name that is not a FQDN, saying how to fix it',
    async (role) => {
      const res = await runCli([role], { ...env, TXMAIL_HOSTNAME: 'vm' });
      expect(res.code).toBe(2);
      expect(res.stderr).toMatch(
        /^txmail: TXMAIL_HOSTNAME: "vm" is a single label, not a fully qualified domain name/,
      );
      expect(res.stderr).toContain('Set TXMAIL_HOSTNAME to');
      expect(res.stderr.trimEnd().split('\n')).toHaveLength(1);
    },
  );

  it('npm start (serve --trial) starts on a machine with a bare host name, with a warning', async () => {
    const server = await startServer('serve --trial', { ...env, TXMAIL_HOSTNAME: 'vm' });
    try {
      expect((await apiFetch(server, '/healthz')).ok).toBe(true);
      const warning = await until('the warning log line', async () =>
        server
          .output()
          .split('\n')
          .find((l) => l.includes('allowed for a trial on this machine')),
      );
      expect(JSON.parse(warning)).toMatchObject({ level: 40, ehlo_name: 'vm' });
    } finally {
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    }
    const res = await runCli(['api', '--trial'], { ...env, TXMAIL_HOSTNAME: 'vm' });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--trial is an option of serve only');
  });

  it('starts with such a host name when TXMAIL_ALLOW_PRIVATE_NETWORKS is set, with a warning', async () => {
    const server = await startServer('serve', {
      ...env,
      TXMAIL_HOSTNAME: 'vm',
      TXMAIL_ALLOW_PRIVATE_NETWORKS: 'true',
    });
    try {
      expect((await apiFetch(server, '/healthz')).ok).toBe(true);
      const warning = await until('the warning log line', async () =>
        server
          .output()
          .split('\n')
          .find((l) => l.includes('allowed because TXMAIL_ALLOW_PRIVATE_NETWORKS is set')),
      );
      expect(JSON.parse(warning)).toMatchObject({ level: 40, ehlo_name: 'vm' });
      expect(warning).toContain('is a single label');
    } finally {
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    }
  });
});

describe('a service role that cannot start', () => {
  const dir = mkdtempSync(join(tmpdir(), 'txmail-taken-'));
  const env = {
    TXMAIL_DATABASE_URL: `sqlite:${join(dir, 'txmail.db')}`,
    TXMAIL_HOSTNAME: 'mta.txmail.test',
    TXMAIL_HTTP_HOST: '127.0.0.1',
    TXMAIL_INBOUND_HOST: '127.0.0.1',
  };
  let taken: Server;
  let takenPort: number;
  beforeAll(async () => {
    taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    takenPort = (taken.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => taken.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  // The worker starts first: left running, it would deliver and push with no API and no bounce receiver,
  // and the process would never end for a supervisor to restart it.
  it.each([
    ['the bounce receiver', 'TXMAIL_INBOUND_PORT', 'TXMAIL_HTTP_PORT'],
    ['the API', 'TXMAIL_HTTP_PORT', 'TXMAIL_INBOUND_PORT'],
  ])(
    'txmail serve stops what it started and exits 1 when the port of %s is taken',
    async (_what, busy, free) => {
      const res = await runCli(['serve'], {
        ...env,
        [busy]: String(takenPort),
        [free]: '0',
      });
      expect(res.code).toBe(1);
      // Said with the setting that chose the port.
      expect(res.stderr).toContain(
        `listen EADDRINUSE: address already in use 127.0.0.1:${takenPort} (${busy})`,
      );
      expect(res.stdout).toContain('txmail could not start; stopping what had started');
    },
  );
});
