// A large message's HTML in parts (migration 037), written and read a few at a time on the event
// loop's connection, which `txmail serve` shares with the delivery worker: one 10 MiB insert held the
// loop for 150–250 ms here, one 10 MiB read for 50–90 ms. A part is written in a short transaction of
// its own, without waiting for the disk; the accept that then stores the message waits for it (its
// commit syncs the WAL, and everything written before), so nothing is acknowledged before its parts
// are on disk. Parts of a message never stored are removed by the writer, or swept (retention).
import { open } from 'node:fs/promises';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type SQLite from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';
import { whileUnlocked, withoutFsync } from './connection.js';

/** HTML longer than this (UTF-16 code units) is written in parts by the event loop's writer. */
export const PARTS_ABOVE = 512 * 1024;
/** Code units in a part: at most 384 KiB of UTF-8, written in a few milliseconds. */
const PART_LENGTH = 128 * 1024;
/**
 * Characters (or bytes) of HTML read in one turn of the loop before the next read waits for the next
 * turn: by the parts' reader here and by the claim (queue.ts).
 */
export const READ_PER_TURN = 1024 * 1024;

/**
 * The turns of the loop that the parts written on a connection take: one part a turn for all the
 * messages being written at once, not one each (sixteen large sends at once wrote sixteen parts in
 * one turn of the loop).
 */
const writeTurns = new WeakMap<SQLite.Database, Promise<unknown>>();
function partTurn(sqlite: SQLite.Database): Promise<unknown> {
  const turn = (writeTurns.get(sqlite) ?? Promise.resolve()).then(() => nextTurn());
  writeTurns.set(sqlite, turn);
  return turn;
}

/** `html` cut in pieces of at most `length` code units, never between the halves of a surrogate pair. */
export function splitParts(html: string, length = PART_LENGTH): string[] {
  const parts: string[] = [];
  for (let at = 0; at < html.length;) {
    let end = Math.min(at + length, html.length);
    // A high surrogate as the last unit: its low half would start the next part, and each half alone
    // would be stored as U+FFFD.
    const last = html.charCodeAt(end - 1);
    if (end < html.length && last >= 0xd800 && last <= 0xdbff) end--;
    parts.push(html.slice(at, end));
    at = end;
  }
  return parts;
}

export class SqliteBodyParts {
  private readonly insert: SQLite.Statement<[string, number, string]>;
  private readonly one: SQLite.Statement<[string, number], { part: string }>;
  private readonly remove: SQLite.Statement<[string]>;
  private readonly pending: SQLite.Statement<[string]>;
  private readonly unpend: SQLite.Statement<[string]>;

  /** `path`: the database file, whose WAL is synced off the loop before a message's parts count. */
  constructor(
    private readonly kysely: Kysely<Database>,
    private readonly sqlite: SQLite.Database,
    private readonly path?: string,
  ) {
    this.insert = sqlite.prepare('insert into message_body_parts (message_id, seq, part) values (?, ?, ?)');
    this.one = sqlite.prepare('select part from message_body_parts where message_id = ? and seq = ?');
    this.remove = sqlite.prepare('delete from message_body_parts where message_id = ?');
    this.pending = sqlite.prepare('insert into message_body_parts_pending (message_id) values (?)');
    this.unpend = sqlite.prepare('delete from message_body_parts_pending where message_id = ?');
  }

  /** Writes `html` in parts, a turn of the loop each; answers how many. */
  async write(messageId: string, html: string): Promise<number> {
    const parts = splitParts(html);
    for (const [seq, part] of parts.entries()) {
      await partTurn(this.sqlite);
      await whileUnlocked(this.kysely, () =>
        withoutFsync(this.sqlite, () => {
          // Listed with its first part: until its message is stored, the sweep may take them.
          if (seq === 0)
            this.sqlite.transaction(() => {
              this.pending.run(messageId);
              this.insert.run(messageId, seq, part);
            })();
          else this.insert.run(messageId, seq, part);
        }),
      );
    }
    await this.syncWal();
    return parts.length;
  }

  /**
   * The HTML of `count` parts, read at most READ_PER_TURN code units a turn; '' when one is missing
   * (the worker then logs the message as having no body), never the HTML with a hole in it.
   */
  async read(messageId: string, count: number): Promise<string> {
    const parts: string[] = [];
    let read = 0;
    for (let seq = 0; seq < count; seq++) {
      if (read >= READ_PER_TURN) {
        await nextTurn();
        read = 0;
      }
      const part = this.one.get(messageId, seq)?.part;
      if (part === undefined) return '';
      parts.push(part);
      read += part.length;
    }
    return parts.join('');
  }

  /** Removes a message's parts (its accept refused it, or failed). */
  discard(messageId: string): Promise<void> {
    return whileUnlocked(this.kysely, () => {
      withoutFsync(this.sqlite, () =>
        this.sqlite.transaction(() => {
          this.remove.run(messageId);
          this.unpend.run(messageId);
        })(),
      );
    });
  }

  /**
   * Syncs the WAL on a thread of libuv's, so that the accept's own sync, on the event loop, finds
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
      // No WAL file (just checkpointed and truncated), or it cannot be opened: the accept's own commit
      // syncs whatever is there.
    }
  }
}
