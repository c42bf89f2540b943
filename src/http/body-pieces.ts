// A body sent in many tiny pieces costs the event loop a call a piece: a 6 MB chunked body of 1-byte
// chunks ("1\r\nx\r\n" each) took 2.2 s of CPU where the same bytes with a Content-Length took 0.1 s,
// and /healthz waited 200 ms at a time, whether a route read the body or the server dropped it after an
// early 401 or 404 (a blind attack probe). Node sets no bound; picohttpparser refuses a chunked body
// whose chunk headers are most of its bytes. Here every request counts the pieces Node's parser hands it
// (one a chunk, or one a socket read for a body with a length): past PIECES_BEFORE_CHECK pieces whose
// average is under MIN_AVERAGE_PIECE_BYTES, the connection is answered `400 bad_request` when nothing
// was answered on it yet, and closed at once (refuseAndClose), so nothing more of it is parsed.
// No client needs a thousand pieces of a few bytes: HTTP clients write chunks of kilobytes, and TCP
// carries a slow body in segments of about 1,400 bytes.
import { IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { AppError } from '../errors.js';
import { refuseAndClose } from './connection-limits.js';

export const PIECES_BEFORE_CHECK = 1024;
export const MIN_AVERAGE_PIECE_BYTES = 64;

/** The server's request class (http.createServer's `IncomingMessage` option, app.ts). */
export class PieceCountingRequest extends IncomingMessage {
  private pieces = 0;
  private bytes = 0;

  override push(chunk: unknown, encoding?: BufferEncoding): boolean {
    // null ends the body; a piece is a Buffer.
    if (chunk instanceof Uint8Array) {
      this.pieces += 1;
      this.bytes += chunk.length;
      if (this.pieces > PIECES_BEFORE_CHECK && this.bytes < this.pieces * MIN_AVERAGE_PIECE_BYTES) {
        // Answered only while this request's own answer has not begun: after it, even one that is
        // complete (a 404, which leaves the socket without a current answer), a second would come
        // unasked, so the connection is only closed.
        const answer = (this.socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
        if (answer?.req === this && !answer.headersSent) {
          refuseAndClose(
            this.socket,
            new AppError(
              'bad_request',
              `the body arrived in more than ${PIECES_BEFORE_CHECK.toLocaleString('en')} pieces averaging under ${MIN_AVERAGE_PIECE_BYTES} bytes; send it in larger chunks, or with a Content-Length`,
            ),
          );
        } else this.socket.destroy();
        return false;
      }
    }
    return super.push(chunk, encoding);
  }

  /**
   * Node drops the unread body of a request answered before it was read (its `_dump`) without pushing
   * it, so its pieces would go uncounted: a request answered at once (401, 404) could be sent tiny
   * chunks for as long as the connection lasts. The body is dropped the same way (flowing, no
   * listener), but still pushed, so counted. Node's flag `_dumped` only stops the pushes (Node 20's
   * _http_common parserOnBody), so leaving it unset changes nothing else.
   */
  _dump(): void {
    if (this.complete) {
      (IncomingMessage.prototype as unknown as { _dump(this: IncomingMessage): void })._dump.call(this);
      return;
    }
    this.removeAllListeners('data');
    this.resume();
  }
}
