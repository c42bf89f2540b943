// Entry point of the SQLite accept thread (accept-writer-thread.ts): its own connection to the database
// file, running the accept transaction for the batches the event loop posts, and answering each with
// its outcomes once they are committed.
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { sqliteAcceptTransaction } from './accept-repo-sqlite.js';
import { commitRequests, type AcceptThreadData, type AcceptThreadRequest } from './accept-thread-protocol.js';
import { configureSqlite } from './sqlite-pragmas.js';

const port = parentPort!;
const database = new SQLite((workerData as AcceptThreadData).path);
configureSqlite(database);
// This connection keeps SQLite's automatic checkpoint (after a commit that leaves 1,000 pages in the
// WAL): it runs here, off the event loop, so it can run often and keep the WAL short (bench/accept: a
// 4 MB WAL, where checkpoints from the checkpointer thread alone let it pass 600 MB; see database.ts).
database.pragma('wal_autocheckpoint = 1000');
const run = sqliteAcceptTransaction(database);

// Requests and replies travel as JSON text: for these plain objects, JSON.stringify and a string copy
// cost a fraction of postMessage's structured clone, which took a tenth of the event loop's time.
port.on('message', (first: string) => {
  if (first === 'close') return close();
  // Every batch that queued up while the last commit ran goes into one transaction: one fsync.
  const requests = [JSON.parse(first) as AcceptThreadRequest];
  let closing = false;
  for (let next = receiveMessageOnPort(port); next; next = receiveMessageOnPort(port)) {
    if (next.message === 'close') closing = true;
    else requests.push(JSON.parse(next.message as string) as AcceptThreadRequest);
  }
  for (const reply of commitRequests(run, requests)) port.postMessage(JSON.stringify(reply));
  if (closing) close();
});

function close(): void {
  database.close();
  port.close();
}
