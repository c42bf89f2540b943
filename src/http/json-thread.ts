// JSON bodies parsed on a thread of their own. Decoding and parsing a 10 MiB body costs 50–100 ms of
// CPU (UTF-8 decoding of non-ASCII text is the larger half): on the event loop that is 50–100 ms in
// which no other request, SMTP reply or health probe is answered, and an account allowed ten requests a
// second could keep the loop busy all the time. On the thread the event loop only copies the parsed
// strings back. Small bodies stay on the loop: a thread hop costs more than parsing them.
//
// The thread is started from source text (`eval`), so it needs no file of its own and runs the same
// from the compiled program and from the sources under test. Its code must therefore be
// self-contained: `threadMain` below is that code.
import { Worker } from 'node:worker_threads';

/** What the thread answers: the value, or why the text is not acceptable JSON. */
type Answer = { id: number; value: unknown } | { id: number; error: string };

/**
 * The deepest nesting a large body may have. Copying a value back from the thread is recursive, so a
 * value nested thousands of levels deep cannot cross (JSON.parse itself is not recursive); no request
 * of the API nests more than a few levels.
 */
const MAX_DEPTH = 512;

/**
 * The most values (objects, arrays, strings, numbers…) a large body may hold. Copying the parsed value
 * back costs the event loop about a microsecond a value: 3.5 million `{}` in 10 MiB held it 3–4 s. No
 * request of the API holds more than a few hundred (a message's fields, recipients, headers and
 * attachments); large bodies are large for their strings, which cross in one copy each.
 */
const MAX_VALUES = 10_000;

/**
 * Runs inside the thread: UTF-8 bytes in, the parsed value out. Refuses what Fastify refuses by
 * default (onProtoPoisoning and onConstructorPoisoning "error"): an own `__proto__` key anywhere, or a
 * `constructor` key holding an object with a `prototype` key; and a value nested deeper than
 * `maxDepth`. The walk is iterative (a deeply nested body cannot overflow the stack) and linear in the
 * parsed value.
 */
function threadMain(maxDepth: number, maxValues: number): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { parentPort } = require('node:worker_threads') as typeof import('node:worker_threads');
  const decoder = new TextDecoder('utf-8');
  const refusal = (value: unknown): string | undefined => {
    const nodes: unknown[] = [value];
    const depths: number[] = [0];
    let values = 0;
    while (nodes.length > 0) {
      const node = nodes.pop();
      const depth = depths.pop()!;
      if (++values > maxValues) return `the JSON holds more than ${maxValues} values`;
      if (node === null || typeof node !== 'object') continue;
      if (depth >= maxDepth) return `the JSON is nested more than ${maxDepth} levels deep`;
      if (Array.isArray(node)) {
        for (const item of node) {
          nodes.push(item);
          depths.push(depth + 1);
        }
        continue;
      }
      if (Object.prototype.hasOwnProperty.call(node, '__proto__')) {
        return 'Object contains forbidden prototype property';
      }
      const ctor = (node as Record<string, unknown>).constructor;
      if (
        Object.prototype.hasOwnProperty.call(node, 'constructor') &&
        ctor !== null &&
        typeof ctor === 'object' &&
        Object.prototype.hasOwnProperty.call(ctor, 'prototype')
      ) {
        return 'Object contains forbidden prototype property';
      }
      for (const key in node) {
        nodes.push((node as Record<string, unknown>)[key]);
        depths.push(depth + 1);
      }
    }
    return undefined;
  };
  parentPort!.on('message', ({ id, bytes }: { id: number; bytes: Uint8Array }) => {
    try {
      const value: unknown = JSON.parse(decoder.decode(bytes));
      const refused = refusal(value);
      if (refused) parentPort!.postMessage({ id, error: refused });
      else parentPort!.postMessage({ id, value });
    } catch (err) {
      parentPort!.postMessage({ id, error: (err as Error).message });
    }
  });
}

/** The client of a body waiting to be parsed closed its connection: nobody is left to answer. */
export class ClientGone extends Error {}

interface Waiting {
  bytes: Buffer;
  gone: () => boolean;
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
}

/**
 * One parsing thread, started on first use and again if it ever dies. Bodies wait here, not in the
 * thread's own queue, and are handed over one at a time: a body whose client has gone by its turn is
 * dropped unparsed (a client that sends 10 MiB bodies and hangs up must not keep the thread, and
 * everyone queued behind it, busy for minutes).
 */
export class JsonParserThread {
  private worker: Worker | undefined;
  private nextId = 0;
  private readonly queue: Waiting[] = [];
  private closed = false;
  /** The body on the thread, if any; its id tells its answer from a stale one of a thread that died. */
  private parsing: { id: number; waiting: Waiting } | undefined;

  /**
   * Parses UTF-8 JSON; rejects with a SyntaxError (→ 400 invalid_json) for what is not acceptable, or
   * ClientGone when `gone()` says, at the body's turn, that its client has closed the connection.
   */
  parse(bytes: Buffer, gone: () => boolean = () => false): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.queue.push({ bytes, gone, resolve, reject });
      this.next();
    });
  }

  /** Hands the next body whose client is still there to the thread, when none is being parsed. */
  private next(): void {
    while (!this.closed && this.parsing === undefined && this.queue.length > 0) {
      const waiting = this.queue.shift()!;
      if (waiting.gone()) {
        waiting.reject(new ClientGone('the client closed the connection before its body was parsed'));
        continue;
      }
      const id = this.nextId++;
      const worker = this.started();
      this.parsing = { id, waiting };
      // The body's own memory moves to the thread when nothing else shares it; otherwise it is copied.
      const { bytes } = waiting;
      const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
      const view = own ? new Uint8Array(bytes.buffer) : new Uint8Array(bytes);
      worker.postMessage({ id, bytes: view }, [view.buffer as ArrayBuffer]);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const waiting of this.queue.splice(0))
      waiting.reject(new Error('the JSON parsing thread is closed'));
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(`(${threadMain.toString()})(${MAX_DEPTH}, ${MAX_VALUES})`, { eval: true });
    // An idle thread must not keep the process alive.
    worker.unref();
    worker.on('message', (answer: Answer) => {
      if (this.parsing?.id !== answer.id) return;
      const { waiting } = this.parsing;
      this.parsing = undefined;
      if ('error' in answer) waiting.reject(new SyntaxError(answer.error));
      else waiting.resolve(answer.value);
      this.next();
    });
    // A thread that dies says so twice ('error', then 'exit'): the second time, the bodies pending are
    // another thread's.
    let failed = false;
    const fail = (err: Error) => {
      if (failed) return;
      failed = true;
      if (this.worker === worker) this.worker = undefined;
      this.parsing?.waiting.reject(err);
      this.parsing = undefined;
      // The bodies still waiting go to a new thread.
      this.next();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the JSON parsing thread stopped (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }
}
