// Destination blocks (ARCHITECTURE.md, "Destination blocks"): the shared store on both databases (two
// connections stand for two worker processes), the cached reader each worker holds, the settings, the
// destination a block is about, and the source pool's addresses to avoid.
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrate, openDatabase, type Db } from '../src/db/database.js';
import { DestinationBlocksRepo, type BlockRule } from '../src/db/destination-blocks-repo.js';
import {
  DEFAULT_DESTINATION_BLOCKS,
  DestinationBlocks,
  parseDestinationBlocks,
} from '../src/delivery/destination-blocks.js';
import { destinationBlocksSection } from '../src/delivery/destination-blocks-status.js';
import { blockDestination, registeredDomain } from '../src/delivery/destination-key.js';
import { SourceIpPool } from '../src/delivery/source-ip-pool.js';
import { parseConfig } from '../src/config.js';
import { capturedLog } from './helpers/captured-log.js';
import { databaseKinds, type TestDatabase } from './helpers/databases.js';

const MIN = 60_000;
const T0 = Date.UTC(2026, 10, 24, 12);
const RULE: BlockRule = { accounts: 2, replies: 3, windowMs: 60 * MIN, pauseMs: 60 * MIN };
/** The rule with a reply count out of reach: only distinct accounts pause. */
const ACCOUNTS_ONLY: BlockRule = { ...RULE, replies: 1000 };
const REPLY = '550 5.7.1 Service unavailable; Client host [192.0.2.1] blocked using zen.spamhaus.org';

describe.each(databaseKinds)('the shared store of destination blocks on $name', (kind) => {
  let database: TestDatabase;
  let dbs: Db[];
  const open = async () => {
    const db = openDatabase(database.url);
    dbs.push(db);
    await migrate(db);
    return new DestinationBlocksRepo(db.kysely);
  };
  const hit = (destination: string, sourceIp: string, accountId: string, now: number) => ({
    destination,
    sourceIp,
    accountId,
    reply: REPLY,
    now,
  });

  beforeEach(async () => {
    database = await kind.create();
    dbs = [];
  });
  afterEach(async () => {
    for (const db of dbs) await db.close();
    await database.drop();
  });

  it('one account refused fewer than `replies` times pauses nothing; a second account within the window does', async () => {
    const repo = await open();
    for (let i = 0; i < 5; i++) {
      const o = await repo.hit(hit('google.com', '192.0.2.1', 'acct-a', T0 + i * MIN), ACCOUNTS_ONLY);
      expect(o).toMatchObject({ accounts: 1, replies: i + 1, pause: undefined, newlyPaused: false });
    }
    expect(await repo.active(T0 + 5 * MIN)).toEqual([]);
    // Another process (its own connection) records the second account.
    const other = await open();
    const o = await other.hit(hit('google.com', '192.0.2.1', 'acct-b', T0 + 10 * MIN), ACCOUNTS_ONLY);
    expect(o.accounts).toBe(2);
    expect(o.newlyPaused).toBe(true);
    expect(o.pause).toEqual({
      destination: 'google.com',
      sourceIp: '192.0.2.1',
      pausedUntil: T0 + 70 * MIN,
      pausedAt: T0 + 10 * MIN,
      accounts: 2,
      reply: REPLY,
    });
    expect(await repo.active(T0 + 11 * MIN)).toEqual([o.pause]);
    // A third account while paused: the pause stands as it was, set once.
    const third = await repo.hit(hit('google.com', '192.0.2.1', 'acct-c', T0 + 20 * MIN), ACCOUNTS_ONLY);
    expect(third).toMatchObject({ accounts: 3, newlyPaused: false, pause: { pausedUntil: T0 + 70 * MIN } });
    // Other addresses and other destinations are untouched.
    expect((await repo.active(T0 + 21 * MIN)).map((b) => [b.destination, b.sourceIp])).toEqual([
      ['google.com', '192.0.2.1'],
    ]);
    // The pause ends.
    expect(await repo.active(T0 + 70 * MIN)).toEqual([]);
  });

  it("one account's repeated sender blocks pause at `replies`; replies out of the window start over", async () => {
    const repo = await open();
    expect(await repo.hit(hit('yahoo.com', '', 'solo', T0), RULE)).toMatchObject({
      replies: 1,
      pause: undefined,
    });
    // Past the window the account's count starts again at 1.
    const later = T0 + 61 * MIN;
    expect(await repo.hit(hit('yahoo.com', '', 'solo', later), RULE)).toMatchObject({ replies: 1 });
    expect(await repo.hit(hit('yahoo.com', '', 'solo', later + MIN), RULE)).toMatchObject({
      replies: 2,
      pause: undefined,
    });
    const third = await repo.hit(hit('yahoo.com', '', 'solo', later + 2 * MIN), RULE);
    expect(third).toMatchObject({
      accounts: 1,
      replies: 3,
      newlyPaused: true,
      pause: { destination: 'yahoo.com', sourceIp: '', pausedUntil: later + 62 * MIN },
    });
  });

  it('counts only accounts within the window, per source address', async () => {
    const repo = await open();
    await repo.hit(hit('outlook.com', '', 'acct-a', T0), RULE);
    // An hour and a minute later: the first refusal is out of the window.
    const late = await repo.hit(hit('outlook.com', '', 'acct-b', T0 + 61 * MIN), RULE);
    expect(late).toMatchObject({ accounts: 1, newlyPaused: false });
    // Another source address is counted apart.
    const apart = await repo.hit(hit('outlook.com', '192.0.2.9', 'acct-c', T0 + 62 * MIN), RULE);
    expect(apart).toMatchObject({ accounts: 1, newlyPaused: false });
    const paused = await repo.hit(hit('outlook.com', '', 'acct-c', T0 + 62 * MIN), RULE);
    expect(paused).toMatchObject({ accounts: 2, newlyPaused: true, pause: { sourceIp: '' } });
  });

  it('two workers: one pauses, the other sees it through its cache, and the status section alerts', async () => {
    let now = T0;
    const log = capturedLog();
    const counted: string[] = [];
    const a = new DestinationBlocks(
      await open(),
      RULE,
      () => now,
      log.logger,
      () => counted.push('a'),
    );
    const b = new DestinationBlocks(await open(), RULE, () => now, pino({ level: 'silent' }));
    expect((await b.paused('google.com')).size).toBe(0);
    await a.senderBlock({ destination: 'google.com', sourceIp: '192.0.2.1', accountId: 'x', reply: REPLY });
    await a.senderBlock({ destination: 'google.com', sourceIp: '192.0.2.1', accountId: 'y', reply: REPLY });
    expect(counted).toEqual(['a', 'a']);
    // The worker that set the pause knows at once; its log says so, once, as a warning.
    expect([...(await a.paused('google.com'))]).toEqual([['192.0.2.1', T0 + 60 * MIN]]);
    const lines = log
      .text()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const paused = lines.filter((l) => String(l.msg).startsWith('destination paused'));
    expect(paused).toHaveLength(1);
    expect(paused[0]).toMatchObject({
      level: 40,
      destination: 'google.com',
      sourceIp: '192.0.2.1',
      accounts: 2,
    });
    // The other reads the shared store again once its copy is older than the cache time.
    now += 5000;
    expect([...(await b.paused('google.com'))]).toEqual([['192.0.2.1', T0 + 60 * MIN]]);
    const section = await destinationBlocksSection(() => dbsRepo().active(now), now);
    expect(section.alert).toBe(true);
    expect(section.lines[0]).toMatch(/^google\.com refuses mail from 192\.0\.2\.1 \(2 accounts/);
    expect(section.json).toEqual([
      expect.objectContaining({ destination: 'google.com', source_ip: '192.0.2.1' }),
    ]);
    now = T0 + 60 * MIN;
    expect((await a.paused('google.com')).size).toBe(0);
    const calm = await destinationBlocksSection(() => dbsRepo().active(now), now);
    expect(calm).toMatchObject({ alert: false, lines: [], json: [] });
  });

  const dbsRepo = () => new DestinationBlocksRepo(dbs[0]!.kysely);
});

describe('a store that cannot be reached', () => {
  it('keeps mail going: no pause read, the sender block logged, nothing thrown', async () => {
    const log = capturedLog();
    const failing = {
      hit: () => Promise.reject(new Error('database away')),
      active: () => Promise.reject(new Error('database away')),
    };
    const blocks = new DestinationBlocks(failing, RULE, () => T0, log.logger);
    expect((await blocks.paused('google.com')).size).toBe(0);
    await blocks.senderBlock({ destination: 'google.com', sourceIp: '', accountId: 'x', reply: REPLY });
    expect(log.text()).toContain('could not record a sender block');
    expect(log.text()).toContain('could not read the destination blocks');
  });
});

describe('TXMAIL_DESTINATION_BLOCKS', () => {
  it('has defaults, takes any setting in minutes, and refuses nonsense', () => {
    expect(parseDestinationBlocks('')).toEqual(DEFAULT_DESTINATION_BLOCKS);
    expect(DEFAULT_DESTINATION_BLOCKS).toEqual({
      accounts: 2,
      replies: 3,
      windowMs: 60 * MIN,
      pauseMs: 60 * MIN,
    });
    expect(parseDestinationBlocks('accounts=3, replies=10, pause_minutes=15')).toEqual({
      accounts: 3,
      replies: 10,
      windowMs: 60 * MIN,
      pauseMs: 15 * MIN,
    });
    for (const bad of [
      'accounts=0',
      'replies=0',
      'accounts=two',
      'hours=1',
      'window_minutes=20000',
      'pause_minutes=-1',
    ])
      expect(() => parseDestinationBlocks(bad), bad).toThrow();
  });

  it('is read by the configuration, naming the variable when wrong', () => {
    const base = { TXMAIL_DATABASE_URL: 'sqlite:/tmp/x.db', TXMAIL_SECRET_KEY: 'k'.repeat(64) };
    expect(
      parseConfig({ ...base, TXMAIL_DESTINATION_BLOCKS: 'window_minutes=30' }).destinationBlocks,
    ).toEqual({
      accounts: 2,
      replies: 3,
      windowMs: 30 * MIN,
      pauseMs: 60 * MIN,
    });
    expect(() => parseConfig({ ...base, TXMAIL_DESTINATION_BLOCKS: 'accounts=many' })).toThrow(
      /TXMAIL_DESTINATION_BLOCKS/,
    );
  });
});

describe('the destination a block is about', () => {
  it.each([
    ['gmail-smtp-in.l.google.com', 'google.com'],
    ['alt4.gmail-smtp-in.l.google.com.', 'google.com'],
    ['acme-com.mail.protection.outlook.com', 'outlook.com'],
    ['mta7.am0.yahoodns.net', 'yahoodns.net'],
    ['mx1.example.co.uk', 'example.co.uk'],
    ['mx.example.com.au', 'example.com.au'],
    ['mx.dest.example', 'dest.example'],
    ['localhost', 'localhost'],
    // A hosting company's customer names are suffixes: a rented machine is its own destination, never
    // every domain the company serves.
    ['ec2-1-2-3-4.compute-1.amazonaws.com', 'ec2-1-2-3-4.compute-1.amazonaws.com'],
    ['ec2-198-51-100-7.eu-west-1.compute.amazonaws.com', 'ec2-198-51-100-7.eu-west-1.compute.amazonaws.com'],
    ['mx.acme.eastus.cloudapp.azure.com', 'acme.eastus.cloudapp.azure.com'],
    ['acme.westeurope.cloudapp.azure.com.', 'acme.westeurope.cloudapp.azure.com'],
    ['mx.acme-mail.herokuapp.com', 'acme-mail.herokuapp.com'],
    ['acme.cloudapp.net', 'acme.cloudapp.net'],
    // A name under a regional suffix of the list is its own destination.
    ['inbound-smtp.us-east-1.amazonaws.com', 'inbound-smtp.us-east-1.amazonaws.com'],
    ['MX1.Example.CO.UK', 'example.co.uk'],
    ['mail.protection.outlook.com', 'outlook.com'],
    // An IP literal or a name with no registrable part keys by the host itself.
    ['198.51.100.7', '198.51.100.7'],
    ['[198.51.100.7]', '[198.51.100.7]'],
    ['2001:db8::25', '2001:db8::25'],
    ['com', 'com'],
  ])('%s → %s', (host, domain) => {
    expect(registeredDomain(host)).toBe(domain);
    expect(blockDestination(`mx:${host}`)).toBe(domain);
  });

  it('the relay is its own destination', () => {
    expect(blockDestination('relay:smtp.relay.example')).toBe('relay:smtp.relay.example');
  });
});

describe('source addresses to avoid', () => {
  it('are skipped; when every address is avoided the message waits', () => {
    const pool = new SourceIpPool([{ address: '192.0.2.1' }, { address: '192.0.2.2' }], [], () => T0);
    expect(pool.addresses()).toEqual(['192.0.2.1', '192.0.2.2']);
    const avoid = new Set(['192.0.2.1']);
    for (let i = 0; i < 4; i++) expect(pool.take(avoid)).toEqual({ address: '192.0.2.2' });
    const seen = new Set([pool.take(), pool.take()].map((c) => ('address' in c ? c.address : c.retryAt)));
    expect(seen).toEqual(new Set(['192.0.2.1', '192.0.2.2']));
    expect(pool.take(new Set(['192.0.2.1', '192.0.2.2']))).toEqual({ retryAt: T0 + MIN });
    // No configured address: the system's choice, avoided or not (the deliverer checks that case).
    expect(new SourceIpPool([], [], () => T0).take(avoid)).toEqual({ address: undefined });
  });
});
