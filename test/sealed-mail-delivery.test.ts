// txmail's own mail carrying a sign-in link goes from its sealed HTML (messages/sealed-html.ts) through
// the claim, the worker and SMTP to the recipient with its link whole, on both databases; the database
// holds only the sealed text, and none of the bytes sent are kept.
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from './helpers/databases.js';
import { mailedToken, postSignup } from './helpers/dashboard-signup.js';
import { MailFixture } from './helpers/mail-fixture.js';
import { until } from './helpers/wait.js';
import { startTestEnv, type TestEnv } from './helpers/services.js';

describe.each(databaseKinds)('sealed mail delivered on $name', (kind) => {
  let env: TestEnv;
  const mail = new MailFixture({ domains: ['dest.example'] });
  beforeAll(async () => {
    await mail.start();
    env = await startTestEnv(kind, { env: mail.env });
  });
  afterAll(async () => {
    await env?.close();
    await mail.stop();
  });

  it('mails the verification link opened, keeps only its sealed text and none of the bytes sent', async () => {
    expect((await postSignup(env, 'owner@dest.example', 'correct horse battery')).statusCode).toBe(202);
    const token = await mailedToken(env, 'owner@dest.example', '/verify-email');
    const db = env.services.db.kysely;
    const stored = await db.selectFrom('message_bodies').select(['message_id', 'html', 'sealed']).execute();
    expect(stored.map((r) => [r.sealed, r.html.startsWith('v1:'), r.html.includes(token)])).toEqual([
      [1, true, false],
    ]);
    await env.services.startWorker({ pollMs: 200 });
    const got = await until('the mail received', async () => mail.sink.for('owner@dest.example')[0]);
    const html = String((await simpleParser(got.raw)).html);
    expect(html).toContain(`/verify-email?token=${token}`);
    expect(html).not.toContain('v1:');
    const account = await env.accountByEmail('owner@dest.example');
    await until('the attempt recorded', async () =>
      (await env.message(account!.id, stored[0]!.message_id))?.status === 'delivered' ? true : undefined,
    );
    expect(await db.selectFrom('message_raw').selectAll().execute()).toEqual([]);
  });
});
