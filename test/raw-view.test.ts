// The raw view (docs/API.md, GET /api/emails/:id/raw) on SQLite and PostgreSQL: the bytes a real SMTP
// server received are the bytes the log serves, as message/rfc822; nothing before the first attempt;
// up to 16 MiB as sent, and a larger message's bytes are not kept.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compressRaw, MAX_RAW_KEPT_BYTES } from '../src/db/messages-repo.js';
import { databaseKinds } from './helpers/databases.js';
import { MailFixture } from './helpers/mail-fixture.js';
import { createTenant, startTestEnv, validSend, type Tenant, type TestEnv } from './helpers/services.js';
import { until } from './helpers/wait.js';

describe.each(databaseKinds)('raw view on $name', (kind) => {
  let env: TestEnv;
  let alice: Tenant;
  let bob: Tenant;
  const mail = new MailFixture({ domains: ['dest.example'], exchange: 'mx.dest.example' });

  beforeAll(async () => {
    await mail.start();
    env = await startTestEnv(kind, { env: mail.env });
    await env.services.startWorker({ pollMs: 100 });
    alice = await createTenant(env.services, { domain: 'acme.example' });
    bob = await createTenant(env.services, { domain: 'bob.example' });
  });
  afterAll(async () => {
    await env?.close();
    await mail.stop();
  });

  const call = (t: Tenant, method: 'GET' | 'POST', url: string, payload?: object) =>
    env.app.inject({ method, url, headers: { 'x-api-key': t.apiKey }, ...(payload ? { payload } : {}) });

  it('serves the bytes the recipient server received, as signed', async () => {
    const res = await call(alice, 'POST', '/api/email/send', {
      ...validSend,
      from: 'Acme <noreply@acme.example>',
      to: 'jane@dest.example',
      message: `<p>${'ünïcode and a long line '.repeat(200)}</p>`,
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = (res.json() as { id: string }).id;
    const received = await until('delivery', async () =>
      mail.sink.received.find((r) => r.to.includes('jane@dest.example')),
    );
    // The bytes are kept with the attempt's record, in its transaction: there once the status is.
    const detail = await until('delivered', async () => {
      const d = (await call(alice, 'GET', `/api/emails/${id}`)).json() as {
        status: string;
        raw_bytes: number | null;
      };
      return d.status === 'delivered' ? d : undefined;
    });
    const raw = await call(alice, 'GET', `/api/emails/${id}/raw`);
    expect(raw.statusCode).toBe(200);
    expect(raw.headers['content-type']).toBe('message/rfc822');
    // A download: never rendered on the dashboard's origin, nor sniffed as a page.
    expect(raw.headers['content-disposition']).toBe(`attachment; filename="${id}.eml"`);
    expect(raw.headers['x-content-type-options']).toBe('nosniff');
    expect(raw.headers['content-security-policy']).toBe('sandbox');
    expect(raw.rawPayload.equals(received.raw)).toBe(true);
    expect(detail.raw_bytes).toBe(received.raw.length);
    expect(raw.rawPayload.toString('latin1')).toMatch(/^DKIM-Signature: /m);
    expect(raw.rawPayload.toString('latin1')).toContain(`Message-ID: <${id}@mta.txmail.test>`);

    // Another account's message is not found.
    expect((await call(bob, 'GET', `/api/emails/${id}/raw`)).statusCode).toBe(404);
  });

  it('has no bytes for a message never sent', async () => {
    const res = await call(alice, 'POST', '/api/email/send/test', { ...validSend, from: 'a@acme.example' });
    const id = (res.json() as { id: string }).id;
    const raw = await call(alice, 'GET', `/api/emails/${id}/raw`);
    expect(raw.statusCode).toBe(404);
    expect(raw.body).toMatch(/^not_found: .*has not been sent yet/);
    const detail = (await call(alice, 'GET', `/api/emails/${id}`)).json() as { raw_bytes: number | null };
    expect(detail.raw_bytes).toBeNull();
    expect((await call(alice, 'GET', '/api/emails/not-an-id/raw')).statusCode).toBe(404);
  });

  it('keeps a message of 16 MiB as sent whole, and says a larger one was not kept', async () => {
    expect(MAX_RAW_KEPT_BYTES).toBe(16 * 1024 * 1024);
    // Test sends are never delivered: the bytes below are the only ones these messages get.
    const testSend = async () => {
      const res = await call(alice, 'POST', '/api/email/send/test', { ...validSend, from: 'a@acme.example' });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { id: string }).id;
    };
    // Bytes that do not compress: the most a kept message stores (gzip, base64) in either database.
    const largest = randomBytes(MAX_RAW_KEPT_BYTES);
    const kept = await testSend();
    await env.keepRaw(alice.accountId, kept, largest, Date.now());
    const raw = await call(alice, 'GET', `/api/emails/${kept}/raw`);
    expect(raw.statusCode).toBe(200);
    expect(raw.rawPayload.equals(largest)).toBe(true);
    expect(
      ((await call(alice, 'GET', `/api/emails/${kept}`)).json() as { raw_bytes: number }).raw_bytes,
    ).toBe(MAX_RAW_KEPT_BYTES);

    // One byte more, as the Deliverer hands it over after an attempt: not kept.
    const over = Buffer.concat([largest, Buffer.from('x')]);
    expect(await compressRaw(over, Date.now())).toBeUndefined();
    const sent = await testSend();
    await env.keepRaw(alice.accountId, sent, over, Date.now());
    await env.updateMessage(sent, { attempts: 1 });
    const none = await call(alice, 'GET', `/api/emails/${sent}/raw`);
    expect(none.statusCode).toBe(404);
    expect(none.body).toBe(
      `not_found: the bytes email "${sent}" was sent as were not kept (larger than 16 MiB as sent)`,
    );
    expect(
      ((await call(alice, 'GET', `/api/emails/${sent}`)).json() as { raw_bytes: null }).raw_bytes,
    ).toBeNull();
  });
});
