// A large message's HTML in parts (migration 037), written and read a few at a time on the event
// loop's connection (parts-store.ts says why and how): the accept that then stores the message waits
// for them, so nothing is acknowledged before its parts are on disk.
import type SQLite from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';
import { splitText } from '../../split-text.js';
import { MESSAGE_BODY_PARTS, SqlitePartsStore } from './parts-store.js';

export { READ_PER_TURN } from './parts-store.js';

/** `html` cut in parts of at most PART_LENGTH code units (split-text.ts). */
export const splitParts = (html: string, length = PART_LENGTH): string[] => splitText(html, length);

/** HTML longer than this (UTF-16 code units) is written in parts by the event loop's writer. */
export const PARTS_ABOVE = 512 * 1024;
/** Code units in a part: at most 384 KiB of UTF-8, written in a few milliseconds. */
const PART_LENGTH = 128 * 1024;

export class SqliteBodyParts {
  private readonly store: SqlitePartsStore;

  /** `path`: the database file, whose WAL is synced off the loop before a message's parts count. */
  constructor(kysely: Kysely<Database>, sqlite: SQLite.Database, path?: string) {
    this.store = new SqlitePartsStore(kysely, sqlite, path, MESSAGE_BODY_PARTS);
  }

  /** Writes `html` in parts, a turn of the loop each; answers how many. */
  write(messageId: string, html: string): Promise<number> {
    return this.store.write(messageId, splitParts(html));
  }

  /**
   * The HTML of `count` parts, read a few a turn; '' when one is missing (the worker then logs the
   * message as having no body), never the HTML with a hole in it.
   */
  async read(messageId: string, count: number): Promise<string> {
    return (await this.store.read(messageId, count, (part) => part))?.join('') ?? '';
  }

  /** Removes a message's parts (its accept refused it, or failed). */
  discard(messageId: string): Promise<void> {
    return this.store.discard(messageId);
  }
}
