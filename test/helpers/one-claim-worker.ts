// A delivery worker over a fake queue that hands out one message once, and a fake deliverer that
// answers `outcome`: for the worker's own decisions (expiry, holds) with the clock passed in. Answers
// the record the worker wrote and how often the deliverer was asked.
import pino from 'pino';
import type { ManualClock } from '../../src/clock.js';
import type { AttemptRecord, QueueRepo, RecordOutcome } from '../../src/db/queue-repo.js';
import type { MessageRow } from '../../src/db/schema.js';
import type { Deliverer, DeliveryOutcome } from '../../src/delivery/deliver-message.js';
import { DEFAULT_WORKER_OPTIONS, DeliveryWorker, type WorkerOptions } from '../../src/delivery/worker.js';
import { until } from './wait.js';

export async function runOneClaim(
  m: MessageRow,
  clock: ManualClock,
  s: {
    /** The message's expire_after in seconds (null: the default period). */
    expireAfter: number | null;
    outcome: () => DeliveryOutcome;
    held?: WorkerOptions['held'];
  },
): Promise<{ record: AttemptRecord; delivered: number }> {
  const records: AttemptRecord[] = [];
  let claimed = false;
  // The deadline the accept would have stored (ARCHITECTURE.md, "Expiry").
  m = { ...m, deadline_at: s.expireAfter === null ? null : m.created_at + s.expireAfter * 1000 };
  const queue = {
    claimDue: async () => (claimed ? [] : ((claimed = true), [m])),
    nextDue: async () => undefined,
    releaseAll: async () => 0,
    recordMany: async (rs: AttemptRecord[]): Promise<RecordOutcome[]> => {
      records.push(...rs);
      return rs.map(() => 'applied');
    },
  } as unknown as QueueRepo;
  let delivered = 0;
  const deliverer = {
    deliver: async () => {
      delivered++;
      return s.outcome();
    },
  } as unknown as Deliverer;
  const worker = new DeliveryWorker(queue, deliverer, clock, pino({ level: 'silent' }), {
    ...DEFAULT_WORKER_OPTIONS,
    pollMs: 20,
    ...(s.held ? { held: s.held } : {}),
  });
  worker.start();
  const [record] = await until('the record', async () => (records.length > 0 ? records : undefined));
  await worker.stop();
  return { record: record!, delivered };
}
