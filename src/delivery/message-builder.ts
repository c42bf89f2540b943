// Builds outgoing messages on the calling thread or on a pool of worker threads. Signing one message
// with RSA-2048 costs about a millisecond of CPU: on the event loop that caps a process at one core
// and delays every HTTP request and SMTP reply behind it; on threads it uses the other cores.
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

export class ThreadedMessageBuilder implements MessageBuilder {
  private readonly pool: Piscina<BuildRequest, ThreadAnswer>;

  constructor(threads: number) {
    this.pool = new Piscina({
      // The thread entry beside this module: compiled, or its source when run from source (the tests).
      // The parent process's heap flags and signal handling are not wanted in the threads: execArgv
      // holds only what running from source needs (start-thread.ts).
      ...poolThread(besideModule('./build-thread.js', import.meta.url)),
      minThreads: threads,
      maxThreads: threads,
    });
  }

  async build(req: BuildRequest): Promise<BuiltMessage> {
    const answer = await this.pool.run(req);
    return { bytes: asBuffer(answer.bytes), gzipped: answer.gzipped && asBuffer(answer.gzipped) };
  }

  async close(): Promise<void> {
    await this.pool.close();
  }
}
