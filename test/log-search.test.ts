// The log's search and CSV export on SQLite and PostgreSQL (docs/API.md, GET /api/emails): a Message-ID
// finds its message exactly, words match the subject as text (a % or _ is itself, not a wildcard),
// filters by recipient domain combine with the others, and the CSV is RFC 4180 with formulas
// neutralised, a page of MAX_CSV_ROWS at a time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CSV_ROWS } from '../src/http/routes/emails.js';
import { databaseKinds } from './helpers/databases.js';
import { messageRow } from './helpers/message-row.js';
import { createTenant, startTestEnv, validSend, type Tenant, type TestEnv } from './helpers/services.js';

interface Page {
  data: { id: string; subject: string; to: string }[];
  next_cursor: string | null;
}

describe.each(databaseKinds)('log search on $name', (kind) => {
  let env: TestEnv;
  let alice: Tenant;
  let bob: Tenant;
  const ids: Record<string, string> = {};

  const call = (t: Tenant, url: string, accept?: string) =>
    env.app.inject({ method: 'GET', url, headers: { 'x-api-key': t.apiKey, ...(accept ? { accept } : {}) } });
  const send = async (t: Tenant, subject: string, to: string) => {
    const res = await env.app.inject({
      method: 'POST',
      url: '/api/email/send',
      headers: { 'x-api-key': t.apiKey },
      payload: { ...validSend, from: 'a@acme.example', subject, to },
    });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { id: string }).id;
  };
  const subjects = async (url: string, t = alice) =>
    ((await call(t, url)).json() as Page).data.map((m) => m.subject);

  beforeAll(async () => {
    env = await startTestEnv(kind);
    alice = await createTenant(env.services, { domain: 'acme.example' });
    bob = await createTenant(env.services, { domain: 'acme.example' });
    ids.reset = await send(alice, 'Reset your password', 'jane@gmail.example');
    ids.sale = await send(alice, '100% off_sale today', 'joe@yahoo.example');
    ids.percent = await send(alice, '100 percent, no sale', 'ann@gmail.example');
    ids.code = await send(alice, 'Your CODE is 123456', 'bo@bücher.example');
    ids.formula = await send(alice, '=HYPERLINK("http://evil.example","click")', 'eve@gmail.example');
    ids.bob = await send(bob, 'Reset your password', 'jane@gmail.example');
  });
  afterAll(() => env?.close());

  it('finds a message by its Message-ID, and only in its account', async () => {
    for (const q of [`<${ids.reset}@mta.txmail.test>`, ids.reset!, ids.reset!.toUpperCase()]) {
      const page = (await call(alice, `/api/emails?q=${encodeURIComponent(q)}`)).json() as Page;
      expect(page.data.map((m) => m.id)).toEqual([ids.reset]);
    }
    expect(await subjects(`/api/emails?q=${encodeURIComponent(`<${ids.bob}@mta.txmail.test>`)}`)).toEqual([]);
  });

  it('matches every word of the subject, case-insensitively, with % and _ as themselves', async () => {
    expect(await subjects('/api/emails?q=reset')).toEqual(['Reset your password']);
    expect(await subjects('/api/emails?q=code%20123')).toEqual(['Your CODE is 123456']);
    expect(await subjects('/api/emails?q=100%25')).toEqual(['100% off_sale today']);
    expect(await subjects('/api/emails?q=_')).toEqual(['100% off_sale today']);
    expect(await subjects('/api/emails?q=100%20sale')).toEqual([
      '100 percent, no sale',
      '100% off_sale today',
    ]);
    expect(await subjects(`/api/emails?q=${encodeURIComponent("password' OR 1=1 --")}`)).toEqual([]);
    expect(await subjects('/api/emails?q=%5C')).toEqual([]);
  });

  it('finds words with letters beyond ASCII alike on both databases (case ignored for A–Z only)', async () => {
    const carol = await createTenant(env.services, { domain: 'acme.example' });
    await send(carol, 'Été Über Straße', 'c@gmail.example');
    const found = (q: string) => subjects(`/api/emails?q=${encodeURIComponent(q)}`, carol);
    expect(await found('Été')).toEqual(['Été Über Straße']);
    expect(await found('über straße')).toEqual([]);
    expect(await found('Über STRAßE')).toEqual(['Été Über Straße']);
    expect(await found('été')).toEqual([]);
  });

  it('filters by recipient domain, with the other filters', async () => {
    expect(await subjects('/api/emails?domain=gmail.example')).toHaveLength(3);
    expect(await subjects('/api/emails?domain=GMAIL.example&q=reset')).toEqual(['Reset your password']);
    expect(await subjects('/api/emails?domain=bücher.example')).toEqual(['Your CODE is 123456']);
    expect(await subjects('/api/emails?domain=xn--bcher-kva.example&status=queued')).toEqual([
      'Your CODE is 123456',
    ]);
    expect(await subjects('/api/emails?domain=gmail.example&category=mailbox_full')).toEqual([]);
    const first = (await call(alice, '/api/emails?domain=gmail.example&limit=2')).json() as Page;
    const rest = (
      await call(alice, `/api/emails?domain=gmail.example&limit=2&cursor=${first.next_cursor}`)
    ).json() as Page;
    expect([...first.data, ...rest.data].map((m) => m.id)).toEqual([ids.formula, ids.percent, ids.reset]);
  });

  it('refuses searches past their bounds', async () => {
    for (const q of [
      `q=${'a%20'.repeat(9)}`,
      `q=${'x'.repeat(257)}`,
      'domain=localhost',
      // Not a domain any message could be sent to: "..", an empty label, a bare A-label prefix.
      'domain=..',
      'domain=a..example',
      'domain=xn--',
      `domain=${'d'.repeat(256)}`,
      'limit=1000',
    ]) {
      const res = await call(alice, `/api/emails?${q}`);
      expect(res.statusCode, q).toBe(400);
    }
  });

  it('exports the filtered log as CSV, formulas neutralised', async () => {
    const res = await call(alice, '/api/emails?domain=gmail.example', 'text/csv');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="emails.csv"');
    const lines = res.body.split('\r\n');
    expect(lines[0]).toBe('id,created_at,status,category,from,to,subject,attempts,updated_at');
    expect(lines).toHaveLength(5);
    expect(lines[4]).toBe('');
    expect(lines[1]).toContain(`${ids.formula},`);
    expect(lines[1]).toContain(`,"'=HYPERLINK(""http://evil.example"",""click"")",`);
    expect(lines[3]).toMatch(
      new RegExp(`^${ids.reset},[^,]+,queued,,a@acme.example,jane@gmail.example,Reset your password,0,`),
    );
    // JSON stays the default, and wins when named first.
    expect(
      (await call(alice, '/api/emails?domain=gmail.example', 'application/json, text/csv')).json(),
    ).toHaveProperty('data');
    const bobs = await call(bob, '/api/emails', 'text/csv');
    expect(bobs.body.split('\r\n')).toHaveLength(3);
  });

  it('exports a log longer than one CSV page in pages, x-next-cursor leading to the next', async () => {
    const carol = await createTenant(env.services, { domain: 'acme.example' });
    const ids = new Set<string>();
    const more = 250;
    for (let n = 0; n < MAX_CSV_ROWS + more; n += 500) {
      const rows = Array.from({ length: Math.min(500, MAX_CSV_ROWS + more - n) }, () =>
        messageRow(carol.accountId, { subject: 'Your code' }),
      );
      await env.services.db.kysely.insertInto('messages').values(rows).execute();
      for (const r of rows) ids.add(r.id);
    }
    const idsOf = (csv: string) => {
      const lines = csv.split('\r\n');
      expect(lines[0]).toBe('id,created_at,status,category,from,to,subject,attempts,updated_at');
      expect(lines.at(-1)).toBe('');
      return lines.slice(1, -1).map((l) => l.split(',')[0]!);
    };
    const first = await call(carol, '/api/emails?q=code', 'text/csv');
    expect(first.statusCode).toBe(200);
    const cursor = first.headers['x-next-cursor'];
    expect(typeof cursor).toBe('string');
    const firstIds = idsOf(first.body);
    expect(firstIds).toHaveLength(MAX_CSV_ROWS);

    const second = await call(
      carol,
      `/api/emails?q=code&cursor=${encodeURIComponent(String(cursor))}`,
      'text/csv',
    );
    expect(second.statusCode).toBe(200);
    expect(second.headers['x-next-cursor']).toBeUndefined();
    const secondIds = idsOf(second.body);
    expect(secondIds).toHaveLength(more);
    // Every message once, newest first across the pages.
    const all = [...firstIds, ...secondIds];
    expect(new Set(all)).toEqual(ids);
    expect(all).toHaveLength(ids.size);
    expect(firstIds.at(-1)! > secondIds[0]!).toBe(true);
  });
});
