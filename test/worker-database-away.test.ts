// An attempt the database kept from starting (a restart, a failover, another writer holding SQLite) is
// not an attempt: the worker counts nothing and tries again in seconds, where a bug, or the same error
// after the transport had the message, is still recorded as a deferred attempt on the normal schedule
// (5 minutes). The errors are the real drivers' own,
// raised against real servers and files; the queue and the deliverer around them are fakes
// (test/helpers/one-claim-worker.ts). The whole path under a real PostgreSQL restart is
// test/faults/postgres-restart.test.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock.js';
import { databaseUnavailable } from '../src/db/unavailable.js';
import type { DkimKeys } from '../src/dkim/dkim-keys.js';
import type { DnsResolver } from '../src/dns/resolver.js';
import { AttemptNotStarted, Deliverer } from '../src/delivery/deliver-message.js';
import { DestinationLimits } from '../src/delivery/destination-limits.js';
import type { SourceIpPool } from '../src/delivery/source-ip-pool.js';
import type { Transport } from '../src/delivery/transport.js';
import { sealedHtmlBox } from '../src/messages/sealed-html.js';
import { Verp } from '../src/delivery/verp.js';
import { DATABASE_AWAY_MS } from '../src/delivery/worker.js';
import { databaseKinds, POSTGRES_URL } from './helpers/databases.js';
import { claimedMessage, messageRow } from './helpers/message-row.js';
import { runOneClaim } from './helpers/one-claim-worker.js';
import { freePort } from './helpers/process.js';

const NOW = Date.UTC(2026, 10, 28, 9, 0, 0);
const hasPostgres = databaseKinds.some((k) => k.name === 'postgres');

/** The error a promise rejects with. */
function errorOf(p: Promise<unknown>): Promise<Error> {
  return p.then(
    () => Promise.reject(new Error('expected a failure')),
    (err: unknown) => err as Error,
  );
}

/** The error `fn` throws. */
function thrownBy(fn: () => unknown): Error {
  try {
    fn();
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a failure');
}

/** A query on a connection another session terminates, as a restart does to every connection. */
async function terminatedConnection(): Promise<Error> {
  const victim = new pg.Client(POSTGRES_URL);
  victim.on('error', () => undefined);
  await victim.connect();
  const pid = ((await victim.query('SELECT pg_backend_pid() AS pid')).rows[0] as { pid: number }).pid;
  const admin = new pg.Client(POSTGRES_URL);
  await admin.connect();
  const running = errorOf(victim.query('SELECT pg_sleep(10)'));
  // Wait until the sleep runs, so the termination meets a statement in flight.
  for (;;) {
    const r = await admin.query("SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND state = 'active'", [pid]);
    if (r.rowCount) break;
  }
  await admin.query('SELECT pg_terminate_backend($1)', [pid]);
  await admin.end();
  const err = await running;
  await victim.end().catch(() => undefined);
  return err;
}

/** A PostgreSQL port with nothing listening: the server is down. */
async function refusedConnection(): Promise<Error> {
  const port = await freePort();
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'test' });
  return errorOf(client.connect());
}

const dir = mkdtempSync(join(tmpdir(), 'txmail-away-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A write to an SQLite file another connection is writing to, with no time to wait. */
function busySqlite(): Error {
  const file = join(dir, `busy-${Math.random()}.db`);
  const holder = new SQLite(file);
  holder.exec('CREATE TABLE t (x)');
  holder.exec('BEGIN IMMEDIATE');
  const other = new SQLite(file, { timeout: 0 });
  try {
    return thrownBy(() => other.exec('INSERT INTO t VALUES (1)'));
  } finally {
    other.close();
    holder.close();
  }
}

/** Runs one claimed message whose delivery rejects with `err`; answers what the worker recorded. */
async function recordAfter(err: Error) {
  const clock = new ManualClock(NOW);
  const m = messageRow('00000000-0000-4000-8000-0000000000ab', {
    status: 'deferred',
    attempts: 1,
    created_at: NOW - 60_000,
    next_attempt_at: NOW,
    lease_owner: 'w',
    lease_expires_at: NOW + 600_000,
  });
  return (
    await runOneClaim(m, clock, {
      expireAfter: null,
      outcome: () => {
        throw err;
      },
    })
  ).record;
}

describe('an attempt the database kept from starting', () => {
  const away: [string, () => Promise<Error>][] = [
    ...(hasPostgres
      ? ([
          ['a PostgreSQL connection terminated by a restart', terminatedConnection],
          ['a PostgreSQL server that refuses connections', refusedConnection],
        ] as [string, () => Promise<Error>][])
      : []),
    ['an SQLite file another writer holds', async () => busySqlite()],
  ];

  it.each(away)('is not counted, and comes back in seconds: %s', async (_name, make) => {
    const err = await make();
    expect(databaseUnavailable(err)).toBe(true);
    // As the Deliverer rejects when a read before sending fails (see below).
    const record = await recordAfter(new AttemptNotStarted(err));
    expect(record).toMatchObject({
      status: 'deferred',
      nextAttemptAt: NOW + DATABASE_AWAY_MS,
      counted: false,
      attempt: undefined,
      events: [],
    });
  });

  it('is told from a statement that is wrong, which is a bug recorded on the normal schedule', async () => {
    const wrong = [missingTable(), ...(hasPostgres ? [await badStatement()] : []), new TypeError('x')];
    for (const err of wrong) expect(databaseUnavailable(err), err.message).toBe(false);
    const record = await recordAfter(new TypeError('cannot read properties of undefined'));
    expect(record.counted).toBe(true);
    expect(record.attempt).toMatchObject({ outcome: 'deferred', enhanced_code: '4.3.0' });
    // The schedule's first retry, not the database's few seconds.
    expect(record.nextAttemptAt!).toBeGreaterThan(NOW + 60_000);
  });

  it('is told from the same error after sending, which a retry in seconds could send again and again', async () => {
    const record = await recordAfter(await refusedOrBusy());
    expect(record.counted).toBe(true);
    expect(record.attempt).toMatchObject({ outcome: 'deferred', enhanced_code: '4.3.0' });
    expect(record.nextAttemptAt!).toBeGreaterThan(NOW + 60_000);
  });

  it('is what the Deliverer says of a failure before the transport has the message, and only then', async () => {
    const away = await refusedOrBusy();
    const before = deliverer({
      verifiedDomains: async () => {
        throw away;
      },
    });
    const early = await errorOf(before.deliver(claimedMessage('acct')));
    expect(early).toBeInstanceOf(AttemptNotStarted);
    expect(early.cause).toBe(away);
    const during = deliverer({
      transport: {
        deliver: async () => {
          throw away;
        },
      },
    });
    expect(await errorOf(during.deliver(claimedMessage('acct')))).toBe(away);
  });

  it('is found behind a wrapping error', async () => {
    const wrapped = new Error('could not read the domain', { cause: busySqlite() });
    expect(databaseUnavailable(wrapped)).toBe(true);
  });
});

/** A statement SQLite refuses: a table that does not exist. */
function missingTable(): Error {
  const db = new SQLite(':memory:');
  try {
    return thrownBy(() => db.exec('INSERT INTO missing VALUES (1)'));
  } finally {
    db.close();
  }
}

/** A statement PostgreSQL refuses: a syntax error (42601). */
async function badStatement(): Promise<Error> {
  const client = new pg.Client(POSTGRES_URL);
  await client.connect();
  try {
    return await errorOf(client.query('SELEC 1'));
  } finally {
    await client.end();
  }
}

/** A database-away error of a database this machine has: PostgreSQL's refused port, else SQLite busy. */
async function refusedOrBusy(): Promise<Error> {
  return hasPostgres ? refusedConnection() : busySqlite();
}

/** A Deliverer of acme.example's mail through `transport`, every dependency a stand-in unless given. */
function deliverer(over: {
  verifiedDomains?: () => Promise<string[]>;
  transport?: Pick<Transport, 'deliver'>;
}): Deliverer {
  return new Deliverer(
    {
      hostname: 'mta.txmail.test',
      testDomain: 'txmail.test',
      returnPathLabel: 'send',
      relay: { host: 'relay.test', address: '127.0.0.1', port: 25, secure: false },
      mxPort: 25,
      allowPrivateNetworks: true,
    },
    {
      dns: {} as DnsResolver,
      dkim: { signingKey: async () => ({}) } as unknown as DkimKeys,
      verp: new Verp(Buffer.alloc(32, 1)),
      sealedHtml: sealedHtmlBox('test'),
      transport: (over.transport ?? { deliver: async () => ({}) }) as Transport,
      builder: {
        build: async () => ({ bytes: Buffer.from('Subject: s\r\n\r\nhello\r\n'), gzipped: undefined }),
        close: async () => {},
      },
      limits: new DestinationLimits({ rules: {} }, () => NOW),
      sources: { take: () => ({ address: undefined }) } as unknown as SourceIpPool,
      verifiedDomains: over.verifiedDomains ?? (async () => ['acme.example']),
      domainStatus: async () => 'verified',
      clock: { now: () => NOW },
    },
  );
}
