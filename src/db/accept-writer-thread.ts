// The accept transaction for a SQLite file, on a thread with its own connection. On the event loop the
// commit's fsync and the statements took about a quarter of the send route's time (bench/accept); on
// a thread the event loop keeps parsing and validating requests meanwhile. The reply, and so the 2xx,
// comes only after the commit.
import { Worker } from 'node:worker_threads';
import type { AcceptItem, AcceptOutcome, AcceptWriter } from './accept-repo.js';
import type { AcceptThreadData, AcceptThreadReply, AcceptThreadRequest } from './accept-thread-protocol.js';

interface Pending {
  resolve(outcomes: AcceptOutcome[]): void;
  reject(err: Error): void;
}

/** One running thread and the batches it has been handed. */
interface AcceptThread {
  worker: Worker;
  pending: Map<number, Pending>;
}

export class ThreadedSqliteAcceptWriter implements AcceptWriter {
  private thread: AcceptThread | undefined;
  private nextId = 0;

  constructor(
    private readonly path: string,
    private readonly filename: URL = threadEntry(),
  ) {}

  persist(items: AcceptItem[]): Promise<AcceptOutcome[]> {
    const thread = this.thread ?? this.start();
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      thread.pending.set(id, { resolve, reject });
      // Keeps the process alive while a batch is out; an idle thread does not.
      thread.worker.ref();
      const request: AcceptThreadRequest = { id, items };
      thread.worker.postMessage(JSON.stringify(request)); // JSON: see accept-thread.ts
    });
  }

  async close(): Promise<void> {
    const thread = this.thread;
    if (!thread) return;
    this.thread = undefined;
    thread.worker.ref();
    const exited = new Promise((resolve) => thread.worker.once('exit', resolve));
    thread.worker.postMessage('close');
    await exited;
  }

  private start(): AcceptThread {
    const data: AcceptThreadData = { path: this.path };
    // The parent's heap flags and signal handling are not wanted in the thread.
    const worker = new Worker(this.filename, { workerData: data, execArgv: [] });
    const thread: AcceptThread = { worker, pending: new Map() };
    worker.on('message', (raw: string) => {
      const reply = JSON.parse(raw) as AcceptThreadReply;
      const pending = thread.pending.get(reply.id);
      if (!pending) return;
      thread.pending.delete(reply.id);
      if (thread.pending.size === 0) worker.unref();
      if ('outcomes' in reply) pending.resolve(reply.outcomes);
      else pending.reject(Object.assign(new Error(reply.error.message), { code: reply.error.code }));
    });
    // The thread could not open the database, or died: its callers get an error (the API answers 503,
    // and a retry with the same Idempotency-Key is answered from what was committed), and the next
    // batch starts a new thread.
    const abandon = (err: Error) => {
      if (this.thread === thread) this.thread = undefined;
      for (const pending of thread.pending.values()) pending.reject(err);
      thread.pending.clear();
    };
    worker.on('error', abandon);
    worker.on('exit', (code) => abandon(new Error(`the accept thread exited (code ${code})`)));
    this.thread = thread;
    return thread;
  }
}

/** The compiled thread entry. Run from source (as the tests are), that is the build's copy. */
function threadEntry(): URL {
  const here = import.meta.url;
  return here.endsWith('.ts')
    ? new URL('../../dist/db/accept-thread.js', here)
    : new URL('./accept-thread.js', here);
}
