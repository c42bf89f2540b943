// Which failed attempts reached no SMTP server (delivery/outcome.ts reachedNoServer, retried after 30 s
// rather than 5 minutes), told apart on real sockets: a port nobody listens on is 4.4.1, "could not
// connect"; a server that greeted and then dropped the session during EHLO was reached, 4.4.2,
// "connection lost", and keeps the schedule.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reachedNoServer } from '../src/delivery/outcome.js';
import { SmtpTransport } from '../src/delivery/smtp-transport.js';
import { freePort } from './helpers/process.js';
import { SmtpSink } from './helpers/smtp-sink.js';
import { TcpTestServer } from './helpers/tcp-test-server.js';

describe('an attempt that reached no server, and one that did', () => {
  let dropper: TcpTestServer;
  const transport = new SmtpTransport({ hostname: 'mta.txmail.test', connectTimeoutMs: 2000 });
  const job = {
    from: 'b@send.acme.example',
    to: 'r@dest.example',
    raw: Buffer.from('Subject: x\r\n\r\nhi\r\n'),
  };
  beforeAll(async () => {
    // Greets, then hangs up at the first command.
    dropper = await new TcpTestServer((socket) => {
      socket.write('220 dropper.test ESMTP\r\n');
      socket.once('data', () => socket.destroy());
    }).start();
  });
  afterAll(async () => {
    await transport.close();
    await dropper.stop();
  });

  it('calls a refused connection "could not connect" (4.4.1): no server reached', async () => {
    const port = await freePort();
    const result = await transport.deliver(job, [
      { host: 'mx.dest.example', address: '127.0.0.1', port, secure: false },
    ]);
    expect(result).toMatchObject({ outcome: 'deferred', smtpCode: null, enhanced: '4.4.1' });
    expect(result.reply).toMatch(/^could not connect/);
    expect(reachedNoServer(result)).toBe(true);
  });

  it('gives a host that greets and then never answers EHLO the session setup time only, then tries the next', async () => {
    // Greets, then says nothing more; the backup answers everything.
    const mute = await new TcpTestServer((socket) => socket.write('220 mute.test ESMTP\r\n')).start();
    const backup = await new SmtpSink().start();
    const quick = new SmtpTransport({ hostname: 'mta.txmail.test', setupTimeoutMs: 300 });
    try {
      const result = await quick.deliver(job, [
        { host: 'mx1.dest.example', address: '127.0.0.1', port: mute.port, secure: false },
        { host: 'mx2.dest.example', address: '127.0.0.1', port: backup.port, secure: false },
      ]);
      // Delivered by the backup: the 2 minutes of inactivity allowed a reply did not hold it.
      expect(result).toMatchObject({ outcome: 'delivered', remoteHost: 'mx2.dest.example' });
      expect(backup.received).toHaveLength(1);
      // Alone, the host's attempt says why.
      const alone = await quick.deliver(job, [
        { host: 'mx1.dest.example', address: '127.0.0.1', port: mute.port, secure: false },
      ]);
      expect(alone).toMatchObject({ outcome: 'deferred', enhanced: '4.4.2' });
      expect(alone.reply).toMatch(/the session was not ready within 0\.3 s/);
    } finally {
      await quick.close();
      await mute.stop();
      await backup.stop();
    }
  });

  it('calls a session dropped after the greeting "connection lost" (4.4.2): a server was reached', async () => {
    const result = await transport.deliver(job, [
      { host: 'mx.dest.example', address: '127.0.0.1', port: dropper.port, secure: false },
    ]);
    expect(result).toMatchObject({ outcome: 'deferred', smtpCode: null, enhanced: '4.4.2' });
    expect(result.reply).toMatch(/^connection lost/);
    expect(reachedNoServer(result)).toBe(false);
  });
});
