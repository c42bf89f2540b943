// An address has an account or an invited membership, never both, even when the writes race: the
// insert that makes a holder claims the address in its own transaction (db/address-claim.ts). Each
// case below is the losing side of a race, its look-up already passed: the other holder was written
// between that look-up and its insert.
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pendingAccount } from '../src/accounts/signup.js';
import { AddressTakenError } from '../src/db/members-repo.js';
import type { Account, MemberRow } from '../src/db/schema.js';
import { newId } from '../src/ids.js';
import { databaseKinds } from './helpers/databases.js';
import { startTestEnv, type TestEnv } from './helpers/services.js';

const NOW = Date.UTC(2026, 10, 28, 12, 0, 0);

function account(email: string): Account {
  return pendingAccount(newId(), email, NOW);
}

function invited(accountId: string, email: string): MemberRow {
  return {
    id: newId(),
    account_id: accountId,
    email,
    role: 'viewer',
    password_hash: null,
    created_at: NOW,
    accepted_at: null,
    invite_token_hash: newId(),
    invite_expires_at: NOW + 3600_000,
    totp_pending_secret: null,
    totp_secret: null,
    totp_enabled_at: null,
    totp_last_step: null,
  };
}

describe.each(databaseKinds)('one holder per address on $name', (kind) => {
  let env: TestEnv;
  let team: Account;
  beforeAll(async () => {
    env = await startTestEnv(kind);
    team = account(`owner-${newId().slice(-8)}@team.example`);
    expect(await env.services.repos.accounts.create(team)).toBe(true);
  });
  afterAll(() => env.close());

  const repos = () => env.services.repos;
  const accountAt = (email: string) => repos().accounts.findByEmail(email);
  const memberAt = (email: string) => repos().members.findInvitedByEmail(email);

  it('refuses a sign-up’s account at an address invited since its look-up', async () => {
    const email = `signup-${newId().slice(-8)}@race.example`;
    await repos().members.insert(invited(team.id, email));
    const pending = account(email);
    const link = {
      token_hash: newId(),
      account_id: pending.id,
      purpose: 'verify_email' as const,
      created_at: NOW,
      expires_at: NOW + 3600_000,
      used_at: null,
      password_hash: null,
      member_id: null,
    };
    expect(await repos().signups.createAccountWithLink(pending, link)).toBe(false);
    expect(await accountAt(email)).toBeUndefined();
    expect((await memberAt(email))?.account_id).toBe(team.id);
  });

  it('refuses the operator’s account at an address invited since its look-up', async () => {
    const email = `operator-${newId().slice(-8)}@race.example`;
    await repos().members.insert(invited(team.id, email));
    expect(await repos().accounts.create(account(email))).toBe(false);
    expect(await accountAt(email)).toBeUndefined();
  });

  it('refuses an invitation of an address that got an account since its look-up', async () => {
    const email = `invite-${newId().slice(-8)}@race.example`;
    expect(await repos().accounts.create(account(email))).toBe(true);
    await expect(repos().members.insert(invited(team.id, email))).rejects.toBeInstanceOf(AddressTakenError);
    expect(await memberAt(email)).toBeUndefined();
  });

  it('leaves exactly one holder of each address when invitations and accounts race for it', async () => {
    const emails = Array.from({ length: 20 }, (_, i) => `both-${i}-${newId().slice(-8)}@race.example`);
    await Promise.all(
      emails.flatMap((email) => [
        repos()
          .members.insert(invited(team.id, email))
          .catch((err: unknown) => {
            if (!(err instanceof AddressTakenError)) throw err;
          }),
        repos().accounts.create(account(email)),
      ]),
    );
    for (const email of emails) {
      const holders = [await accountAt(email), await memberAt(email)].filter((h) => h !== undefined);
      expect(holders, email).toHaveLength(1);
    }
  });
});

// SQLite: another connection (the accept thread, another process) writing while a holder is inserted.
// The claim's look-up must not leave the insert unable to take the write lock once that other write
// commits; SQLite would then answer "database is locked" at once (a sign-up failed so under a send).
describe.runIf(databaseKinds.some((k) => k.name === 'sqlite'))('one holder per address on SQLite', () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await startTestEnv(databaseKinds.find((k) => k.name === 'sqlite')!);
  });
  afterAll(() => env.close());

  it.each([
    ['an account', (email: string) => env.services.repos.accounts.create(account(email))],
    [
      'an invitation',
      async (email: string) => {
        const team = account(`team-${newId().slice(-8)}@team.example`);
        await env.services.repos.accounts.create(team);
        await env.services.repos.members.insert(invited(team.id, email));
        return true;
      },
    ],
  ])('waits for another connection’s write to end before it inserts %s', async (_, insert) => {
    // On a thread of its own, as the accept thread is: this one blocks in SQLite's busy wait.
    const other = new Worker(
      `const { parentPort, workerData } = require('node:worker_threads');
       const db = new (require('better-sqlite3'))(workerData.path);
       db.exec('begin immediate');
       db.exec('create table if not exists lock_probe (x integer)');
       db.exec('insert into lock_probe values (1)');
       parentPort.postMessage('locked');
       Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
       db.exec('commit');
       db.close();`,
      { eval: true, workerData: { path: env.database.url.slice('sqlite:'.length) } },
    );
    try {
      // The other connection holds the write lock, and commits 200 ms after this insert has begun.
      await once(other, 'message');
      const email = `locked-${newId().slice(-8)}@race.example`;
      expect(await insert(email)).toBe(true);
    } finally {
      await other.terminate();
    }
  });
});
