// The dashboard's session writes (web/src/newest-wins.ts): an answer that comes back after a newer
// write started never undoes it, in whatever order the answers come.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { newestWins } from '../../web/src/newest-wins.js';

/** A promise settled by hand. */
function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('newestWins', () => {
  it("drops a read that answers after a log-in's answer was adopted", async () => {
    const adopted: string[] = [];
    const w = newestWins<string>((v) => adopted.push(v));
    const slow = deferred<string>();
    const reading = w.read(() => slow.promise);
    w.set('logged in');
    slow.resolve('logged out');
    expect(await reading).toBe('stale');
    expect(adopted).toEqual(['logged in']);
  });

  it('keeps the newer of two reads when the older answers last (an enrolment refresh after a refusal re-read)', async () => {
    const adopted: string[] = [];
    const w = newestWins<string>((v) => adopted.push(v));
    const older = deferred<string>();
    const newer = deferred<string>();
    const first = w.read(() => older.promise);
    const second = w.read(() => newer.promise);
    newer.resolve('enrolled');
    expect(await second).toBe('adopted');
    older.resolve('must enrol');
    expect(await first).toBe('stale');
    expect(adopted).toEqual(['enrolled']);
  });

  it('throws a failure of the newest read only, and adopts a read that is still the newest', async () => {
    const w = newestWins<string>(() => undefined);
    await expect(w.read(() => Promise.reject(new Error('offline')))).rejects.toThrow('offline');
    const failing = deferred<string>();
    const stale = w.read(() => failing.promise);
    w.set('x');
    failing.reject(new Error('offline'));
    expect(await stale).toBe('stale');
    expect(await w.read(() => Promise.resolve('y'))).toBe('adopted');
  });

  it('never goes back to an older write, whatever the order of the answers (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(fc.constant('set' as const), fc.constant('read' as const), fc.constant('fail' as const)),
          {
            minLength: 1,
            maxLength: 8,
          },
        ),
        fc.func(fc.integer()),
        async (kinds, order) => {
          const adopted: number[] = [];
          const w = newestWins<number>((v) => adopted.push(v));
          const pending: { settle: () => void; done: Promise<unknown> }[] = [];
          kinds.forEach((kind, i) => {
            if (kind === 'set') return w.set(i);
            const d = deferred<number>();
            const done = w.read(() => d.promise).catch(() => 'failed');
            pending.push({ settle: () => (kind === 'read' ? d.resolve(i) : d.reject(new Error('x'))), done });
          });
          // The answers come back in an order the property picks.
          const sorted = pending.map((p, k) => ({ p, key: order(k) })).sort((a, b) => a.key - b.key);
          for (const { p } of sorted) {
            p.settle();
            await p.done;
          }
          for (let k = 1; k < adopted.length; k++) expect(adopted[k]!).toBeGreaterThan(adopted[k - 1]!);
          const last = kinds.length - 1;
          if (kinds[last] !== 'fail') expect(adopted.at(-1)).toBe(last);
        },
      ),
    );
  });
});
