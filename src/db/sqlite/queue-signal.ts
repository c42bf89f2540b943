// The queue signal seam on SQLite: nothing to send. SQLite has no channel between processes, so a
// worker is woken only by mail queued in its own process (wake-signals.ts) and otherwise polls.
import type { QueueSignal } from '../seams.js';

export const sqliteQueueSignal: QueueSignal = {
  queued: () => undefined,
  listen: async () => async () => undefined,
  listenerPid: () => undefined,
};
