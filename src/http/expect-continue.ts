// `Expect: 100-continue` (RFC 9110 §10.1.1): a client asks before sending its body. Node answers
// "100 Continue" to every such request on its own, so a client that declared 20 MB was told to send it
// and then refused with 413 (a blind attack probe). Here a body declared over the largest any route
// takes is refused at once, without the 100, and its connection closed; any other request is told to
// continue and handed on as Node would (a route with a smaller limit still refuses it after).
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { AppError, errorBody } from '../errors.js';
import { sizeText } from './errors.js';

export function answerContinue(server: Server, maxBodyBytes: number): void {
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    const declared = Number(req.headers['content-length']);
    if (declared > maxBodyBytes) {
      const e = new AppError(
        'payload_too_large',
        `the request body must be at most ${sizeText(maxBodyBytes)}`,
      );
      const body = errorBody(e.code, e.message);
      res.shouldKeepAlive = false;
      res
        .writeHead(e.status, {
          'content-type': 'text/plain; charset=utf-8',
          'content-length': Buffer.byteLength(body),
          connection: 'close',
        })
        .end(body);
      return;
    }
    res.writeContinue();
    server.emit('request', req, res);
  });
}
