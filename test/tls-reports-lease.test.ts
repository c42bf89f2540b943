// Two processes and one report run (tls-reports/reporter.ts), on both databases, with a driven clock and
// senders that take as long as the test says: a run renews its lease before each domain, so a slow
// run is not taken over while it still works; a run whose lease was taken stops before its next domain;
// and a report once marked sent stays sent when a late try of it fails.
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock.js';
import { migrate, openDatabase, type Db } from '../src/db/database.js';
import { TlsReportsRepo } from '../src/db/tls-reports-repo.js';
import { DEFAULT_REPORTER_OPTIONS, TlsReporter } from '../src/tls-reports/reporter.js';
import type { ReportSenders } from '../src/tls-reports/send-report.js';
import { databaseKinds, type TestDatabase } from './helpers/databases.js';

const DAY = '2026-01-10';
const MINUTE = 60_000;
const LEASE = DEFAULT_REPORTER_OPTIONS.leaseMs;

describe.each(databaseKinds)('TLS report runs on $name', (kind) => {
  let database: TestDatabase;
  let db: Db;
  let repo: TlsReportsRepo;
  let clock: ManualClock;
  let n = 0;

  beforeAll(async () => {
    database = await kind.create();
    db = openDatabase(database.url);
    await migrate(db);
    repo = new TlsReportsRepo(db.kysely);
  });
  afterAll(async () => {
    await db?.close();
    await database?.drop();
  });

  /** Two policy domains with sessions on DAY (new names per test), and the clock when DAY is reportable. */
  const day = async (): Promise<[string, string]> => {
    const domains: [string, string] = [`a${++n}.example`, `b${n}.example`];
    await repo.add(
      domains.map((d) => ({
        day: DAY,
        policyDomain: d,
        policyType: 'no-policy-found' as const,
        policyStrings: [],
        resultType: 'success',
        mxHost: `mx.${d}`,
        receivingIp: '192.0.2.1',
        sendingIp: '',
        sessions: 1,
      })),
    );
    clock = new ManualClock(Date.UTC(2026, 0, 11, 2));
    // Another test's run has set the schedule: due again.
    await db.kysely.updateTable('tls_report_schedule').set({ next_run_at: 0, owner: null }).execute();
    return domains;
  };
  const reporter = (post: ReportSenders['post'], owner: string) =>
    new TlsReporter(
      {
        repo,
        dns: { txt: async (name) => [`v=TLSRPTv1; rua=https://collector.example/${name}`] },
        senders: { mail: async () => undefined, post },
        signingKey: async () => undefined,
        clock,
        logger: pino({ level: 'silent' }),
      },
      {
        ...DEFAULT_REPORTER_OPTIONS,
        submitter: 'mta.txmail.test',
        contact: 'ops@txmail.test',
        from: 'x@y',
        owner,
      },
    );
  const domainOf = (url: string) => /_smtp\._tls\.(.+)$/.exec(url)![1]!;
  const sent = async (domain: string) =>
    (await repo.sendsOn(DAY)).filter((s) => s.policy_domain === domain && s.rua !== '');

  it('renews the lease before each domain: a slow run is not taken over', async () => {
    const [a, b] = await day();
    const posted: string[] = [];
    let otherTook: boolean | undefined;
    const other = reporter(async (url) => void posted.push(`other ${domainOf(url)}`), 'other');
    // Each report takes 6 minutes; while the second is sent, the lease first taken has run out.
    const slow = reporter(async (url) => {
      posted.push(`slow ${domainOf(url)}`);
      clock.advance(6 * MINUTE);
      if (domainOf(url) === b) otherTook = await other.tick();
    }, 'slow');
    expect(await slow.tick()).toBe(true);
    expect(otherTook).toBe(false);
    expect(posted).toEqual([`slow ${a}`, `slow ${b}`]);
    expect((await sent(a))[0]!.sent_at).not.toBeNull();
    expect((await sent(b))[0]!.sent_at).not.toBeNull();
  });

  it('stops before its next domain when its lease was taken, and never unmarks a report sent', async () => {
    const [a, b] = await day();
    const posted: string[] = [];
    const other = reporter(async (url) => void posted.push(`other ${domainOf(url)}`), 'other');
    // The first report hangs past the lease; another process takes the run and sends both; then the
    // hung try fails.
    const stalled = reporter(async (url) => {
      posted.push(`stalled ${domainOf(url)}`);
      clock.advance(LEASE + MINUTE);
      expect(await other.tick()).toBe(true);
      throw new Error('timed out');
    }, 'stalled');
    await stalled.tick();
    expect(posted).toEqual([`stalled ${a}`, `other ${a}`, `other ${b}`]);
    // a: sent by the other process; the stalled try's failure is counted, not written over it.
    expect(await sent(a)).toEqual([
      expect.objectContaining({ attempts: 2, sent_at: expect.any(Number), last_error: null }),
    ]);
    expect(await sent(b)).toEqual([expect.objectContaining({ attempts: 1, sent_at: expect.any(Number) })]);
  });
});
