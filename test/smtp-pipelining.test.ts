// SMTP PIPELINING (RFC 2920) on the delivery path (delivery/smtp-transport.ts over nodemailer's
// SMTPConnection): against a server that offers it, MAIL FROM, RCPT TO and DATA go out together and
// a message costs two round trips (the envelope with DATA, then the content); against one that does
// not, each command waits for its reply. What the server saw is the evidence: a server that offers
// PIPELINING here answers nothing of an envelope before its DATA has arrived, so a client that waited
// for the reply to MAIL FROM would never get one.
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { SmtpTransport } from '../src/delivery/smtp-transport.js';

interface Seen {
  /** Each command (verb and argument), with the number of reply batches the server had sent before it. */
  commands: { line: string; afterReplies: number }[];
  /** Writes of replies after the greeting and EHLO: one per round trip. */
  replyBatches: number;
  messages: number;
}

/** A one-session-at-a-time SMTP server; `pipelining`: offers PIPELINING and holds replies until DATA. */
async function server(pipelining: boolean) {
  const seen: Seen = { commands: [], replyBatches: 0, messages: 0 };
  const srv = net.createServer((socket) => {
    let buf = '';
    let inData = false;
    let held: string[] = [];
    let greeted = false;
    const send = (lines: string[]) => {
      if (greeted) seen.replyBatches++;
      socket.write(lines.join(''));
    };
    socket.write('220 pipes.example ESMTP\r\n');
    socket.on('data', (chunk) => {
      buf += chunk.toString('latin1');
      for (;;) {
        if (inData) {
          const end = buf.indexOf('\r\n.\r\n');
          if (end < 0) return;
          buf = buf.slice(end + 5);
          inData = false;
          seen.messages++;
          send(['250 2.0.0 queued\r\n']);
          continue;
        }
        const nl = buf.indexOf('\r\n');
        if (nl < 0) return;
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO') {
          send([`250-pipes.example\r\n`, ...(pipelining ? ['250-PIPELINING\r\n'] : []), '250 8BITMIME\r\n']);
          greeted = true;
          seen.replyBatches = 0;
          continue;
        }
        if (verb === 'QUIT') {
          socket.end('221 bye\r\n');
          return;
        }
        seen.commands.push({ line, afterReplies: seen.replyBatches });
        if (verb === 'MAIL' || verb === 'RCPT') {
          if (pipelining) held.push('250 2.1.0 ok\r\n');
          else send(['250 2.1.0 ok\r\n']);
        } else if (verb === 'DATA') {
          send([...held, '354 go ahead\r\n']);
          held = [];
          inData = true;
        } else send(['250 ok\r\n']);
      }
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  return { seen, port: (srv.address() as net.AddressInfo).port, close: () => srv.close() };
}

let transport: SmtpTransport | undefined;
let stop: (() => void) | undefined;
afterEach(async () => {
  await transport?.close();
  stop?.();
});

async function deliverThree(pipelining: boolean) {
  const s = await server(pipelining);
  stop = s.close;
  // A client that waited for a reply the server holds back fails within this, instead of hanging.
  transport = new SmtpTransport({ hostname: 'mta.txmail.test', socketTimeoutMs: 5000 });
  const target = { host: '127.0.0.1', address: '127.0.0.1', port: s.port, secure: false };
  for (const n of [1, 2, 3]) {
    const raw = Buffer.from(`Subject: ${n}\r\nFrom: a@acme.example\r\n\r\n.leading dot\r\nbody ${n}\r\n`);
    const result = await transport.deliver({ from: 'b@send.acme.example', to: `r${n}@dest.example`, raw }, [
      target,
    ]);
    expect(result).toMatchObject({ outcome: 'delivered', smtpCode: 250 });
  }
  return s.seen;
}

describe('SMTP PIPELINING', () => {
  it('sends the envelope and DATA together to a server that offers it: two round trips a message', async () => {
    const seen = await deliverThree(true);
    expect(seen.messages).toBe(3);
    // One connection for the three messages; per message MAIL, RCPT and DATA arrive before any reply
    // to them was written.
    expect(seen.commands.map((c) => c.line.slice(0, 4))).toEqual([
      ...['MAIL', 'RCPT', 'DATA'],
      ...['MAIL', 'RCPT', 'DATA'],
      ...['MAIL', 'RCPT', 'DATA'],
    ]);
    for (let m = 0; m < 3; m++) {
      const group = seen.commands.slice(m * 3, m * 3 + 3);
      expect(new Set(group.map((c) => c.afterReplies)).size).toBe(1);
    }
    expect(seen.commands.slice(0, 2).map((c) => c.line)).toEqual([
      'MAIL FROM:<b@send.acme.example>',
      'RCPT TO:<r1@dest.example>',
    ]);
    // The envelope's replies with 354 in one batch, then the reply to the content: 2 per message.
    expect(seen.replyBatches).toBe(6);
  });

  it('waits for each reply from a server that does not offer it', async () => {
    const seen = await deliverThree(false);
    expect(seen.messages).toBe(3);
    // Every command came after the reply to the one before it (after DATA: the 354, then the reply
    // to the content).
    seen.commands.forEach((c, i) => {
      const before = seen.commands[i - 1];
      if (before) expect(c.afterReplies).toBe(before.afterReplies + (before.line === 'DATA' ? 2 : 1));
    });
    expect(seen.replyBatches).toBe(12);
  });
});
