// The pure parts of domain verification: names, the status machine, the re-check schedule, SPF look-up
// counting and DKIM record matching.
import { describe, expect, it } from 'vitest';
import { matchDkimRecord } from '../../src/domains/dkim-record-check.js';
import { parseDomainName } from '../../src/domains/domain-name.js';
import {
  GRACE_PERIOD_MS,
  VERIFICATION_WINDOW_MS,
  nextCheckAt,
  nextDomainState,
  type DomainState,
} from '../../src/domains/domain-status.js';
import type { CheckOutcome } from '../../src/domains/domain-check.js';
import { countSpfLookups } from '../../src/domains/spf-lookups.js';
import { reverseName } from '../../src/domains/service-records.js';

const H = 3600_000;
const T0 = Date.UTC(2026, 10, 22, 12);

describe('domain names', () => {
  it.each([
    ['acme.example', 'acme.example'],
    ['  Acme.Example. ', 'acme.example'],
    ['bücher.example', 'xn--bcher-kva.example'],
    ['MÜNCHEN.de', 'xn--mnchen-3ya.de'],
    ['mail.sub.acme.example', 'mail.sub.acme.example'],
  ])('accepts %j as %s', (input, ascii) => {
    expect(parseDomainName(input)).toMatchObject({ ok: true, ascii });
  });

  it.each([
    '',
    'localhost',
    '192.0.2.1',
    '[::1]',
    'a..example',
    '-acme.example',
    'acme_mail.example',
    'acme.example/path',
    'user@acme.example',
    'ex%41mple.com',
    'acme.123',
    `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(40)}.example`,
  ])('refuses %j', (input) => {
    expect(parseDomainName(input).ok).toBe(false);
  });
});

describe('domain status machine', () => {
  const pending: DomainState = {
    status: 'pending',
    verified_at: null,
    verification_started_at: T0,
    failing_since: null,
  };
  const verified: DomainState = { ...pending, status: 'verified', verified_at: T0 + H };
  const grace: DomainState = { ...verified, status: 'temporary_failure', failing_since: T0 + 10 * H };
  const failed: DomainState = { ...pending, status: 'failed' };

  const cases: [string, DomainState, CheckOutcome, number, Partial<DomainState>][] = [
    [
      'pending verifies on a passing check',
      pending,
      'pass',
      T0 + H,
      { status: 'verified', verified_at: T0 + H },
    ],
    ['pending stays pending within the window', pending, 'fail', T0 + 71 * H, { status: 'pending' }],
    [
      'pending fails once the window is over',
      pending,
      'fail',
      T0 + VERIFICATION_WINDOW_MS,
      { status: 'failed' },
    ],
    ['pending stays pending on DNS trouble', pending, 'inconclusive', T0 + H, { status: 'pending' }],
    [
      'pending fails at the deadline even on DNS trouble',
      pending,
      'inconclusive',
      T0 + 73 * H,
      { status: 'failed' },
    ],
    ['verified stays verified', verified, 'pass', T0 + 50 * H, { status: 'verified', verified_at: T0 + H }],
    [
      'verified enters the grace period when records disappear',
      verified,
      'fail',
      T0 + 10 * H,
      { status: 'temporary_failure', failing_since: T0 + 10 * H },
    ],
    [
      'verified stays verified on DNS trouble',
      verified,
      'inconclusive',
      T0 + 500 * H,
      { status: 'verified' },
    ],
    [
      'the grace period keeps its start on further failures',
      grace,
      'fail',
      T0 + 40 * H,
      { status: 'temporary_failure', failing_since: T0 + 10 * H },
    ],
    [
      'the grace period ends in failure after 72 h',
      grace,
      'fail',
      T0 + 10 * H + GRACE_PERIOD_MS,
      { status: 'failed' },
    ],
    [
      'records that return end the grace period',
      grace,
      'pass',
      T0 + 20 * H,
      { status: 'verified', failing_since: null },
    ],
    [
      'DNS trouble never fails a domain in its grace period',
      grace,
      'inconclusive',
      T0 + 500 * H,
      { status: 'temporary_failure' },
    ],
    ['failed stays failed', failed, 'fail', T0 + 100 * H, { status: 'failed' }],
    ['failed verifies when its records are found', failed, 'pass', T0 + 100 * H, { status: 'verified' }],
  ];
  it.each(cases)('%s', (_name, state, outcome, now, expected) => {
    expect(nextDomainState(state, outcome, now)).toMatchObject(expected);
  });

  it.each([
    ['pending, first minutes', pending, 'fail', T0 + 5 * 60_000, 60_000],
    ['pending, first hour', pending, 'fail', T0 + 30 * 60_000, 5 * 60_000],
    ['pending, first day', pending, 'fail', T0 + 5 * H, 15 * 60_000],
    ['pending, later', pending, 'fail', T0 + 30 * H, H],
    ['verified', verified, 'pass', T0 + 30 * H, H],
    ['verified after DNS trouble', verified, 'inconclusive', T0 + 30 * H, 5 * 60_000],
    ['grace period', grace, 'fail', T0 + 30 * H, 15 * 60_000],
  ] as const)('re-checks a domain %s after %s ms', (_name, state, outcome, now, interval) => {
    expect(nextCheckAt(state, outcome, now)).toBe(now + interval);
  });

  it('never re-checks a failed domain on its own', () => {
    expect(nextCheckAt(failed, 'fail', T0)).toBeNull();
  });
});

describe('SPF look-up count (RFC 7208 §4.6.4)', () => {
  const zone: Record<string, string[] | undefined> = {
    'spf.service.example': ['v=spf1 ip4:192.0.2.1 -all'],
    'three.example': ['v=spf1 a mx include:spf.service.example -all'],
    'loop.example': ['v=spf1 include:loop.example -all'],
    'two.example': ['v=spf1 -all', 'v=spf1 ~all'],
    'flaky.example': undefined,
  };
  const fetch = async (name: string) => (name in zone ? zone[name] : []);

  it.each([
    ['v=spf1 include:spf.service.example ~all', 1],
    ['v=spf1 ip4:192.0.2.1 ip6:2001:db8::1 ~all', 0],
    ['v=spf1 a mx ptr exists:%{i}.x.example ~all', 4],
    ['v=spf1 include:three.example ~all', 4],
    ['v=spf1 redirect=three.example', 4],
    // A loop is followed until the look-ups run out, as receivers do.
    ['v=spf1 include:loop.example ~all', 11],
    // A record included twice costs its look-ups twice.
    ['v=spf1 include:three.example include:three.example ~all', 8],
    ['v=spf1 mx:a.example/24 a:b.example exp=explain.example -all', 2],
  ])('counts %s as %i', async (record, lookups) => {
    expect((await countSpfLookups(record, fetch)).lookups).toBe(lookups);
  });

  it('says where a record leads back to itself, from the name it was read at too', async () => {
    const self = await countSpfLookups('v=spf1 include:send.acme.example ~all', fetch, 'Send.Acme.example.');
    expect(self.lookups).toBe(11);
    expect(self.problems).toEqual([
      'include:send.acme.example leads back to a record that includes it (a loop): receivers follow it until the 10 look-ups run out, and answer permerror',
    ]);
    expect((await countSpfLookups('v=spf1 include:loop.example ~all', fetch)).problems).toHaveLength(1);
  });

  it('stops past the limit of 10', async () => {
    const record = `v=spf1 ${Array.from({ length: 12 }, (_, i) => `a:h${i}.example`).join(' ')} -all`;
    expect((await countSpfLookups(record, fetch)).lookups).toBe(11);
  });

  it('reports includes without a single SPF record and look-ups that failed', async () => {
    const r = await countSpfLookups(
      'v=spf1 include:none.example include:two.example include:flaky.example ~all',
      fetch,
    );
    expect(r.problems).toEqual([
      'include:none.example has no SPF record',
      'include:two.example has 2 SPF records',
    ]);
    expect(r.incomplete).toBe(true);
  });
});

describe('DKIM key records', () => {
  it.each([
    ['v=DKIM1; k=rsa; p=ABCD', true, undefined],
    ['p=AB CD', true, undefined],
    ['v=DKIM1;k=rsa;p=AB\tCD;', true, undefined],
    ['v=DKIM1; k=rsa; p=WXYZ', false, 'p= is a different public key'],
    ['v=DKIM1; k=rsa; p=', false, 'p= is empty (the key is revoked)'],
    ['v=DKIM1; k=ed25519; p=ABCD', false, 'k=ed25519 (must be rsa)'],
    ['v=DKIM2; p=ABCD', false, 'v=DKIM2 (must be DKIM1)'],
    ['v=DKIM1; k=rsa', false, 'no p= tag'],
  ])('%s matches: %s', (value, matches, problem) => {
    expect(matchDkimRecord(value, 'ABCD')).toEqual(problem ? { matches, problem } : { matches });
  });
});

describe('reverse names', () => {
  it.each([
    ['192.0.2.10', '10.2.0.192.in-addr.arpa'],
    ['2001:db8::25', '5.2.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa'],
  ])('of %s is %s', (ip, name) => {
    expect(reverseName(ip)).toBe(name);
  });
});
