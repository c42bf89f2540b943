// Builds outgoing messages on the calling thread or on a pool of worker threads. Building and signing
// one message with RSA-2048 costs about half a millisecond of CPU, the signature more than half of it: on
// the event loop that caps a process at one core and delays every HTTP request and SMTP reply behind
// it; on threads it uses the other cores.
import { Piscina } from 'piscina';
import { besideModule, poolThread } from '../start-thread.js';
import { gzip } from 'node:zlib';
import { promisify } from 'node:util';
import { buildMessage, KEPT_GZIP_LEVEL, type BuildRequest, type BuiltMessage } from './build-message.js';
import type { ThreadAnswer } from './build-thread.js';

export interface MessageBuilder {
  /** The bytes, and their compressed copy when `req.keepUpTo` asks and they fit. */
  build(req: BuildRequest): Promise<BuiltMessage>;
  close(): Promise<void>;
}

export function createMessageBuilder(threads: number): MessageBuilder {
  return threads > 0 ? new ThreadedMessageBuilder(threads) : inlineBuilder;
}

const gzipped = promisify(gzip);

const inlineBuilder: MessageBuilder = {
  build: async (req) => {
    const bytes = await buildMessage(req);
    const keep = req.keepUpTo !== undefined && bytes.length <= req.keepUpTo;
    return { bytes, gzipped: keep ? await gzipped(bytes, { level: KEPT_GZIP_LEVEL }) : undefined };
  },
  close: async () => undefined,
};

const asBuffer = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength);

/**
 * Builds handed to a thread at once. Given one at a time, a thread finishes, then waits for the event
 * loop to take the answer and hand it the next; the event loop of `txmail serve` is busy about half the
 * time (SQLite, sockets), so the thread sat idle for a third of it, and each wake-up cost CPU of its own.
 * With several waiting on the thread itself it goes from one to the next. bench/e2e, 10,000 signed
 * messages, one thread: 918–995 msg/s at 1 at a time, 1,142 at 2, 1,325 at 4, 1,502 at 8, 1,545–1,598
 * at 16 (docs/benchmarks.md, "Builds handed to the thread several at a time").
 */
export const BUILDS_PER_THREAD = 16;

export class ThreadedMessageBuilder implements MessageBuilder {
  private readonly pool: Piscina<BuildRequest, ThreadAnswer>;
  /** One thread that runs a failed build again, alone (see build()); started on the first failure, then kept. */
  private retryPool: Piscina<BuildRequest, ThreadAnswer> | undefined;
  private closed = false;

  /** `entry`: the thread's module (tests only; by default build-thread.js beside this one). */
  constructor(
    threads: number,
    private readonly entry = besideModule('./build-thread.js', import.meta.url),
  ) {
    this.pool = this.newPool({ threads, perThread: BUILDS_PER_THREAD });
  }

  private newPool(size: { threads: number; perThread: number }): Piscina<BuildRequest, ThreadAnswer> {
    const pool = new Piscina<BuildRequest, ThreadAnswer>({
      // The thread entry beside this module: compiled, or its source when run from source (the tests).
      // The parent process's heap flags and signal handling are not wanted in the threads: execArgv
      // holds only what running from source needs (start-thread.ts).
      ...poolThread(this.entry),
      minThreads: size.threads,
      maxThreads: size.threads,
      concurrentTasksPerWorker: size.perThread,
    });
    // No 'error' listener: a thread that fails with no build on it (one that cannot load its module,
    // say) ends the process, loudly, rather than leaving every build waiting for threads that never load.
    return pool;
  }

  /** Builds waiting for a thread to take them (beyond the BUILDS_PER_THREAD each thread holds). */
  get queued(): number {
    return this.pool.queueSize;
  }

  /**
   * A build that fails is run once more, alone on a thread of its own. A thread that dies (a bug, its
   * memory) fails every build it holds, up to BUILDS_PER_THREAD, most of them not the cause: without
   * the second run each would be an attempt deferred for minutes. Alone, so that the build that killed
   * the thread kills only its own second run, not the others' too. A build that fails by itself (a key
   * that cannot sign) fails again, at the cost of one more try.
   */
  async build(req: BuildRequest): Promise<BuiltMessage> {
    const answer = await this.pool.run(req).catch((err: unknown) => {
      if (this.closed) throw err;
      return (this.retryPool ??= this.newPool({ threads: 1, perThread: 1 })).run(req);
    });
    return { bytes: asBuffer(answer.bytes), gzipped: answer.gzipped && asBuffer(answer.gzipped) };
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([this.pool.close(), this.retryPool?.close()]);
  }
}
