// A database that fails while accepting (disk full, a broken table) answers 503 and acknowledges
// nothing; the service accepts again once the database is back.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from './helpers/databases.js';
import { createTenant, startTestEnv, validSend, type Tenant, type TestEnv } from './helpers/services.js';

describe.each(databaseKinds)('database faults on $name', (kind) => {
  let env: TestEnv;
  let tenant: Tenant;
  beforeAll(async () => {
    env = await startTestEnv(kind);
    tenant = await createTenant(env.services, { domain: 'acme.example' });
  });
  afterAll(() => env.close());

  const send = (message: string) =>
    env.app.inject({
      method: 'POST',
      url: '/api/email/send',
      headers: { 'x-api-key': tenant.apiKey },
      payload: { ...validSend, message },
    });
  const stored = () => env.messageCount();

  it('answers 503 without acknowledging when the database cannot store the message', async () => {
    expect((await send('<p>before</p>')).statusCode).toBe(200);
    const before = await stored();
    const big = `<p>${'x'.repeat(2_000_000)}</p>`;
    let restore: () => Promise<void>;
    if (kind.name === 'sqlite') {
      // A full disk, as SQLite sees it: no page may be added to the file.
      const db = env.services.db.sqlite!;
      const pages = db.pragma('page_count', { simple: true }) as number;
      db.pragma(`max_page_count = ${pages}`);
      restore = async () => void db.pragma('max_page_count = 4294967294');
    } else {
      await sql`alter table messages add constraint refuse_all check (false) not valid`.execute(
        env.services.db.kysely,
      );
      restore = async () =>
        void (await sql`alter table messages drop constraint refuse_all`.execute(env.services.db.kysely));
    }
    try {
      const res = await send(big);
      expect(res.statusCode).toBe(503);
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      expect(res.body).toMatch(/^service_unavailable: /);
      expect(await stored()).toBe(before);
    } finally {
      await restore();
    }
    expect((await send(big)).statusCode).toBe(200);
    expect(await stored()).toBe(before + 1);
  });
});
