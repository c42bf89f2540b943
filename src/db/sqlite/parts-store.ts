// Large text in parts, written and read a few at a time on the event loop's connection, which `txmail
// serve` shares with the delivery worker and the inbound receiver: one 10 MiB insert held the loop for
// 150–250 ms here, one 10 MiB read for 50–90 ms. A part is written in a short transaction of its own,
// without waiting for the disk; the transaction that then stores its owner (a message, an inbound
// report) waits for it (its commit syncs the WAL, and everything written before), so nothing is
// acknowledged before its parts are on disk. Parts whose owner is never stored are removed by the
// writer, or swept (retention). Two uses: a message's HTML (body-parts.ts, migration 037) and an
// inbound message's raw text (migration 038).
import { open } from 'node:fs/promises';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type SQLite from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';
import { checkpointSoon } from '../sqlite-checkpointer.js';
import { whileUnlocked, withoutFsync } from './connection.js';

/**
 * Characters (or bytes) read in one turn of the loop before the next read waits for the next turn: by
 * the parts' reader here and by the claim (queue.ts).
 */
export const READ_PER_TURN = 1024 * 1024;

/** Where one use keeps its parts: the parts' table, its owner's column, and the pending list. */
export interface PartsTables {
  parts: 'message_body_parts' | 'inbound_raw_parts';
  owner: 'message_id' | 'inbound_id';
  pending: 'message_body_parts_pending' | 'inbound_raw_parts_pending';
}

/** A message's HTML (migration 037). */
export const MESSAGE_BODY_PARTS: PartsTables = {
  parts: 'message_body_parts',
  owner: 'message_id',
  pending: 'message_body_parts_pending',
};

/** An inbound message's raw text, base64 (migration 038). */
export const INBOUND_RAW_PARTS: PartsTables = {
  parts: 'inbound_raw_parts',
  owner: 'inbound_id',
  pending: 'inbound_raw_parts_pending',
};

/**
 * The turns of the loop that the parts written on a connection take: one part a turn for all the
 * owners being written at once, not one each (sixteen large sends at once wrote sixteen parts in one
 * turn of the loop), whichever table they go to.
 */
const writeTurns = new WeakMap<SQLite.Database, Promise<unknown>>();
function partTurn(sqlite: SQLite.Database): Promise<unknown> {
  const turn = (writeTurns.get(sqlite) ?? Promise.resolve()).then(() => nextTurn());
  writeTurns.set(sqlite, turn);
  return turn;
}

export class SqlitePartsStore {
  private readonly insert: SQLite.Statement<[string, number, string]>;
  private readonly one: SQLite.Statement<[string, number], { part: string }>;
  private readonly remove: SQLite.Statement<[string]>;
  private readonly pending: SQLite.Statement<[string]>;
  private readonly unpend: SQLite.Statement<[string]>;

  /** `path`: the database file, whose WAL is synced off the loop before the owner is stored. */
  constructor(
    private readonly kysely: Kysely<Database>,
    private readonly sqlite: SQLite.Database,
    private readonly path: string | undefined,
    { parts, owner, pending }: PartsTables,
  ) {
    this.insert = sqlite.prepare(`insert into ${parts} (${owner}, seq, part) values (?, ?, ?)`);
    this.one = sqlite.prepare(`select part from ${parts} where ${owner} = ? and seq = ?`);
    this.remove = sqlite.prepare(`delete from ${parts} where ${owner} = ?`);
    this.pending = sqlite.prepare(`insert into ${pending} (${owner}) values (?)`);
    this.unpend = sqlite.prepare(`delete from ${pending} where ${owner} = ?`);
  }

  /**
   * Writes the parts `parts` yields, a turn of the loop each (a lazy iterable makes each part in its
   * own turn too); answers how many.
   */
  async write(ownerId: string, parts: Iterable<string>): Promise<number> {
    let seq = 0;
    for (const part of parts) {
      await partTurn(this.sqlite);
      const at = seq++;
      await whileUnlocked(this.kysely, () =>
        withoutFsync(this.sqlite, () => {
          // Listed with its first part: until its owner is stored, the sweep may take them.
          if (at === 0)
            this.sqlite.transaction(() => {
              this.pending.run(ownerId);
              this.insert.run(ownerId, at, part);
            })();
          else this.insert.run(ownerId, at, part);
        }),
      );
      // Copied back now, on the checkpointer's thread, not all at once by this connection later.
      checkpointSoon(this.sqlite);
    }
    await this.syncWal();
    return seq;
  }

  /**
   * The `count` parts of `ownerId`, each through `each`, read at most READ_PER_TURN characters a turn;
   * undefined when one is missing (never the text with a hole in it).
   */
  async read<T>(ownerId: string, count: number, each: (part: string) => T): Promise<T[] | undefined> {
    const out: T[] = [];
    let read = 0;
    for (let seq = 0; seq < count; seq++) {
      if (read >= READ_PER_TURN) {
        await nextTurn();
        read = 0;
      }
      const part = this.one.get(ownerId, seq)?.part;
      if (part === undefined) return undefined;
      out.push(each(part));
      read += part.length;
    }
    return out;
  }

  /** Removes an owner's parts (it was refused, or its store failed). */
  discard(ownerId: string): Promise<void> {
    return whileUnlocked(this.kysely, () => {
      withoutFsync(this.sqlite, () =>
        this.sqlite.transaction(() => {
          this.remove.run(ownerId);
          this.unpend.run(ownerId);
        })(),
      );
    });
  }

  /**
   * Syncs the WAL on a thread of libuv's, so that the owner's own sync, on the event loop, finds
   * little left to write (10 MiB of parts: 5–10 ms of it, against under 1 ms).
   */
  private async syncWal(): Promise<void> {
    if (this.path === undefined || this.path === ':memory:') return;
    try {
      const wal = await open(`${this.path}-wal`, 'r');
      try {
        await wal.datasync();
      } finally {
        await wal.close();
      }
    } catch {
      // No WAL file (just checkpointed and truncated), or it cannot be opened: the owner's own commit
      // syncs whatever is there.
    }
  }
}
