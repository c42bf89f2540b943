// Refusals of the session rather than of the message, against a scripted SMTP server on loopback: a
// 5xx greeting passes to the destination's next host, a refusal at MAIL FROM is never the recipient's
// (nothing to suppress), a relay that refuses txmail's login holds the message (retried, no bounce),
// and a relay that offers no STARTTLS is never sent the credentials.
import { afterEach, describe, expect, it } from 'vitest';
import { SmtpTransport } from '../src/delivery/smtp-transport.js';
import type { DeliveryTarget } from '../src/delivery/transport.js';
import { ScriptedSmtpServer } from './helpers/scripted-smtp.js';
import { SmtpSink } from './helpers/smtp-sink.js';
import { until } from './helpers/wait.js';

const raw = Buffer.from('Subject: code\r\nFrom: a@acme.example\r\n\r\nyour code is 123456\r\n');
let transport: SmtpTransport | undefined;
const servers: ScriptedSmtpServer[] = [];
afterEach(async () => {
  await transport?.close();
  await Promise.all(servers.splice(0).map((s) => s.stop()));
});

const server = async (setup: (s: ScriptedSmtpServer) => void = () => undefined) => {
  const s = new ScriptedSmtpServer();
  setup(s);
  servers.push(await s.start());
  return s;
};
const target = (s: ScriptedSmtpServer, more: Partial<DeliveryTarget> = {}): DeliveryTarget => ({
  host: '127.0.0.1',
  address: '127.0.0.1',
  port: s.port,
  secure: false,
  ...more,
});
const deliver = (targets: DeliveryTarget[]) => {
  transport = new SmtpTransport({ hostname: 'mta.txmail.test', socketTimeoutMs: 5000 });
  return transport.deliver({ from: 'b@send.acme.example', to: 'jane@dest.example', raw }, targets);
};
const messages = (s: ScriptedSmtpServer) => s.sessions.reduce((n, x) => n + x.messages, 0);

describe('refusals of the session', () => {
  it('passes a 5xx greeting by to the next host, which takes the message', async () => {
    const refusing = await server((s) => {
      s.reply = (step) => (step === 'greeting' ? '554 5.7.1 No SMTP service here\r\n' : undefined);
    });
    const backup = await server();
    const result = await deliver([target(refusing), target(backup)]);
    expect(result).toMatchObject({ outcome: 'delivered' });
    expect(messages(backup)).toBe(1);
  });

  it('defers a 5xx greeting of the only host: the connection was refused, not the recipient', async () => {
    const refusing = await server((s) => {
      s.reply = (step) => (step === 'greeting' ? '554 5.7.1 No SMTP service here\r\n' : undefined);
    });
    const result = await deliver([target(refusing)]);
    expect(result).toMatchObject({ outcome: 'deferred', smtpCode: 554 });
    expect(result.reason).toContain('greeting');
  });

  it.each([
    ['550 5.1.1 Mailbox unavailable'],
    ['550 No such user here'],
    ['550 5.1.0 <b@send.acme.example>: Sender address rejected: User unknown in local recipient table'],
  ])('never reads a refusal at MAIL FROM as the recipient’s: %s', async (reply) => {
    const refusing = await server((s) => {
      s.reply = (step) => (step === 'mail' ? `${reply}\r\n` : undefined);
    });
    const result = await deliver([target(refusing)]);
    expect(result.outcome).toBe('bounced');
    expect(result.category).not.toBe('unknown_recipient');
    expect(result.category).toBe('policy_rejected');
  });

  it.each([['2zz ok'], ['2'], ['2.0.0 queued']])(
    'retries a message whose final "." was answered without a reply code: %j',
    async (reply) => {
      const odd = await server((s) => {
        s.reply = (step) => (step === 'data-end' ? `${reply}\r\n` : undefined);
      });
      const result = await deliver([target(odd)]);
      expect(result).toMatchObject({ outcome: 'deferred', smtpCode: null, enhanced: '4.5.0' });
      expect(result.reply).toBe(reply);
    },
  );

  it('takes a code run into its text for the code it is', async () => {
    const sloppy = await server((s) => {
      s.reply = (step) => (step === 'data-end' ? '250ok queued as 12345\r\n' : undefined);
    });
    expect(await deliver([target(sloppy)])).toMatchObject({ outcome: 'delivered', smtpCode: 250 });
  });

  it('holds the message when the relay refuses the login, and says which setting to mend', async () => {
    // smtp-server with STARTTLS (its own certificate) and a login that this password does not pass.
    const relay = await new SmtpSink({ auth: { user: 'relayuser', pass: 'the-right-one' } }).start();
    try {
      const result = await deliver([
        {
          host: '127.0.0.1',
          address: '127.0.0.1',
          port: relay.port,
          secure: false,
          auth: { user: 'relayuser', pass: 'rotated' },
        },
      ]);
      expect(result).toMatchObject({ outcome: 'deferred', category: 'system_error', smtpCode: 535 });
      expect(result.reason).toContain('TXMAIL_RELAY_URL');
      expect(relay.received).toHaveLength(0);
    } finally {
      await relay.stop();
    }
  });

  it('never sends a relay its credentials in cleartext when it offers no STARTTLS', async () => {
    const relay = await server((s) => {
      s.extensions = ['AUTH PLAIN LOGIN'];
    });
    const result = await deliver([target(relay, { auth: { user: 'relayuser', pass: 'sekret' } })]);
    expect(result).toMatchObject({ outcome: 'deferred' });
    expect(result.reply).toContain('credentials are never sent in cleartext');
    expect(relay.logins).toEqual([]);
    expect(messages(relay)).toBe(0);
  });
});

describe('a server that stops reading the content', () => {
  it("cuts the attempt at the message's deadline, short of the final dot, rather than waiting for its reply", async () => {
    const stalled = await server((s) => {
      s.readsContent = false;
    });
    // More than the system's socket buffers on loopback take, so that the end of it cannot leave.
    const big = Buffer.concat([raw, Buffer.alloc(48 * 1024 * 1024, 'a\r\n')]);
    transport = new SmtpTransport({
      hostname: 'mta.txmail.test',
      socketTimeoutMs: 60_000,
      finalReplyTimeoutMs: 30_000,
    });
    const result = await transport.deliver(
      { from: 'b@send.acme.example', to: 'jane@dest.example', raw: big, until: Date.now() + 2000 },
      [target(stalled)],
    );
    expect(result.outcome).toBe('deferred');
    expect(result.reply).toContain("the message's deadline came before the end of its data");
    expect(messages(stalled)).toBe(0);
  });
});

describe('a pooled connection the server left silent', () => {
  it('gives it up at its first quiet reply and sends the message on a fresh one', async () => {
    const quiet = await server((s) => {
      s.silentAfter = 1;
    });
    // The inactivity limit longer than the test may run: only the quiet check can end the wait.
    transport = new SmtpTransport({
      hostname: 'mta.txmail.test',
      socketTimeoutMs: 600_000,
      reusedReplyTimeoutMs: 300,
    });
    const send = (to: string) =>
      transport!.deliver({ from: 'b@send.acme.example', to, raw }, [target(quiet)]);
    expect(await send('one@dest.example')).toMatchObject({ outcome: 'delivered' });
    // The pooled session now answers nothing: the second message goes on a second session.
    expect(await send('two@dest.example')).toMatchObject({ outcome: 'delivered' });
    expect(quiet.sessions).toHaveLength(2);
    expect(messages(quiet)).toBe(2);
  });
});

describe('the wait for the reply to the final dot', () => {
  it('holds over STARTTLS for a message larger than a socket buffer, past the inactivity limit', async () => {
    // smtp-server with STARTTLS (its own certificate), holding its reply to "." for hold@ addresses.
    const sink = await new SmtpSink().start();
    try {
      transport = new SmtpTransport({
        hostname: 'mta.txmail.test',
        socketTimeoutMs: 300,
        finalReplyTimeoutMs: 20_000,
      });
      const big = Buffer.concat([raw, Buffer.alloc(200 * 1024, 'a\r\n')]);
      const result = transport.deliver({ from: 'b@send.acme.example', to: 'hold1@dest.example', raw: big }, [
        { host: '127.0.0.1', address: '127.0.0.1', port: sink.port, secure: false },
      ]);
      await until('the data to have come', async () => sink.held('hold1@dest.example'));
      // Longer than the inactivity limit: only the final reply's own wait keeps the session.
      await new Promise((r) => setTimeout(r, 1200));
      sink.release('hold1@dest.example');
      expect(await result).toMatchObject({ outcome: 'delivered', tls: true });
    } finally {
      await sink.stop();
    }
  });
});
