// WAL checkpoints off the event loop. SQLite's automatic checkpoint runs inside whichever commit crosses
// the threshold, stalling the whole process for tens of milliseconds (the p99 of the send route). Here a
// worker thread with its own connection runs PASSIVE checkpoints, which never block the writer.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
const db = new Database(workerData.path);
db.pragma('busy_timeout = 1000');
const timer = setInterval(() => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch (err) { parentPort.postMessage(String(err)); }
}, workerData.intervalMs);
parentPort.on('message', () => { clearInterval(timer); db.close(); parentPort.close(); });
`;

export interface Checkpointer {
  stop(): Promise<void>;
}

export function startCheckpointer(
  path: string,
  onError: (message: string) => void,
  intervalMs = 250,
): Checkpointer {
  const module = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER, { eval: true, workerData: { path, module, intervalMs } });
  worker.on('message', onError);
  worker.on('error', (err) => onError(String(err)));
  worker.unref();
  return {
    stop: async () => {
      worker.ref(); // keep the process alive until the thread has closed its connection
      worker.postMessage('stop');
      await new Promise((resolve) => worker.once('exit', resolve));
    },
  };
}
