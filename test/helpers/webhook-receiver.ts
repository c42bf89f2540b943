// A real HTTP server on loopback that receives webhook pushes for tests. Each request is kept with its
// headers and body; `respond` decides the answer (default 200), given how many requests came before. An
// answer can wait for a promise (an endpoint that hangs until the test lets it answer); the server counts
// the requests open at each path, and the most that were open at once.
import http from 'node:http';

export interface ReceivedPush {
  path: string;
  headers: Record<string, string>;
  body: string;
  at: number;
}

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** Milliseconds to wait before answering. */
  delayMs?: number;
  /** Answer only once this settles: the request stays open until then. */
  after?: Promise<unknown>;
}

export class WebhookReceiver {
  readonly received: ReceivedPush[] = [];
  respond: (push: ReceivedPush, index: number) => Answer = () => ({ status: 200, body: 'ok' });
  private server: http.Server | undefined;
  private readonly open = new Map<string, number>();
  private readonly mostOpen = new Map<string, number>();
  port = 0;

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const push: ReceivedPush = {
          path: req.url ?? '',
          headers: Object.fromEntries(
            Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]),
          ),
          body: Buffer.concat(chunks).toString('utf8'),
          at: Date.now(),
        };
        const index = this.received.length;
        this.received.push(push);
        this.count(push.path, res);
        const answer = this.respond(push, index);
        void Promise.resolve(answer.after).then(() =>
          setTimeout(() => {
            res.writeHead(answer.status, answer.headers ?? {});
            res.end(answer.body ?? '');
          }, answer.delayMs ?? 0),
        );
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
    return this;
  }

  url(path = '/hook'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** Requests open at a path now: received, not yet answered (nor given up by the client). */
  openAt(path: string): number {
    return this.open.get(path) ?? 0;
  }

  /** The most requests that were open at a path at once. */
  mostOpenAt(path: string): number {
    return this.mostOpen.get(path) ?? 0;
  }

  private count(path: string, res: http.ServerResponse): void {
    const now = this.openAt(path) + 1;
    this.open.set(path, now);
    this.mostOpen.set(path, Math.max(now, this.mostOpenAt(path)));
    res.once('close', () => this.open.set(path, this.openAt(path) - 1));
  }

  /** Pushes received at a path. */
  at(path: string): ReceivedPush[] {
    return this.received.filter((r) => r.path === path);
  }

  stop(): Promise<void> {
    this.server?.closeAllConnections();
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
