// MTA-STS's texts (RFC 8461): the TXT record and the policy file, parsed strictly; MX pattern matching;
// the pure decisions of discovery (fetch, use the stored policy, or none) and the requirement a policy sets.
import { describe, expect, it } from 'vitest';
import type { CachedStsPolicy } from '../../src/db/mta-sts-repo.js';
import { mxMatchesPolicy } from '../../src/delivery/tls-policy.js';
import { nextStep, requirementOf } from '../../src/mta-sts/mta-sts-policies.js';
import { MAX_AGE_LIMIT, parseStsPolicy, parseStsRecord } from '../../src/mta-sts/policy.js';
import { assertLinearForShapes, measureGrowth } from '../helpers/linear-time.js';

describe('the _mta-sts TXT record', () => {
  it('takes the id of the one v=STSv1 record', () => {
    expect(parseStsRecord(['v=STSv1; id=20160831085700Z;'])).toEqual({ id: '20160831085700Z' });
    expect(parseStsRecord(['v=STSv1;id=abc', 'something else'])).toEqual({ id: 'abc' });
    expect(parseStsRecord(['v=STSv1; id=abc; ext=1'])).toEqual({ id: 'abc' });
  });

  it('is no policy when there is none, several, or one without a valid id', () => {
    expect(parseStsRecord([])).toHaveProperty('error');
    expect(parseStsRecord(['v=spf1 -all'])).toHaveProperty('error');
    expect(parseStsRecord(['v=STSv1; id=a', 'v=STSv1; id=b'])).toHaveProperty('error');
    expect(parseStsRecord(['v=STSv1;'])).toHaveProperty('error');
    expect(parseStsRecord(['v=STSv1; id=has-dash'])).toHaveProperty('error');
    expect(parseStsRecord([`v=STSv1; id=${'a'.repeat(33)}`])).toHaveProperty('error');
    expect(parseStsRecord(['v=STSv10; id=a'])).toHaveProperty('error');
  });
});

describe('the policy file', () => {
  const rfc =
    'version: STSv1\nmode: enforce\nmx: mail.example.com\nmx: *.example.net\nmx: backupmx.example.com\nmax_age: 604800\n';

  it('parses the RFC 8461 example, CRLF or LF, and keeps its lines', () => {
    const expected = {
      mode: 'enforce',
      mx: ['mail.example.com', '*.example.net', 'backupmx.example.com'],
      maxAge: 604800,
      lines: [
        'version: STSv1',
        'mode: enforce',
        'mx: mail.example.com',
        'mx: *.example.net',
        'mx: backupmx.example.com',
        'max_age: 604800',
      ],
    };
    expect(parseStsPolicy(rfc)).toEqual(expected);
    expect(parseStsPolicy(rfc.replace(/\n/g, '\r\n'))).toEqual(expected);
  });

  it('accepts testing and none (none without mx), ignores unknown keys, lower-cases mx', () => {
    expect(
      parseStsPolicy('version: STSv1\nmode: testing\nmx: MX.Example.COM.\nmax_age: 86400\nfoo: bar'),
    ).toMatchObject({
      mode: 'testing',
      mx: ['mx.example.com'],
    });
    expect(parseStsPolicy('version: STSv1\nmode: none\nmax_age: 86400')).toMatchObject({
      mode: 'none',
      mx: [],
    });
    expect(parseStsPolicy(`version: STSv1\nmode: none\nmax_age: ${MAX_AGE_LIMIT}`)).toMatchObject({
      maxAge: MAX_AGE_LIMIT,
    });
  });

  it('accepts extension keys with "-" and ".", up to 32 characters (RFC 8461 §3.2 sts-policy-ext-name)', () => {
    const base = 'version: STSv1\nmode: enforce\nmx: mail.example.com\nmax_age: 86400\n';
    for (const ext of ['x-ext: 1', 'ext.v2: a b', 'a_b-c.d: x', `${'e'.repeat(32)}: x`, '9ext: x']) {
      expect(parseStsPolicy(base + ext), ext).toMatchObject({
        mode: 'enforce',
        lines: [...base.trim().split('\n'), ext],
      });
    }
    for (const ext of [`${'e'.repeat(33)}: x`, '-ext: x', '.ext: x', '_ext: x', 'ext/1: x']) {
      expect(parseStsPolicy(base + ext), ext).toHaveProperty('error');
    }
  });

  it.each([
    ['no version', 'mode: enforce\nmx: a.example\nmax_age: 1'],
    ['another version', 'version: STSv2\nmode: enforce\nmx: a.example\nmax_age: 1'],
    ['an unknown mode', 'version: STSv1\nmode: strict\nmx: a.example\nmax_age: 1'],
    ['no mode', 'version: STSv1\nmx: a.example\nmax_age: 1'],
    ['no max_age', 'version: STSv1\nmode: enforce\nmx: a.example'],
    ['a max_age past a year', `version: STSv1\nmode: enforce\nmx: a.example\nmax_age: ${MAX_AGE_LIMIT + 1}`],
    ['a negative max_age', 'version: STSv1\nmode: enforce\nmx: a.example\nmax_age: -1'],
    ['a max_age with letters', 'version: STSv1\nmode: enforce\nmx: a.example\nmax_age: 1d'],
    ['enforce without mx', 'version: STSv1\nmode: enforce\nmax_age: 1'],
    ['an mx wildcard in the middle', 'version: STSv1\nmode: enforce\nmx: mx.*.example\nmax_age: 1'],
    ['an mx of one label', 'version: STSv1\nmode: enforce\nmx: localhost\nmax_age: 1'],
    ['a mode given twice', 'version: STSv1\nmode: testing\nmode: enforce\nmx: a.example\nmax_age: 1'],
    ['a line that is not key: value', 'version: STSv1\nmode enforce\nmx: a.example\nmax_age: 1'],
    ['an HTML page', '<html><body>version: STSv1</body></html>'],
    ['a lone CR inside a value', 'version: STSv1\nmode: enforce\nmx: a.example\rb\nmax_age: 1'],
    ['a lone CR after white space', 'version: STSv1\nmode: enforce\nmx: \t\rmx.example\nmax_age: 1'],
    ['a line separator in a value', 'version: STSv1\nmode: enforce\u2028\nmx: a.example\nmax_age: 1'],
  ])('refuses %s', (_what, text) => {
    expect(parseStsPolicy(text)).toHaveProperty('error');
  });
});

describe('mx patterns (RFC 8461 §4.1)', () => {
  it('matches exact names and one label in place of *', () => {
    const patterns = ['mail.example.com', '*.example.net'];
    expect(mxMatchesPolicy('mail.example.com', patterns)).toBe(true);
    expect(mxMatchesPolicy('MAIL.Example.com.', patterns)).toBe(true);
    expect(mxMatchesPolicy('mx1.example.net', patterns)).toBe(true);
    expect(mxMatchesPolicy('example.net', patterns)).toBe(false);
    expect(mxMatchesPolicy('a.b.example.net', patterns)).toBe(false);
    expect(mxMatchesPolicy('mail.example.org', patterns)).toBe(false);
    expect(mxMatchesPolicy('xmail.example.com', patterns)).toBe(false);
  });
});

describe('discovery decisions', () => {
  const stored: CachedStsPolicy = {
    domain: 'example.com',
    id: 'one',
    mode: 'enforce',
    mx: ['mail.example.com'],
    maxAge: 86400,
    fetchedAt: 0,
    expiresAt: 86_400_000,
    text: 'version: STSv1\nmode: enforce\nmx: mail.example.com\nmax_age: 86400\n',
  };

  it('fetches on a new id or without a valid stored policy; keeps the stored one otherwise', () => {
    expect(nextStep({ kind: 'record', id: 'one' }, stored)).toBe('stored');
    expect(nextStep({ kind: 'record', id: 'two' }, stored)).toBe('fetch');
    expect(nextStep({ kind: 'record', id: 'one' }, undefined)).toBe('fetch');
    // RFC 8461 §5.1: a record gone, or no answer, leaves an unexpired policy in force.
    expect(nextStep({ kind: 'none' }, stored)).toBe('stored');
    expect(nextStep({ kind: 'temporary' }, stored)).toBe('stored');
    expect(nextStep({ kind: 'none' }, undefined)).toBe('none');
    expect(nextStep({ kind: 'temporary' }, undefined)).toBe('none');
  });

  it('sets the requirement of each mode, and of a failure with nothing stored', () => {
    expect(requirementOf('example.com', stored)).toEqual({
      policy: 'mta-sts',
      requireVerified: true,
      sts: 'enforce',
      mxPatterns: ['mail.example.com'],
      policyDomain: 'example.com',
      policyStrings: ['version: STSv1', 'mode: enforce', 'mx: mail.example.com', 'max_age: 86400'],
    });
    expect(
      requirementOf('example.com', {
        ...stored,
        mode: 'testing',
        text: stored.text.replace('enforce', 'testing'),
      }),
    ).toMatchObject({
      policy: 'mta-sts-testing',
      requireVerified: false,
      sts: 'testing',
      mxPatterns: ['mail.example.com'],
    });
    expect(requirementOf('example.com', { ...stored, mode: 'none', mx: [] })).toBeUndefined();
    expect(requirementOf('example.com', undefined)).toBeUndefined();
    expect(
      requirementOf('example.com', undefined, { type: 'sts-policy-fetch-error', detail: 'HTTP 404' }),
    ).toEqual({
      policy: 'opportunistic',
      requireVerified: false,
      policyFailure: { type: 'sts-policy-fetch-error', detail: 'HTTP 404' },
      policyDomain: 'example.com',
    });
  });
});

describe('hostile policy texts', () => {
  // A policy file is up to 64 KiB from any server a recipient domain names; a run of spaces before a
  // last character once made the trailing-space trim rescan the run from every position.
  it('parses in time linear in a run of spaces or tabs inside a line', async () => {
    const sizes = [1 << 10, 4 << 10, 16 << 10, 64 << 10];
    for (const ws of [' ', '\t']) {
      await measureGrowth(
        (s: string) => parseStsPolicy(s),
        (size) => `version: STSv1\nx:${ws.repeat(size)}y\n`,
        { sizes },
      );
    }
  });

  // Found by the random shapes below (a run of tabs, then "\rb+\r\n<<"): the key's expression once
  // read the value too, and gave the run back a character at a time when a lone CR followed it.
  it('parses in time linear in a run of spaces or tabs before a lone CR in a value', async () => {
    const sizes = [1 << 10, 4 << 10, 16 << 10, 64 << 10];
    for (const ws of [' ', '\t']) {
      await measureGrowth(
        (s: string) => parseStsPolicy(s),
        (size) => `version: STSv1\nmx:${ws.repeat(size)}\rb\n`,
        { sizes },
      );
    }
  });

  it('parses in time linear on every generated shape of a value', async () => {
    await assertLinearForShapes(
      (s) => parseStsPolicy(s),
      (filled) => `version: STSv1\nmode: enforce\nmx: ${filled}\next: ${filled}\nmax_age: 1\n`,
      { numRuns: 6, sizes: [4 << 10, 16 << 10, 64 << 10, 256 << 10] },
    );
  });
});
