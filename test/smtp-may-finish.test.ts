// A message's data is finished only while the worker may (DeliveryJob.mayFinish, smtp-transport.ts
// guardedData): asked once the server has answered DATA, before the content and before its end. A
// refusal cuts the connection before the final dot, so the server keeps nothing; a fault probe's paused
// worker, resumed mid-transaction after another worker took its lease over, finished mail the other had
// delivered already.
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { SmtpTransport } from '../src/delivery/smtp-transport.js';

/** A plain SMTP server that counts whole messages and the bytes of content it was sent. */
async function server() {
  const seen = { messages: 0, contentBytes: 0, answeredData: false, connections: 0, datas: 0 };
  const srv = net.createServer((socket) => {
    seen.connections++;
    let buf = '';
    let inData = false;
    socket.write('220 finish.example ESMTP\r\n');
    socket.on('data', (chunk) => {
      buf += chunk.toString('latin1');
      for (;;) {
        if (inData) {
          const end = buf.indexOf('\r\n.\r\n');
          if (end < 0) {
            seen.contentBytes += buf.length;
            buf = '';
            return;
          }
          seen.contentBytes += end;
          buf = buf.slice(end + 5);
          inData = false;
          seen.messages++;
          socket.write('250 2.0.0 queued\r\n');
          continue;
        }
        const nl = buf.indexOf('\r\n');
        if (nl < 0) return;
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO') socket.write('250-finish.example\r\n250 8BITMIME\r\n');
        else if (verb === 'QUIT') return void socket.end('221 bye\r\n');
        else if (verb === 'DATA') {
          seen.answeredData = true;
          seen.datas++;
          socket.write('354 go ahead\r\n');
          inData = true;
        } else socket.write('250 ok\r\n');
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

describe("a message's data finished only while the worker may", () => {
  const raw = Buffer.from(
    `Subject: code\r\nFrom: a@acme.example\r\n\r\n${'your code is 123456\r\n'.repeat(50)}`,
  );

  /** Delivers one message, `answers` giving mayFinish's answers in turn; what the server saw, and when asked. */
  async function deliver(answers: boolean[]) {
    const s = await server();
    stop = s.close;
    transport = new SmtpTransport({ hostname: 'mta.txmail.test', socketTimeoutMs: 5000 });
    const asked: boolean[] = [];
    const result = await transport.deliver(
      {
        from: 'b@send.acme.example',
        to: 'r@dest.example',
        raw,
        mayFinish: () => {
          // Each question comes after the server's 354.
          asked.push(s.seen.answeredData);
          return answers[asked.length - 1] ?? true;
        },
      },
      [{ host: '127.0.0.1', address: '127.0.0.1', port: s.port, secure: false }],
    );
    return { result, seen: s.seen, asked };
  }

  it('sends the message while the answer is yes, asking after DATA was answered, before the content and before its end', async () => {
    const { result, seen, asked } = await deliver([true, true]);
    expect(result).toMatchObject({ outcome: 'delivered', smtpCode: 250 });
    expect(seen.messages).toBe(1);
    expect(asked).toEqual([true, true]);
  });

  it('sends no content when the answer is no before it, and the server keeps nothing', async () => {
    const { result, seen } = await deliver([false]);
    expect(result).toMatchObject({ outcome: 'deferred', category: 'network_error' });
    expect(result.reply).toContain('this process may have been counted dead');
    expect(seen.messages).toBe(0);
    expect(seen.contentBytes).toBe(0);
  });

  it('cuts the connection before the final dot when the answer turns to no after the content', async () => {
    const { result, seen } = await deliver([true, false]);
    expect(result).toMatchObject({ outcome: 'deferred', category: 'network_error' });
    expect(seen.messages).toBe(0);
  });

  it('neither tries a refused message again on a new connection nor lets a cut one spoil the next', async () => {
    const s = await server();
    stop = s.close;
    transport = new SmtpTransport({ hostname: 'mta.txmail.test', socketTimeoutMs: 5000 });
    const target = { host: '127.0.0.1', address: '127.0.0.1', port: s.port, secure: false };
    const send = (to: string, mayFinish: () => boolean) =>
      transport!.deliver({ from: 'b@send.acme.example', to, raw, mayFinish }, [target]);
    expect(await send('one@dest.example', () => true)).toMatchObject({ outcome: 'delivered' });
    // On the pooled connection: refused before its content, and not sent again on a fresh one.
    expect(await send('two@dest.example', () => false)).toMatchObject({ outcome: 'deferred' });
    expect(s.seen.datas).toBe(2);
    // The cut connection is not reused: the next message goes whole on a new one.
    expect(await send('three@dest.example', () => true)).toMatchObject({ outcome: 'delivered' });
    expect(s.seen.messages).toBe(2);
    expect(s.seen.connections).toBe(2);
  });
});
