// Entry point of the SQLite accept thread (accept-writer-thread.ts): its own connection to the database
// file, running the accept transaction for each batch the event loop posts, and answering with the
// outcomes once the batch is committed.
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import type { AcceptItem, AcceptOutcome } from './accept-repo.js';
import { sqliteAcceptTransaction } from './accept-repo-sqlite.js';
import { configureSqlite } from './sqlite-pragmas.js';

export interface AcceptThreadData {
  path: string;
}
export interface AcceptThreadRequest {
  id: number;
  items: AcceptItem[];
}
export type AcceptThreadReply =
  | { id: number; outcomes: AcceptOutcome[] }
  | { id: number; error: { message: string; code: string | undefined } };

const port = parentPort!;
const database = new SQLite((workerData as AcceptThreadData).path);
configureSqlite(database);
// Checkpoints belong to the checkpointer thread (sqlite-checkpointer.ts), not to a commit.
database.pragma('wal_autocheckpoint = 0');
const run = sqliteAcceptTransaction(database);

port.on('message', (request: AcceptThreadRequest | 'close') => {
  if (request === 'close') {
    database.close();
    port.close();
    return;
  }
  let reply: AcceptThreadReply;
  try {
    reply = { id: request.id, outcomes: run(request.items) };
  } catch (err) {
    const e = err as { message?: unknown; code?: unknown };
    reply = {
      id: request.id,
      error: { message: String(e.message ?? err), code: typeof e.code === 'string' ? e.code : undefined },
    };
  }
  port.postMessage(reply);
});
