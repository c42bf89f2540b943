// When the reputation guard judges an account (src/reputation/guard.ts): after a bounce or complaint
// (soon), and after any other final message of an account last judged below `min_messages` with
// something against it (counted): that message may be the one that brings the window to the minimum,
// and the pause must not wait for the next sweep, minutes away. The guard's stores are in memory here;
// test/reputation-guard.test.ts runs the same with the real worker and databases.
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import type {
  AccountReputationRepo,
  AccountReputationState,
  ReputationMove,
} from '../../src/db/account-reputation-repo.js';
import { JUDGE_COALESCE_MS, ReputationGuard, type ReputationCounts } from '../../src/reputation/guard.js';
import type { ReputationWindow } from '../../src/reputation/judge.js';
import { DEFAULT_REPUTATION } from '../../src/reputation/thresholds.js';

const ACCOUNT = 'acct-1';

describe('when the reputation guard judges', () => {
  let windows: Map<string, ReputationWindow>;
  let states: Map<string, AccountReputationState>;
  let moves: ReputationMove[];
  let windowReads: string[];
  let counts: ReputationCounts;
  let stateStore: AccountReputationRepo;
  let guard: ReputationGuard;

  /** A guard over this test's stores: a process of its own (each keeps what it watches in memory). */
  const newGuard = () =>
    new ReputationGuard({
      counts,
      states: stateStore,
      thresholds: { ...DEFAULT_REPUTATION, minMessages: 20 },
      mail: () => Promise.resolve(),
      publicUrl: 'https://txmail.test',
      clock: new ManualClock(Date.UTC(2026, 10, 29)),
      logger: pino({ level: 'silent' }),
    });

  beforeEach(() => {
    vi.useFakeTimers();
    windows = new Map();
    states = new Map();
    moves = [];
    windowReads = [];
    counts = {
      window: (accountId: string) => {
        windowReads.push(accountId);
        return Promise.resolve(windows.get(accountId) ?? { messages: 0, bounced: 0, complained: 0 });
      },
      windows: () => Promise.resolve([...windows].map(([accountId, w]) => ({ accountId, ...w }))),
      resetWindow: () => Promise.resolve(),
    };
    stateStore = {
      state: (id: string) =>
        Promise.resolve(states.get(id) ?? { status: 'healthy', reason: null, changedAt: null }),
      move: (m: ReputationMove) => {
        moves.push(m);
        states.set(m.accountId, { status: m.to, reason: m.reason, changedAt: m.now });
        return Promise.resolve(true);
      },
      movedStates: () => Promise.resolve(new Map(states)),
    } as unknown as AccountReputationRepo;
    guard = newGuard();
  });
  afterEach(async () => {
    await guard.stop();
    vi.useRealTimers();
  });

  /** Lets the coalesced judgement run, and what it awaits. */
  const elapse = async () => {
    await vi.advanceTimersByTimeAsync(JUDGE_COALESCE_MS);
    await guard.settled();
  };

  it('pauses when the message that brings the window to the minimum is a delivery', async () => {
    // 19 final messages, 3 bounced: below the minimum, so not judged on its rates.
    windows.set(ACCOUNT, { messages: 19, bounced: 3, complained: 0 });
    guard.soon(ACCOUNT);
    await elapse();
    expect(moves).toEqual([]);
    expect(guard.idle).toBe(true);

    // The 20th is delivered: 3 of 20 is 15 %, at or above the pause threshold (10 %).
    windows.set(ACCOUNT, { messages: 20, bounced: 3, complained: 0 });
    guard.counted(ACCOUNT);
    expect(guard.idle).toBe(false);
    await elapse();
    expect(moves.map((m) => [m.from, m.to])).toEqual([['healthy', 'paused']]);
    expect(moves[0]!.reason).toMatch(/^the bounce rate over the last 7 days is 15\.0 % \(3 of 20 messages\)/);
  });

  /** Delivers one message of the account: the window grows by one, then `by` counts it. */
  const deliver = async (by: ReputationGuard) => {
    const w = windows.get(ACCOUNT)!;
    windows.set(ACCOUNT, { ...w, messages: w.messages + 1 });
    by.counted(ACCOUNT);
    await elapse();
  };

  it('judges again at each halving of the distance to the minimum, and on the message that reaches it', async () => {
    windows.set(ACCOUNT, { messages: 12, bounced: 1, complained: 0 });
    guard.soon(ACCOUNT);
    await elapse();
    windowReads.length = 0;
    const judgedAt: number[] = [];
    while (moves.length === 0) {
      await deliver(guard);
      if (windowReads.length > judgedAt.length) judgedAt.push(windows.get(ACCOUNT)!.messages);
    }
    // 8 short: judged after 4, then 2, then 1, then 1 more (the message that reaches 20).
    expect(judgedAt).toEqual([16, 18, 19, 20]);
    // 1 of 20, 5 %: the warning threshold, which a delivery can bring as well as a pause.
    expect(moves.map((m) => [m.from, m.to])).toEqual([['healthy', 'warning']]);
  });

  it('coalesces a burst of deliveries into one judgement', async () => {
    windows.set(ACCOUNT, { messages: 18, bounced: 1, complained: 0 });
    guard.soon(ACCOUNT);
    await elapse();
    windowReads.length = 0;
    windows.set(ACCOUNT, { messages: 60, bounced: 1, complained: 0 });
    for (let i = 0; i < 50; i++) guard.counted(ACCOUNT);
    await elapse();
    expect(windowReads).toEqual([ACCOUNT]);
  });

  it('with two processes sharing the mail, judges when the window reaches the minimum', async () => {
    const other = newGuard();
    try {
      windows.set(ACCOUNT, { messages: 4, bounced: 3, complained: 0 });
      guard.soon(ACCOUNT);
      other.soon(ACCOUNT);
      await elapse();
      await other.settled();
      // Each process records every other delivery; neither sees the other's.
      for (let i = 0; moves.length === 0 && i < 40; i++) {
        await deliver(i % 2 === 0 ? guard : other);
        await other.settled();
      }
      expect(moves.map((m) => [m.from, m.to])).toEqual([['healthy', 'paused']]);
      expect(windows.get(ACCOUNT)!.messages).toBe(20);
    } finally {
      await other.stop();
    }
  });

  it('judges again a delivery counted while a judgement of its account was reading the window', async () => {
    windows.set(ACCOUNT, { messages: 19, bounced: 3, complained: 0 });
    let release: () => void = () => undefined;
    const read = new Promise<void>((resolve) => (release = resolve));
    const plainWindow = counts.window;
    // The first read waits, holding the window of 19, while the 20th message is delivered.
    counts.window = async (...args) => {
      const w = await plainWindow(...args);
      await read;
      return w;
    };
    guard.soon(ACCOUNT);
    await vi.advanceTimersByTimeAsync(JUDGE_COALESCE_MS);
    windows.set(ACCOUNT, { messages: 20, bounced: 3, complained: 0 });
    guard.counted(ACCOUNT);
    counts.window = plainWindow;
    release();
    await guard.settled();
    expect(moves).toEqual([]); // that judgement saw 19
    await elapse();
    expect(moves.map((m) => [m.from, m.to])).toEqual([['healthy', 'paused']]);
  });

  it('a sweep that read an older window does not make the guard forget an account', async () => {
    windows.set(ACCOUNT, { messages: 19, bounced: 3, complained: 0 });
    guard.soon(ACCOUNT);
    await elapse();
    // The sweep's read from before the bounces: a clean window, and 10 short of the minimum.
    const plainWindows = counts.windows;
    counts.windows = () => Promise.resolve([{ accountId: ACCOUNT, messages: 10, bounced: 0, complained: 0 }]);
    await guard.sweep();
    counts.windows = plainWindows;
    windows.set(ACCOUNT, { messages: 20, bounced: 3, complained: 0 });
    guard.counted(ACCOUNT);
    await elapse();
    expect(moves.map((m) => [m.from, m.to])).toEqual([['healthy', 'paused']]);
  });

  it('leaves deliveries alone where they cannot bring a pause', async () => {
    // Never judged in this process: a delivery alone only lowers the rates (the sweep judges it).
    guard.counted('never-judged');
    expect(guard.idle).toBe(true);

    // Judged below the minimum with a clean window: nothing against it for a delivery to tip.
    windows.set('clean', { messages: 10, bounced: 0, complained: 0 });
    guard.soon('clean');
    await elapse();
    guard.counted('clean');
    expect(guard.idle).toBe(true);

    // Judged at or above the minimum: a delivery only lowers the rates it was judged on.
    windows.set('judged', { messages: 40, bounced: 1, complained: 0 });
    guard.soon('judged');
    await elapse();
    guard.counted('judged');
    expect(guard.idle).toBe(true);
    expect(moves).toEqual([]);
  });

  it('forgets a paused account: its deliveries are held, and only the operator lifts the pause', async () => {
    windows.set(ACCOUNT, { messages: 19, bounced: 3, complained: 0 });
    guard.soon(ACCOUNT);
    await elapse();
    states.set(ACCOUNT, { status: 'paused', reason: 'by another process', changedAt: 1 });
    guard.counted(ACCOUNT);
    await elapse(); // judged once more: paused, so dropped
    guard.counted(ACCOUNT);
    expect(guard.idle).toBe(true);
    expect(moves).toEqual([]);
  });

  it('a sweep that finds an account below the minimum with a bounce makes its deliveries judged', async () => {
    windows.set(ACCOUNT, { messages: 19, bounced: 2, complained: 0 });
    await guard.sweep();
    windows.set(ACCOUNT, { messages: 20, bounced: 2, complained: 0 });
    guard.counted(ACCOUNT);
    await elapse();
    expect(moves.map((m) => [m.from, m.to])).toEqual([['healthy', 'paused']]);
  });
});
