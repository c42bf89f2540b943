// The shell of the once-per-interval jobs (the blocklist check, the TLS reports): one claim per due run,
// a run that stops part-way or fails is given back (due again at once), a finished one sets the next
// due time, and `done` hears only runs that kept their claim to the end.
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { ScheduledRun } from '../../src/scheduled-run.js';

/** The schedule row's rules (db/run-schedule-repo.ts), in memory. */
function schedule() {
  const row = { nextRunAt: 0, owner: null as string | null, lastRunAt: null as number | null };
  return {
    row,
    async claimRun(owner: string, now: number, leaseUntil: number) {
      if (row.nextRunAt > now) return false;
      Object.assign(row, { nextRunAt: leaseUntil, owner });
      return true;
    },
    async finishRun(owner: string, now: number, nextRunAt: number) {
      if (row.owner !== owner) return false;
      Object.assign(row, { nextRunAt, owner: null, lastRunAt: now });
      return true;
    },
    async releaseRun(owner: string, now: number) {
      if (row.owner === owner) Object.assign(row, { nextRunAt: now, owner: null });
    },
  };
}

const OPTIONS = { owner: 'p1', intervalMs: 3_600_000, pollMs: 60_000, leaseMs: 600_000 };

describe('ScheduledRun', () => {
  it('runs once per interval and tells `done` the result', async () => {
    const clock = new ManualClock(1_000_000);
    const repo = schedule();
    const seen: number[] = [];
    const job = new ScheduledRun(
      repo,
      clock,
      pino({ level: 'silent' }),
      'job',
      OPTIONS,
      async () => 7,
      async (n) => void seen.push(n),
    );
    expect(await job.tick()).toBe(true);
    expect(await job.tick()).toBe(false);
    expect(repo.row).toEqual({
      nextRunAt: 1_000_000 + OPTIONS.intervalMs,
      owner: null,
      lastRunAt: 1_000_000,
    });
    clock.advance(OPTIONS.intervalMs);
    expect(await job.tick()).toBe(true);
    expect(seen).toEqual([7, 7]);
    expect(job.runs).toBe(2);
  });

  it('gives back a run that stops part-way or fails: due again at once, `done` not called', async () => {
    const clock = new ManualClock(1_000_000);
    const repo = schedule();
    let answer: () => Promise<number | undefined> = async () => undefined;
    const seen: number[] = [];
    const job = new ScheduledRun(
      repo,
      clock,
      pino({ level: 'silent' }),
      'job',
      OPTIONS,
      () => answer(),
      async (n) => void seen.push(n),
    );
    expect(await job.tick()).toBe(false);
    expect(repo.row).toMatchObject({ nextRunAt: 1_000_000, owner: null, lastRunAt: null });
    answer = () => Promise.reject(new Error('lists down'));
    await expect(job.tick()).rejects.toThrow('lists down');
    expect(repo.row).toMatchObject({ nextRunAt: 1_000_000, owner: null });
    answer = async () => 1;
    expect(await job.tick()).toBe(true);
    expect(seen).toEqual([1]);
  });

  it('does not report a run that outlasted its claim (another process took it)', async () => {
    const clock = new ManualClock(1_000_000);
    const repo = schedule();
    const seen: string[] = [];
    const log = pino({ level: 'silent' });
    const other = new ScheduledRun(
      repo,
      clock,
      log,
      'job',
      { ...OPTIONS, owner: 'p2' },
      async () => 'p2',
      async (x) => void seen.push(x),
    );
    const slow = new ScheduledRun(
      repo,
      clock,
      log,
      'job',
      OPTIONS,
      async () => {
        clock.advance(OPTIONS.leaseMs + 1);
        expect(await other.tick()).toBe(true);
        return 'p1';
      },
      async (x) => void seen.push(x),
    );
    expect(await slow.tick()).toBe(false);
    expect(seen).toEqual(['p2']);
    expect(slow.runs).toBe(0);
  });

  it('takes no run while the process may be counted dead', async () => {
    const repo = schedule();
    const job = new ScheduledRun(
      repo,
      new ManualClock(0),
      pino({ level: 'silent' }),
      'job',
      { ...OPTIONS, canClaim: () => false },
      async () => 1,
    );
    expect(await job.tick()).toBe(false);
    expect(repo.row.owner).toBeNull();
  });

  it('stops: a run in progress sees `stopping` and is given back', async () => {
    const repo = schedule();
    let sawStopping: boolean | undefined;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const job: ScheduledRun<number> = new ScheduledRun<number>(
      repo,
      new ManualClock(0),
      pino({ level: 'silent' }),
      'job',
      OPTIONS,
      async () => {
        await gate;
        sawStopping = job.stopping;
        return job.stopping ? undefined : 1;
      },
    );
    const ticking = job.tick();
    const stopped = job.stop();
    release();
    expect(await ticking).toBe(false);
    await stopped;
    expect(sawStopping).toBe(true);
    expect(repo.row).toMatchObject({ owner: null, nextRunAt: 0 });
  });
});
