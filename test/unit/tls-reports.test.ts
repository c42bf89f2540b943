// TLS-RPT's pure parts (RFC 8460): what an attempt adds to the counts, the report JSON (the structure of
// the RFC's §4.4 example), its id and file name, the `_smtp._tls` record, the days a run reports.
import { createHash } from 'node:crypto';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { TlsReportCounter } from '../../src/tls-reports/counter.js';
import type { TlsRequirement } from '../../src/delivery/tls-policy.js';
import { tlsRequirement } from '../../src/delivery/tls-verdict.js';
import { requirementOf } from '../../src/mta-sts/mta-sts-policies.js';
import { keyText, policyHash, sessionKeys, type SessionCount } from '../../src/tls-reports/counts.js';
import { buildReport, parseTlsRptRecord, reportFileName, reportId } from '../../src/tls-reports/report.js';
import { redactRua, reportableDays } from '../../src/tls-reports/reporter.js';

const NOW = Date.UTC(2016, 3, 1, 15, 30);
const ENFORCE: TlsRequirement = {
  policy: 'mta-sts',
  requireVerified: true,
  sts: 'enforce',
  mxPatterns: ['*.mail.company-y.example'],
  policyDomain: 'company-y.example',
  policyStrings: ['version: STSv1', 'mode: enforce', 'mx: *.mail.company-y.example', 'max_age: 86400'],
};

describe('what an attempt counts', () => {
  it('counts each session of a policy with its result, hosts and sending address', () => {
    const keys = sessionKeys(
      {
        recipientDomain: 'company-y.example',
        requirement: ENFORCE,
        sourceIp: '2001:db8:abcd:0012::1',
        sessions: [
          {
            mxHost: 'MX1.mail.company-y.example.',
            receivingIp: '203.0.113.56',
            ok: false,
            failure: 'certificate-expired',
          },
          { mxHost: 'mx2.mail.company-y.example', receivingIp: '203.0.113.57', ok: true },
        ],
      },
      NOW,
    );
    expect(keys).toEqual([
      {
        day: '2016-04-01',
        policyDomain: 'company-y.example',
        policyType: 'sts',
        policyStrings: ENFORCE.policyStrings,
        sendingIp: '2001:db8:abcd:0012::1',
        resultType: 'certificate-expired',
        mxHost: 'mx1.mail.company-y.example',
        receivingIp: '203.0.113.56',
      },
      expect.objectContaining({ resultType: 'success', mxHost: 'mx2.mail.company-y.example' }),
    ]);
  });

  it("counts an MTA-STS policy as sts when the sending domain's required is the policy applied", () => {
    for (const mode of ['testing', 'enforce'] as const) {
      const text = `version: STSv1\nmode: ${mode}\nmx: mx.company-y.example\nmax_age: 86400\n`;
      const sts = requirementOf('company-y.example', {
        domain: 'company-y.example',
        id: 'one',
        mode,
        mx: ['mx.company-y.example'],
        maxAge: 86400,
        fetchedAt: NOW,
        expiresAt: NOW + 86_400_000,
        text,
      });
      const requirement = tlsRequirement('required', sts);
      expect(requirement).toMatchObject({ requireVerified: true, sts: mode });
      const keys = sessionKeys(
        {
          recipientDomain: 'company-y.example',
          requirement,
          sourceIp: null,
          sessions: [{ mxHost: 'mx.company-y.example', receivingIp: '192.0.2.1', ok: true }],
        },
        NOW,
      );
      expect(keys, mode).toEqual([
        expect.objectContaining({
          policyType: 'sts',
          policyStrings: text.trim().split('\n'),
          resultType: 'success',
        }),
      ]);
    }
  });

  it('counts a domain without a policy as no-policy-found, and a policy it could not fetch as a failure', () => {
    const plain = sessionKeys(
      {
        recipientDomain: 'Plain.example',
        requirement: { policy: 'opportunistic', requireVerified: false },
        sourceIp: null,
        sessions: [
          {
            mxHost: 'mx.plain.example',
            receivingIp: '192.0.2.1',
            ok: false,
            failure: 'starttls-not-supported',
          },
        ],
      },
      NOW,
    );
    expect(plain).toEqual([
      expect.objectContaining({
        policyDomain: 'plain.example',
        policyType: 'no-policy-found',
        policyStrings: [],
        resultType: 'starttls-not-supported',
        sendingIp: '',
      }),
    ]);
    const failed: TlsRequirement = {
      policy: 'opportunistic',
      requireVerified: false,
      policyDomain: 'broken.example',
      policyFailure: { type: 'sts-policy-fetch-error', detail: 'HTTP 404' },
    };
    expect(
      sessionKeys(
        {
          recipientDomain: 'broken.example',
          requirement: failed,
          sourceIp: null,
          sessions: [{ mxHost: 'mx.broken.example', receivingIp: '192.0.2.2', ok: true }],
        },
        NOW,
      ),
    ).toEqual([expect.objectContaining({ policyType: 'sts', resultType: 'sts-policy-fetch-error' })]);
    // No connection at all: the policy failure is still counted once.
    expect(
      sessionKeys(
        { recipientDomain: 'broken.example', requirement: failed, sourceIp: null, sessions: [] },
        NOW,
      ),
    ).toEqual([
      expect.objectContaining({ resultType: 'sts-policy-fetch-error', mxHost: '', receivingIp: '' }),
    ]);
    expect(
      sessionKeys(
        {
          recipientDomain: 'plain.example',
          requirement: { policy: 'opportunistic', requireVerified: false },
          sourceIp: null,
          sessions: [],
        },
        NOW,
      ),
    ).toEqual([]);
  });

  it("keys a policy by its lines' content, whichever array holds them, as the table always has", () => {
    const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
    const lines = [...ENFORCE.policyStrings!];
    expect(policyHash(lines)).toBe(sha256(JSON.stringify(lines)));
    expect(policyHash([...lines])).toBe(policyHash(lines));
    expect(policyHash(lines.slice(1))).toBe(sha256(JSON.stringify(lines.slice(1))));
    expect(policyHash([])).toBe(sha256('[]'));
    // Two sessions of one policy share a key in memory; another policy's do not.
    const [a, b] = [lines, [...lines]].map((policyStrings) =>
      keyText({ ...sessionKeys(attemptOf(ENFORCE), NOW)[0]!, policyStrings }),
    );
    expect(a).toBe(b);
    expect(keyText({ ...sessionKeys(attemptOf(ENFORCE), NOW)[0]!, policyStrings: lines.slice(1) })).not.toBe(
      a,
    );
  });
});

/** One attempt under `requirement`: a successful session. */
function attemptOf(requirement: TlsRequirement) {
  return {
    recipientDomain: 'company-y.example',
    requirement,
    sourceIp: null,
    sessions: [{ mxHost: 'mx1.mail.company-y.example', receivingIp: '203.0.113.56', ok: true }],
  };
}

describe('the report', () => {
  const count = (c: Partial<SessionCount>): SessionCount => ({
    day: '2016-04-01',
    policyDomain: 'company-y.example',
    policyType: 'sts',
    policyStrings: ENFORCE.policyStrings!,
    resultType: 'success',
    mxHost: 'mx1.mail.company-y.example',
    receivingIp: '203.0.113.56',
    sendingIp: '2001:db8:abcd:0012::1',
    sessions: 1,
    ...c,
  });

  it('has the structure of RFC 8460 §4.4, with totals and failure details per policy', () => {
    const report = buildReport({
      organization: 'company-x.example',
      contact: 'sts-reporting@company-x.example',
      day: '2016-04-01',
      policyDomain: 'company-y.example',
      counts: [
        count({ sessions: 5000 }),
        count({ sessions: 326, mxHost: 'mx2.mail.company-y.example', receivingIp: '203.0.113.57' }),
        count({ resultType: 'certificate-expired', sessions: 100 }),
        count({
          resultType: 'starttls-not-supported',
          sessions: 200,
          mxHost: 'mx2.mail.company-y.example',
          receivingIp: '203.0.113.57',
        }),
        count({
          resultType: 'validation-failure',
          sessions: 3,
          mxHost: 'mx3.mail.company-y.example',
          receivingIp: '198.51.100.62',
        }),
        // A session without a policy is its own policy entry.
        count({ policyType: 'no-policy-found', policyStrings: [], sessions: 7 }),
      ],
    });
    expect(report).toEqual({
      'organization-name': 'company-x.example',
      'date-range': { 'start-datetime': '2016-04-01T00:00:00Z', 'end-datetime': '2016-04-01T23:59:59Z' },
      'contact-info': 'sts-reporting@company-x.example',
      'report-id': reportId('company-x.example', 'company-y.example', '2016-04-01'),
      policies: [
        {
          policy: {
            'policy-type': 'sts',
            'policy-string': ENFORCE.policyStrings,
            'policy-domain': 'company-y.example',
            'mx-host': ['*.mail.company-y.example'],
          },
          summary: { 'total-successful-session-count': 5326, 'total-failure-session-count': 303 },
          'failure-details': [
            {
              'result-type': 'starttls-not-supported',
              'sending-mta-ip': '2001:db8:abcd:0012::1',
              'receiving-mx-hostname': 'mx2.mail.company-y.example',
              'receiving-ip': '203.0.113.57',
              'failed-session-count': 200,
            },
            {
              'result-type': 'certificate-expired',
              'sending-mta-ip': '2001:db8:abcd:0012::1',
              'receiving-mx-hostname': 'mx1.mail.company-y.example',
              'receiving-ip': '203.0.113.56',
              'failed-session-count': 100,
            },
            {
              'result-type': 'validation-failure',
              'sending-mta-ip': '2001:db8:abcd:0012::1',
              'receiving-mx-hostname': 'mx3.mail.company-y.example',
              'receiving-ip': '198.51.100.62',
              'failed-session-count': 3,
            },
          ],
        },
        {
          policy: { 'policy-type': 'no-policy-found', 'policy-domain': 'company-y.example' },
          summary: { 'total-successful-session-count': 7, 'total-failure-session-count': 0 },
        },
      ],
    });
  });

  it('has a stable id and the file name of RFC 8460 §5.3', () => {
    const id = reportId('mail.sender.example', 'example.net', '2016-04-01');
    // Made of the day and the report's identity only, so a report sent again keeps its id.
    expect(id).toMatch(/^2016-04-01_[0-9a-f]{24}$/);
    expect(id).not.toBe(reportId('mail.sender.example', 'example.net', '2016-04-02'));
    expect(id).not.toBe(reportId('mail.sender.example', 'example.org', '2016-04-01'));
    expect(id).not.toContain('!');
    expect(reportFileName('mail.sender.example', 'example.net', '2016-04-01', id)).toBe(
      `mail.sender.example!example.net!1459468800!1459555199!${id}.json.gz`,
    );
  });
});

describe('the _smtp._tls record', () => {
  it('gives the mailto: and https: rua of the one v=TLSRPTv1 record', () => {
    expect(parseTlsRptRecord(['v=TLSRPTv1; rua=mailto:reports@example.com'])).toEqual({
      rua: ['mailto:reports@example.com'],
    });
    expect(
      parseTlsRptRecord([
        'v=TLSRPTv1;rua=mailto:a@example.com, https://reporting.example.com/v1/tlsrpt',
        'v=spf1',
      ]),
    ).toEqual({ rua: ['mailto:a@example.com', 'https://reporting.example.com/v1/tlsrpt'] });
    expect(parseTlsRptRecord(['v=TLSRPTv1; rua=http://insecure.example/, mailto:a@example.com'])).toEqual({
      rua: ['mailto:a@example.com'],
    });
  });

  it('is none when absent, doubled, without rua or without a usable URI', () => {
    expect(parseTlsRptRecord([])).toHaveProperty('error');
    expect(
      parseTlsRptRecord(['v=TLSRPTv1; rua=mailto:a@x.example', 'v=TLSRPTv1; rua=mailto:b@x.example']),
    ).toHaveProperty('error');
    expect(parseTlsRptRecord(['v=TLSRPTv1;'])).toHaveProperty('error');
    expect(parseTlsRptRecord(['v=TLSRPTv1; rua=http://x.example/'])).toHaveProperty('error');
    expect(parseTlsRptRecord(['v=TLSRPTv2; rua=mailto:a@x.example'])).toHaveProperty('error');
  });
});

describe('the runs', () => {
  it('report finished days once they have settled, within the retry window', () => {
    const hour = 3_600_000;
    expect(reportableDays(Date.UTC(2016, 3, 2, 0, 30), hour, 3)).toEqual(['2016-03-30', '2016-03-31']);
    expect(reportableDays(Date.UTC(2016, 3, 2, 1, 0), hour, 3)).toEqual([
      '2016-03-30',
      '2016-03-31',
      '2016-04-01',
    ]);
  });

  it('log a rua without its local part or path', () => {
    expect(redactRua('mailto:secret-token@reports.example')).toBe('mailto:…@reports.example');
    expect(redactRua('https://collector.example/v1/tlsrpt?token=abc')).toBe('https://collector.example');
  });
});

describe('the counter', () => {
  const attempt = (ok: boolean) => ({
    recipientDomain: 'company-y.example',
    requirement: ENFORCE,
    sourceIp: null,
    sessions: [{ mxHost: 'mx1.mail.company-y.example', receivingIp: '203.0.113.56', ok }],
  });

  it('adds up sessions per key, keeps a failed flush for the next, and never throws from record()', async () => {
    const stored: SessionCount[][] = [];
    let fail = true;
    const repo = {
      add: async (counts: readonly SessionCount[]) => {
        if (fail) throw new Error('database down');
        stored.push([...counts]);
      },
    };
    const counter = new TlsReportCounter(repo, new ManualClock(NOW), pino({ level: 'silent' }), {
      flushMs: 60_000,
      maxKeys: 2,
    });
    counter.record(attempt(true));
    counter.record(attempt(true));
    counter.record(attempt(false));
    await counter.flush();
    expect(stored).toEqual([]);
    counter.record(attempt(true));
    // A third key is past maxKeys: dropped, not thrown.
    counter.record({
      ...attempt(true),
      recipientDomain: 'other.example',
      requirement: { policy: 'opportunistic', requireVerified: false },
    });
    // Whatever a caller hands it, record() does not throw.
    expect(() => counter.record(null as never)).not.toThrow();
    fail = false;
    await counter.flush();
    expect(stored).toHaveLength(1);
    expect(stored[0]!.map((c) => [c.resultType, c.sessions]).sort()).toEqual([
      ['success', 3],
      ['validation-failure', 1],
    ]);
    await counter.flush();
    expect(stored).toHaveLength(1);
  });
});
