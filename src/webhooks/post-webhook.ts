// One HTTP POST to an endpoint, connected to the address resolved beforehand (webhook-url.ts) while the
// Host header and TLS server name stay the URL's host, so certificates are checked against the name.
// No redirects are followed (a 3xx is a failure like any other non-2xx), one overall timeout, and only
// the first KiB of the answer is read. The endpoint writes everything we read: the status line and
// headers are bounded by Node's HTTP parser (16 KiB of headers), the body by the excerpt, and what is
// kept goes through peerText (no NUL reaches the database, where it would make the attempt unrecordable).
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { peerText } from '../peer-text.js';

export const RESPONSE_EXCERPT_BYTES = 1024;
const ERROR_TEXT_LENGTH = 1024;

export interface PostTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

export interface PostResult {
  statusCode: number | null;
  /** The first KiB of the response body (UTF-8, possibly cut mid-character; controls as U+FFFD). */
  response: string;
  retryAfter: string | undefined;
  /** What went wrong when there was no response. */
  error: string | undefined;
}

export function postWebhook(
  target: PostTarget,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<PostResult> {
  const { url, address, family } = target;
  // Always answer with the checked address, whatever the name resolves to now.
  const lookup = ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as unknown as LookupFunction;
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: PostResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve(result);
    };
    const req = client.request(
      url,
      {
        method: 'POST',
        lookup,
        agent: false,
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'txmail-webhooks/1',
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () =>
          finish({
            statusCode: res.statusCode ?? null,
            response: peerText(
              Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES).toString('utf8'),
              RESPONSE_EXCERPT_BYTES,
            ),
            retryAfter: single(res.headers['retry-after']),
            error: undefined,
          });
        res.on('data', (c: Buffer) => {
          chunks.push(c);
          size += c.length;
          if (size >= RESPONSE_EXCERPT_BYTES) done();
        });
        res.on('end', done);
        res.on('error', done);
      },
    );
    const timer = setTimeout(
      () => finish(failure(`no response within ${Math.round(timeoutMs / 1000)} s`)),
      timeoutMs,
    );
    req.on('error', (err: NodeJS.ErrnoException) =>
      // A TLS or parse error may quote the peer (a certificate's names, say): kept like its words.
      finish(failure(peerText(err.code ? `${err.code}: ${err.message}` : err.message, ERROR_TEXT_LENGTH))),
    );
    req.end(body);
  });
}

function failure(error: string): PostResult {
  return { statusCode: null, response: '', retryAfter: undefined, error };
}

function single(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}
