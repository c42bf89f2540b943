// The SQLite reader: a Kysely whose statements run on threads of their own, each with a read-only
// connection to the database file (THREAD below), for the reads whose cost grows with what an
// account has stored: the log's search and filters, its CSV export, a message's detail and raw bytes.
// better-sqlite3 runs a statement synchronously on the thread that calls it, so on the event loop's
// connection such a read held every other request (and the receiver) for as long as it ran: 150-210 ms
// for one search of 300,000 messages. On a thread it costs the loop two messages.
//
// WAL lets these connections read beside the writer, and they see every commit made before the read
// begins (the API's and the accept thread's alike), so a request that writes and then reads reads its
// own write. A transaction here (BEGIN deferred) is a snapshot: the statements of MessagesRepo.detail
// read one state of the database. Connections are started when first needed and kept; a thread that
// dies fails only the statements it held, and the next statement starts another.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import {
  CompiledQuery,
  Kysely,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type Dialect as KyselyDialect,
  type Driver,
  type QueryResult,
} from 'kysely';
import type { Database } from '../schema.js';

/**
 * A reader thread: one read-only connection to the file, which runs the statements the event loop
 * sends, one at a time, and answers with their rows. Read-only, so a statement that would write fails
 * whatever it is. Plain CommonJS, evaluated (as sqlite-checkpointer.ts's thread): it needs nothing of
 * ours, and run from source it then loads no TypeScript compiler (start-thread.ts).
 */
const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
const db = new Database(workerData.path, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');
// Prepared statements by their text: the log's few shapes of query come back again and again.
const statements = new Map();
function prepared(text) {
  let statement = statements.get(text);
  if (statement === undefined) {
    statement = db.prepare(text);
    if (statements.size >= 200) statements.delete(statements.keys().next().value);
    statements.set(text, statement);
  }
  return statement;
}
parentPort.on('message', ({ id, sql, parameters }) => {
  let answer;
  try {
    const statement = prepared(sql);
    // begin, commit and rollback return no rows; every other statement here is a read.
    if (statement.reader) answer = { id, rows: statement.all(parameters) };
    else {
      statement.run(parameters);
      answer = { id, rows: [] };
    }
  } catch (err) {
    answer = { id, error: { message: String(err && err.message), code: err && err.code } };
  }
  parentPort.postMessage(answer);
});
`;

interface ReaderRequest {
  id: number;
  sql: string;
  parameters: readonly unknown[];
}

type ReaderAnswer =
  { id: number; rows: unknown[] } | { id: number; error: { message: string; code: string | undefined } };

/** Reader connections at most: two cores here, and the event loop and the accept thread need theirs. */
export const READER_THREADS = 2;

/** An error a reader thread answered with: SQLite's message and code, as better-sqlite3 gives them. */
export class SqliteReadError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
    this.name = 'SqliteReadError';
  }
}

interface Pending {
  resolve(rows: unknown[]): void;
  reject(err: Error): void;
}

/**
 * The readers' answers, settled one a turn of the event loop. Node takes every message a thread sends
 * while it is taking them in one turn (up to a thousand), and what an answer's request does next (a
 * message's detail turned into 10 MiB of JSON, a page of CSV) runs in that same turn: ten detail
 * reads of large messages held the loop for a second, six CSV exports for more. One answer settled a
 * turn leaves each request's work to a turn of its own, with the loop's other work between them.
 */
const unsettled: (() => void)[] = [];
let settling = false;

function settleInItsTurn(settle: () => void): void {
  unsettled.push(settle);
  if (settling) return;
  settling = true;
  settleNext();
}

function settleNext(): void {
  const settle = unsettled.shift();
  if (settle === undefined) {
    settling = false;
    return;
  }
  settle();
  // Called from a setImmediate callback, this one runs in the loop's next turn.
  setImmediate(settleNext);
}

/** One read-only connection, on a thread of its own, started on its first statement. */
class ReaderConnection implements DatabaseConnection {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private closed = false;

  constructor(private readonly path: string) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const rows = await this.send(compiled.sql, compiled.parameters);
    return { rows: rows as R[] };
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('the SQLite reader does not stream');
  }

  private send(sql: string, parameters: readonly unknown[]): Promise<unknown[]> {
    // Closed: no new thread (a rollback after a close would start one).
    if (this.closed) return Promise.reject(new Error('the SQLite reader is closed'));
    const worker = this.thread();
    const id = this.nextId++;
    const request: ReaderRequest = { id, sql, parameters };
    return new Promise((resolve, reject) => {
      // Throws for a parameter that cannot be copied to the thread: nothing is left waiting then.
      worker.postMessage(request);
      this.pending.set(id, { resolve, reject });
      // Held while it has work: an idle reader keeps no process alive.
      if (this.pending.size === 1) worker.ref();
    });
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const module = createRequire(import.meta.url).resolve('better-sqlite3');
    const worker = new Worker(THREAD, { eval: true, workerData: { path: this.path, module } });
    worker.unref();
    worker.on('message', (answer: ReaderAnswer) => {
      const waiting = this.pending.get(answer.id);
      if (!waiting) return;
      this.pending.delete(answer.id);
      if (this.pending.size === 0) worker.unref();
      settleInItsTurn(() => {
        if ('error' in answer) waiting.reject(new SqliteReadError(answer.error.message, answer.error.code));
        else waiting.resolve(answer.rows);
      });
    });
    const lost = (err: Error) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      for (const waiting of this.pending.values()) waiting.reject(err);
      this.pending.clear();
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`the SQLite reader thread stopped (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = undefined;
    for (const waiting of this.pending.values()) waiting.reject(new Error('the SQLite reader is closed'));
    this.pending.clear();
    await worker?.terminate();
  }
}

/** Hands the connections out one user at a time, as a pool; the first statements wait for a free one. */
class ReaderDriver implements Driver {
  private readonly all: ReaderConnection[] = [];
  private readonly free: ReaderConnection[] = [];
  private readonly waiting: { resolve(c: ReaderConnection): void; reject(err: Error): void }[] = [];
  private closed = false;

  constructor(
    private readonly path: string,
    private readonly max: number,
  ) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    if (this.closed) throw new Error('the SQLite reader is closed');
    const free = this.free.pop();
    if (free) return free;
    if (this.all.length < this.max) {
      const connection = new ReaderConnection(this.path);
      this.all.push(connection);
      return connection;
    }
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const next = this.waiting.shift();
    if (next) next.resolve(connection as ReaderConnection);
    else this.free.push(connection as ReaderConnection);
  }

  // Deferred: the snapshot begins with the first read, and a reader takes no lock a writer waits for.
  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  // A rollback after the thread was lost or the reader closed has nothing to undo: the transaction
  // went with the connection. Its error would hide the one that made the caller roll back.
  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback')).catch(() => undefined);
  }

  async destroy(): Promise<void> {
    this.closed = true;
    for (const w of this.waiting.splice(0)) w.reject(new Error('the SQLite reader is closed'));
    await Promise.all(this.all.map((c) => c.close()));
  }
}

/** A Kysely that reads the SQLite file at `path` on reader threads; destroy() stops them. */
export function openSqliteReader(path: string, threads = READER_THREADS): Kysely<Database> {
  const dialect: KyselyDialect = {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new ReaderDriver(path, threads),
    createIntrospector: (db) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  };
  return new Kysely<Database>({ dialect });
}
