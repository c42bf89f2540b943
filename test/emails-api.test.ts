import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { databaseKinds } from './helpers/databases.js';
import { createTenant, startTestEnv, validSend, type Tenant, type TestEnv } from './helpers/services.js';

interface Page {
  data: { id: string; status: string; to: string; from: string; subject: string }[];
  next_cursor: string | null;
}

describe.each(databaseKinds)('delivery log API on $name', (kind) => {
  let env: TestEnv;
  let alice: Tenant;
  let bob: Tenant;
  const aliceIds: string[] = [];

  beforeAll(async () => {
    env = await startTestEnv(kind);
    alice = await createTenant(env.services, { domain: 'alice.example' });
    bob = await createTenant(env.services, { domain: 'bob.example' });
    for (let i = 0; i < 7; i++) {
      const res = await env.app.inject({
        method: 'POST',
        url: i % 3 === 0 ? '/api/email/send/test' : '/api/email/send',
        headers: { 'x-api-key': alice.apiKey },
        payload: { ...validSend, from: 'a@alice.example', to: `user${i % 2}@dest.example`, subject: `s${i}` },
      });
      expect(res.statusCode).toBe(200);
      aliceIds.push((res.json() as { id: string }).id);
    }
    await env.app.inject({
      method: 'POST',
      url: '/api/email/send',
      headers: { 'x-api-key': bob.apiKey },
      payload: { ...validSend, from: 'b@bob.example' },
    });
  });
  afterAll(() => env.close());

  const get = (url: string, key = alice.apiKey) =>
    env.app.inject({ method: 'GET', url, headers: { 'x-api-key': key } });

  it('pages through the log newest first with a cursor', async () => {
    const seen: string[] = [];
    let url = '/api/emails?limit=3';
    for (;;) {
      const page = (await get(url)).json() as Page;
      expect(page.data.length).toBeLessThanOrEqual(3);
      seen.push(...page.data.map((m) => m.id));
      if (!page.next_cursor) break;
      url = `/api/emails?limit=3&cursor=${page.next_cursor}`;
    }
    expect(seen).toEqual([...aliceIds].reverse());
  });

  it('filters by status, recipient and time', async () => {
    const tests = (await get('/api/emails?status=test')).json() as Page;
    expect(tests.data.map((m) => m.id)).toEqual([aliceIds[6], aliceIds[3], aliceIds[0]]);
    const toUser1 = (await get('/api/emails?to=user1@DEST.example')).json() as Page;
    expect(toUser1.data.map((m) => m.id)).toEqual([aliceIds[5], aliceIds[3], aliceIds[1]]);
    // The local part in any case too, as people type it.
    const shouted = (await get('/api/emails?to=USER1@dest.example')).json() as Page;
    expect(shouted.data.map((m) => m.id)).toEqual([aliceIds[5], aliceIds[3], aliceIds[1]]);
    const future = (
      await get(`/api/emails?since=${new Date(Date.now() + 60_000).toISOString()}`)
    ).json() as Page;
    expect(future.data).toEqual([]);
    const past = (
      await get(`/api/emails?until=${new Date(Date.now() + 60_000).toISOString()}`)
    ).json() as Page;
    expect(past.data).toHaveLength(7);
  });

  it('refuses bad filters with 400', async () => {
    for (const q of [
      'status=sent',
      'limit=0',
      'limit=101',
      'limit=abc',
      'since=yesterday',
      'cursor=zzz',
      'to=nobody',
      'foo=1',
    ]) {
      const res = await get(`/api/emails?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.body, q).toMatch(/^validation_error: /);
    }
  });

  it('shows one message with its event history', async () => {
    const res = await get(`/api/emails/${aliceIds[1]}`);
    expect(res.statusCode).toBe(200);
    const m = res.json() as { id: string; status: string; message: string; events: { type: string }[] };
    expect(m).toMatchObject({ id: aliceIds[1], status: 'queued', message: validSend.message, subject: 's1' });
    expect(m.events.map((e) => e.type)).toEqual(['email.queued']);
  });

  it("never shows one account's messages to another", async () => {
    const res = await get(`/api/emails/${aliceIds[1]}`, bob.apiKey);
    expect(res.statusCode).toBe(404);
    expect(res.body).toBe(`not_found: no email with id "${aliceIds[1]}" in this account`);
    const bobs = (await get('/api/emails', bob.apiKey)).json() as Page;
    expect(bobs.data).toHaveLength(1);
    expect(bobs.data[0]!.from).toBe('b@bob.example');
    expect((await get('/api/emails/not-a-uuid')).statusCode).toBe(404);
  });

  it('finds a recipient by address however its domain is written, and with a domain filter beside it', async () => {
    const carol = await createTenant(env.services, { domain: 'carol.example' });
    const sent = await env.app.inject({
      method: 'POST',
      url: '/api/email/send/test',
      headers: { 'x-api-key': carol.apiKey },
      payload: { ...validSend, from: 'c@carol.example', to: 'anna@bücher.example' },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const id = (sent.json() as { id: string }).id;
    const found = async (query: string) =>
      ((await get(`/api/emails?${query}`, carol.apiKey)).json() as Page).data.map((m) => m.id);
    for (const to of ['anna@bücher.example', 'ANNA@BÜCHER.example', 'anna@xn--bcher-kva.example'])
      expect(await found(`to=${encodeURIComponent(to)}`), to).toEqual([id]);
    expect(await found('to=anna%40b%C3%BCcher.example&domain=b%C3%BCcher.example')).toEqual([id]);
    // Both must hold: the address's domain and another domain find nothing.
    expect(await found('to=anna%40b%C3%BCcher.example&domain=dest.example')).toEqual([]);
    expect(await found('to=anna%40other.example')).toEqual([]);
    // The address's domain goes to the log's query with it: the index of the account's messages by
    // domain is its range (bench/log-recipient: a rare address in a large log), not the whole log.
    const list = vi.spyOn(env.services.repos.messages, 'list');
    try {
      await found('to=ANNA%40B%C3%9CCHER.example');
      expect(list.mock.calls[0]![1]).toMatchObject({
        toEmail: 'ANNA@xn--bcher-kva.example',
        toDomain: 'xn--bcher-kva.example',
      });
    } finally {
      list.mockRestore();
    }
  });
});
