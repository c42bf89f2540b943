// Re-sending from the log on SQLite and PostgreSQL (docs/API.md, POST /api/emails/:id/resend): a copy is
// queued as a new message through the accept path, linked both ways, and refused while the recipient
// is suppressed, for a test send, another account's message and removed content.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from './helpers/databases.js';
import { createTenant, startTestEnv, validSend, type Tenant, type TestEnv } from './helpers/services.js';

interface Detail {
  id: string;
  status: string;
  from: string;
  to: string;
  subject: string;
  message: string;
  resent_from: string | null;
  resends: string[];
  events: { type: string; data: Record<string, unknown> }[];
}

describe.each(databaseKinds)('re-send on $name', (kind) => {
  let env: TestEnv;
  let alice: Tenant;
  let bob: Tenant;

  beforeAll(async () => {
    env = await startTestEnv(kind);
    alice = await createTenant(env.services, { domain: 'acme.example' });
    bob = await createTenant(env.services, { domain: 'acme.example' });
  });
  afterAll(() => env?.close());

  const call = (t: Tenant, method: 'GET' | 'POST', url: string, payload?: object) =>
    env.app.inject({ method, url, headers: { 'x-api-key': t.apiKey }, ...(payload ? { payload } : {}) });
  const send = async (to: string, url = '/api/email/send') => {
    const res = await call(alice, 'POST', url, {
      ...validSend,
      from: '"Acme, \\"Support\\"" <help@acme.example>',
      to,
    });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { id: string }).id;
  };
  const detail = async (id: string) => (await call(alice, 'GET', `/api/emails/${id}`)).json() as Detail;

  it('queues a copy as a new message, linked both ways', async () => {
    const original = await send('Jane Doe <jane@dest.example>');
    const res = await call(alice, 'POST', `/api/emails/${original}/resend`);
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json() as { id: string; status: string; resent_from: string };
    expect(answer).toMatchObject({ status: 'queued', resent_from: original });
    expect(answer.id).not.toBe(original);
    const copy = await detail(answer.id);
    const first = await detail(original);
    expect(copy).toMatchObject({
      status: 'queued',
      from: first.from,
      to: first.to,
      subject: first.subject,
      message: first.message,
      resent_from: original,
    });
    expect(copy.events[0]).toMatchObject({ type: 'email.queued', data: { resent_from: original } });
    expect(first.resends).toEqual([answer.id]);
    const again = (await call(alice, 'POST', `/api/emails/${original}/resend`)).json() as { id: string };
    expect((await detail(original)).resends).toEqual([answer.id, again.id]);
    // It counts as a send.
    const account = (await call(alice, 'GET', '/api/account')).json() as { usage: { sent: number } };
    expect(account.usage.sent).toBe(3);
  });

  it('takes no body: refuses one with fields, rather than ignore a recipient it would not use', async () => {
    const original = await send('jane@dest.example');
    const refused = await call(alice, 'POST', `/api/emails/${original}/resend`, { to: 'other@dest.example' });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toBe(
      'validation_error: this route takes no body: send none, or {} (it had the field "to")',
    );
    expect((await detail(original)).resends).toEqual([]);
    // `{}` is no body, as nothing is.
    const res = await call(alice, 'POST', `/api/emails/${original}/resend`, {});
    expect(res.statusCode, res.body).toBe(200);
  });

  it('answers a retried re-send with the same Idempotency-Key with the first copy', async () => {
    const original = await send('retry@dest.example');
    const resend = (key: string) =>
      env.app.inject({
        method: 'POST',
        url: `/api/emails/${original}/resend`,
        headers: { 'x-api-key': alice.apiKey, 'idempotency-key': key },
      });
    const first = await resend('resend-1');
    expect(first.statusCode, first.body).toBe(200);
    const retried = await resend('resend-1');
    expect(retried.statusCode, retried.body).toBe(200);
    expect((retried.json() as { id: string }).id).toBe((first.json() as { id: string }).id);
    expect((await detail(original)).resends).toEqual([(first.json() as { id: string }).id]);
    const bad = await resend('\u0001');
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toMatch(/^invalid_idempotency_key: /);
  });

  it('is refused while the recipient is suppressed', async () => {
    const original = await send('gone@dest.example');
    const added = await call(alice, 'POST', '/api/suppressions', { address: 'gone@dest.example' });
    expect(added.statusCode, added.body).toBeLessThan(300);
    const res = await call(alice, 'POST', `/api/emails/${original}/resend`);
    expect(res.statusCode).toBe(422);
    expect(res.body).toMatch(/^recipient_suppressed: gone@dest.example is suppressed since /);
    expect((await detail(original)).resends).toEqual([]);
  });

  it('refuses a test send, removed content and another account’s message', async () => {
    const test = await send('jane@dest.example', '/api/email/send/test');
    const refused = await call(alice, 'POST', `/api/emails/${test}/resend`);
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toMatch(/^validation_error: a test send was never sent/);

    const removed = await send('joe@dest.example');
    await env.updateMessage(removed, {
      content_removed_at: Date.now(),
      status: 'delivered',
      next_attempt_at: null,
    });
    await env.services.db.kysely
      .updateTable('message_bodies')
      .set({ html: '' })
      .where('message_id', '=', removed)
      .execute();
    const gone = await call(alice, 'POST', `/api/emails/${removed}/resend`);
    expect(gone.statusCode).toBe(400);
    expect(gone.body).toMatch(/was removed \(content retention\)/);

    const mine = await send('jane@dest.example');
    expect((await call(bob, 'POST', `/api/emails/${mine}/resend`)).statusCode).toBe(404);
    expect((await call(alice, 'POST', '/api/emails/nope/resend')).statusCode).toBe(404);
  });
});
