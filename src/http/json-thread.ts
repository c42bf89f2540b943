// JSON bodies parsed on a thread of their own. Decoding and parsing a 10 MiB body costs 50–100 ms of
// CPU (UTF-8 decoding of non-ASCII text is the larger half): on the event loop that is 50–100 ms in
// which no other request, SMTP reply or health probe is answered, and an account allowed ten requests a
// second could keep the loop busy all the time. A large body's bytes go to the thread piece by piece as
// they arrive, and are put together there: joining 10 MiB into one buffer on the loop cost it 30–80 ms
// on a virtual machine, where memory touched for the first time is slow. The event loop only copies the
// parsed strings back. Small bodies stay on the loop: a thread hop costs more than parsing them.
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

/** A large body's bytes go to the thread in blocks of this size (the last one shorter). */
const STAGE_BYTES = 64 * 1024;

/**
 * Runs inside the thread: UTF-8 bytes in, the parsed value out. Refuses what Fastify refuses by
 * default (onProtoPoisoning and onConstructorPoisoning "error"): an own `__proto__` key anywhere, or a
 * `constructor` key holding an object with a `prototype` key; and a value nested deeper than
 * `maxDepth`. The walk is iterative (a deeply nested body cannot overflow the stack) and linear in the
 * parsed value.
 */
/** Why a body with a key JavaScript treats specially is refused (json-body.ts says it of a small one). */
export const FORBIDDEN_KEY_WORDS =
  'it has a "__proto__" key, or a "constructor" key holding "prototype", which txmail refuses';

function threadMain(maxDepth: number, maxValues: number, forbiddenKeyWords: string): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { parentPort } = require('node:worker_threads') as typeof import('node:worker_threads');
  // RFC 8259 §8.1: JSON between systems is UTF-8. Bytes that are not are refused, never replaced: each
  // would become U+FFFD, three bytes, and a 10 MiB body of them a 31 MB message.
  const decoder = new TextDecoder('utf-8', { fatal: true });
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
        return forbiddenKeyWords;
      }
      const ctor = (node as Record<string, unknown>).constructor;
      if (
        Object.prototype.hasOwnProperty.call(node, 'constructor') &&
        ctor !== null &&
        typeof ctor === 'object' &&
        Object.prototype.hasOwnProperty.call(ctor, 'prototype')
      ) {
        return forbiddenKeyWords;
      }
      for (const key in node) {
        nodes.push((node as Record<string, unknown>)[key]);
        depths.push(depth + 1);
      }
    }
    return undefined;
  };
  /** Each body's pieces so far, by id, until it is parsed or dropped. */
  const bodies = new Map<number, Uint8Array[]>();
  parentPort!.on('message', (m: ThreadMessage) => {
    if (m.op === 'piece') {
      const pieces = bodies.get(m.id);
      if (pieces) pieces.push(m.bytes);
      else bodies.set(m.id, [m.bytes]);
      return;
    }
    const pieces = bodies.get(m.id) ?? [];
    bodies.delete(m.id);
    if (m.op === 'drop') return;
    try {
      const bytes = pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces);
      let text: string;
      try {
        text = decoder.decode(bytes);
      } catch {
        parentPort!.postMessage({ id: m.id, error: 'the body is not valid UTF-8' });
        return;
      }
      const value: unknown = JSON.parse(text);
      const refused = refusal(value);
      if (refused) parentPort!.postMessage({ id: m.id, error: refused });
      else parentPort!.postMessage({ id: m.id, value });
    } catch (err) {
      parentPort!.postMessage({ id: m.id, error: (err as Error).message });
    }
  });
}

/** What the event loop tells the thread: a piece of a body, parse it (all has come), or forget it. */
type ThreadMessage =
  { op: 'piece'; id: number; bytes: Uint8Array } | { op: 'parse'; id: number } | { op: 'drop'; id: number };

/** The client of a body waiting to be parsed closed its connection: nobody is left to answer. */
export class ClientGone extends Error {}

/** The thread stopped (or was closed) with the body's bytes: nothing the client did; it may send again. */
export class ThreadStopped extends Error {}

interface Waiting {
  id: number;
  gone: () => boolean;
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
}

/**
 * A body on its way to the thread: `write` its pieces as they arrive, then `parse` once all have come,
 * or `drop` it.
 */
export interface ThreadBody {
  write(piece: Uint8Array): void;
  /**
   * Resolves with the value; rejects with a SyntaxError (→ 400 invalid_json) for what is not acceptable,
   * or ClientGone when `gone()` says, at the body's turn, that its client has closed the connection.
   */
  parse(gone?: () => boolean): Promise<unknown>;
  drop(): void;
}

/**
 * One parsing thread, started on first use and again if it ever dies. A body's pieces wait in the
 * thread; its turn to be parsed waits here, and bodies are parsed one at a time: a body whose client
 * has gone by its turn is dropped unparsed (a client that sends 10 MiB bodies and hangs up must not keep
 * the thread, and everyone queued behind it, busy for minutes).
 */
export class JsonParserThread {
  private worker: Worker | undefined;
  private nextId = 0;
  private readonly queue: Waiting[] = [];
  private closed = false;
  /** The body being parsed, if any; its id tells its answer from a stale one of a thread that died. */
  private parsing: Waiting | undefined;
  /** The ids whose pieces are in the thread now: a thread that dies takes them with it. */
  private readonly inThread = new Set<number>();

  /** How many bodies' pieces the thread holds, not yet parsed or dropped. */
  get bodiesHeld(): number {
    return this.inThread.size;
  }

  /** A new body; nothing reaches the thread until its first piece. */
  body(): ThreadBody {
    const id = this.nextId++;
    let broken = false;
    let worker: Worker | undefined;
    // Pieces are gathered into blocks of STAGE_BYTES before they are posted: a chunked body of 1-byte
    // chunks would otherwise be a message (and an ArrayBuffer, and a Map entry in the thread) a byte.
    let stage: Uint8Array | undefined;
    let staged = 0;
    // The first block is small and each next one twice the last, up to STAGE_BYTES: a connection that
    // declares a large body and sends a byte holds 4 KiB here, not 64 (no memory limit counts this).
    let nextStage = 4 * 1024;
    const post = (bytes: Uint8Array) => {
      if (broken || this.closed) return;
      const current = this.started();
      if (worker !== undefined && worker !== current) broken = true;
      worker = current;
      if (broken) return;
      this.inThread.add(id);
      current.postMessage({ op: 'piece', id, bytes } satisfies ThreadMessage, [bytes.buffer as ArrayBuffer]);
    };
    const flush = () => {
      if (stage === undefined || staged === 0) return;
      const full = staged === stage.length ? stage : stage.slice(0, staged);
      stage = undefined;
      staged = 0;
      post(full);
    };
    return {
      write: (piece) => {
        if (broken || this.closed) return;
        let at = 0;
        while (at < piece.length) {
          if (stage === undefined) {
            stage = new Uint8Array(nextStage);
            nextStage = Math.min(nextStage * 2, STAGE_BYTES);
          }
          const n = Math.min(piece.length - at, stage.length - staged);
          stage.set(piece.subarray(at, at + n), staged);
          staged += n;
          at += n;
          if (staged === stage.length) flush();
        }
      },
      parse: (gone = () => false) =>
        new Promise((resolve, reject) => {
          flush();
          if (broken || (worker !== undefined && !this.inThread.has(id)) || this.closed) {
            reject(new ThreadStopped('the JSON parsing thread stopped while the body was arriving'));
            return;
          }
          this.queue.push({ id, gone, resolve, reject });
          this.next();
        }),
      drop: () => {
        broken = true;
        stage = undefined;
        if (this.inThread.delete(id)) this.worker?.postMessage({ op: 'drop', id } satisfies ThreadMessage);
      },
    };
  }

  /** Parses UTF-8 JSON held in one buffer (see ThreadBody.parse). */
  parse(bytes: Uint8Array, gone: () => boolean = () => false): Promise<unknown> {
    const body = this.body();
    body.write(bytes);
    return body.parse(gone);
  }

  /** Hands the next body whose client is still there to the thread, when none is being parsed. */
  private next(): void {
    while (!this.closed && this.parsing === undefined && this.queue.length > 0) {
      const waiting = this.queue.shift()!;
      const worker = this.worker;
      if (worker === undefined || !this.inThread.delete(waiting.id)) {
        // Its pieces went with a thread that died.
        waiting.reject(new ThreadStopped('the JSON parsing thread stopped while the body was waiting'));
        continue;
      }
      if (waiting.gone()) {
        worker.postMessage({ op: 'drop', id: waiting.id } satisfies ThreadMessage);
        waiting.reject(new ClientGone('the client closed the connection before its body was parsed'));
        continue;
      }
      this.parsing = waiting;
      worker.postMessage({ op: 'parse', id: waiting.id } satisfies ThreadMessage);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const waiting of this.queue.splice(0))
      waiting.reject(new ThreadStopped('the JSON parsing thread is closed'));
    this.parsing?.reject(new ThreadStopped('the JSON parsing thread is closed'));
    this.parsing = undefined;
    this.inThread.clear();
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(
      `(${threadMain.toString()})(${MAX_DEPTH}, ${MAX_VALUES}, ${JSON.stringify(FORBIDDEN_KEY_WORDS)})`,
      { eval: true },
    );
    // An idle thread must not keep the process alive.
    worker.unref();
    worker.on('message', (answer: Answer) => {
      if (this.parsing?.id !== answer.id) return;
      const waiting = this.parsing;
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
      if (this.worker !== worker) return;
      this.worker = undefined;
      // Every body whose pieces it held is lost: the one being parsed fails now, the waiting ones at
      // their turn, the ones still arriving when they are complete.
      this.inThread.clear();
      // ThreadStopped whichever way it died ('error' comes first: an uncaught error, or out of memory),
      // so the body being parsed is answered 503 as those waiting are, not 500.
      this.parsing?.reject(
        err instanceof ThreadStopped
          ? err
          : new ThreadStopped(`the JSON parsing thread stopped: ${err.message}`),
      );
      this.parsing = undefined;
      this.next();
    };
    worker.on('error', fail);
    worker.on('exit', (code) =>
      fail(new ThreadStopped(`the JSON parsing thread stopped (exit code ${code})`)),
    );
    this.worker = worker;
    return worker;
  }
}
