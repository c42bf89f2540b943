// Entry point of the SQLite accept thread (sqlite-thread.ts): its own connection to the database file,
// running the accept transaction for the batches the event loop posts, and answering each with its
// outcomes once they are committed.
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { quotaNoticeAt } from '../accounts/quota-warning.js';
import { prepareSqliteAccept } from '../db/sqlite/accept.js';
import { configureSqlite } from '../db/sqlite-pragmas.js';
import { commitRequests, type AcceptThreadData, type AcceptThreadRequest } from './sqlite-thread.js';

const port = parentPort!;
const database = new SQLite((workerData as AcceptThreadData).path);
configureSqlite(database);
// This connection keeps SQLite's automatic checkpoint (after a commit that leaves 1,000 pages in the
// WAL): it runs here, off the event loop, so it can run often and keep the WAL short (bench/accept: a
// 4 MB WAL, where checkpoints from the checkpointer thread alone let it pass 600 MB; see database.ts).
database.pragma('wal_autocheckpoint = 1000');
const run = prepareSqliteAccept(database, quotaNoticeAt);

// Requests and replies are JSON text (see sqlite-thread.ts).
port.on('message', (first: string) => {
  if (first === 'close') return close();
  // Every batch that queued up while the last commit ran goes into one transaction: one fsync.
  const requests = [JSON.parse(first) as AcceptThreadRequest];
  let closing = false;
  for (let next = receiveMessageOnPort(port); next; next = receiveMessageOnPort(port)) {
    if (next.message === 'close') closing = true;
    else requests.push(JSON.parse(next.message as string) as AcceptThreadRequest);
  }
  void commitRequests(run, requests).then((replies) => {
    for (const reply of replies) port.postMessage(JSON.stringify(reply));
    if (closing) close();
  });
});

function close(): void {
  database.close();
  port.close();
}
