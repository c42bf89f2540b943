// The delivery worker's sleep never loses a wake-up. Between its look at the queue and its sleep it
// asks the database when the next message is due; a wake that came during that query (mail queued, or
// stop()) must still cut the sleep short. Otherwise mail waited for the next poll and a graceful stop
// hung for a whole poll interval (seen as a 60 s hang in a PostgreSQL delivery test under load).
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { QueueRepo } from '../../src/db/queue-repo.js';
import type { Deliverer } from '../../src/delivery/deliver-message.js';
import { DEFAULT_WORKER_OPTIONS, DeliveryWorker } from '../../src/delivery/worker.js';

/** A queue with nothing due whose "when is the next message due" query answers only when told to. */
function heldQueue() {
  const held: (() => void)[] = [];
  let claims = 0;
  const queue = {
    claimDue: async () => {
      claims++;
      return [];
    },
    nextDue: () => new Promise<number | undefined>((resolve) => held.push(() => resolve(undefined))),
    releaseAll: async () => undefined,
    recordMany: async () => [],
  } as unknown as QueueRepo;
  return {
    queue,
    claims: () => claims,
    /** Waits until the worker is inside the query, then answers it. */
    async answerNextQuery() {
      while (held.length === 0) await new Promise((r) => setTimeout(r, 5));
      held.shift()!();
    },
    asked: () => held.length > 0,
  };
}

const worker = (queue: QueueRepo) =>
  new DeliveryWorker(queue, {} as Deliverer, { now: () => Date.now() }, pino({ level: 'silent' }), {
    ...DEFAULT_WORKER_OPTIONS,
    pollMs: 10 * 60_000,
  });
const within = <T>(p: Promise<T>, ms: number) =>
  Promise.race([p.then(() => 'done' as const), new Promise<'late'>((r) => setTimeout(() => r('late'), ms))]);

describe('the delivery worker waking', () => {
  it('stops at once when stop() comes while it asks when the next message is due', async () => {
    const q = heldQueue();
    const w = worker(q.queue);
    w.start();
    while (!q.asked()) await new Promise((r) => setTimeout(r, 5));
    const stopped = w.stop();
    await q.answerNextQuery();
    expect(await within(stopped, 2000)).toBe('done');
  });

  it('looks at the queue again when woken while it asks when the next message is due', async () => {
    const q = heldQueue();
    const w = worker(q.queue);
    w.start();
    while (!q.asked()) await new Promise((r) => setTimeout(r, 5));
    const before = q.claims();
    w.wake();
    await q.answerNextQuery();
    const claimedAgain = (async () => {
      while (q.claims() === before) await new Promise((r) => setTimeout(r, 5));
    })();
    expect(await within(claimedAgain, 2000)).toBe('done');
    const stopped = w.stop();
    await q.answerNextQuery().catch(() => undefined);
    await stopped;
  });
});
