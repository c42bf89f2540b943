// A message's data is finished only while the worker may (DeliveryJob.mayFinish, smtp-transport.ts
// guardedData): asked once the server has answered DATA, before the content and before its end. A
// refusal cuts the connection before the final dot, so the server keeps nothing; a fault probe's paused
// worker, resumed mid-transaction after another worker took its lease over, finished mail the other had
// delivered already.
import { afterEach, describe, expect, it } from 'vitest';
import { SmtpTransport } from '../src/delivery/smtp-transport.js';
import { ScriptedSmtpServer } from './helpers/scripted-smtp.js';

let transport: SmtpTransport | undefined;
let server: ScriptedSmtpServer | undefined;
afterEach(async () => {
  await transport?.close();
  await server?.stop();
});

describe("a message's data finished only while the worker may", () => {
  const raw = Buffer.from(
    `Subject: code\r\nFrom: a@acme.example\r\n\r\n${'your code is 123456\r\n'.repeat(50)}`,
  );

  const start = async () => {
    server = await new ScriptedSmtpServer().start();
    transport = new SmtpTransport({ hostname: 'mta.txmail.test', socketTimeoutMs: 5000 });
    const target = { host: '127.0.0.1', address: '127.0.0.1', port: server.port, secure: false };
    const send = (to: string, mayFinish: () => boolean) =>
      transport!.deliver({ from: 'b@send.acme.example', to, raw, mayFinish }, [target]);
    const whole = () => server!.sessions.reduce((n, s) => n + s.messages, 0);
    const content = () => server!.sessions.reduce((n, s) => n + s.contentBytes, 0);
    return { server, send, whole, content };
  };

  /** mayFinish answering `answers` in turn, noting whether the server had answered DATA at each question. */
  const answering = (s: ScriptedSmtpServer, answers: boolean[]) => {
    const asked: boolean[] = [];
    const mayFinish = () => {
      asked.push(s.dataAnswered > 0);
      return answers[asked.length - 1] ?? true;
    };
    return { asked, mayFinish };
  };

  it('sends the message while the answer is yes, asking after DATA was answered, before the content and before its end', async () => {
    const { server, send, whole } = await start();
    const { asked, mayFinish } = answering(server, [true, true]);
    expect(await send('r@dest.example', mayFinish)).toMatchObject({ outcome: 'delivered', smtpCode: 250 });
    expect(whole()).toBe(1);
    expect(asked).toEqual([true, true]);
  });

  it('sends no content when the answer is no before it, and the server keeps nothing', async () => {
    const { server, send, whole, content } = await start();
    const result = await send('r@dest.example', answering(server, [false]).mayFinish);
    expect(result).toMatchObject({ outcome: 'deferred', category: 'network_error' });
    expect(result.reply).toContain('this process may have been counted dead');
    expect(whole()).toBe(0);
    expect(content()).toBe(0);
  });

  it('cuts the connection before the final dot when the answer turns to no after the content', async () => {
    const { server, send, whole } = await start();
    const result = await send('r@dest.example', answering(server, [true, false]).mayFinish);
    expect(result).toMatchObject({ outcome: 'deferred', category: 'network_error' });
    expect(whole()).toBe(0);
  });

  it('neither tries a refused message again on a new connection nor lets a cut one spoil the next', async () => {
    const { server, send, whole } = await start();
    expect(await send('one@dest.example', () => true)).toMatchObject({ outcome: 'delivered' });
    // On the pooled connection: refused before its content, and not sent again on a fresh one.
    expect(await send('two@dest.example', () => false)).toMatchObject({ outcome: 'deferred' });
    expect(server.dataAnswered).toBe(2);
    // The cut connection is not reused: the next message goes whole on a new one.
    expect(await send('three@dest.example', () => true)).toMatchObject({ outcome: 'delivered' });
    expect(whole()).toBe(2);
    expect(server.sessions).toHaveLength(2);
  });
});
