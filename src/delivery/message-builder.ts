// Builds outgoing messages on the calling thread or on a pool of worker threads. Signing one message
// with RSA-2048 costs about a millisecond of CPU: on the event loop that caps a process at one core
// and delays every HTTP request and SMTP reply behind it; on threads it uses the other cores.
import { Piscina } from 'piscina';
import { besideModule, poolThread } from '../start-thread.js';
import { buildMessage, type BuildRequest } from './build-message.js';

export interface MessageBuilder {
  build(req: BuildRequest): Promise<Buffer>;
  close(): Promise<void>;
}

export function createMessageBuilder(threads: number): MessageBuilder {
  return threads > 0 ? new ThreadedMessageBuilder(threads) : inlineBuilder;
}

const inlineBuilder: MessageBuilder = {
  build: buildMessage,
  close: async () => undefined,
};

export class ThreadedMessageBuilder implements MessageBuilder {
  private readonly pool: Piscina<BuildRequest, Uint8Array>;

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

  async build(req: BuildRequest): Promise<Buffer> {
    const bytes = await this.pool.run(req);
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  async close(): Promise<void> {
    await this.pool.close();
  }
}
