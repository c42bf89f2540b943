// The queue seam on SQLite: the claim and the record (queue-record.ts) as cached prepared statements,
// run synchronously under Kysely's lock on the connection (Kysely's SQLite driver prepares every
// statement anew, which cost more than the writes themselves).
//
// Claims and records commit without an fsync on the event loop (synchronous=NORMAL for that one
// transaction; ARCHITECTURE.md, "Durability"). Either is on disk a moment later: the checkpointer
// thread (sqlite-checkpointer.ts) syncs the WAL before each PASSIVE checkpoint, every 250 ms, and any
// accept's commit (always synchronous=FULL) syncs everything written before it. A process that dies
// loses nothing (the WAL is in the operating system's hands at commit); only a power cut or a kernel
// crash in that moment can: a lost claim puts the message back in the queue, where it belongs anyway,
// and a lost record means the message is delivered again once its lease ends (a duplicate, never a
// loss). Waiting for the fsync of every record batch held the event loop about a third of its time in
// bench/e2e.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type SQLite from 'better-sqlite3';
import type { Kysely } from 'kysely';
import {
  appliedDeltas,
  appliedEvents,
  deadlineLaneStatement,
  expiredClaimStatement,
  nextDueStatement,
  releaseStatement,
  recordSteps,
  type AttemptRecord,
  type LanePick,
  type RecordOutcome,
  type RecordSteps,
} from '../queue-record.js';
import type { FairCaps } from '../fair-claim.js';
import { DELIVERY_CAPS, DELIVERY_QUEUE } from '../queue-repo.js';
import { prepareReputationCounts } from '../reputation-repo.js';
import type { Database, MessageBodiesTable, MessageRow, MessageWithBody } from '../schema.js';
import type { QueueStore, RecordedAttempts } from '../seams.js';
import type { Statement } from '../statement.js';
import { READ_PER_TURN, SqliteBodyParts } from './body-parts.js';
import { sqliteClaimTexts, type ClaimText } from './claim-text.js';
import { whileUnlocked, withoutFsync } from './connection.js';
import { sqliteWebhookEnqueue } from './webhook-enqueue.js';

/**
 * More distinct statements than the claim and the record usually make (the record's texts vary with
 * its batch's numbers of rows: queue-record.ts): past it, the cache starts over.
 */
const CACHE_LIMIT = 256;

/** A claimed body at most this large (UTF-8 bytes) is read with the claim's others in one statement. */
const SMALL_BODY_BYTES = 64 * 1024;

interface ClaimedBody {
  message_id: string;
  bytes: number;
  /** Set when the HTML is in parts (body-parts.ts): `html` is then ''. */
  parts: number;
  /** null when over SMALL_BODY_BYTES: read on its own. */
  html: string | null;
  /** 1: the HTML is sealed (messages/sealed-html.ts). */
  sealed: number;
}

export class SqliteQueueStore implements QueueStore {
  private readonly statements = new Map<string, SQLite.Statement<unknown[]>>();
  private readonly recordAll: (records: AttemptRecord[]) => RecordedAttempts;
  private readonly addCounts: ReturnType<typeof prepareReputationCounts>;
  /** The claim's texts by caps (the usual claim's, the reserve's): one factory each. */
  private readonly claimTexts = new Map<FairCaps, (limit: number) => ClaimText>();
  /**
   * The claimed messages' bodies: their ids as one JSON array, so one text serves any claim. A body over
   * SMALL_BODY_BYTES comes back as its size alone (octet_length reads the record's header, not the
   * text), to be read on its own (`body`).
   */
  private readonly bodies: SQLite.Statement<[number, string], ClaimedBody>;
  private readonly body: SQLite.Statement<[string], Pick<MessageBodiesTable, 'html'>>;
  private readonly parts: SqliteBodyParts;

  constructor(
    private readonly kysely: Kysely<Database>,
    private readonly sqlite: SQLite.Database,
  ) {
    this.addCounts = prepareReputationCounts(sqlite);
    this.bodies = sqlite.prepare(
      `select message_id, parts, sealed, octet_length(html) as bytes,
         case when octet_length(html) <= ? then html end as html
       from message_bodies where message_id in (select value from json_each(?))`,
    );
    this.body = sqlite.prepare('select html from message_bodies where message_id = ?');
    this.parts = new SqliteBodyParts(kysely, sqlite);
    this.recordAll = sqlite.transaction((records: AttemptRecord[]) => {
      const outcomes = this.runSteps(recordSteps(records));
      let pushes = 0;
      for (const q of sqliteWebhookEnqueue.statements(appliedEvents(records, outcomes)))
        pushes += this.run(q);
      // The batch's reputation counts: one upsert per account, day and domain (reputation-repo.ts).
      this.addCounts(appliedDeltas(records, outcomes));
      return { outcomes, pushes };
    });
  }

  async claim(
    owner: string,
    now: number,
    leaseUntil: number,
    limit: number,
    caps: FairCaps = DELIVERY_CAPS,
  ): Promise<MessageWithBody[]> {
    if (limit <= 0) return [];
    const rows = await whileUnlocked(this.kysely, () => {
      // The fair claim (fair-claim.ts): one text per number of slots, each compiled and prepared once; the
      // rest of its values are parameters.
      let texts = this.claimTexts.get(caps);
      if (!texts) this.claimTexts.set(caps, (texts = sqliteClaimTexts(this.kysely, DELIVERY_QUEUE, caps)));
      const text = texts(limit);
      const statement = this.prepared(text.sql);
      return withoutFsync(
        this.sqlite,
        () => statement.all(...text.parameters(owner, now, leaseUntil)) as MessageRow[],
      );
    });
    if (rows.length > 0) await this.withBodies(rows as MessageWithBody[]);
    return rows as MessageWithBody[];
  }

  /**
   * Gives each claimed row (a fresh object from the driver) its HTML in place: '' for one without a body
   * row, which no accept leaves (built without HTML rather than stopping the rest of the claim). Small
   * bodies come in one statement (50 of them, a claim's most, are 3 MiB at most); a large one is read
   * alone, and once a turn has read READ_PER_TURN or more the next waits for the next turn: reading a
   * 10 MiB body written whole (by the accept thread of `txmail api`) holds the event loop for 50–100
   * ms, ten of them in one claim held it for a second. One in parts (body-parts.ts) is read a part at a
   * time. Read outside the claim's lock: a body never changes while its
   * message is leased (retention empties only final messages' bodies).
   */
  private async withBodies(rows: MessageWithBody[]): Promise<void> {
    const found = new Map<string, ClaimedBody>();
    for (const b of this.bodies.all(SMALL_BODY_BYTES, JSON.stringify(rows.map((r) => r.id))))
      found.set(b.message_id, b);
    let read = 0;
    for (const row of rows) {
      const b = found.get(row.id);
      if (b === undefined) {
        row.html = '';
        continue;
      }
      if (b.sealed === 1) row.sealed = true;
      if (b.parts > 0) {
        row.html = await this.parts.read(row.id, b.parts);
        continue;
      }
      if (b.html !== null) {
        row.html = b.html;
        continue;
      }
      if (read >= READ_PER_TURN) {
        await nextTurn();
        read = 0;
      }
      row.html = this.body.get(row.id)?.html ?? '';
      read += b.bytes;
    }
  }

  async claimDeadlineLane(
    owner: string,
    now: number,
    leaseUntil: number,
    pick: LanePick,
  ): Promise<MessageWithBody[]> {
    if (pick instanceof Map ? pick.size === 0 : (pick as { limit: number }).limit <= 0) return [];
    const s = deadlineLaneStatement(owner, now, leaseUntil, pick, 'sqlite');
    const rows = await whileUnlocked(this.kysely, () =>
      withoutFsync(this.sqlite, () => this.prepared(s.sql).all(...s.parameters) as MessageWithBody[]),
    );
    if (rows.length > 0) await this.withBodies(rows);
    return rows;
  }

  async release(owner: string, ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    const s = releaseStatement(owner, ids);
    await whileUnlocked(this.kysely, () => withoutFsync(this.sqlite, () => this.run(s)));
  }

  claimExpired(owner: string, now: number, leaseUntil: number, limit: number): Promise<MessageWithBody[]> {
    const s = expiredClaimStatement(owner, now, leaseUntil, limit, false);
    return whileUnlocked(this.kysely, () =>
      withoutFsync(this.sqlite, () =>
        (this.prepared(s.sql).all(...s.parameters) as MessageRow[]).map((r) => ({ ...r, html: '' })),
      ),
    );
  }

  record(records: AttemptRecord[]): Promise<RecordedAttempts> {
    return whileUnlocked(this.kysely, () => withoutFsync(this.sqlite, () => this.recordAll(records)));
  }

  nextDue(now: number): Promise<number | undefined> {
    return whileUnlocked(this.kysely, () => {
      const next = nextDueStatement(now);
      const row = this.prepared(next.sql).get(...next.parameters) as { next: number | null } | undefined;
      return row?.next ?? undefined;
    });
  }

  /** Runs a batch's record steps, each statement prepared once for this connection. */
  private runSteps(steps: RecordSteps): RecordOutcome[] {
    for (let step = steps.next(); ;) {
      if (step.done) return step.value;
      const s = step.value;
      if (s.returning) {
        const rows = this.prepared(s.sql).all(...s.parameters) as { id: string }[];
        step = steps.next({ changes: rows.length, ids: rows.map((r) => r.id) });
      } else {
        step = steps.next({ changes: this.run(s), ids: [] });
      }
    }
  }

  private run(s: Statement): number {
    return this.prepared(s.sql).run(...s.parameters).changes;
  }

  /** The connection's prepared statement of this text. */
  private prepared(text: string): SQLite.Statement<unknown[]> {
    let statement = this.statements.get(text);
    if (!statement) {
      if (this.statements.size >= CACHE_LIMIT) this.statements.clear();
      statement = this.sqlite.prepare<unknown[]>(text);
      this.statements.set(text, statement);
    }
    return statement;
  }
}
