// How every txmail connection to a SQLite file is set up, on the event loop or on a thread.
import type SQLite from 'better-sqlite3';

export function configureSqlite(database: SQLite.Database): void {
  // WAL lets readers run beside the writer; synchronous=FULL makes every commit durable (fsync of the
  // WAL), which the API promises before answering 2xx. Group commit (group-commit.ts) keeps that to
  // one fsync per batch of requests, not one per request.
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = FULL');
  database.pragma('foreign_keys = ON');
  // Another connection (the accept thread, or `txmail worker` beside `txmail api`) may hold the write
  // lock briefly.
  database.pragma('busy_timeout = 5000');
}
