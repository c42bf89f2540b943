// Closing a connection whose request body is still arriving, in stages (RFC 9112 §9.6, "lingering
// close"). An answer given before the body was read (`413` for a body declared too large, `429
// server_busy` past the body memory, a `415`) is sent with `Connection: close`, and Node then
// closes the socket as soon as the answer is written. The client is still writing its body: the
// bytes arriving on a closed socket make the kernel answer with a reset, and the reset reached
// clients before they had read the answer. A client sending ten 10 MiB bodies at once got `EPIPE`
// instead of `429` and its `Retry-After`, about once in 80 refusals under load.
//
// So such a connection is half-closed instead: the answer and a FIN are sent, what the client still
// sends is read and dropped (Node's parser goes on taking the unread body and nobody keeps it), and
// the socket is destroyed when the client closes its side, when nothing has arrived for
// LINGER_IDLE_MS, or after LINGER_MAX_MS in all (nginx's lingering_timeout and lingering_time, lower).
// Nothing read while lingering is held, so lingering costs bandwidth and a socket, not memory; the
// connection limits still count the socket until it closes. A request pipelined behind such an answer
// is not carried out (afterClosingAnswer). What Node's own parser refuses (a malformed request,
// connection-limits.ts answerClientError) is still answered and closed at once: after a malformed
// request nothing that follows can be read as HTTP.
//
// Node has no such option. Its HTTP server closes a connection after its last answer by calling the
// socket's `destroySoon()`; that method is replaced on each socket of this server, and reads the
// request being read from the socket's parser (`parser.incoming`). Were a later Node to close
// connections another way, or keep that request elsewhere, the replacement would simply not linger:
// the connection would close at once, as it did before (test/lingering-close.test.ts would fail).
import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';

/** A lingering connection is destroyed once nothing has arrived on it for this long. */
export const LINGER_IDLE_MS = 2_000;
/** …and at most this long after its answer, whatever still arrives. */
export const LINGER_MAX_MS = 15_000;

export interface LingeringClose {
  /** Connections lingering now. */
  readonly lingering: number;
  /** Connections that have lingered since the listener started. */
  readonly lingered: number;
  /** Destroys every lingering connection, and closes every later one at once (shutdown). */
  stop(): void;
}

/** Node's HTTP socket: its close-after-answer, and its parser with the request it began last. */
type ClosingSocket = Socket & {
  destroySoon?: () => void;
  parser?: { incoming?: IncomingMessage | null } | null;
};

/**
 * Whether a request that arrives on `socket` comes after an answer that closes the connection: the
 * socket is lingering (its side already ended), or the answer still being written says `Connection:
 * close` (Node's `_last`). Such a request must not be carried out (RFC 9112 §9.6: a server that sent
 * close "MUST NOT process any further requests"): its client never gets the answer, and would send it
 * again (a send pipelined behind a refused one was queued, and its client told nothing).
 */
export function afterClosingAnswer(socket: Socket): boolean {
  if (!socket.writable) return true;
  const answering = (socket as Socket & { _httpMessage?: { _last?: boolean } | null })._httpMessage;
  return answering?._last === true;
}

export function lingerBeforeClosing(
  server: Server,
  { idleMs = LINGER_IDLE_MS, maxMs = LINGER_MAX_MS }: { idleMs?: number; maxMs?: number } = {},
): LingeringClose {
  const lingering = new Set<Socket>();
  let lingered = 0;
  let stopped = false;

  server.on('connection', (socket: ClosingSocket) => {
    const destroySoon = socket.destroySoon;
    if (typeof destroySoon !== 'function') return;
    socket.destroySoon = function lingerOrDestroySoon(this: ClosingSocket) {
      // The request the connection is reading: the last one its parser began (read here rather than
      // recorded on every request, which would put a listener on the send path).
      const req = this.parser?.incoming;
      if (stopped || !req || req.complete || !this.readable) {
        destroySoon.call(this);
        return;
      }
      linger(this);
    };
  });

  function linger(socket: Socket): void {
    lingering.add(socket);
    lingered += 1;
    // The answer is written first, then the FIN: the client reads both, then closes (or goes on
    // writing, which is read and dropped).
    if (socket.writable) socket.end();
    let idle = setTimeout(() => socket.destroy(), idleMs);
    const most = setTimeout(() => socket.destroy(), maxMs);
    // Node's parser reads the socket itself, so its `data` events are not emitted: what arrives is
    // seen as the bytes read growing.
    let read = socket.bytesRead;
    const watch = setInterval(
      () => {
        if (socket.bytesRead === read) return;
        read = socket.bytesRead;
        clearTimeout(idle);
        idle = setTimeout(() => socket.destroy(), idleMs);
      },
      Math.max(10, Math.floor(idleMs / 4)),
    );
    // The client has closed its side: nothing more will arrive.
    socket.once('end', () => socket.destroy());
    socket.once('close', () => {
      clearTimeout(idle);
      clearTimeout(most);
      clearInterval(watch);
      lingering.delete(socket);
    });
  }

  return {
    get lingering() {
      return lingering.size;
    },
    get lingered() {
      return lingered;
    },
    stop() {
      stopped = true;
      for (const socket of lingering) socket.destroy();
    },
  };
}
