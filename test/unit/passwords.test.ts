// Password hashing (accounts/passwords.ts): scrypt at the configured cost for new passwords, any stored
// cost verified, and TXMAIL_PASSWORD_COST a power of two in range.
import { describe, expect, it } from 'vitest';
import { DEFAULT_PASSWORD_COST, PasswordHasher, verifyPassword } from '../../src/accounts/passwords.js';
import { parseConfig } from '../../src/config.js';

const PASSWORD = 'correct horse battery';

describe('password hashing', () => {
  it('hashes at the default cost unless told otherwise, and verifies only the right password', async () => {
    const stored = await new PasswordHasher().hash(PASSWORD);
    expect(stored).toMatch(
      new RegExp(`^scrypt\\$${DEFAULT_PASSWORD_COST}\\$8\\$1\\$[\\w-]{22}\\$[\\w-]{43}$`),
    );
    expect(await verifyPassword(PASSWORD, stored)).toBe(true);
    expect(await verifyPassword(`${PASSWORD}!`, stored)).toBe(false);
  });

  it('verifies a hash made at another cost: a change of the setting locks nobody out', async () => {
    const cheap = await new PasswordHasher(1024).hash(PASSWORD);
    const dear = await new PasswordHasher(1 << 16).hash(PASSWORD);
    expect(cheap).toMatch(/^scrypt\$1024\$/);
    expect(dear).toMatch(/^scrypt\$65536\$/);
    for (const stored of [cheap, dear]) expect(await verifyPassword(PASSWORD, stored)).toBe(true);
  });

  it('calls a hash outdated when it was made at other parameters than new ones', async () => {
    const hasher = new PasswordHasher(2048);
    expect(hasher.isOutdated(await hasher.hash(PASSWORD))).toBe(false);
    expect(hasher.isOutdated(await new PasswordHasher(1024).hash(PASSWORD))).toBe(true);
    expect(hasher.isOutdated(await new PasswordHasher(4096).hash(PASSWORD))).toBe(true);
    // Another r or p, or another scheme, is outdated too.
    const [, n, , , salt, key] = (await hasher.hash(PASSWORD)).split('$');
    expect(hasher.isOutdated(['scrypt', n, 16, 1, salt, key].join('$'))).toBe(true);
    expect(hasher.isOutdated(['scrypt', n, 8, 2, salt, key].join('$'))).toBe(true);
    expect(hasher.isOutdated('bcrypt$2b$10$x')).toBe(true);
  });

  it("checks a hash stored at a lower cost in as much CPU as one at today's (no sooner answer for old accounts)", async () => {
    // CPU time, not the clock: scrypt runs on libuv's threads, which process.cpuUsage counts too.
    const cpu = async (work: () => Promise<unknown>) => {
      const start = process.cpuUsage();
      await work();
      const used = process.cpuUsage(start);
      return used.user + used.system;
    };
    const today = new PasswordHasher(1 << 15);
    const current = await today.hash(PASSWORD);
    const old = await new PasswordHasher(1024).hash(PASSWORD);
    // The least of three each: a moment's other work on the machine counts against neither.
    const least = async (stored: string) => {
      const runs: number[] = [];
      for (let i = 0; i < 3; i++) runs.push(await cpu(() => today.verify('a wrong guess', stored)));
      return Math.min(...runs);
    };
    const baseline = await least(current);
    // Alone, a hash at 1024 costs a 32nd of one at 32768.
    expect(await least(old)).toBeGreaterThan(baseline * 0.5);
    expect(await today.verify(PASSWORD, old)).toBe(true);
    expect(await today.verify('a wrong guess', old)).toBe(false);
  });

  it('takes TXMAIL_PASSWORD_COST as a power of two from 1024 to 131072, the default 16384', () => {
    const base = { TXMAIL_HOSTNAME: 'mta.txmail.test' };
    expect(parseConfig(base).passwordCost).toBe(16384);
    expect(parseConfig({ ...base, TXMAIL_PASSWORD_COST: '2048' }).passwordCost).toBe(2048);
    for (const bad of ['512', '1000', '0', 'x', String(1 << 18)]) {
      expect(() => parseConfig({ ...base, TXMAIL_PASSWORD_COST: bad })).toThrow(/TXMAIL_PASSWORD_COST/);
    }
  });
});
