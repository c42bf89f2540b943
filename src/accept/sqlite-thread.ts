// The SQLite accept thread's client, and what it and the thread (sqlite-thread-entry.ts) say to each
// other. On the event loop the commit's fsync and the statements took about a quarter of the send
// route's time (bench/accept); on a thread with its own connection to the database file the event loop
// keeps parsing and validating requests meanwhile. The reply, and so the 2xx, comes only after the commit.
import type { Worker } from 'node:worker_threads';
import type { AcceptItem, AcceptOutcome } from '../db/accept-item.js';
import { startThread } from '../start-thread.js';
import { writeTogetherOrEach } from '../together-or-each.js';

export interface AcceptThreadData {
  path: string;
}
export interface AcceptThreadRequest {
  id: number;
  items: AcceptItem[];
}
export type AcceptThreadReply =
  | { id: number; outcomes: AcceptOutcome[] }
  | { id: number; error: { message: string; code: string | undefined } };

interface Pending {
  resolve(outcomes: AcceptOutcome[]): void;
  reject(err: Error): void;
}

/** One running thread and the batches it has been handed. */
interface RunningThread {
  worker: Worker;
  pending: Map<number, Pending>;
}

/** Hands batches to the thread, started on the first one; each promise settles after its commit. */
export class AcceptThread {
  private thread: RunningThread | undefined;
  private nextId = 0;

  constructor(
    private readonly path: string,
    private readonly entry: URL = new URL(`./sqlite-thread-entry${extension()}`, import.meta.url),
  ) {}

  persist(items: AcceptItem[]): Promise<AcceptOutcome[]> {
    const thread = this.thread ?? this.start();
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      thread.pending.set(id, { resolve, reject });
      // Keeps the process alive while a batch is out; an idle thread does not.
      thread.worker.ref();
      const request: AcceptThreadRequest = { id, items };
      // Requests and replies travel as JSON text: for these plain objects, JSON.stringify and a string
      // copy cost a fraction of postMessage's structured clone, which took a tenth of the event loop's time.
      thread.worker.postMessage(JSON.stringify(request));
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

  private start(): RunningThread {
    const data: AcceptThreadData = { path: this.path };
    // The parent's heap flags and signal handling are not wanted in the thread.
    const worker = startThread(this.entry, { workerData: data, execArgv: [] });
    const thread: RunningThread = { worker, pending: new Map() };
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

/** Run from source this module is a .ts file, and so is the thread's entry beside it (start-thread.ts). */
const extension = () => (import.meta.url.endsWith('.ts') ? '.ts' : '.js');

/**
 * What the thread does with the requests it found waiting: commits them in one transaction (one fsync)
 * and answers each; if that fails, each request is tried on its own (together-or-each.ts).
 */
export async function commitRequests(
  run: (items: AcceptItem[]) => AcceptOutcome[],
  requests: AcceptThreadRequest[],
): Promise<AcceptThreadReply[]> {
  const replies: AcceptThreadReply[] = [];
  await writeTogetherOrEach(
    requests,
    (together) => {
      const outcomes = run(together.flatMap((r) => r.items));
      let from = 0;
      return together.map((r) => outcomes.slice(from, (from += r.items.length)));
    },
    (committed, outcomes) => committed.forEach((r, i) => replies.push({ id: r.id, outcomes: outcomes[i]! })),
    (r, err) => {
      const e = err as { message?: unknown; code?: unknown };
      const error = {
        message: String(e.message ?? err),
        code: typeof e.code === 'string' ? e.code : undefined,
      };
      replies.push({ id: r.id, error });
    },
  );
  return replies;
}
