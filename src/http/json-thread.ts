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

/** What the thread answers: the value, why the text is not acceptable JSON, or the text to parse here. */
type Answer = { id: number; value: unknown } | { id: number; error: string } | { id: number; text: string };

/**
 * Runs inside the thread: UTF-8 bytes in, the parsed value out. Refuses what Fastify refuses by
 * default (onProtoPoisoning and onConstructorPoisoning "error"): an own `__proto__` key anywhere, or a
 * `constructor` key holding an object with a `prototype` key. The walk is iterative (a deeply nested
 * body cannot overflow the stack) and linear in the parsed value.
 */
function threadMain(): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { parentPort } = require('node:worker_threads') as typeof import('node:worker_threads');
  const decoder = new TextDecoder('utf-8');
  const forbidden = (value: unknown): string | undefined => {
    const stack: unknown[] = [value];
    while (stack.length > 0) {
      const node = stack.pop();
      if (node === null || typeof node !== 'object') continue;
      if (Array.isArray(node)) {
        for (const item of node) stack.push(item);
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
      for (const key in node) stack.push((node as Record<string, unknown>)[key]);
    }
    return undefined;
  };
  parentPort!.on('message', ({ id, bytes }: { id: number; bytes: Uint8Array }) => {
    let text: string | undefined;
    try {
      text = decoder.decode(bytes);
      const value: unknown = JSON.parse(text);
      const refused = forbidden(value);
      if (refused) parentPort!.postMessage({ id, error: refused });
      else parentPort!.postMessage({ id, value });
    } catch (err) {
      // Copying a value back is recursive: thousands of nested levels overflow it where JSON.parse,
      // which is not recursive, did not. Such a body is small for its depth: the loop parses it.
      if (err instanceof RangeError && text !== undefined) parentPort!.postMessage({ id, text });
      else parentPort!.postMessage({ id, error: (err as Error).message });
    }
  });
}

/** A body the thread decoded but could not hand back parsed (too deeply nested): parse it on the loop. */
export class TextForTheLoop {
  constructor(readonly text: string) {}
}

/** One parsing thread, started on first use and again if it ever dies. */
export class JsonParserThread {
  private worker: Worker | undefined;
  private nextId = 0;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

  /** Parses UTF-8 JSON; rejects with a SyntaxError (→ 400 invalid_json) for what is not acceptable. */
  parse(bytes: Buffer): Promise<unknown> {
    const id = this.nextId++;
    const worker = this.started();
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      // The body's own memory moves to the thread when nothing else shares it; otherwise it is copied.
      const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
      const view = own ? new Uint8Array(bytes.buffer) : new Uint8Array(bytes);
      worker.postMessage({ id, bytes: view }, [view.buffer as ArrayBuffer]);
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(`(${threadMain.toString()})()`, { eval: true });
    // An idle thread must not keep the process alive.
    worker.unref();
    worker.on('message', (answer: Answer) => {
      const waiting = this.pending.get(answer.id);
      if (!waiting) return;
      this.pending.delete(answer.id);
      if ('error' in answer) waiting.reject(new SyntaxError(answer.error));
      else if ('text' in answer) waiting.resolve(new TextForTheLoop(answer.text));
      else waiting.resolve(answer.value);
    });
    const fail = (err: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const waiting of this.pending.values()) waiting.reject(err);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the JSON parsing thread stopped (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }
}
