// A destination whose preferred MX host takes connections and never greets, and whose second host
// works (src/delivery/unreachable-hosts.ts through delivery/smtp-transport.ts, real sockets): the first
// message waits out the greeting timeout and goes to the second host; the next ones go there at once,
// without a connection to the silent host, until its wait has passed and one message probes it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SmtpTransport } from '../src/delivery/smtp-transport.js';
import { FIRST_WAIT_MS } from '../src/delivery/unreachable-hosts.js';
import { SmtpSink } from './helpers/smtp-sink.js';
import { TcpTestServer } from './helpers/tcp-test-server.js';

/** Takes connections and says nothing: a host whose SMTP server hangs, or a tarpit. */
const silentHost = () => new TcpTestServer(() => undefined);

describe('a preferred MX host that never greets', () => {
  let silent: TcpTestServer;
  let sink: SmtpSink;
  let now = Date.UTC(2026, 10, 30, 12);
  let transport: SmtpTransport;
  beforeAll(async () => {
    silent = await silentHost().start();
    sink = await new SmtpSink().start();
    // A short greeting timeout, so that the wait on the silent host is short here.
    transport = new SmtpTransport({ hostname: 'mta.txmail.test', connectTimeoutMs: 300, now: () => now });
  });
  afterAll(async () => {
    await transport?.close();
    await silent?.stop();
    await sink?.stop();
  });

  const targets = () => [
    { host: 'mx1.dest.example', address: '127.0.0.1', port: silent.port, secure: false },
    { host: 'mx2.dest.example', address: '127.0.0.1', port: sink.port, secure: false },
  ];
  const send = (n: number) =>
    transport.deliver(
      {
        from: 'b@send.acme.example',
        to: `r${n}@dest.example`,
        raw: Buffer.from(`Subject: ${n}\r\n\r\nbody\r\n`),
      },
      targets(),
    );

  it('is skipped for the next messages once it has failed, and probed by one message after its wait', async () => {
    const first = await send(1);
    expect(first).toMatchObject({ outcome: 'delivered', remoteHost: 'mx2.dest.example' });
    // Tried, not skipped: it failed over.
    expect(first.skippedHosts).toBeUndefined();
    expect(silent.connections).toBe(1);

    // Within the wait: straight to the second host, the silent one not even connected to.
    for (const n of [2, 3, 4]) {
      now += 1000;
      expect(await send(n)).toMatchObject({
        outcome: 'delivered',
        remoteHost: 'mx2.dest.example',
        skippedHosts: ['mx1.dest.example'],
      });
    }
    expect(silent.connections).toBe(1);

    // The wait has passed: one message probes it (and waits out its silence again), the next skip it.
    now += FIRST_WAIT_MS;
    const [probe, beside] = await Promise.all([send(5), send(6)]);
    expect(probe).toMatchObject({ outcome: 'delivered', remoteHost: 'mx2.dest.example' });
    expect(beside).toMatchObject({ outcome: 'delivered', remoteHost: 'mx2.dest.example' });
    expect(silent.connections).toBe(2);
    now += 1000;
    await send(7);
    expect(silent.connections).toBe(2);
    expect(sink.received.map((m) => m.to[0]).sort()).toEqual(
      [1, 2, 3, 4, 5, 6, 7].map((n) => `r${n}@dest.example`).sort(),
    );
  });

  it('is tried again by every message when it is the only host: no message is deferred untried', async () => {
    const only = [{ host: 'mx1.dest.example', address: '127.0.0.1', port: silent.port, secure: false }];
    const before = silent.connections;
    for (const n of [8, 9]) {
      now += 1000;
      const r = await transport.deliver(
        {
          from: 'b@send.acme.example',
          to: `r${n}@dest.example`,
          raw: Buffer.from('Subject: x\r\n\r\nbody\r\n'),
        },
        only,
      );
      expect(r).toMatchObject({ outcome: 'deferred', smtpCode: null, category: 'network_error' });
    }
    expect(silent.connections - before).toBe(2);
  });
});
