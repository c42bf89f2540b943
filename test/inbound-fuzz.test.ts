// The bounce and complaint receiver under malformed SMTP: seeded random sessions of broken commands,
// bad addresses, forged tags, overlong lines, NUL and 8-bit bytes, bare line feeds and cut-off DATA.
// Every reply must be a well-formed SMTP reply, the receiver must keep serving, nothing may be stored
// but what a real report addressed to fbl@ left, and no message may gain an event.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InboundReceiver } from '../src/inbound/receiver.js';
import { databaseKinds } from './helpers/databases.js';
import { rng } from './helpers/fuzz.js';
import { messageRow } from './helpers/message-row.js';
import { createTenant, startTestEnv, type TestEnv } from './helpers/services.js';
import { smtpSend } from './helpers/smtp-client.js';

const sqlite = databaseKinds.find((k) => k.name === 'sqlite')!;
const RETURN_PATH = 'send.acme.example';
const SEED = 20261123;

/**
 * One raw session: writes the lines after the greeting (or, `early`, before it, as spam bots do),
 * reads until the server closes or goes quiet; returns its replies.
 */
function session(port: number, chunks: Buffer[], early: boolean): Promise<string[]> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    let timer: NodeJS.Timeout;
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(received.split('\r\n').filter((l) => l !== ''));
    };
    const idle = () => {
      clearTimeout(timer);
      timer = setTimeout(done, 300);
    };
    const write = () => {
      for (const c of chunks) socket.write(c);
      idle();
    };
    socket.on('data', (d) => {
      if (received === '' && !early) write();
      received += d.toString('latin1');
      idle();
    });
    socket.on('error', done);
    socket.on('close', done);
    socket.once('connect', () => (early ? write() : idle()));
  });
}

describe('the inbound receiver under malformed SMTP', () => {
  let env: TestEnv;
  let receiver: InboundReceiver;
  let messageId: string;
  let verp: string;
  let accountId: string;

  beforeAll(async () => {
    env = await startTestEnv(sqlite, {
      env: {
        TXMAIL_INBOUND_HOST: '127.0.0.1',
        TXMAIL_INBOUND_MAX_SIZE: '64K',
        TXMAIL_INBOUND_CONNECTIONS_PER_MINUTE: '0',
      },
    });
    const tenant = await createTenant(env.services, { domain: 'acme.example' });
    const row = messageRow(tenant.accountId, { status: 'delivered', attempts: 1, next_attempt_at: null });
    await env.insertMessage(row);
    messageId = row.id;
    accountId = tenant.accountId;
    verp = env.services.verp.address(messageId, RETURN_PATH);
    receiver = await env.services.startInbound({ port: 0 });
  });
  afterAll(() => env?.close());

  it(`answers every session with well-formed replies and records nothing (seed ${SEED})`, async () => {
    const r = rng(SEED);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
    const bytes = (n: number) => Buffer.from(Array.from({ length: n }, () => Math.floor(r() * 256)));
    const forged = () => {
      // A valid tag with one character changed: the receiver must refuse it at RCPT.
      const at = verp.indexOf('@');
      const i = 2 + Math.floor(r() * (at - 2));
      const c = verp[i] === 'a' ? 'b' : 'a';
      return verp.slice(0, i) + c + verp.slice(i + 1);
    };
    const address = () =>
      pick([
        '',
        '<>',
        `<${forged()}>`,
        `<fbl@${RETURN_PATH}>`,
        `<postmaster@${RETURN_PATH}>`,
        '<a@b>',
        '<@relay:a@b>',
        `<${'x'.repeat(600)}@${RETURN_PATH}>`,
        '<"quoted local"@example.com>',
        '<a@[127.0.0.1]>',
        'no-brackets@example.com',
        '<a@b> SIZE=99999999999',
        '<a@b> BODY=8BITMIME SMTPUTF8',
        '<üñï@çødé.example>',
      ]);
    const line = (): Buffer =>
      pick<() => Buffer>([
        () => Buffer.from(`EHLO ${pick(['client.test', '', '[127.0.0.1]', 'x'.repeat(300)])}\r\n`),
        () => Buffer.from('HELO\r\n'),
        () => Buffer.from(`MAIL FROM:${address()}\r\n`),
        () => Buffer.from(`RCPT TO:${address()}\r\n`),
        () => Buffer.from(`RCPT TO:<${forged()}>\r\n`),
        () => Buffer.from('DATA\r\n'),
        () => Buffer.concat([bytes(Math.floor(r() * 400)), Buffer.from('\r\n.\r\n')]),
        () => Buffer.from('Subject: x\n\nbare line feeds\n.\n'),
        () =>
          Buffer.from(
            pick([
              'RSET',
              'NOOP',
              'VRFY root',
              'EXPN staff',
              'HELP',
              'TURN',
              'AUTH PLAIN AAAA',
              'STARTTLS',
              'BDAT 10 LAST',
            ]) + '\r\n',
          ),
        () => Buffer.from(`${'A'.repeat(5000 + Math.floor(r() * 20000))}\r\n`),
        () => Buffer.concat([Buffer.from('MAIL FROM:<a\u0000b@c>'), Buffer.from('\r\n')]),
        () => bytes(1 + Math.floor(r() * 200)),
        () => Buffer.from('\r\n'),
      ])();

    const replies: string[] = [];
    for (let s = 0; s < 60; s++) {
      const chunks = Array.from({ length: 1 + Math.floor(r() * 12) }, line);
      if (r() < 0.5) chunks.push(Buffer.from('QUIT\r\n'));
      replies.push(...(await session(receiver.port, chunks, r() < 0.2)));
    }
    expect(replies.length).toBeGreaterThan(200);
    for (const reply of replies) expect(reply).toMatch(/^[2-5]\d\d[ -]/);
    // No internal error answered, whatever arrived.
    expect(replies.filter((l) => /^4\d\d .*internal/i.test(l))).toEqual([]);

    // Still serving a well-formed report, and nothing before it touched the message.
    const report = 'Subject: hello\r\nFrom: someone@example.com\r\n\r\nnot a report\r\n';
    expect((await smtpSend(receiver.port, { from: '', to: [`fbl@${RETURN_PATH}`] }, report)).code).toBe(250);
    const events = await env.events(accountId, messageId);
    expect(events).toEqual([]);
    const message = (await env.message(accountId, messageId))!;
    expect(message.status).toBe('delivered');
  });
});
