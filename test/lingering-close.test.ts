// Closing a connection whose request body is still arriving, in stages (src/http/lingering-close.ts):
// a real Node HTTP server that answers 413 before reading a body, as Fastify does for a body declared
// too large, and real sockets.
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { lingerBeforeClosing } from '../src/http/lingering-close.js';
import { writeThenRead } from './helpers/write-then-read.js';
import { until } from './helpers/wait.js';

const head = (length: number) => `POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: ${length}\r\n\r\n`;
/** Bodies up to this size are read whole before the answer; larger ones are refused unread. */
const READ_UP_TO = 100;

let open: http.Server[] = [];
afterEach(() => {
  for (const s of open) {
    s.closeAllConnections();
    s.close();
  }
  open = [];
});

/** A server that refuses a large body unread (413, closed), and reads a small one before refusing it. */
async function started(linger?: { idleMs?: number; maxMs?: number }) {
  const server = http.createServer((req, res) => {
    const refuse = () => {
      res.writeHead(413, { 'content-type': 'text/plain', connection: 'close' });
      res.end('too large');
    };
    if (Number(req.headers['content-length']) > READ_UP_TO) refuse();
    else req.resume().on('end', refuse);
  });
  const lingering = linger ? lingerBeforeClosing(server, linger) : undefined;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  open.push(server);
  const port = (server.address() as AddressInfo).port;
  /**
   * A client that keeps its side open when the server closes its own (as a slow uploader would), so
   * that only the server can end the connection; `closed` settles when the server's socket closes.
   */
  const halfOpenClient = () => {
    const closed = new Promise<void>((resolve) =>
      server.once('connection', (s: net.Socket) => s.once('close', () => resolve())),
    );
    const socket = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    socket.on('error', () => undefined);
    let received = '';
    socket.on('data', (d: Buffer) => (received += d.toString('latin1')));
    // The server's FIN, read after its answer.
    const ended = new Promise<void>((resolve) => socket.once('end', () => resolve()));
    return { socket, received: () => received, closed, ended };
  };
  return { lingering, port, halfOpenClient };
}

// 16 MiB: far more than loopback's socket buffers hold, so the client is still writing when the
// answer comes.
const BODY = 16 * 1024 * 1024;

describe('lingering close', () => {
  it('without it, a client still writing its body loses the early answer to a reset (what it mends)', async () => {
    const { port } = await started();
    const r = await writeThenRead(port, head(BODY), BODY);
    expect(r.writeError).toMatch(/EPIPE|ECONNRESET/);
    expect(r.received).toBe('');
  });

  it('with it, that client writes its whole body, then reads the answer', async () => {
    const { port, lingering } = await started({});
    for (let i = 0; i < 3; i++) {
      const r = await writeThenRead(port, head(BODY), BODY);
      expect(r.writeError).toBeUndefined();
      expect(r.received).toMatch(/^HTTP\/1\.1 413 /);
      expect(r.received).toContain('too large');
    }
    expect(lingering!.lingered).toBe(3);
    await until('no connection to linger', async () => lingering!.lingering === 0 || undefined);
  });

  it('closes a connection whose request arrived whole at once, without lingering', async () => {
    const { lingering, halfOpenClient } = await started({ idleMs: 60_000, maxMs: 60_000 });
    const client = halfOpenClient();
    client.socket.write(head(5) + '12345');
    await Promise.all([client.closed, client.ended]);
    expect(client.received()).toMatch(/^HTTP\/1\.1 413 /);
    expect(lingering!.lingered).toBe(0);
  });

  it('closes a lingering connection on which nothing more arrives', async () => {
    const { lingering, halfOpenClient } = await started({ idleMs: 50, maxMs: 60_000 });
    const client = halfOpenClient();
    // Half its body, then silence, its side left open.
    client.socket.write(head(1000) + ' '.repeat(500));
    await Promise.all([client.closed, client.ended]);
    expect(client.received()).toMatch(/^HTTP\/1\.1 413 /);
    expect(lingering!.lingered).toBe(1);
    expect(lingering!.lingering).toBe(0);
  });

  it('closes a lingering connection after the longest time, however much still arrives', async () => {
    const { lingering, halfOpenClient } = await started({ idleMs: 60_000, maxMs: 200 });
    const client = halfOpenClient();
    client.socket.write(head(BODY));
    const drip = setInterval(() => client.socket.destroyed || client.socket.write(' '), 10);
    try {
      await Promise.all([client.closed, client.ended]);
    } finally {
      clearInterval(drip);
    }
    expect(client.received()).toMatch(/^HTTP\/1\.1 413 /);
    expect(lingering!.lingered).toBe(1);
    expect(lingering!.lingering).toBe(0);
  });

  it('stop() closes the lingering connections, and later refusals close at once', async () => {
    const { port, lingering, halfOpenClient } = await started({ idleMs: 60_000, maxMs: 60_000 });
    const client = halfOpenClient();
    client.socket.write(head(1000) + ' '.repeat(500));
    await until('the connection to linger', async () => lingering!.lingering === 1 || undefined);
    lingering!.stop();
    await client.closed;
    expect(lingering!.lingering).toBe(0);
    const r = await writeThenRead(port, head(BODY), BODY);
    expect(r.writeError).toMatch(/EPIPE|ECONNRESET/);
    expect(lingering!.lingered).toBe(1);
  });
});
