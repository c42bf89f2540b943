// A primary MX that answers 421 to the envelope ("too many connections" at RCPT, RFC 5321 §3.8: it is
// closing the session) is passed over for the destination's next host within the same attempt, as a
// 421 greeting is, and the attempt still says the destination asked to slow down; a 421 to the content
// (a per-message refusal after the final dot), a greylisting reply, or the only host's 421 is the
// attempt's result as before (delivery/smtp-transport.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SmtpTransport } from '../src/delivery/smtp-transport.js';
import { SmtpSink, type ChaosMove } from './helpers/smtp-sink.js';

describe('a 421 from the primary MX after its greeting', () => {
  /** The primary's answers to chaos recipients, one a call (at RCPT, then at the end of the data). */
  let moves: ChaosMove[] = [];
  const primary = new SmtpSink({ chaos: () => moves.shift() ?? 'ok' });
  const backup = new SmtpSink();
  const transport = new SmtpTransport({ hostname: 'mta.txmail.test' });
  beforeAll(async () => {
    await primary.start();
    await backup.start();
  });
  afterAll(async () => {
    await transport.close();
    await primary.stop();
    await backup.stop();
  });
  const hosts = () => [
    { host: 'mx1.dest.example', address: '127.0.0.1', port: primary.port, secure: false },
    { host: 'mx2.dest.example', address: '127.0.0.1', port: backup.port, secure: false },
  ];
  const job = (to: string) => ({
    from: 'b@send.acme.example',
    to,
    raw: Buffer.from('Subject: code\r\n\r\n123456\r\n'),
  });

  it('goes to the next host at once, which delivers it; the destination is still to slow down', async () => {
    moves = ['throttle'];
    const result = await transport.deliver(job('chaos-1@dest.example'), hosts());
    expect(result).toMatchObject({ outcome: 'delivered', remoteHost: 'mx2.dest.example', throttled: true });
    expect(backup.received.map((m) => m.to)).toEqual([['chaos-1@dest.example']]);
    expect(primary.received).toHaveLength(0);
  });

  it("is the attempt's result when the primary is the only host", async () => {
    moves = ['throttle'];
    const result = await transport.deliver(job('chaos-2@dest.example'), hosts().slice(0, 1));
    expect(result).toMatchObject({ outcome: 'deferred', smtpCode: 421, throttled: true });
  });

  it('does not move a 4xx that is not a 421 (a deferral of this recipient) to the next host', async () => {
    moves = ['defer'];
    const result = await transport.deliver(job('chaos-3@dest.example'), hosts());
    expect(result).toMatchObject({ outcome: 'deferred', smtpCode: 451, remoteHost: 'mx1.dest.example' });
    expect(backup.received).toHaveLength(1);
  });

  it('does not send the message whole to the next host after a 421 to its content', async () => {
    moves = ['ok', 'throttle'];
    const result = await transport.deliver(job('chaos-4@dest.example'), hosts());
    expect(result).toMatchObject({ outcome: 'deferred', smtpCode: 421, remoteHost: 'mx1.dest.example' });
    expect(backup.received).toHaveLength(1);
  });
});
