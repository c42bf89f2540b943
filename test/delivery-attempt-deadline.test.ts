// A receiving server that trickles its replies, a byte at a time, never idle long enough for the
// inactivity limit (delivery/smtp-transport.ts, real sockets): the attempt's own deadline ends it (after
// the final ".", the bound on the reply to it), as a deferral that says so, with no other host tried
// afterwards and the connection closed. Without it, such a server holds a delivery for as long as it
// likes.
import dns from 'node:dns';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SmtpTransport } from '../src/delivery/smtp-transport.js';
import { SmtpSink } from './helpers/smtp-sink.js';
import { TcpTestServer } from './helpers/tcp-test-server.js';
import { until } from './helpers/wait.js';

/** Connects to `port`, waits for the server's greeting, and leaves. */
function greeted(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('data', () => {
      socket.destroy();
      resolve();
    });
    socket.once('error', reject);
  });
}

/** Greets and takes the envelope at once; the reply at `slowAt` comes one byte every 50 ms, forever. */
function tricklingHost(slowAt: 'greeting' | 'data-end'): TcpTestServer {
  return new TcpTestServer((socket) => {
    let timer: NodeJS.Timeout | undefined;
    socket.on('close', () => clearInterval(timer));
    const trickle = (start: string) => {
      socket.write(start);
      timer = setInterval(() => socket.write('.'), 50);
    };
    if (slowAt === 'greeting') return trickle('220-');
    socket.write('220 slow.test ESMTP\r\n');
    answerCommands(
      socket,
      (verb) => {
        if (verb === 'EHLO') socket.write('250-slow.test\r\n250 8BITMIME\r\n');
        else socket.write('250 ok\r\n');
      },
      () => trickle('250-'),
    );
  });
}

/** Offers STARTTLS, answers it 220, and then never answers the client's handshake. */
function silentAfterStarttls(): TcpTestServer {
  return new TcpTestServer((socket) => {
    socket.write('220 tls.test ESMTP\r\n');
    answerCommands(socket, (verb) => {
      if (verb === 'EHLO') socket.write('250-tls.test\r\n250 STARTTLS\r\n');
      else if (verb === 'STARTTLS') {
        socket.write('220 go ahead\r\n');
        return 'stop';
      } else socket.write('250 ok\r\n');
      return undefined;
    });
  });
}

/**
 * Reads the client's command lines and hands each verb to `answer` (which may say 'stop': nothing more
 * is read); DATA is answered 354 and its end, the line ".", goes to `dataEnd`.
 */
function answerCommands(
  socket: net.Socket,
  answer: (verb: string) => 'stop' | undefined | void,
  dataEnd: () => void = () => socket.write('250 ok\r\n'),
): void {
  let buffered = '';
  let inData = false;
  let stopped = false;
  socket.on('data', (chunk: Buffer) => {
    if (stopped) return;
    buffered += chunk.toString('latin1');
    for (;;) {
      if (inData) {
        if (buffered.indexOf('\r\n.\r\n') < 0) return;
        buffered = '';
        inData = false;
        return dataEnd();
      }
      const eol = buffered.indexOf('\r\n');
      if (eol < 0) return;
      const verb = buffered.slice(0, eol).split(' ', 1)[0]!.toUpperCase();
      buffered = buffered.slice(eol + 2);
      if (verb === 'DATA') {
        inData = true;
        buffered = `\r\n${buffered}`;
        socket.write('354 go ahead\r\n');
      } else if (answer(verb) === 'stop') {
        stopped = true;
        return;
      }
    }
  });
}

/**
 * Inactivity and connection limits far above the 0.8 s deadline: only the deadline can end an attempt,
 * or, once the final "." went, the 1.2 s the reply to it has.
 */
const onlyTheDeadline = () =>
  new SmtpTransport({
    hostname: 'mta.txmail.test',
    connectTimeoutMs: 60_000,
    socketTimeoutMs: 60_000,
    attemptTimeoutMs: 800,
    finalReplyTimeoutMs: 1200,
  });

describe('an attempt against a server that trickles its replies', () => {
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await new SmtpSink().start();
  });
  afterAll(() => sink?.stop());

  const job = (n: number) => ({
    from: 'b@send.acme.example',
    to: `r${n}@dest.example`,
    raw: Buffer.from(`Subject: ${n}\r\n\r\nbody\r\n`),
  });

  it.each(['greeting', 'data-end'] as const)(
    'ends at its deadline when the %s reply trickles, and tries no other host',
    async (slowAt) => {
      const slow = await tricklingHost(slowAt).start();
      const transport = onlyTheDeadline();
      try {
        const before = sink.received.length;
        const result = await transport.deliver(job(1), [
          { host: 'mx1.dest.example', address: '127.0.0.1', port: slow.port, secure: false },
          { host: 'mx2.dest.example', address: '127.0.0.1', port: sink.port, secure: false },
        ]);
        expect(result).toMatchObject({ outcome: 'deferred', smtpCode: null, category: 'network_error' });
        // After the final ".", the attempt's own time no longer counts: the reply's does.
        expect(result.reply).toMatch(
          slowAt === 'greeting'
            ? /ran out of its 0\.8 s: the server answered too slowly/
            : /no reply to the end of the data within 1\.2 s: the server may have taken the message/,
        );
        // Cut before any session: nothing for the TLS reports (the other had its session, without TLS).
        if (slowAt === 'greeting') expect(result.tlsSessions ?? []).toEqual([]);
        // Out of time: the second host is not tried within the same attempt.
        expect(sink.received.length).toBe(before);
        expect(slow.connections).toBe(1);
        await until('the slow server to see its connection closed', async () =>
          slow.closed === 1 ? true : undefined,
        );
        // The host that took the whole attempt is passed over next time, as an unreachable one is: the
        // next attempt goes to the second host at once.
        expect(
          await transport.deliver(job(4), [
            { host: 'mx1.dest.example', address: '127.0.0.1', port: slow.port, secure: false },
            { host: 'mx2.dest.example', address: '127.0.0.1', port: sink.port, secure: false },
          ]),
        ).toMatchObject({ outcome: 'delivered', skippedHosts: ['mx1.dest.example'] });
        expect(slow.connections).toBe(1);
      } finally {
        await transport.close();
        await slow.stop();
      }
    },
  );

  it("ends at the message's own deadline when it comes first, short of the final dot, and passes over no host", async () => {
    const slow = await tricklingHost('greeting').start();
    const transport = onlyTheDeadline();
    try {
      const result = await transport.deliver({ ...job(6), until: Date.now() + 300 }, [
        { host: 'mx1.dest.example', address: '127.0.0.1', port: slow.port, secure: false },
        { host: 'mx2.dest.example', address: '127.0.0.1', port: sink.port, secure: false },
      ]);
      expect(result).toMatchObject({ outcome: 'deferred', smtpCode: null, category: 'network_error' });
      expect(result.reply).toMatch(/the message's deadline came before the end of its data: not sent/);
      expect(slow.connections).toBe(1);
      // The host is not marked unreachable for other messages: the next attempt tries it again.
      await transport.deliver(job(7), [
        { host: 'mx1.dest.example', address: '127.0.0.1', port: slow.port, secure: false },
      ]);
      expect(slow.connections).toBe(2);
    } finally {
      await transport.close();
      await slow.stop();
    }
  });

  it("waits for the reply to a final dot sent before the message's deadline, past that deadline", async () => {
    const slow = await tricklingHost('data-end').start();
    const transport = onlyTheDeadline();
    try {
      const result = await transport.deliver({ ...job(8), until: Date.now() + 300 }, [
        { host: 'mx1.dest.example', address: '127.0.0.1', port: slow.port, secure: false },
      ]);
      // The reply's own bound ended it, not the message's deadline: the dot had gone.
      expect(result.reply).toMatch(/no reply to the end of the data within 1\.2 s/);
    } finally {
      await transport.close();
      await slow.stop();
    }
  });

  it('ends at its deadline in a STARTTLS handshake the server never answers: no TLS failure recorded', async () => {
    const silent = await silentAfterStarttls().start();
    const transport = onlyTheDeadline();
    try {
      const result = await transport.deliver(job(5), [
        { host: 'mx1.dest.example', address: '127.0.0.1', port: silent.port, secure: false },
      ]);
      // Cut by the deadline, not refused for TLS: nothing for the TLS reports, no cleartext retry.
      expect(result).toMatchObject({ outcome: 'deferred', category: 'network_error' });
      expect(result.reply).toMatch(/ran out of its 0\.8 s/);
      expect(result.tlsSessions ?? []).toEqual([]);
      expect(result.tlsDetails).toBeUndefined();
      expect(silent.connections).toBe(1);
    } finally {
      await transport.close();
      await silent.stop();
    }
  });

  it('ends at its deadline while a relay host name is still being resolved', async () => {
    // nodemailer resolves a host name itself, before its socket exists: slowed here for this one name.
    const original = dns.Resolver.prototype.resolve4;
    let answered!: () => void;
    const lateAnswer = new Promise<void>((resolve) => (answered = resolve));
    const slowly = function (this: dns.Resolver, name: string, ...rest: unknown[]) {
      const done = rest[rest.length - 1] as (err: Error | null, addresses?: string[]) => void;
      if (name === 'relay.slow-dns.test')
        return void setTimeout(() => {
          done(null, ['127.0.0.1']);
          answered();
        }, 800);
      return (original as (...args: unknown[]) => void).call(this, name, ...rest);
    };
    (dns.Resolver.prototype as unknown as { resolve4: unknown }).resolve4 = slowly;
    const transport = new SmtpTransport({ hostname: 'mta.txmail.test', attemptTimeoutMs: 500 });
    try {
      const before = sink.received.length;
      const opened = sink.accepted;
      const result = await transport.deliver(job(6), [
        { host: 'relay.slow-dns.test', address: 'relay.slow-dns.test', port: sink.port, secure: false },
      ]);
      expect(result).toMatchObject({ outcome: 'deferred', category: 'network_error' });
      expect(result.reply).toMatch(/ran out of its 0\.5 s/);
      // The name resolves after the deadline: no connection follows. One the answer opened would be
      // accepted before this probe's, which is greeted only once accepted.
      await lateAnswer;
      await new Promise((r) => setImmediate(r));
      await greeted(sink.port);
      expect(sink.accepted).toBe(opened + 1);
      expect(sink.received.length).toBe(before);
    } finally {
      dns.Resolver.prototype.resolve4 = original;
      await transport.close();
    }
  });

  it('leaves an attempt that ends in time alone: the next attempt has its own deadline', async () => {
    const transport = new SmtpTransport({ hostname: 'mta.txmail.test', attemptTimeoutMs: 800 });
    try {
      const target = [{ host: 'mx.dest.example', address: '127.0.0.1', port: sink.port, secure: false }];
      expect(await transport.deliver(job(2), target)).toMatchObject({ outcome: 'delivered' });
      // Past the first attempt's deadline, on the connection it pooled.
      await new Promise((r) => setTimeout(r, 1000));
      expect(await transport.deliver(job(3), target)).toMatchObject({ outcome: 'delivered' });
    } finally {
      await transport.close();
    }
  });
});
