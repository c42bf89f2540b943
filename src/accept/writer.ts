// The accept seam: where the accept path hands over a message to be committed. One writer per database,
// each owning its batching (group commit: the requests that arrive together share one transaction and
// one disk flush); what they commit is the accept seam (db/seams.ts: db/sqlite/accept.ts,
// db/postgres/accept.ts).
import type { AcceptItem, AcceptOutcome } from '../db/accept-item.js';
import type { Db } from '../db/database.js';
import { PostgresAcceptWriter } from './postgres-writer.js';
import { SqliteAcceptWriter } from './sqlite-writer.js';

export interface AcceptWriter {
  /** Resolves once the item is durably committed (or refused); rejects when the database fails. */
  submit(item: AcceptItem): Promise<AcceptOutcome>;
  /** Commits everything submitted so far, then lets go of what it holds (the SQLite thread). */
  close(): Promise<void>;
}

export interface AcceptWriterOptions {
  /** SQLite: commit on a thread of its own (a database file only; see sqlite-writer.ts). */
  threaded: boolean;
  /** Called after each commit with its items and their outcomes (e.g. to wake the delivery worker). */
  onCommitted?: (items: AcceptItem[], outcomes: AcceptOutcome[]) => void;
}

export function createAcceptWriter(db: Db, options: AcceptWriterOptions): AcceptWriter {
  return db.sqlite ? new SqliteAcceptWriter(db, options) : new PostgresAcceptWriter(db.kysely, options);
}
