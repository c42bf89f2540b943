// WAL checkpoints off the event loop. SQLite's automatic checkpoint runs inside whichever commit crosses
// the threshold, stalling the whole process for tens of milliseconds (the p99 of the send route). Here a
// worker thread with its own connection runs PASSIVE checkpoints, which never block the writer: every
// 250 ms, and at once when a large write asks for it (`checkpointSoon`). The writing connection still
// checkpoints itself past WAL_LIMIT_PAGES (database.ts), and copies then whatever this thread has not:
// after 64 MiB of large parts written a turn apart, that was 64–163 ms on the loop; with a checkpoint
// after each part, under 40 ms (docs/benchmarks.md, "Large inbound reports").
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';

const WORKER = `
const { parentPort, workerData, receiveMessageOnPort } = require('node:worker_threads');
const Database = require(workerData.module);
const db = new Database(workerData.path);
db.pragma('busy_timeout = 1000');
// A truncation asked for and not yet done: tried again, at most once a second, until no reader held it
// off. A TRUNCATE checkpoint takes the write lock and waits for the readers under it: with this
// connection's busy timeout it held every writer off while a read lasted (the event loop's writer, in a
// synchronous call, then failed with "database is locked" after its own 5 s). Without a busy timeout it
// gives the lock back at once when a reader is there, and a PASSIVE checkpoint is done meanwhile.
let truncate = false;
let triedAt = 0;
const checkpoint = () => {
  try {
    if (truncate && Date.now() - triedAt >= 1000) {
      triedAt = Date.now();
      db.pragma('busy_timeout = 0');
      try {
        if (db.pragma('wal_checkpoint(TRUNCATE)')[0].busy === 0) truncate = false;
      } finally {
        db.pragma('busy_timeout = 1000');
      }
      if (!truncate) return;
    }
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (err) { parentPort.postMessage(String(err)); }
};
const timer = setInterval(checkpoint, workerData.intervalMs);
const stop = () => { clearInterval(timer); db.close(); parentPort.close(); };
parentPort.on('message', (message) => {
  // Requests that queued while the last checkpoint ran are one checkpoint.
  let stopping = message === 'stop';
  if (message === 'truncate') truncate = true;
  for (let next = receiveMessageOnPort(parentPort); next; next = receiveMessageOnPort(parentPort)) {
    if (next.message === 'stop') stopping = true;
    if (next.message === 'truncate') truncate = true;
  }
  if (stopping) return stop();
  checkpoint();
});
`;

export interface Checkpointer {
  /** A large write went into the WAL: checkpoint it now rather than at the next tick. */
  soon(): void;
  /**
   * Content was erased: copy the WAL back and cut it to nothing, so that its old frames (which still
   * hold the erased pages as they were) leave the disk too (database.ts Db.erased). Tried without a
   * busy timeout, so a reader in a long read never holds the writers off behind it, and again at most
   * once a second until no reader is in the way.
   */
  truncate(): void;
  stop(): Promise<void>;
}

/** The checkpointer of each writing connection, for the writers that ask it to hurry. */
const checkpointers = new WeakMap<SQLite.Database, Checkpointer>();

/**
 * Asks the checkpointer of `connection` (if it has one) to copy the WAL back now: after each large part
 * written (parts-store.ts), so that the connection's own checkpoint past WAL_LIMIT_PAGES finds little
 * left to copy.
 */
export function checkpointSoon(connection: SQLite.Database): void {
  checkpointers.get(connection)?.soon();
}

export function startCheckpointer(
  path: string,
  onError: (message: string) => void,
  { intervalMs = 250, writer }: { intervalMs?: number; writer?: SQLite.Database } = {},
): Checkpointer {
  const module = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER, { eval: true, workerData: { path, module, intervalMs } });
  worker.on('message', onError);
  worker.on('error', (err) => onError(String(err)));
  worker.unref();
  let stopped = false;
  const checkpointer: Checkpointer = {
    soon: () => {
      if (!stopped) worker.postMessage('soon');
    },
    truncate: () => {
      if (!stopped) worker.postMessage('truncate');
    },
    stop: async () => {
      stopped = true;
      if (writer) checkpointers.delete(writer);
      worker.ref(); // keep the process alive until the thread has closed its connection
      worker.postMessage('stop');
      await new Promise((resolve) => worker.once('exit', resolve));
    },
  };
  if (writer) checkpointers.set(writer, checkpointer);
  return checkpointer;
}
