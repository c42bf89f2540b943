// Parses received messages on a worker thread, under a time budget. Everything in a report is the
// sender's to choose; the parsers are linear in the message (bounce/text-limits.ts), and this is the
// guard for whatever they missed: a parse that runs past its budget has its thread stopped and fails
// (ParseTimeout: the processor tries it once more, later, with a larger budget), and so does one that
// kills its thread (ParseFailure: the same bytes would do it again). Either way the event loop (the
// API, the delivery worker and the SMTP receiver share it in `txmail serve`) never waits on a parse.
import { Piscina } from 'piscina';
import { besideModule, poolThread } from '../start-thread.js';
import type { InboundReport } from '../bounce/parse-report.js';
import type { ParseTask, WarmUp } from './parse-thread.js';

export type { ParseTask } from './parse-thread.js';

export interface ParseOptions {
  /** The budget, in times the parser's own (TXMAIL_INBOUND_PARSE_TIMEOUT_MS); 1 unless given. */
  budgetFactor?: number;
}

export interface ReportParser {
  /**
   * The report in a stored message. Rejects only with ParseFailure (ParseTimeout when over its
   * budget), ParserClosed or ParserUnavailable.
   */
  parse(task: ParseTask, options?: ParseOptions): Promise<InboundReport>;
  /** Refuses the parses not started yet (ParserClosed), lets the running one finish, stops the thread. */
  close(): Promise<void>;
}

/** The parse failed: its thread failed (the same bytes would fail again), or its budget ran out (ParseTimeout). */
export class ParseFailure extends Error {}

/**
 * The parse ran past its budget. The budget is wall time, and counts time the thread waited for a
 * core: on a busy machine a large report can run past it though it would not when the machine is idle
 * (inbound-processor.ts tries such a message once more, later, with a larger budget).
 */
export class ParseTimeout extends ParseFailure {}

/** The parser was closed before this parse started (the process is stopping). */
export class ParserClosed extends Error {}

/**
 * The thread did not load (it failed, or took past WARM_UP_MS): the parse did not start, and the
 * message is no more to blame than the next; it is left for a later try (inbound-processor.ts).
 */
export class ParserUnavailable extends Error {}

export interface ReportParserOptions {
  /** How long one parse may run (TXMAIL_INBOUND_PARSE_TIMEOUT_MS). */
  timeoutMs: number;
  /** The compiled thread entry; tests point it at the build, or at a thread that misbehaves. */
  filename?: URL;
  /** How long a new thread may take to load (WARM_UP_MS unless a test says otherwise). */
  warmUpMs?: number;
}

interface Waiting {
  task: ParseTask;
  timeoutMs: number;
  resolve(report: InboundReport): void;
  reject(err: Error): void;
}

// One thread: bounces trickle in, a parse takes milliseconds, and a flood of hostile mail then costs
// at most one core, leaving the others to the API and the delivery worker.
const THREADS = 1;
// A parse of a pathological 10 MiB message peaks near 250 MB; past this the thread is stopped (a
// failed parse) rather than growing the process.
const THREAD_HEAP_MB = 512;
// How long a new thread may take to load its modules before its first parse. Not the parse's budget:
// loading is the same work whatever the message, and on a loaded machine, or run from source (where
// the thread compiles each module), it can take seconds. Past it (or when the thread dies loading) the
// parse is not started: ParserUnavailable, the thread is stopped, and the next parse warms up a new one.
const WARM_UP_MS = 60_000;
const WARM_UP: WarmUp = { warmUp: true };

export class ThreadedReportParser implements ReportParser {
  private pool: Piscina<ParseTask | WarmUp, InboundReport | null>;
  /** Pools being stopped with a thread that did not load (replacePool). */
  private readonly retiring = new Set<Promise<void>>();
  private readonly waiting: Waiting[] = [];
  private running = 0;
  private closed = false;
  /** Whether the current thread has loaded (once known); unset after a thread was stopped or failed. */
  private warm: Promise<boolean> | undefined;
  private readonly warmUpMs: number;

  constructor(private readonly options: ReportParserOptions) {
    this.warmUpMs = options.warmUpMs ?? WARM_UP_MS;
    this.pool = this.newPool();
  }

  private newPool(): Piscina<ParseTask | WarmUp, InboundReport | null> {
    const pool = new Piscina<ParseTask | WarmUp, InboundReport | null>({
      // The parent process's heap flags and signal handling are not wanted in the thread: execArgv
      // holds only what running from source needs (start-thread.ts).
      ...poolThread(this.options.filename ?? besideModule('./parse-thread.js', import.meta.url)),
      minThreads: THREADS,
      maxThreads: THREADS,
      resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB },
    });
    // A thread that fails with no task of ours on it (while loading, say): the next parse warms up a
    // new one. Without a listener the pool's 'error' would end the process.
    pool.on('error', () => {
      if (this.pool === pool) this.warm = undefined;
    });
    return pool;
  }

  /**
   * A thread still loading past WARM_UP_MS is stuck (a loop, a wait that never ends). The pool stops
   * the thread of an aborted task only if the task was handed to it, which it does at once for the
   * threads it starts with, but for a replacement (after a parse over its budget, or a crash) only once
   * the thread has loaded: aborting the warm-up then only takes it off the queue, and the stuck thread
   * would hold the pool's one place for good. So the pool is stopped with its thread, and a new one
   * started.
   */
  private replacePool(): void {
    const stuck = this.pool;
    this.pool = this.newPool();
    const stopped: Promise<void> = stuck
      .destroy()
      .catch(() => undefined)
      .finally(() => this.retiring.delete(stopped));
    this.retiring.add(stopped);
  }

  parse(task: ParseTask, options: ParseOptions = {}): Promise<InboundReport> {
    if (this.closed) return Promise.reject(new ParserClosed('the report parser is closed'));
    const timeoutMs = this.options.timeoutMs * (options.budgetFactor ?? 1);
    return new Promise((resolve, reject) => {
      this.waiting.push({ task, timeoutMs, resolve, reject });
      this.next();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const w of this.waiting.splice(0)) w.reject(new ParserClosed('the report parser is closed'));
    await Promise.all([this.pool.close(), ...this.retiring]);
  }

  /**
   * Hands the next parse to the thread once it is free and loaded. The queue is kept here, not in the
   * pool, so that a parse's budget starts when it is handed over, not while it waits behind others or
   * behind a new thread's start (warmUp).
   */
  private next(): void {
    while (this.running < THREADS && this.waiting.length > 0) {
      const waiting = this.waiting.shift()!;
      this.running++;
      void this.warmUp()
        .then((loaded) => this.runBudgeted(waiting, loaded))
        .finally(() => {
          this.running--;
          this.next();
        });
    }
  }

  /** Whether the thread has loaded its modules within WARM_UP_MS; never rejects. */
  private warmUp(): Promise<boolean> {
    this.warm ??= this.pool.run(WARM_UP, { signal: AbortSignal.timeout(this.warmUpMs) }).then(
      () => true,
      () => {
        this.warm = undefined;
        if (!this.closed) this.replacePool();
        return false;
      },
    );
    return this.warm;
  }

  private async runBudgeted({ task, timeoutMs, resolve, reject }: Waiting, loaded: boolean): Promise<void> {
    // Closed while the thread was loading: the parse has not started.
    if (this.closed) return reject(new ParserClosed('the report parser is closed'));
    if (!loaded) {
      return reject(
        new ParserUnavailable(`the parsing thread did not load within ${duration(this.warmUpMs)}`),
      );
    }
    const budget = new AbortController();
    const timer = setTimeout(() => budget.abort(), timeoutMs);
    try {
      // Aborting a running task terminates its thread; the pool starts another.
      resolve((await this.pool.run(task, { signal: budget.signal, transferList: movable(task) }))!);
    } catch (err) {
      this.warm = undefined;
      reject(
        budget.signal.aborted
          ? new ParseTimeout(`parsing took longer than ${duration(timeoutMs)}`)
          : new ParseFailure(`the parsing thread failed: ${(err as Error).message}`),
      );
    } finally {
      clearTimeout(timer);
    }
  }
}

/**
 * The memory of a task's pieces, moved to the thread rather than copied on the event loop (10 MB:
 * tens of milliseconds). A piece of Buffer's shared pool (small ones) is copied instead: moving it
 * would take the pool from under every other small Buffer.
 */
function movable(task: ParseTask): ArrayBuffer[] {
  if (!('pieces' in task)) return [];
  const own = new Set<ArrayBuffer>();
  for (const p of task.pieces)
    if (p.buffer instanceof ArrayBuffer && p.buffer.byteLength > Buffer.poolSize) own.add(p.buffer);
  return [...own];
}

/** `5000` → `5 s`, `250` → `250 ms`. */
function duration(ms: number): string {
  return ms >= 1000 && ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
