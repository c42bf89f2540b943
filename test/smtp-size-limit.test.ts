// A server whose EHLO announces a SIZE (RFC 1870) smaller than the message: nodemailer does not send
// it, and the attempt is the refusal the server announced (552 5.3.4, message_too_large, permanent),
// not a lost connection retried for two days (delivery/smtp-transport.ts errorResult).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SmtpTransport } from '../src/delivery/smtp-transport.js';
import { SmtpSink } from './helpers/smtp-sink.js';

describe('a server that announces a SIZE smaller than the message', () => {
  let sink: SmtpSink;
  const transport = new SmtpTransport({ hostname: 'mta.txmail.test' });
  beforeAll(async () => {
    sink = await new SmtpSink({ size: 1000 }).start();
  });
  afterAll(async () => {
    await transport.close();
    await sink.stop();
  });
  const send = (bodyBytes: number) =>
    transport.deliver(
      {
        from: 'b@send.acme.example',
        to: 'jane@dest.example',
        raw: Buffer.from(`Subject: s\r\n\r\n${'x'.repeat(bodyBytes)}\r\n`),
      },
      [{ host: 'mx.dest.example', address: '127.0.0.1', port: sink.port, secure: false }],
    );

  it('delivers one within the limit', async () => {
    expect(await send(100)).toMatchObject({ outcome: 'delivered' });
    expect(sink.received).toHaveLength(1);
  });

  it('bounces a larger message as too large, without sending it, on the connection it had', async () => {
    const result = await send(1500);
    expect(result).toMatchObject({ outcome: 'bounced', smtpCode: 552, category: 'message_too_large' });
    expect(result.reply).toMatch(/^552 5\.3\.4 .*1000 bytes/);
    expect(sink.received).toHaveLength(1);
    // Not taken for a connection the server closed while idle: no new one was opened for it.
    expect(sink.connections).toBe(1);
  });
});
