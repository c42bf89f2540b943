// Bounces and complaints end to end: a message is delivered through a real SMTP relay, then a real DSN
// or ARF report is sent over SMTP to the receiver, and the message's events, status and the account's
// suppression list change (or, for what is not ours, nothing does).
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOUNCE_CATEGORIES } from '../src/bounce/categories.js';
import { parseConfig } from '../src/config.js';
import { createServices, type Services } from '../src/services.js';
import type { InboundReceiver } from '../src/inbound/receiver.js';
import { databaseKinds } from './helpers/databases.js';
import { fixture } from './helpers/inbound-fixtures.js';
import { freePort, startServer, type RunningServer } from './helpers/process.js';
import { smtpSend } from './helpers/smtp-client.js';
import { SmtpSink } from './helpers/smtp-sink.js';
import { until } from './helpers/wait.js';
import { WebhookReceiver } from './helpers/webhook-receiver.js';
import { Webhook } from 'standardwebhooks';
import { createTenant, startTestEnv, validSend, type Tenant, type TestEnv } from './helpers/services.js';
import { messageRow } from './helpers/message-row.js';
import { testFacade } from './helpers/test-env.js';
import { WEBHOOK_EVENT_TYPES } from '../src/db/schema.js';
import { expectCleanStop, expectHealthOnly, metricsWith } from './helpers/health-listener.js';

interface Detail {
  status: string;
  next_attempt_at: string | null;
  events: { type: string; data: Record<string, unknown> }[];
  delivery_attempts: { outcome: string; smtp_code: number | null }[];
}

const RETURN_PATH = 'send.acme.example';

describe.each(databaseKinds)('bounces and complaints on $name', (kind) => {
  let env: TestEnv;
  let tenant: Tenant;
  let other: Tenant;
  let receiver: InboundReceiver;
  const sink = new SmtpSink();
  let n = 0;

  beforeAll(async () => {
    await sink.start();
    env = await startTestEnv(kind, {
      env: {
        TXMAIL_RELAY_URL: `smtp://127.0.0.1:${sink.port}`,
        TXMAIL_ALLOW_PRIVATE_NETWORKS: 'true',
        TXMAIL_TEST_DOMAIN: 'test.txmail.example',
        TXMAIL_INBOUND_HOST: '127.0.0.1',
        TXMAIL_INBOUND_MAX_SIZE: '64K',
        TXMAIL_INBOUND_CONNECTIONS_PER_MINUTE: '0',
      },
    });
    tenant = await createTenant(env.services, { domain: 'acme.example' });
    other = await createTenant(env.services, { domain: 'other.example' });
    await env.services.startWorker({ pollMs: 200 });
    receiver = await env.services.startInbound({ port: 0 });
  });
  afterAll(async () => {
    await env?.close();
    await sink.stop();
  });

  const api = (t: Tenant, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    env.app.inject({ method, url, headers: { 'x-api-key': t.apiKey }, ...(payload ? { payload } : {}) });
  const detail = async (id: string, t = tenant) =>
    (await api(t, 'GET', `/api/emails/${id}`)).json() as Detail;

  /** Sends a message to a fresh address and waits for the relay to take it; returns what a bounce needs. */
  const delivered = async (
    t = tenant,
    from = validSend.from,
    to = `user${++n}-${Date.now()}@recipient.example`,
  ) => {
    const res = await api(t, 'POST', '/api/email/send', { ...validSend, from, to });
    expect(res.statusCode, res.body).toBe(200);
    const id = (res.json() as { id: string }).id;
    const hex = id.replaceAll('-', '');
    const received = await until(`delivery of ${id}`, async () =>
      sink.for(to).find((r) => r.from.includes(hex)),
    );
    await until(`${id} delivered`, async () =>
      (await detail(id, t)).status === 'delivered' ? true : undefined,
    );
    const raw = received.raw.toString('latin1');
    // The header block as delivered: our DKIM signature on it, no Return-Path yet.
    const headers = raw.slice(0, raw.indexOf('\r\n\r\n'));
    return { id, to, verp: received.from, messageId: `${id}@mta.txmail.test`, headers };
  };
  /** A feedback report of `type` to fbl@ whose original is `m`'s header block as delivered (signed). */
  const signedFeedback = (m: { headers: string }, type: string) =>
    Buffer.from(
      `From: feedback@isp.example\r\nTo: fbl@${RETURN_PATH}\r\nSubject: Email Feedback Report\r\n` +
        `MIME-Version: 1.0\r\nContent-Type: multipart/report; report-type=feedback-report; boundary="fb"\r\n\r\n` +
        `--fb\r\nContent-Type: text/plain\r\n\r\nA report about your message.\r\n\r\n` +
        `--fb\r\nContent-Type: message/feedback-report\r\n\r\nFeedback-Type: ${type}\r\nUser-Agent: ISP-FBL/2.1\r\nVersion: 1\r\n\r\n` +
        `--fb\r\nContent-Type: text/rfc822-headers\r\n\r\n${m.headers}\r\n\r\n--fb--\r\n`,
    );
  const deliverReport = async (
    name: string,
    m: { verp: string; to: string; messageId: string },
    rcpt = m.verp,
    from = '',
  ) =>
    smtpSend(
      receiver.port,
      { from, to: [rcpt] },
      fixture(name, { verp: m.verp, to: m.to, messageId: m.messageId, returnPathDomain: RETURN_PATH }),
    );
  // The detail is one snapshot (messages-repo.ts detail()): the read that sees the event sees the
  // status the same commit wrote.
  const eventually = async (id: string, type: string, t = tenant) =>
    until(`${type} on ${id}`, async () => {
      const d = await detail(id, t);
      return d.events.some((e) => e.type === type) ? d : undefined;
    });
  const suppressed = async (address: string, t = tenant) =>
    (
      (await api(t, 'GET', `/api/suppressions?address=${encodeURIComponent(address)}`)).json() as {
        data: object[];
      }
    ).data;
  /** Waits until the receiver has processed everything it stored. */
  const quiet = () =>
    until('inbound processing', async () => {
      const pending = await env.inboundWithStatus('pending');
      return pending.length > 0 ? undefined : true;
    });

  it('sends with a VERP return path on the return-path domain', async () => {
    const m = await delivered();
    expect(m.verp).toMatch(/^b\+[0-9a-f]{48}@send\.acme\.example$/);
  });

  it('records a hard bounce, suppresses the address, and refuses the next send with 422', async () => {
    const m = await delivered();
    const answer = await deliverReport('postfix-user-unknown.eml', m);
    expect(answer, answer.response).toMatchObject({ ok: true, code: 250 });
    const d = await eventually(m.id, 'email.bounced');
    expect(d.status).toBe('bounced');
    expect(d.events.find((e) => e.type === 'email.bounced')!.data).toMatchObject({
      bounce_type: 'permanent',
      enhanced_code: '5.1.1',
      reason: 'the mailbox does not exist (5.1.1)',
      remote_mta: 'mx.recipient.example',
      recipient: m.to,
      format: 'dsn',
    });
    expect(await suppressed(m.to)).toEqual([
      expect.objectContaining({
        address: m.to,
        origin: 'bounce',
        enhanced_code: '5.1.1',
        source_email_id: m.id,
      }),
    ]);

    const again = await api(tenant, 'POST', '/api/email/send', { ...validSend, to: m.to });
    expect(again.statusCode).toBe(422);
    expect(again.headers['content-type']).toMatch(/^text\/plain/);
    expect(again.body).toMatch(
      new RegExp(
        `^recipient_suppressed: ${m.to.replace('.', '\\.')} is suppressed since \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z: the mailbox does not exist \\(5\\.1\\.1\\)$`,
      ),
    );
    const test = await api(tenant, 'POST', '/api/email/send/test', { ...validSend, to: m.to });
    expect(test.statusCode).toBe(200);
    expect((test.json() as { warnings: string[] }).warnings).toEqual([
      expect.stringMatching(/^recipient_suppressed: /),
    ]);
    // Suppression is per account: another account may still send to the address.
    const elsewhere = await api(other, 'POST', '/api/email/send', {
      ...validSend,
      from: 'noreply@other.example',
      to: m.to,
    });
    expect(elsewhere.statusCode).toBe(200);
  });

  it("keeps a bounce that arrives before the worker has recorded the relay's 250", async () => {
    // The relay holds its reply to "." while its bounce comes back: the receiver records the bounce
    // while the worker still holds the message's lease, then the worker records "delivered".
    const to = `hold-${++n}@recipient.example`;
    const res = await api(tenant, 'POST', '/api/email/send', { ...validSend, to });
    expect(res.statusCode, res.body).toBe(200);
    const id = (res.json() as { id: string }).id;
    const held = await until('the relay to hold its reply', async () => sink.held(to));
    const m = { verp: held.from, to, messageId: `${id}@mta.txmail.test` };
    expect((await deliverReport('postfix-user-unknown.eml', m)).code).toBe(250);
    expect((await eventually(id, 'email.bounced')).status).toBe('bounced');
    const leased = await env.message(tenant.accountId, id);
    expect(leased!.lease_owner).not.toBeNull();

    sink.release(to);
    const d = await until('the attempt recorded', async () => {
      const r = await detail(id);
      return r.delivery_attempts.length > 0 ? r : undefined;
    });
    expect(d.status).toBe('bounced');
    expect(d.next_attempt_at).toBeNull();
    expect(d.events.map((e) => e.type)).toEqual(['email.bounced', 'email.queued']);
    expect(d.delivery_attempts).toEqual([expect.objectContaining({ outcome: 'delivered', smtp_code: 250 })]);
    expect((await env.message(tenant.accountId, id))!.lease_owner).toBeNull();
  });

  it.each([
    ['gmail-user-unknown.eml', '5.1.1', 'unknown_recipient', true],
    ['microsoft-recipient-not-found.eml', '5.1.10', 'unknown_recipient', true],
    ['exim-failed.eml', '5.1.1', 'unknown_recipient', true],
    ['qmail-failed.eml', '5.1.1', 'unknown_recipient', true],
    ['exchange-failed.eml', '5.1.1', 'unknown_recipient', true],
    ['yahoo-failed.eml', '5.1.1', 'unknown_recipient', true],
    ['dsn-mailbox-full.eml', '5.2.2', 'mailbox_full', false],
    ['dsn-policy-block.eml', '5.7.1', 'content_rejected', false],
    // Action: failed after "426 connection timed out": the remote gave up.
    ['rfc3464-simple.eml', '4.4.1', 'expired', false],
  ])('records %s as a bounce with %s, %s (suppressed: %s)', async (name, code, category, suppress) => {
    const m = await delivered();
    expect((await deliverReport(name, m)).code).toBe(250);
    const d = await eventually(m.id, 'email.bounced');
    expect(d.status).toBe('bounced');
    expect(d.events.find((e) => e.type === 'email.bounced')!.data).toMatchObject({
      enhanced_code: code,
      category,
    });
    expect((await suppressed(m.to)).length).toBe(suppress ? 1 : 0);
  });

  it.each(['rfc3464-delayed.eml', 'postfix-delayed.eml', 'exim-delayed.eml'])(
    'records %s as a delay, leaving the status alone',
    async (name) => {
      const m = await delivered();
      expect((await deliverReport(name, m)).code).toBe(250);
      const d = await eventually(m.id, 'email.delivery_delayed');
      expect(d.status).toBe('delivered');
      // Every delay carries its category (the log's filter, webhooks).
      const data = d.events.find((e) => e.type === 'email.delivery_delayed')!.data;
      expect(BOUNCE_CATEGORIES).toContain(data.category);
      expect(d.events.filter((e) => e.type === 'email.bounced')).toEqual([]);
      expect(await suppressed(m.to)).toEqual([]);
    },
  );

  it('records a report sent again byte for byte once, and a copy to another address as its own', async () => {
    const m = await delivered();
    expect((await deliverReport('rfc3464-delayed.eml', m)).code).toBe(250);
    await eventually(m.id, 'email.delivery_delayed');
    await quiet();
    // The relay lost our 250 and sent it again: the same envelope and bytes.
    expect((await deliverReport('rfc3464-delayed.eml', m)).code).toBe(250);
    await quiet();
    const copies = await env.services.db.kysely
      .selectFrom('inbound_messages')
      .select(['outcome'])
      .where('rcpt_to', '=', JSON.stringify([m.verp.toLowerCase()]))
      .orderBy('received_at')
      .execute();
    expect(copies.map((c) => (JSON.parse(c.outcome!) as { kind: string }).kind)).toEqual([
      'bounce',
      'duplicate',
    ]);
    const delays = (await detail(m.id)).events.filter((e) => e.type === 'email.delivery_delayed');
    expect(delays).toHaveLength(1);
    // The same bytes from another envelope sender are a message of their own.
    expect((await deliverReport('rfc3464-delayed.eml', m, m.verp, 'relay@other.example')).code).toBe(250);
    await until('a second delay', async () => {
      const d = await detail(m.id);
      return d.events.filter((e) => e.type === 'email.delivery_delayed').length === 2 ? true : undefined;
    });
  });

  it('suppresses a disabled mailbox (5.2.1) only when it bounces again', async () => {
    const to = `disabled-${Date.now()}@recipient.example`;
    const disabled = (m: { verp: string; to: string; messageId: string }) =>
      smtpSend(
        receiver.port,
        { from: '', to: [m.verp] },
        fixture('dsn-mailbox-full.eml', { ...m, returnPathDomain: RETURN_PATH })
          .toString()
          .replaceAll('5.2.2', '5.2.1')
          .replace('Mailbox full: quota exceeded', 'mailbox disabled'),
      );
    const first = await delivered(tenant, validSend.from, to);
    expect((await disabled(first)).code).toBe(250);
    expect((await eventually(first.id, 'email.bounced')).events[0]!.data).toMatchObject({
      enhanced_code: '5.2.1',
      category: 'mailbox_disabled',
    });
    expect(await suppressed(to)).toEqual([]);
    const second = await delivered(tenant, validSend.from, to);
    expect((await disabled(second)).code).toBe(250);
    await eventually(second.id, 'email.bounced');
    expect(await suppressed(to)).toEqual([
      expect.objectContaining({ enhanced_code: '5.2.1', source_email_id: second.id }),
    ]);
  });

  it('picks the message recipient out of a multi-recipient DSN', async () => {
    const m = await delivered();
    // The RFC 3464 example reports three recipients; make ours the one that failed with "user unknown".
    const raw = fixture('rfc3464-multi-recipient.eml', { ...m, returnPathDomain: RETURN_PATH })
      .toString()
      .replaceAll('wsnell@sdcc13.ucsd.edu', m.to);
    expect((await smtpSend(receiver.port, { from: '', to: [m.verp] }, raw)).code).toBe(250);
    const d = await eventually(m.id, 'email.bounced');
    expect(d.events.find((e) => e.type === 'email.bounced')!.data).toMatchObject({
      enhanced_code: '5.1.1',
      remote_mta: 'sdcc13.ucsd.edu',
    });
    expect(await suppressed(m.to)).toHaveLength(1);
  });

  it.each([
    'autoreply-auto-submitted.eml',
    'autoreply-x-autoreply.eml',
    'autoreply-out-of-office.eml',
    'autoreply-precedence.eml',
  ])(
    'records %s on the message as an automatic reply: delivered, nothing suppressed, no webhook',
    async (name) => {
      const m = await delivered();
      // From the recipient's own address, as an autoresponder's reply comes.
      expect((await deliverReport(name, m, m.verp, m.to)).code).toBe(250);
      const d = await eventually(m.id, 'email.report_received');
      expect(d.status).toBe('delivered');
      const data = d.events.find((e) => e.type === 'email.report_received')!.data;
      expect(data).toMatchObject({ kind: 'auto_reply', category: 'auto_reply' });
      expect(data.reason).toMatch(/^an automatic reply came back \(.+\): the message was delivered$/);
      // Who answered and about what, never the text (an out-of-office may hold a person's details).
      expect(data).not.toHaveProperty('text');
      expect(await suppressed(m.to)).toEqual([]);
      const listed = (await api(tenant, 'GET', '/api/emails?category=auto_reply')).json() as {
        data: { id: string }[];
      };
      expect(listed.data.map((e) => e.id)).toContain(m.id);
    },
  );

  it("accepts a person's reply but records nothing", async () => {
    const m = await delivered();
    // From the recipient's own address (mail from the null sender that is none of the known kinds is
    // recorded: see the undetermined notice below).
    expect((await deliverReport('human-reply.eml', m, m.verp, m.to)).code).toBe(250);
    await quiet();
    const d = await detail(m.id);
    expect(d.status).toBe('delivered');
    expect(d.events.map((e) => e.type).sort()).toEqual(['email.delivered', 'email.queued']);
  });

  it('records an RFC 5965 complaint sent to fbl@ and suppresses the address', async () => {
    const m = await delivered();
    expect((await deliverReport('rfc5965-abuse.eml', m, `fbl@${RETURN_PATH}`)).code).toBe(250);
    const d = await eventually(m.id, 'email.complained');
    expect(d.status).toBe('complained');
    expect(d.events.find((e) => e.type === 'email.complained')!.data).toMatchObject({
      category: 'complaint',
      feedback_type: 'abuse',
      format: 'arf',
      user_agent: 'SomeGenerator/1.0',
    });
    expect(await suppressed(m.to)).toEqual([expect.objectContaining({ origin: 'complaint' })]);
    expect((await api(tenant, 'POST', '/api/email/send', { ...validSend, to: m.to })).statusCode).toBe(422);
  });

  it('pushes the bounce and the complaint to the account’s webhook, signed', async () => {
    const hooks = await new WebhookReceiver().start();
    const account = (await env.account(tenant.accountId))!;
    const { webhook, secret } = await env.services.webhooks.create(account, {
      url: hooks.url('/inbound'),
      events: ['email.bounced', 'email.complained'],
    });
    try {
      const bounced = await delivered();
      await deliverReport('postfix-user-unknown.eml', bounced);
      const complained = await delivered();
      await deliverReport('rfc5965-abuse.eml', complained, `fbl@${RETURN_PATH}`);
      const pushes = await until('both pushes', async () =>
        hooks.at('/inbound').length >= 2 ? hooks.at('/inbound') : undefined,
      );
      const payloads = pushes.map(
        (p) => new Webhook(secret).verify(p.body, p.headers) as { type: string; data: { email_id: string } },
      );
      expect(payloads.map((p) => [p.type, p.data.email_id]).sort()).toEqual(
        [
          ['email.bounced', bounced.id],
          ['email.complained', complained.id],
        ].sort(),
      );
    } finally {
      await env.services.webhooks.delete(account, webhook.id).catch(() => undefined);
      await hooks.stop();
    }
  });

  it('matches a complaint by its Message-ID under our DKIM signature, never by the Message-ID alone', async () => {
    const m = await delivered();
    // Anyone may write to fbl@, and a Message-ID is no secret: named alone (a redacted copy with no
    // Return-Path, or a forgery), it reaches no message.
    expect((await deliverReport('arf-message-id-only.eml', m, `fbl@${RETURN_PATH}`)).code).toBe(250);
    await quiet();
    expect((await detail(m.id)).status).toBe('delivered');
    expect(await suppressed(m.to)).toEqual([]);
    // The same Message-ID with our signature over it (the headers as delivered): the complaint counts.
    const signed = await smtpSend(
      receiver.port,
      { from: '', to: [`fbl@${RETURN_PATH}`] },
      signedFeedback(m, 'abuse'),
    );
    expect(signed.code).toBe(250);
    expect((await eventually(m.id, 'email.complained')).status).toBe('complained');
  });

  it('matches a complaint whose copy had its recipient redacted (RFC 6590) by the signature it quotes, never by a made-up one', async () => {
    const m = await delivered();
    // The loop replaced the recipient's local part and dropped the Return-Path: our signature no longer
    // verifies, but the copy still carries it as sent.
    const local = m.to.slice(0, m.to.indexOf('@'));
    const redacted = { headers: m.headers.replaceAll(local, 'redacted') };
    expect(redacted.headers).not.toBe(m.headers);
    // A forgery: the same headers with a signature of its own making.
    const forged = {
      headers: redacted.headers.replace(
        /(\bb=)([A-Za-z0-9+/]{20})/,
        (_all, tag: string) => `${tag}${'A'.repeat(20)}`,
      ),
    };
    expect(forged.headers).not.toBe(redacted.headers);
    const send = (copy: { headers: string }) =>
      smtpSend(receiver.port, { from: '', to: [`fbl@${RETURN_PATH}`] }, signedFeedback(copy, 'abuse'));
    expect((await send(forged)).code).toBe(250);
    await quiet();
    expect((await detail(m.id)).status).toBe('delivered');
    expect((await send(redacted)).code).toBe(250);
    expect((await eventually(m.id, 'email.complained')).status).toBe('complained');
    expect(await suppressed(m.to)).toEqual([expect.objectContaining({ origin: 'complaint' })]);
  });

  it('refuses a Message-ID added above our signed one: the signature covers the one it signed', async () => {
    const victim = await delivered();
    const own = await delivered();
    const forged = { headers: `Message-ID: <${victim.messageId}>\r\n${own.headers}` };
    expect(
      (
        await smtpSend(
          receiver.port,
          { from: '', to: [`fbl@${RETURN_PATH}`] },
          signedFeedback(forged, 'abuse'),
        )
      ).code,
    ).toBe(250);
    await quiet();
    expect((await detail(victim.id)).status).toBe('delivered');
    expect((await detail(own.id)).status).toBe('delivered');
  });

  it('records a not-spam feedback report on the message without a complaint', async () => {
    const m = await delivered();
    expect(
      (await smtpSend(receiver.port, { from: '', to: [`fbl@${RETURN_PATH}`] }, signedFeedback(m, 'not-spam')))
        .code,
    ).toBe(250);
    const d = await eventually(m.id, 'email.report_received');
    expect(d.status).toBe('delivered');
    expect(d.events.find((e) => e.type === 'email.report_received')!.data).toMatchObject({
      kind: 'feedback',
      feedback_type: 'not-spam',
    });
    expect(await suppressed(m.to)).toEqual([]);
  });

  it('records an ARF opt-out as an unsubscribe: a complaint event of category unsubscribe, suppressed', async () => {
    const m = await delivered();
    expect((await deliverReport('arf/opt-out.eml', m, `fbl@${RETURN_PATH}`)).code).toBe(250);
    const d = await eventually(m.id, 'email.complained');
    expect(d.status).toBe('complained');
    expect(d.events.find((e) => e.type === 'email.complained')!.data).toMatchObject({
      category: 'unsubscribe',
      feedback_type: 'opt-out',
      reason: 'the recipient asked to unsubscribe (ListHelper-Unsub/2.0)',
    });
    expect(await suppressed(m.to)).toEqual([
      expect.objectContaining({
        origin: 'complaint',
        reason: expect.stringContaining('unsubscribe') as string,
      }),
    ]);
    const listed = (await api(tenant, 'GET', '/api/emails?category=unsubscribe')).json() as {
      data: { id: string }[];
    };
    expect(listed.data.map((e) => e.id)).toContain(m.id);
  });

  it('records an auth-failure report without a complaint, and pushes it to no webhook', async () => {
    const hooks = await new WebhookReceiver().start();
    const account = (await env.account(tenant.accountId))!;
    const { webhook } = await env.services.webhooks.create(account, {
      url: hooks.url('/every-type'),
      events: [...WEBHOOK_EVENT_TYPES],
    });
    try {
      const m = await delivered();
      expect((await deliverReport('arf/auth-failure-dkim.eml', m, `fbl@${RETURN_PATH}`)).code).toBe(250);
      const d = await eventually(m.id, 'email.report_received');
      expect(d.status).toBe('delivered');
      const event = d.events.find((e) => e.type === 'email.report_received')!;
      expect(event.data).toMatchObject({
        kind: 'feedback',
        feedback_type: 'auth-failure',
        auth_failure: 'dkim',
      });
      expect(await suppressed(m.to)).toEqual([]);
      const pushes = await env.webhookPushes(webhook.id);
      // The delivery of this message was pushed; the report was not.
      expect(pushes.length).toBe(1);
    } finally {
      await env.services.webhooks.delete(account, webhook.id).catch(() => undefined);
      await hooks.stop();
    }
  });

  it('keeps a null-sender notice it cannot read in the log as undetermined, with its text', async () => {
    const m = await delivered();
    expect((await deliverReport('undetermined/ticket-acknowledgement.eml', m)).code).toBe(250);
    const d = await eventually(m.id, 'email.report_received');
    expect(d.status).toBe('delivered');
    expect(d.events.find((e) => e.type === 'email.report_received')!.data).toMatchObject({
      kind: 'undetermined',
      category: 'undetermined',
      from: 'support@helpdesk.vendor.example',
      subject: '[#CASE-448812] We received your request',
      text: expect.stringContaining('Your request has been logged as case') as string,
    });
    expect(await suppressed(m.to)).toEqual([]);
    // Visible in the log's list under its category.
    const listed = (await api(tenant, 'GET', '/api/emails?category=undetermined')).json() as {
      data: { id: string; status: string }[];
    };
    expect(listed.data).toContainEqual(expect.objectContaining({ id: m.id, status: 'delivered' }));
  });

  it('records a forwarded feedback-loop complaint (Microsoft JMRP, no ARF) sent to fbl@', async () => {
    const m = await delivered();
    expect((await deliverReport('forwarded/jmrp.eml', m, `fbl@${RETURN_PATH}`)).code).toBe(250);
    const d = await eventually(m.id, 'email.complained');
    expect(d.events.find((e) => e.type === 'email.complained')!.data).toMatchObject({
      category: 'complaint',
      format: 'forwarded',
      reported_by: 'staff@hotmail.example',
    });
    expect(await suppressed(m.to)).toEqual([expect.objectContaining({ origin: 'complaint' })]);
  });

  it('records an Amazon SES bounce notification sent to fbl@ by the VERP address SES kept', async () => {
    const m = await delivered();
    const answer = await smtpSend(
      receiver.port,
      { from: 'no-reply@sns.amazonaws.example', to: [`fbl@${RETURN_PATH}`] },
      fixture('ses/bounce-permanent.eml', { ...m, returnPathDomain: RETURN_PATH }),
    );
    expect(answer.code).toBe(250);
    const d = await eventually(m.id, 'email.bounced');
    expect(d.status).toBe('bounced');
    expect(d.events.find((e) => e.type === 'email.bounced')!.data).toMatchObject({
      format: 'ses',
      enhanced_code: '5.1.1',
      recipient: m.to,
      reporting_mta: 'a4-12.smtp-out.eu-west-1.amazonses.example',
    });
    expect(await suppressed(m.to)).toHaveLength(1);
  });

  it('refuses forged VERP tags, random recipients and other domains at RCPT', async () => {
    const m = await delivered();
    // The same message id with its tag's last digit changed.
    const at = m.verp.indexOf('@');
    const forged = m.verp.slice(0, at - 1) + (m.verp[at - 1] === '0' ? '1' : '0') + m.verp.slice(at);
    const otherId = m.verp.replace(/^b\+[0-9a-f]{4}/, 'b+ffff');
    for (const rcpt of [
      forged,
      otherId,
      `abuse@${RETURN_PATH}`,
      `jane@${RETURN_PATH}`,
      // Taken at a return-path domain (RFC 5321 §4.5.1), not at one the service does not serve.
      'postmaster@send.unknown.example',
      m.verp.replace(RETURN_PATH, 'send.unknown.example'),
      m.verp.replace(RETURN_PATH, 'acme.example'),
      `fbl@send.unknown.example`,
      'someone@gmail.example',
    ]) {
      const answer = await deliverReport('postfix-user-unknown.eml', m, rcpt);
      expect(answer.code, rcpt).toBe(550);
      expect(answer.response).toMatch(/5\.1\.1/);
    }
    await quiet();
    expect((await detail(m.id)).status).toBe('delivered');
    expect(await suppressed(m.to)).toEqual([]);
  });

  it('records nothing on another account when a bounce quotes its VERP address', async () => {
    const mine = await delivered();
    const theirs = await delivered(other, 'noreply@other.example');
    // Sent to my VERP address, but the quoted original carries the other account's return path.
    const raw = fixture('exim-failed.eml', { ...theirs, returnPathDomain: RETURN_PATH }).toString();
    expect((await smtpSend(receiver.port, { from: '', to: [mine.verp] }, raw)).code).toBe(250);
    await eventually(mine.id, 'email.bounced');
    expect((await detail(theirs.id, other)).status).toBe('delivered');
    expect(await suppressed(theirs.to, other)).toEqual([]);
  });

  it('refuses a message over the size limit with 552', async () => {
    const m = await delivered();
    const big = Buffer.concat([
      fixture('postfix-user-unknown.eml', { ...m, returnPathDomain: RETURN_PATH }),
      Buffer.alloc(70 * 1024, 'x'),
    ]);
    const answer = await smtpSend(receiver.port, { from: '', to: [m.verp] }, big);
    expect(answer.code).toBe(552);
    await quiet();
    expect((await detail(m.id)).status).toBe('delivered');
  });

  it('survives garbage MIME without a crash or a wrong event', async () => {
    const m = await delivered();
    const samples: Buffer[] = [
      Buffer.from('\r\n'),
      Buffer.from(
        'Content-Type: multipart/report; report-type=delivery-status; boundary="b"\r\n\r\n--b\r\nContent-Type: message/delivery-status\r\n\r\nFinal-Recipient: rfc822;\r\nAction: relayed\r\n--b--\r\n',
      ),
      Buffer.from(
        'Content-Type: multipart/report; report-type=feedback-report; boundary="b"\r\n\r\n--b\r\nContent-Type: message/feedback-report\r\n\r\nFeedback-Type: abuse\r\n--b\r\nContent-Type: message/rfc822\r\n\r\nMessage-ID: <00000000-0000-7000-8000-000000000000@mta.txmail.test>\r\n--b--\r\n',
      ),
      Buffer.from(
        'Content-Type: multipart/mixed; boundary=\r\nContent-Transfer-Encoding: base64\r\n\r\n%%%%\r\n',
      ),
    ];
    for (let i = 0; i < 20; i++) {
      const bytes = Array.from({ length: 200 + i * 50 }, () => 1 + Math.floor(Math.random() * 255));
      samples.push(
        Buffer.from(
          `Subject: x${i}\r\nContent-Type: multipart/report; boundary="q"\r\n\r\n--q\r\n${Buffer.from(bytes).toString('latin1')}\r\n`,
        ),
      );
    }
    for (const raw of samples)
      expect((await smtpSend(receiver.port, { from: '', to: [`fbl@${RETURN_PATH}`] }, raw)).code).toBe(250);
    await quiet();
    expect((await detail(m.id)).events.map((e) => e.type).sort()).toEqual([
      'email.delivered',
      'email.queued',
    ]);
    // Still serving.
    expect((await deliverReport('postfix-user-unknown.eml', m)).code).toBe(250);
    await eventually(m.id, 'email.bounced');
  });

  it('suppresses on a synchronous 550 5.1.1 from the remote server', async () => {
    const to = `bounce${Date.now()}@recipient.example`;
    const res = await api(tenant, 'POST', '/api/email/send', { ...validSend, to });
    const id = (res.json() as { id: string }).id;
    await until(`${id} bounced`, async () => ((await detail(id)).status === 'bounced' ? true : undefined));
    expect(await suppressed(to)).toEqual([
      expect.objectContaining({ origin: 'bounce', enhanced_code: '5.1.1', source_email_id: id }),
    ]);
  });

  it('processes a message stored before a crash when the recovery pass runs', async () => {
    const m = await delivered();
    const now = Date.now();
    await env.storeInbound({
      id: '019ab000-0000-7000-8000-00000000abcd',
      received_at: now,
      remote_ip: '127.0.0.1',
      helo: 'client.test',
      mail_from: '',
      rcpt_to: JSON.stringify([m.verp]),
      size: 1,
      raw: fixture('postfix-user-unknown.eml', { ...m, returnPathDomain: RETURN_PATH }).toString('base64'),
      status: 'pending',
      attempts: 0,
      lease_expires_at: now - 1, // its receiver died holding it
      processed_at: null,
      outcome: null,
    });
    expect(await receiver.recover()).toBe(1);
    const report = await env.inboundReport('019ab000-0000-7000-8000-00000000abcd');
    expect(report?.status).toBe('processed');
    // The row the pass leased and marked done holds no raw text: that is apart, read once to parse.
    expect(report).not.toHaveProperty('raw');
    expect((await detail(m.id)).status).toBe('bounced');
    // Processed once: a second pass finds nothing to redo.
    expect(await receiver.recover()).toBe(0);
  });

  it('prunes processed messages after their retention, never pending ones', async () => {
    const repo = env.services.repos.inbound;
    const base = {
      remote_ip: '127.0.0.1',
      helo: 'client.test',
      mail_from: '',
      rcpt_to: '[]',
      size: 1,
      raw: '',
      attempts: 0,
      lease_expires_at: null,
      processed_at: null,
      outcome: null,
    };
    await repo.store({
      ...base,
      id: '00000000-0000-7000-8000-0000000000a1',
      received_at: 1000,
      status: 'processed',
    });
    await repo.store({
      ...base,
      id: '00000000-0000-7000-8000-0000000000a2',
      received_at: 1000,
      status: 'pending',
      lease_expires_at: Date.now() + 60_000,
    });
    expect(await repo.prune(2000)).toBe(1);
    expect(await repo.get('00000000-0000-7000-8000-0000000000a1')).toBeUndefined();
    // Its raw text, kept apart (migration 034), goes with it.
    expect(await repo.raw('00000000-0000-7000-8000-0000000000a1')).toBeUndefined();
    expect((await repo.get('00000000-0000-7000-8000-0000000000a2'))?.status).toBe('pending');
    expect(await repo.raw('00000000-0000-7000-8000-0000000000a2')).toEqual({ raw: '' });
  });
});

describe('txmail serve as a bounce receiver', () => {
  it('refuses strangers, and keeps a bounce it answered 250 to when killed right after', async () => {
    const database = await databaseKinds[0]!.create();
    const inboundPort = await freePort();
    const vars = {
      TXMAIL_DATABASE_URL: database.url,
      TXMAIL_HOSTNAME: 'mta.txmail.test',
      TXMAIL_SECRET_KEY: 's'.repeat(64),
      TXMAIL_INBOUND_PORT: String(inboundPort),
      TXMAIL_LOG_LEVEL: 'warn',
    };
    const services = await createServices(parseConfig(vars), { logger: pino({ level: 'silent' }) });
    let server: RunningServer | undefined;
    try {
      const t = await createTenant(services, { domain: 'acme.example' });
      const id = await deliveredMessage(services, t.accountId);
      const verp = services.verp.address(id, RETURN_PATH);
      server = await startServer('serve', vars);
      expect(
        (await smtpSend(inboundPort, { from: '', to: [`nobody@${RETURN_PATH}`] }, 'Subject: x\r\n\r\nx'))
          .code,
      ).toBe(550);
      const raw = fixture('postfix-user-unknown.eml', {
        verp,
        to: 'gone@recipient.example',
        messageId: `${id}@mta.txmail.test`,
        returnPathDomain: RETURN_PATH,
      });
      const answer = await smtpSend(inboundPort, { from: '', to: [verp] }, raw);
      expect(answer.code).toBe(250);
      server.child.kill('SIGKILL');
      await server.exited;
      const stored = await services.db.kysely.selectFrom('inbound_messages').selectAll().execute();
      expect(stored).toHaveLength(1);
      const kept = await testFacade(services).inboundRaw(stored[0]!.id);
      expect(kept && 'raw' in kept && Buffer.from(kept.raw, 'base64').equals(raw)).toBe(true);
      expect(JSON.parse(stored[0]!.rcpt_to)).toEqual([verp]);
    } finally {
      server?.child.kill('SIGKILL');
      await services.close();
      await database.drop();
    }
  });
});

describe.each(databaseKinds)('txmail inbound with TXMAIL_INBOUND_HEALTH_PORT on $name', (kind) => {
  it('answers /healthz, /readyz and /metrics (counting the bounces it processed) beside the SMTP port', async () => {
    const database = await kind.create();
    const inboundPort = await freePort();
    const healthPort = await freePort();
    const vars = {
      TXMAIL_DATABASE_URL: database.url,
      TXMAIL_HOSTNAME: 'mta.txmail.test',
      TXMAIL_SECRET_KEY: 's'.repeat(64),
      TXMAIL_INBOUND_PORT: String(inboundPort),
      TXMAIL_INBOUND_HEALTH_PORT: String(healthPort),
      TXMAIL_LOG_LEVEL: 'warn',
    };
    const services = await createServices(parseConfig(vars), { logger: pino({ level: 'silent' }) });
    let server: RunningServer | undefined;
    try {
      const t = await createTenant(services, { domain: 'acme.example' });
      const id = await deliveredMessage(services, t.accountId);
      // startServer waits for /healthz on the health port: the role has no other HTTP listener.
      server = await startServer('inbound', vars, healthPort);
      await expectHealthOnly(server.url);

      const verp = services.verp.address(id, RETURN_PATH);
      const raw = fixture('postfix-user-unknown.eml', {
        verp,
        to: 'gone@recipient.example',
        messageId: `${id}@mta.txmail.test`,
        returnPathDomain: RETURN_PATH,
      });
      expect((await smtpSend(inboundPort, { from: '', to: [verp] }, raw)).code).toBe(250);
      const metrics = await metricsWith(server.url, 'txmail_inbound_messages_total{kind="bounce"} 1');
      // With the category its event carries, when it carries one (metrics.ts countEvent).
      expect(metrics).toMatch(
        /^txmail_email_events_total\{type="email\.bounced"(,category="[a-z_]+")?\} 1$/m,
      );
      expect(metrics).toContain('txmail_process_process_cpu_seconds_total');

      await expectCleanStop(server);
    } finally {
      server?.child.kill('SIGKILL');
      await services.close();
      await database.drop();
    }
  });
});

/** A message delivered to gone@recipient.example, as a bounce for it finds it. */
async function deliveredMessage(services: Services, accountId: string): Promise<string> {
  const row = messageRow(accountId, {
    status: 'delivered',
    to_email: 'gone@recipient.example',
    to_domain: 'recipient.example',
    attempts: 1,
    next_attempt_at: null,
  });
  await testFacade(services).insertMessage(row);
  return row.id;
}
