// Hostile peers on the sending side: a receiving SMTP server writes the replies txmail classifies and
// keeps, a webhook endpoint writes the answer txmail keeps, and a customer writes the HTML txmail turns
// into a text alternative. Each is fed generated adversarial input up to 1 MiB (known-bad shapes first)
// and must cost time linear in it, compared with the same run's smaller inputs, never with a wall-clock
// constant; and what is kept must be storable on both databases (PostgreSQL refuses NUL in text).
import { generateKeyPairSync } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMessage } from '../src/delivery/build-message.js';
import { classifyReply } from '../src/delivery/classify-reply.js';
import { MAX_TEXT_SOURCE_LENGTH, plainText } from '../src/delivery/compose.js';
import { MAX_REPLY_TEXT, SmtpTransport } from '../src/delivery/smtp-transport.js';
import { peerText } from '../src/peer-text.js';
import { postWebhook, RESPONSE_EXCERPT_BYTES } from '../src/webhooks/post-webhook.js';
import { databaseKinds } from './helpers/databases.js';
import { TestDnsServer } from './helpers/dns-server.js';
import { assertLinearForShapes, HTML_SHAPES } from './helpers/hostile-shapes.js';
import { fill, measureGrowth } from './helpers/linear-time.js';
import { ScriptedSmtpServer } from './helpers/scripted-smtp.js';
import { createTenant, startTestEnv, validSend, type Tenant, type TestEnv } from './helpers/services.js';
import { until } from './helpers/wait.js';
import { WebhookReceiver } from './helpers/webhook-receiver.js';

/** A control character other than tab and line feed: what must never be kept. */
const CONTROL = /(?![\t\n])\p{Cc}/u;

describe('the parsers of what peers write, on hostile input', () => {
  it.each([
    ['alone', 550, (s: string) => s],
    ['after a permanent code', 550, (s: string) => `550 5.1.1 ${s}`],
    ['as a continuation line', 451, (s: string) => `451-${s}`],
    ['after a throttling code', 421, (s: string) => `421-4.7.0 ${s} try again later`],
  ])('classify an SMTP reply in linear time with the hostile text %s', async (_where, code, wrap) => {
    await assertLinearForShapes((s) => classifyReply(code, s), wrap);
  });

  it("keep a peer's text in linear time, capped, without control characters", async () => {
    await assertLinearForShapes((s) => {
      const kept = peerText(s, MAX_REPLY_TEXT);
      expect(kept.length).toBeLessThanOrEqual(MAX_REPLY_TEXT + 1);
      expect(kept).not.toMatch(CONTROL);
    });
  });

  // HTML builds a tree, and the step where it outgrows the young generation of the heap costs up to
  // about 7 times more per byte, once. A quadratic conversion grows 4 times per step and keeps growing
  // (16 times over two steps), so trees are allowed a growth of 10 instead of 5.
  it.each([
    ['alone', (s: string) => s, HTML_SHAPES],
    ['inside a table cell', (s: string) => `<table><tr><td>${s}</td></tr></table>`, HTML_SHAPES.slice(0, 3)],
  ])(
    'make the text alternative of hostile HTML %s in linear time, at any depth',
    async (_where, wrap, examples) => {
      await assertLinearForShapes((s) => plainText(s), wrap, {
        examples,
        numRuns: 1,
        repeats: 2,
        maxGrowth: 10,
      });
    },
  );

  it('converts HTML to text in linear time even past the cap, however many pieces make one word', async () => {
    // html-to-text's own folding copied a word again for each piece: 17 s for a megabyte of <li>x.
    await assertLinearForShapes((s) => plainText(s, Infinity), undefined, {
      examples: [HTML_SHAPES[8]!, HTML_SHAPES[9]!, HTML_SHAPES[0]!],
      numRuns: 0,
      sizes: [16 << 10, 64 << 10, 256 << 10, 1 << 20],
      repeats: 2,
      maxGrowth: 10,
    });
  });

  it('makes the text alternative in linear time and size when many quote markers lead many words', async () => {
    // Each folded line once carried the whole lead: n markers before n words made n² characters of text.
    const html = (size: number) => `<p>${'&gt; '.repeat(size / 10)}${'a '.repeat(size / 4)}</p>`;
    await measureGrowth((s: string) => plainText(s, Infinity), html, { repeats: 2 });
    const source = html(1 << 20);
    expect(plainText(source, Infinity).length).toBeLessThan(3 * source.length);
  });

  it('makes the text alternative of HTML nested far deeper than any template without overflowing the stack', () => {
    for (const unit of ['<div>', '<ul><li>x', '<table><tr><td>', '<blockquote>']) {
      expect(plainText(`${unit.repeat(50_000)}deep`)).toContain('…');
    }
  });

  it('makes the text alternative from the first 256 KiB of the HTML and says where the rest is', () => {
    const html = `<p>${'word '.repeat(MAX_TEXT_SOURCE_LENGTH / 5)}</p><p>unreached</p>`;
    const text = plainText(html);
    expect(text).not.toContain('unreached');
    expect(text).toMatch(/\[…the rest of this message is in its HTML version\]$/);
  });

  it('composes and signs a message with hostile HTML in time linear in its length', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const build = (html: string) =>
      buildMessage({
        message: {
          id: '0190a0b0-0000-7000-8000-000000000001',
          fromName: 'Acme',
          fromEmail: 'noreply@acme.example',
          toName: 'Jane',
          toEmail: 'jane@recipient.example',
          subject: 'Hostile',
          html,
          createdAt: Date.UTC(2026, 10, 22),
        },
        hostname: 'mta.txmail.test',
        key: { domain: 'acme.example', selector: 'txm202611', privateKey },
      });
    await assertLinearForShapes(build, undefined, {
      examples: [HTML_SHAPES[0]!, HTML_SHAPES[8]!, { prefix: '', unit: '\u2028', suffix: '' }],
      numRuns: 0,
      repeats: 2,
      maxGrowth: 10,
    });
  });
});

describe('an SMTP server that answers with hostile replies', () => {
  const server = new ScriptedSmtpServer();
  const transport = new SmtpTransport({
    hostname: 'mta.txmail.test',
    connectTimeoutMs: 5000,
    socketTimeoutMs: 5000,
  });
  beforeAll(() => server.start());
  afterAll(async () => {
    await transport.close();
    await server.stop();
  });

  const deliver = () =>
    transport.deliver(
      { from: 'b@acme.example', to: 'jane@recipient.example', raw: Buffer.from('Subject: x\r\n\r\nx\r\n') },
      [
        // One message per connection: every run pays for one connection, whatever the reply did to it.
        {
          host: 'mx.recipient.example',
          address: '127.0.0.1',
          port: server.port,
          secure: false,
          maxMessages: 1,
        },
      ],
    );

  it.each([
    ['one line', (s: string) => `550 5.1.1 ${s.replace(/\n/g, ' ')}\r\n`],
    [
      'many continuation lines',
      (s: string) =>
        `${(s.replace(/\n/g, ' ').match(/[^]{1,400}/g) ?? []).map((l) => `550-${l}\r\n`).join('')}550 5.1.1 end\r\n`,
    ],
  ])(
    'reads, classifies and keeps a reply of %s in time linear in its size, up to 1 MiB',
    async (_shape, wrap) => {
      await assertLinearForShapes(
        async (reply) => {
          server.reply = (step) => (step === 'data-end' ? Buffer.from(reply, 'utf8') : undefined);
          const result = await deliver();
          // A reply past 64 KiB costs the connection (deferred); one below it is the server's refusal.
          expect(result.outcome === 'bounced' || result.enhanced === '4.4.2', result.reply).toBe(true);
          expect(result.reply.length).toBeLessThanOrEqual(MAX_REPLY_TEXT + 1);
          expect(result.reply).not.toMatch(CONTROL);
        },
        wrap,
        { numRuns: 1, repeats: 2 },
      );
    },
  );
});

describe('a webhook endpoint that answers with hostile responses', () => {
  let answer: { status: number; headers: Record<string, string>; body: Buffer } = {
    status: 200,
    headers: {},
    body: Buffer.alloc(0),
  };
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(answer.status, answer.headers);
      res.end(answer.body);
    });
  });
  let url: URL;
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`);
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const push = () =>
    postWebhook({ url, address: '127.0.0.1', family: 4 }, {}, '{"type":"webhook.test"}', 5000);

  it('reads the first KiB of a hostile body of any size in time linear in it, keeping no control characters', async () => {
    await assertLinearForShapes(
      async (body) => {
        answer = { status: 500, headers: {}, body: Buffer.from(body, 'utf8') };
        const result = await push();
        expect(result.statusCode).toBe(500);
        expect(result.response.length).toBeLessThanOrEqual(RESPONSE_EXCERPT_BYTES + 1);
        expect(result.response).not.toMatch(CONTROL);
      },
      undefined,
      { numRuns: 1, repeats: 2 },
    );
  });

  it('reads a hostile Retry-After as long as the HTTP parser allows in time linear in it', async () => {
    // Node refuses a response head over 16 KiB, so that is the most an endpoint can send.
    for (const unit of ['9', ' ', 'Mon, ', '\t1']) {
      await measureGrowth(
        async (value: string) => {
          answer = { status: 503, headers: { 'retry-after': value }, body: Buffer.from('busy') };
          const result = await push();
          expect(result.statusCode).toBe(503);
        },
        (size) => fill({ prefix: '1', unit, suffix: '0' }, size),
        { sizes: [256, 1 << 10, 4 << 10, 12 << 10] },
      );
    }
  });
});

describe.each(databaseKinds)('what hostile peers write, kept on $name', (kind) => {
  let env: TestEnv;
  let tenant: Tenant;
  const dns = new TestDnsServer();
  const mx = new ScriptedSmtpServer();
  const receiver = new WebhookReceiver();

  beforeAll(async () => {
    await dns.start();
    await mx.start();
    await receiver.start();
    dns.add('dest.example', 'MX', { preference: 10, exchange: 'mx.dest.example' });
    dns.add('mx.dest.example', 'A', '127.0.0.1');
    env = await startTestEnv(kind, {
      env: {
        TXMAIL_DNS_SERVERS: dns.address,
        TXMAIL_MX_PORT: String(mx.port),
        TXMAIL_ALLOW_PRIVATE_NETWORKS: 'true',
        TXMAIL_TEST_DOMAIN: 'test.txmail.example',
      },
    });
    tenant = await createTenant(env.services, { plan: 'pro', domain: 'acme.example' });
    await env.services.startWorker({ pollMs: 10 * 60_000 });
  });
  afterAll(async () => {
    await env.close();
    await receiver.stop();
    await mx.stop();
    await dns.stop();
  });

  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    env.app.inject({ method, url, headers: { 'x-api-key': tenant.apiKey }, ...(payload ? { payload } : {}) });
  interface Detail {
    status: string;
    delivery_attempts: { outcome: string; enhanced_code: string; reply: string }[];
  }
  const sent = async (to: string) => {
    const res = await call('POST', '/api/email/send', { ...validSend, to });
    expect(res.statusCode, res.body).toBe(200);
    const id = (res.json() as { id: string }).id;
    return until(`${to} to be refused and the attempt recorded`, async () => {
      const d = (await call('GET', `/api/emails/${id}`)).json() as Detail;
      return d.status === 'bounced' ? d : undefined;
    });
  };

  it('records a refusal whose reply holds NUL bytes and escape codes, with them replaced', async () => {
    mx.reply = (step, rcpt) =>
      step === 'rcpt' && rcpt.startsWith('nul')
        ? Buffer.from('550 5.1.1 no\0such\x1b[31m user\r\n', 'latin1')
        : undefined;
    const d = await sent('nul@dest.example');
    expect(d.delivery_attempts[0]).toMatchObject({
      outcome: 'bounced',
      enhanced_code: '5.1.1',
      reply: '550 5.1.1 no\ufffdsuch\ufffd[31m user',
    });
  });

  it('records a refusal of 60 KiB with its first 2,048 characters', async () => {
    const words = 'mailbox unavailable '.repeat(3000);
    mx.reply = (step, rcpt) =>
      step === 'data-end' && rcpt.startsWith('long') ? `550 5.2.1 ${words}\r\n` : undefined;
    const d = await sent('long@dest.example');
    expect(d.delivery_attempts[0]!.enhanced_code).toBe('5.2.1');
    expect(d.delivery_attempts[0]!.reply).toBe(`${`550 5.2.1 ${words}`.slice(0, MAX_REPLY_TEXT)}…`);
  });

  it('records a test push whose endpoint answers NUL bytes and escape codes, with them replaced', async () => {
    const created = await call('POST', '/api/webhooks', { url: receiver.url('/nul') });
    expect(created.statusCode, created.body).toBe(201);
    receiver.respond = () => ({ status: 500, body: 'oops\0\x1b[0m' });
    const res = await call('POST', `/api/webhooks/${(created.json() as { id: string }).id}/test`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ success: false, status_code: 500, response: 'oops\ufffd\ufffd[0m' });
  });
});
