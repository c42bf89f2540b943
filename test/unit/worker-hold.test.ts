// The worker holds a paused account's mail (ARCHITECTURE.md, "Reputation guardrails"), with a fake queue
// and deliverer and the clock passed in: a held message is never handed to the deliverer, only its
// schedule moves (no attempt counted, no event), its deadline still ends the hold, and one past its
// deadline fails as expired. The end-to-end path on both databases is test/reputation-guard.test.ts.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import type { MessageRow } from '../../src/db/schema.js';
import { HOLD_MS } from '../../src/reputation/thresholds.js';
import { PausedAccounts } from '../../src/reputation/paused-accounts.js';
import { messageRow } from '../helpers/message-row.js';
import { runOneClaim } from '../helpers/one-claim-worker.js';

const CREATED = Date.UTC(2026, 10, 22, 9, 0, 0);

const message = (over: Partial<MessageRow> = {}): MessageRow =>
  messageRow('paused-account', {
    status: 'deferred',
    created_at: CREATED,
    updated_at: CREATED,
    attempts: 1,
    next_attempt_at: CREATED,
    lease_owner: 'w',
    lease_expires_at: CREATED + 600_000,
    ...over,
  });

/** Runs one claimed message through a worker whose `held` holds the account `paused-account`. */
const runOne = (m: MessageRow, clock: ManualClock, expireAfterSeconds: number) =>
  runOneClaim(m, clock, {
    expireAfter: expireAfterSeconds,
    outcome: () => ({ kind: 'paused', until: clock.now() + 1000 }),
    held: async (row) => row.account_id === 'paused-account',
  });

describe('the worker and a paused account', () => {
  it('holds its mail: the schedule moves, no attempt, no event, the status kept', async () => {
    const clock = new ManualClock(CREATED + 1000);
    const { record, delivered } = await runOne(message(), clock, 86_400);
    expect(delivered).toBe(0);
    expect(record).toMatchObject({
      status: 'deferred',
      nextAttemptAt: CREATED + 1000 + HOLD_MS,
      counted: false,
      attempt: undefined,
      events: [],
    });
  });

  it('ends the hold at the deadline, and fails a message past it as expired', async () => {
    const clock = new ManualClock(CREATED + 1000);
    const near = await runOne(message(), clock, 60);
    expect(near.record).toMatchObject({ nextAttemptAt: CREATED + 60_000, counted: false });
    clock.set(CREATED + 60_000);
    const past = await runOne(message(), clock, 60);
    expect(past.delivered).toBe(0);
    expect(past.record).toMatchObject({ status: 'failed', nextAttemptAt: null });
    expect(past.record.events.map((e) => e.type)).toEqual(['email.failed']);
    expect(past.record.events[0]!.data.detail).toBe(
      'not delivered within 1 minute; not tried again; held while sending was paused (account_paused)',
    );
    // Another account's expiry says nothing about a pause.
    const other = await runOne(message({ account_id: 'another' }), clock, 60);
    expect(other.record.events[0]!.data.detail).toBe('not delivered within 1 minute; not tried again');
  });

  it('hands other accounts’ mail to the deliverer', async () => {
    const clock = new ManualClock(CREATED + 1000);
    const { delivered } = await runOne(message({ account_id: 'another' }), clock, 86_400);
    expect(delivered).toBe(1);
  });
});

describe('the paused accounts the worker asks about', () => {
  it('reads the set at most once per second, and keeps the last one when a read fails', async () => {
    const clock = new ManualClock(CREATED);
    let reads = 0;
    let answer: () => Promise<string[]> = async () => ['a'];
    const errors: unknown[] = [];
    const paused = new PausedAccounts(
      () => {
        reads++;
        return answer();
      },
      clock,
      (err) => errors.push(err),
    );
    expect(await Promise.all([paused.has('a'), paused.has('b'), paused.has('a')])).toEqual([
      true,
      false,
      true,
    ]);
    expect(reads).toBe(1);
    clock.advance(999);
    expect(await paused.has('a')).toBe(true);
    expect(reads).toBe(1);
    clock.advance(1);
    answer = async () => {
      throw new Error('database away');
    };
    expect(await paused.has('a')).toBe(true);
    expect(reads).toBe(2);
    expect(errors).toHaveLength(1);
    clock.advance(1000);
    answer = async () => ['b'];
    expect(await paused.has('a')).toBe(false);
    expect(await paused.has('b')).toBe(true);
  });
});

describe('a resume the cached set has not seen yet', () => {
  it('is seen at once: an account the set says is paused is asked again before its mail is held', async () => {
    const clock = new ManualClock(CREATED);
    let paused = true;
    const asked: string[] = [];
    const accounts = new PausedAccounts(
      async () => ['a'],
      clock,
      () => undefined,
      1000,
      async (id) => {
        asked.push(id);
        return paused;
      },
    );
    expect(await accounts.has('a')).toBe(true);
    // Resumed (by the operator's CLI, another process) within the cache's second.
    paused = false;
    clock.advance(500);
    expect(await accounts.has('a')).toBe(false);
    // Accounts not in the set are not asked about.
    expect(await accounts.has('b')).toBe(false);
    expect(asked).toEqual(['a', 'a']);
  });
});
