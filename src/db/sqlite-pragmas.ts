// How every txmail connection to a SQLite file is set up, on the event loop or on a thread.
import type SQLite from 'better-sqlite3';

export function configureSqlite(database: SQLite.Database): void {
  // WAL lets readers run beside the writer; synchronous=FULL makes every commit durable (fsync of the
  // WAL), which the API promises before answering 2xx. Group commit (group-commit.ts) keeps that to
  // one fsync per batch of requests, not one per request.
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = FULL');
  database.pragma('foreign_keys = ON');
  // Content that is deleted or overwritten (a sealed message's sign-in link, content past its retention)
  // is overwritten with zeros, in the page and in pages put on the free list, so a copy of the file does
  // not keep it; the WAL's old frames go at the checkpoint that truncates it (database.ts `Db.erased`,
  // sqlite-checkpointer.ts `truncate`). Writing zeros costs extra pages only where whole pages are
  // freed: the retention sweeps' deletes, not the send path's inserts.
  database.pragma('secure_delete = ON');
  // Another connection (the accept thread, or `txmail worker` beside `txmail api`) may hold the write
  // lock briefly.
  database.pragma('busy_timeout = 5000');
}
