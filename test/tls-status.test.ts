// The TLS section of `txmail status` from a real database on both dialects: stored MTA-STS policies
// by mode (expired ones not counted), yesterday's MX sessions by TLS result, and that day's reports.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openDatabase, type Db } from '../src/db/database.js';
import { MtaStsRepo } from '../src/db/mta-sts-repo.js';
import { TlsReportsRepo } from '../src/db/tls-reports-repo.js';
import { tlsSection } from '../src/tls-reports/status-section.js';
import { databaseKinds, type TestDatabase } from './helpers/databases.js';

const NOW = Date.UTC(2026, 0, 11, 9);
const YESTERDAY = '2026-01-10';

describe.each(databaseKinds)('the TLS status section on $name', (kind) => {
  let database: TestDatabase;
  let db: Db;
  let repos: { mtaSts: MtaStsRepo; tlsReports: TlsReportsRepo };

  beforeAll(async () => {
    database = await kind.create();
    db = openDatabase(database.url);
    await migrate(db);
    repos = { mtaSts: new MtaStsRepo(db.kysely), tlsReports: new TlsReportsRepo(db.kysely) };
  });
  afterAll(async () => {
    await db?.close();
    await database?.drop();
  });

  it('says nothing happened on a fresh database', async () => {
    const section = await tlsSection(repos, { mtaSts: true, tlsReports: true }, NOW);
    expect(section.alert).toBe(false);
    expect(section.lines).toEqual([
      'MTA-STS on: 0 enforce, 0 testing, 0 none policies stored',
      `no MX sessions counted on ${YESTERDAY}`,
      `TLS reports for ${YESTERDAY}: 0 sent, 0 not accepted yet; no run yet`,
    ]);
  });

  it("counts the policies that still apply, yesterday's sessions by result and the day's reports", async () => {
    const policy = (domain: string, mode: 'enforce' | 'testing' | 'none', expiresAt: number) =>
      repos.mtaSts.put({
        domain,
        id: '1',
        mode,
        mx: ['mx.example'],
        maxAge: 86400,
        fetchedAt: 0,
        expiresAt,
        text: '',
      });
    await policy('a.example', 'enforce', NOW + 1);
    await policy('b.example', 'enforce', NOW + 1);
    await policy('c.example', 'testing', NOW + 1);
    await policy('d.example', 'enforce', NOW - 1);
    const session = (day: string, domain: string, resultType: string, sessions: number) => ({
      day,
      policyDomain: domain,
      policyType: 'sts' as const,
      policyStrings: ['version: STSv1'],
      resultType,
      mxHost: `mx.${domain}`,
      receivingIp: '192.0.2.1',
      sendingIp: '',
      sessions,
    });
    await repos.tlsReports.add([
      session(YESTERDAY, 'a.example', 'success', 40),
      session(YESTERDAY, 'b.example', 'certificate-expired', 3),
      session(YESTERDAY, 'c.example', 'starttls-not-supported', 2),
      session(YESTERDAY, 'c.example', 'certificate-expired', 1),
      session('2026-01-11', 'a.example', 'validation-failure', 9),
    ]);
    await repos.tlsReports.recordSend('a.example', YESTERDAY, 'mailto:tls@a.example', NOW - 5000, null);
    await repos.tlsReports.recordSend('b.example', YESTERDAY, 'https://b.example/r', NOW - 5000, 'HTTP 503');
    await repos.tlsReports.recordSend('z.example', YESTERDAY, '', NOW - 5000, null);

    const section = await tlsSection(repos, { mtaSts: true, tlsReports: true }, NOW);
    expect(section.lines.slice(0, 3)).toEqual([
      'MTA-STS on: 2 enforce, 1 testing, 0 none policies stored',
      `46 MX sessions on ${YESTERDAY}, 6 with a TLS failure (certificate-expired 4, starttls-not-supported 2)`,
      `TLS reports for ${YESTERDAY}: 1 sent, 1 not accepted yet (last error: HTTP 503); no run yet`,
    ]);
    expect(section.json).toMatchObject({
      policies: { enforce: 2, testing: 1, none: 0 },
      sessions: 46,
      results: { success: 40, 'certificate-expired': 4, 'starttls-not-supported': 2 },
      reports_sent: 1,
      reports_waiting: [{ policy_domain: 'b.example', attempts: 1, last_error: 'HTTP 503' }],
    });

    const off = await tlsSection(repos, { mtaSts: false, tlsReports: false }, NOW);
    expect(off.lines[0]).toBe('MTA-STS off (TXMAIL_MTA_STS=off): recipient policies are not applied');
    expect(off.lines[2]).toBe('TLS reports off (TXMAIL_TLS_REPORTS=off)');
  });
});
