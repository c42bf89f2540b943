// A client that reads its answer only once it has written its whole request, as many HTTP clients do:
// an answer the server sends early must still reach it, however much body follows.
import net from 'node:net';

export interface WrittenThenRead {
  /** The code of the error a write met (EPIPE, ECONNRESET), if one did. */
  writeError: string | undefined;
  /** Everything read once the request was written, until the connection closed. */
  received: string;
}

/**
 * Writes `head`, then `bodyBytes` of spaces, then `after` (a request pipelined behind), reading
 * nothing; then reads until the server closes.
 */
export async function writeThenRead(
  port: number,
  head: string,
  bodyBytes: number,
  localAddress = '127.0.0.1',
  after = '',
): Promise<WrittenThenRead> {
  const socket = net.connect({ port, host: '127.0.0.1', localAddress });
  socket.pause();
  let writeError: string | undefined;
  socket.on('error', (e: NodeJS.ErrnoException) => (writeError ??= e.code ?? e.message));
  // Not events.once: it rejects on the socket's 'error', which is an outcome here.
  const either = (event: string) =>
    new Promise<void>((resolve) => {
      socket.once(event, () => resolve());
      socket.once('close', () => resolve());
    });
  const closed = either('close');
  await either('connect');
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  socket.write(head);
  for (let left = bodyBytes; left > 0 && !socket.destroyed;) {
    const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
    left -= piece.length;
    if (!socket.write(piece)) await either('drain');
  }
  if (after !== '' && !socket.destroyed) socket.write(after);
  let received = '';
  socket.on('data', (d: Buffer) => (received += d.toString('latin1')));
  socket.resume();
  await closed;
  return { writeError, received };
}
