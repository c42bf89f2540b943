// A real HTTPS server for tests on a loopback address's port 443 (all of 127/8 is loopback on Linux),
// with a certificate of the test CA chosen per SNI name: serves each host's answer from a table the
// test edits, and keeps what was asked (GETs for MTA-STS policies, POSTs of TLS reports).
import { createSecureContext, type SecureContext } from 'node:tls';
import { createServer, type Server } from 'node:https';
import type { IssuedCertificate } from './test-ca.js';

export interface SiteAnswer {
  status?: number;
  type?: string;
  body?: string | Buffer;
  headers?: Record<string, string>;
  /** The answer waits for this (a slow host). */
  held?: Promise<unknown>;
}

export interface SiteRequest {
  host: string;
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export class HttpsSite {
  readonly requests: SiteRequest[] = [];
  private readonly answers = new Map<string, SiteAnswer>();
  private readonly contexts = new Map<string, SecureContext>();
  private server: Server | undefined;

  constructor(
    readonly address: string,
    private readonly fallback: IssuedCertificate,
  ) {}

  /** Serves `host` with this certificate (by SNI); without one, the fallback certificate. */
  certificate(host: string, cert: IssuedCertificate): this {
    this.contexts.set(host, createSecureContext({ cert: cert.cert, key: cert.key }));
    return this;
  }

  /** What `host` answers to every request (undefined: 404). */
  answer(host: string, answer: SiteAnswer | undefined): this {
    if (answer) this.answers.set(host, answer);
    else this.answers.delete(host);
    return this;
  }

  /** Requests made to `host`. */
  to(host: string): SiteRequest[] {
    return this.requests.filter((r) => r.host === host);
  }

  async start(port = 443): Promise<this> {
    this.server = createServer(
      {
        cert: this.fallback.cert,
        key: this.fallback.key,
        SNICallback: (name, cb) => cb(null, this.contexts.get(name)),
      },
      (req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', async () => {
          const host = (req.headers.host ?? '').replace(/:\d+$/, '');
          this.requests.push({
            host,
            method: req.method ?? '',
            path: req.url ?? '',
            headers: req.headers,
            body: Buffer.concat(chunks),
          });
          const a = this.answers.get(host);
          if (a?.held) await a.held;
          if (!a) {
            res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
            return;
          }
          res.writeHead(a.status ?? 200, { 'content-type': a.type ?? 'text/plain', ...a.headers });
          res.end(a.body ?? '');
        });
      },
    );
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(port, this.address, resolve);
    });
    return this;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => {
      if (!this.server) return resolve();
      this.server.closeAllConnections();
      this.server.close(() => resolve());
    });
  }
}
