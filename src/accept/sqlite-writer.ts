// Accepting on SQLite: group commit in front of the accept transaction (db/sqlite/accept.ts), run on a
// thread with its own connection to the database file (sqlite-thread.ts) or on the event loop's
// connection (in memory, or TXMAIL_SQLITE_WRITER_THREAD off: see wiring/accept-path.ts).
import { quotaNoticeAt } from '../accounts/quota-warning.js';
import type { AcceptItem, AcceptOutcome } from '../db/accept-item.js';
import { sqliteAcceptTransaction } from '../db/sqlite/accept.js';
import { PARTS_ABOVE, SqliteBodyParts } from '../db/sqlite/body-parts.js';
import type { Db } from '../db/database.js';
import { GroupCommit } from '../group-commit.js';
import { AcceptThread } from './sqlite-thread.js';
import type { AcceptWriter, AcceptWriterOptions } from './writer.js';

/** Most HTML (in UTF-16 code units) one accept batch on the event loop writes: about 5 ms of it. */
const LOOP_BATCH_HTML = 512 * 1024;

export class SqliteAcceptWriter implements AcceptWriter {
  private readonly batcher: GroupCommit<AcceptItem, AcceptOutcome>;
  private readonly thread: AcceptThread | undefined;
  /** On the event loop: large HTML written in parts before its message (body-parts.ts). */
  private readonly parts: SqliteBodyParts | undefined;

  constructor(db: Db, { threaded, onCommitted }: AcceptWriterOptions) {
    const committed = onCommitted && { onCommitted };
    // The thread opens the file with a connection of its own: an in-memory database would be another one.
    if (threaded && db.sqlitePath !== undefined && db.sqlitePath !== ':memory:') {
      const thread = new AcceptThread(db.sqlitePath);
      this.thread = thread;
      // Each request goes over as it comes, two at most out at once: the thread merges whatever waits
      // for it into one transaction, so it commits the first requests of a burst while the event loop
      // still parses the rest (bench/accept: 2 clearly better than 64).
      this.batcher = new GroupCommit((items) => thread.persist(items), {
        immediate: true,
        maxInFlight: 2,
        ...committed,
      });
    } else {
      // On the event loop a write blocks anyway: one batch at a time, and no more HTML in one than the
      // loop writes in a few milliseconds, so large messages each take a turn of their own.
      this.parts = new SqliteBodyParts(db.kysely, db.sqlite!, db.sqlitePath);
      this.batcher = new GroupCommit(sqliteAcceptTransaction(db.kysely, db.sqlite!, quotaNoticeAt), {
        maxInFlight: 1,
        weightOf: (item) => item.html.length,
        maxWeight: LOOP_BATCH_HTML,
        ...committed,
      });
    }
  }

  submit(item: AcceptItem): Promise<AcceptOutcome> {
    if (this.parts !== undefined && item.html.length > PARTS_ABOVE)
      return this.submitInParts(item, this.parts);
    return this.batcher.submit(item);
  }

  /** The HTML in parts first, then the message; the parts go again if the message is not stored. */
  private async submitInParts(item: AcceptItem, parts: SqliteBodyParts): Promise<AcceptOutcome> {
    const id = item.message.id;
    let outcome: AcceptOutcome;
    try {
      const count = await parts.write(id, item.html);
      outcome = await this.batcher.submit({ ...item, html: '', bodyParts: count });
    } catch (err) {
      // Whatever of them was written; if this fails too, the retention sweep takes them.
      await parts.discard(id).catch(() => undefined);
      throw err;
    }
    if (outcome.kind !== 'accepted') await parts.discard(id).catch(() => undefined);
    return outcome;
  }

  async close(): Promise<void> {
    await this.batcher.drain();
    await this.thread?.close();
  }
}
