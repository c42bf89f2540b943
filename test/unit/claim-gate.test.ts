// A process that could not write its heartbeat for long enough that others may soon count it dead
// (process-registry.ts canClaim) claims nothing new, and claims again once it has beaten: the delivery
// worker asks before each claim, woken or not.
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { QueueRepo } from '../../src/db/queue-repo.js';
import type { Deliverer } from '../../src/delivery/deliver-message.js';
import { DEFAULT_WORKER_OPTIONS, DeliveryWorker } from '../../src/delivery/worker.js';
import { until } from '../helpers/wait.js';

describe('the claim gate of the delivery worker', () => {
  it('claims nothing while its process may be counted dead, and claims again once it may', async () => {
    let claims = 0;
    const queue = {
      claimDue: async () => {
        claims++;
        return [];
      },
      nextDue: async () => Date.now(), // always something due: only the gate keeps it from claiming
      releaseAll: async () => undefined,
      recordMany: async () => [],
    } as unknown as QueueRepo;
    let may = false;
    let asked = 0;
    const w = new DeliveryWorker(
      queue,
      {} as Deliverer,
      { now: () => Date.now() },
      pino({ level: 'silent' }),
      {
        ...DEFAULT_WORKER_OPTIONS,
        pollMs: 20,
        canClaim: () => {
          asked++;
          return may;
        },
      },
    );
    w.start();
    try {
      // The loop has come round several times, woken too, and asked each time before claiming.
      await until('the gate asked', async () => (asked >= 3 ? true : undefined));
      w.wake();
      const after = asked;
      await until('the gate asked again', async () => (asked >= after + 3 ? true : undefined));
      expect(claims).toBe(0);
      may = true;
      await until('a claim', async () => (claims > 0 ? true : undefined));
    } finally {
      await w.stop();
    }
  });
});
