// RFC 6238 Appendix B's test vectors (SHA-1, 8 digits, seed "12345678901234567890"), the ±1 step window
// and base32 round trips.
import { describe, expect, it } from 'vitest';
import {
  base32Decode,
  base32Encode,
  hotp,
  matchTotp,
  newTotpSecret,
  otpauthUrl,
  totpCode,
  totpStep,
} from '../../src/accounts/totp.js';

const SEED = Buffer.from('12345678901234567890');

describe('TOTP (RFC 6238)', () => {
  it.each([
    [59, '94287082'],
    [1111111109, '07081804'],
    [1111111111, '14050471'],
    [1234567890, '89005924'],
    [2000000000, '69279037'],
    [20000000000, '65353130'],
  ])('at %i s the SHA-1 code is %s', (seconds, code) => {
    expect(hotp(SEED, totpStep(seconds * 1000), 8)).toBe(code);
  });

  it('matches RFC 4226 Appendix D HOTP values', () => {
    expect([0, 1, 2, 9].map((c) => hotp(SEED, c))).toEqual(['755224', '287082', '359152', '520489']);
  });

  it('round-trips base32 and decodes the RFC seed', () => {
    const b32 = base32Encode(SEED);
    expect(b32).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    expect(base32Decode(b32)).toEqual(SEED);
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(base32Encode(base32Decode(secret))).toBe(secret);
  });

  it('accepts the previous, current and next step and nothing further', () => {
    const secret = newTotpSecret();
    const now = 1_700_000_000_000;
    const step = totpStep(now);
    for (const d of [-1, 0, 1]) {
      expect(matchTotp(secret, totpCode(secret, now + d * 30_000), now)).toBe(step + d);
    }
    for (const d of [-2, 2]) {
      const code = totpCode(secret, now + d * 30_000);
      // A far step's code may collide with a near one's by chance (1 in 10^6): compare with those.
      const near = [-1, 0, 1].map((n) => totpCode(secret, now + n * 30_000));
      if (!near.includes(code)) expect(matchTotp(secret, code, now)).toBeUndefined();
    }
    expect(matchTotp(secret, '12345', now)).toBeUndefined();
    expect(matchTotp(secret, 'abcdef', now)).toBeUndefined();
  });

  it('writes the otpauth URL apps read', () => {
    expect(otpauthUrl('ABC', 'a@b.example')).toBe(
      'otpauth://totp/txmail%3Aa%40b.example?secret=ABC&issuer=txmail&algorithm=SHA1&digits=6&period=30',
    );
  });
});
