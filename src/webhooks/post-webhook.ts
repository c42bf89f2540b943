// One HTTP POST to an endpoint, connected to the address resolved beforehand (webhook-url.ts) while the
// Host header and TLS server name stay the URL's host, so certificates are checked against the name.
// No redirects are followed (a 3xx is a failure like any other non-2xx), one overall timeout, and only
// the first KiB of the answer is read.
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';

export const RESPONSE_EXCERPT_BYTES = 1024;

export interface PostTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

export interface PostResult {
  statusCode: number | null;
  /** The first KiB of the response body (UTF-8, possibly cut mid-character). */
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
            response: Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES).toString('utf8'),
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
      finish(failure(err.code ? `${err.code}: ${err.message}` : err.message)),
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
