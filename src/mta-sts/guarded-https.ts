// One HTTPS request to a host a recipient domain names (its MTA-STS policy host, its TLS-RPT endpoint):
// the name resolved and judged as every host txmail reaches over HTTP(S) (resolve-public.ts: every
// address public), the certificate verified for the name against Node's roots (with NODE_EXTRA_CA_CERTS),
// no redirects followed, the answer capped in size and in time.
import { request } from 'node:https';
import { isIP } from 'node:net';
import type { IncomingHttpHeaders } from 'node:http';
import type { DnsResolver } from '../dns/resolver.js';
import { resolvePublicAddresses } from '../resolve-public.js';

export interface GuardedHttpsOptions {
  dns: Pick<DnsResolver, 'a' | 'aaaa'>;
  /** TXMAIL_ALLOW_PRIVATE_NETWORKS: loopback and private addresses allowed (development, tests). */
  allowPrivate: boolean;
  /** Trusted roots instead of Node's (tests in one process); absent: Node's, with NODE_EXTRA_CA_CERTS. */
  ca?: string | string[];
  /** The whole exchange, from the first connection to the last byte. */
  timeoutMs: number;
  /** The largest answer body read; a longer one fails the request. */
  maxBytes: number;
  /** Ends the request at once (the process is stopping). */
  signal?: AbortSignal;
}

export interface HttpsAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** Why a request failed: the certificate did not verify (`webpki`), or anything else (`fetch`). */
export class HttpsFailure extends Error {
  constructor(
    readonly kind: 'webpki' | 'fetch',
    message: string,
  ) {
    super(message);
    this.name = 'HttpsFailure';
  }
}

/** OpenSSL's and Node's codes for a certificate that does not verify for the host name. */
const CERTIFICATE_ERRORS = new Set([
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_REVOKED',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'INVALID_CA',
  'HOSTNAME_MISMATCH',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** Errors of a connection that never opened: the next address is tried. */
const CONNECT_ERRORS = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);

/** At most this many of a host's addresses are tried. */
const MAX_ADDRESSES = 3;

export async function guardedHttps(
  url: URL,
  init: { method: 'GET' | 'POST'; headers?: Record<string, string>; body?: Buffer },
  options: GuardedHttpsOptions,
): Promise<HttpsAnswer> {
  if (url.protocol !== 'https:') throw new HttpsFailure('fetch', `not an https URL`);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const deadline = Date.now() + options.timeoutMs;
  const addresses = await resolve(host, options);
  let last: unknown;
  for (const address of addresses.slice(0, MAX_ADDRESSES)) {
    if (options.signal?.aborted) throw new HttpsFailure('fetch', 'stopped');
    try {
      return await once(url, host, address, init, options, deadline);
    } catch (err) {
      last = err;
      const code = (err as { code?: string }).code;
      if (!(code && CONNECT_ERRORS.has(code)) || Date.now() >= deadline) break;
    }
  }
  throw toFailure(last);
}

async function resolve(host: string, options: GuardedHttpsOptions): Promise<string[]> {
  const resolved = await resolvePublicAddresses(host, options.dns, options.allowPrivate);
  if (!resolved.ok) throw new HttpsFailure('fetch', resolved.reason);
  return resolved.addresses;
}

function once(
  url: URL,
  host: string,
  address: string,
  init: { method: 'GET' | 'POST'; headers?: Record<string, string>; body?: Buffer },
  options: GuardedHttpsOptions,
  deadline: number,
): Promise<HttpsAnswer> {
  return new Promise((resolvePromise, reject) => {
    const req = request({
      host: address,
      // The certificate is checked against this name, and it is the SNI. An address is no SNI (RFC 6066
      // §3): '' sends none, and the certificate is then checked against `host`, the same address.
      servername: isIP(host) ? '' : host,
      port: url.port === '' ? 443 : Number(url.port),
      path: `${url.pathname}${url.search}`,
      method: init.method,
      headers: {
        host: url.host,
        ...(init.body ? { 'content-length': String(init.body.length) } : {}),
        ...init.headers,
      },
      agent: false,
      ...(options.ca ? { ca: options.ca } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const timer = setTimeout(
      () => req.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })),
      Math.max(1, deadline - Date.now()),
    );
    const fail = (err: unknown) => {
      clearTimeout(timer);
      reject(err);
    };
    req.on('error', fail);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > options.maxBytes) {
          req.destroy(new HttpsFailure('fetch', `answer larger than ${options.maxBytes} bytes`));
          return;
        }
        chunks.push(chunk);
      });
      res.on('error', fail);
      res.on('end', () => {
        clearTimeout(timer);
        resolvePromise({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) });
      });
    });
    req.end(init.body);
  });
}

function toFailure(err: unknown): HttpsFailure {
  if (err instanceof HttpsFailure) return err;
  const code = (err as { code?: string } | undefined)?.code;
  const message = (err as Error | undefined)?.message ?? 'request failed';
  if (code && CERTIFICATE_ERRORS.has(code)) return new HttpsFailure('webpki', `certificate: ${message}`);
  return new HttpsFailure('fetch', code ? `${code}: ${message}` : message);
}
