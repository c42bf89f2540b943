import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from './helpers/databases.js';
import { createTenant, startTestEnv, validSend, type Tenant, type TestEnv } from './helpers/services.js';

interface Entry {
  id: string;
  address: string;
  origin: string;
  reason: string;
  created_at: string;
}
interface Page {
  data: Entry[];
  next_cursor: string | null;
}

describe.each(databaseKinds)('suppressions API on $name', (kind) => {
  let env: TestEnv;
  let alice: Tenant;
  let bob: Tenant;

  beforeAll(async () => {
    env = await startTestEnv(kind);
    alice = await createTenant(env.services, { domain: 'acme.example' });
    bob = await createTenant(env.services, { domain: 'acme.example' });
  });
  afterAll(() => env.close());

  const call = (t: Tenant | undefined, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    env.app.inject({
      method,
      url,
      headers: t ? { 'x-api-key': t.apiKey } : {},
      ...(payload ? { payload } : {}),
    });

  it('adds an address by hand, normalised, and refuses the next send to it', async () => {
    const res = await call(alice, 'POST', '/api/suppressions', {
      address: 'Jane.Doe@Bücher.Example',
      reason: 'asked us to stop',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      address: 'jane.doe@xn--bcher-kva.example',
      origin: 'manual',
      reason: 'asked us to stop',
      enhanced_code: null,
      source_email_id: null,
    });
    const send = await call(alice, 'POST', '/api/email/send', {
      ...validSend,
      to: 'JANE.DOE@bücher.example',
    });
    expect(send.statusCode).toBe(422);
    expect(send.body).toMatch(
      /^recipient_suppressed: JANE\.DOE@xn--bcher-kva\.example is suppressed since \d{4}-.+Z: asked us to stop$/,
    );
    // Adding it again keeps the first entry.
    const again = await call(alice, 'POST', '/api/suppressions', {
      address: 'jane.doe@xn--bcher-kva.example',
    });
    expect(again.statusCode).toBe(200);
    expect((again.json() as Entry).reason).toBe('asked us to stop');
  });

  it('replays an accepted request retried with its Idempotency-Key after the address was suppressed', async () => {
    const send = (key: string) =>
      env.app.inject({
        method: 'POST',
        url: '/api/email/send',
        headers: { 'x-api-key': alice.apiKey, 'idempotency-key': key },
        payload: { ...validSend, to: 'retry@dest.example' },
      });
    const first = await send('retry-1');
    expect(first.statusCode).toBe(200);
    await call(alice, 'POST', '/api/suppressions', { address: 'retry@dest.example' });
    const retry = await send('retry-1');
    expect(retry.statusCode).toBe(200);
    expect(retry.json()).toEqual(first.json());
    const fresh = await send('retry-2');
    expect(fresh.statusCode).toBe(422);
    expect(fresh.body).toMatch(/^recipient_suppressed: /);
  });

  it('keeps accounts apart', async () => {
    await call(alice, 'POST', '/api/suppressions', { address: 'only-alice@dest.example' });
    expect(((await call(bob, 'GET', '/api/suppressions')).json() as Page).data).toEqual([]);
    expect((await call(bob, 'DELETE', '/api/suppressions/only-alice@dest.example')).statusCode).toBe(404);
    expect(
      (await call(bob, 'POST', '/api/email/send', { ...validSend, to: 'only-alice@dest.example' }))
        .statusCode,
    ).toBe(200);
    expect(
      (await call(alice, 'POST', '/api/email/send', { ...validSend, to: 'only-alice@dest.example' }))
        .statusCode,
    ).toBe(422);
  });

  it('lists newest first with a cursor and filters by address', async () => {
    for (let i = 0; i < 5; i++)
      await call(alice, 'POST', '/api/suppressions', { address: `page${i}@dest.example` });
    const first = (await call(alice, 'GET', '/api/suppressions?limit=3')).json() as Page;
    expect(first.data.map((e) => e.address)).toEqual([
      'page4@dest.example',
      'page3@dest.example',
      'page2@dest.example',
    ]);
    const second = (
      await call(alice, 'GET', `/api/suppressions?limit=3&cursor=${first.next_cursor}`)
    ).json() as Page;
    expect(second.data.map((e) => e.address)).toEqual([
      'page1@dest.example',
      'page0@dest.example',
      'only-alice@dest.example',
    ]);
    const one = (await call(alice, 'GET', '/api/suppressions?address=PAGE2@dest.example')).json() as Page;
    expect(one.data.map((e) => e.address)).toEqual(['page2@dest.example']);
    expect(one.next_cursor).toBeNull();
  });

  it('finds addresses by their start, alphabetically, page by page, in this account only', async () => {
    const carol = await createTenant(env.services, { domain: 'acme.example' });
    const addresses = [
      'pre-b@x.example',
      'pre-a@y.example',
      'pre_c@x.example',
      'prea@x.example',
      'pre-a@x.example',
      'zoe.b@x.example',
      'zo@x.example',
      'other@x.example',
      'juergen@bücher.example',
      'hans@STRAẞE.example',
      'eleni@ΑΣ.example',
    ];
    for (const address of addresses) {
      const added = await call(carol, 'POST', '/api/suppressions', { address });
      expect(added.statusCode, added.body).toBe(201);
    }
    await call(bob, 'POST', '/api/suppressions', { address: 'pre-z@x.example' });
    const all = async (startsWith: string, limit: number) => {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const url: string = `/api/suppressions?starts_with=${encodeURIComponent(startsWith)}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`;
        const res = await call(carol, 'GET', url);
        expect(res.statusCode, res.body).toBe(200);
        const page = res.json() as Page;
        expect(page.data.length).toBeLessThanOrEqual(limit);
        seen.push(...page.data.map((e) => e.address));
        cursor = page.next_cursor;
      } while (cursor);
      return seen;
    };
    expect(await all('PRE-', 2)).toEqual(['pre-a@x.example', 'pre-a@y.example', 'pre-b@x.example']);
    // "_" is a character here, not a wildcard.
    expect(await all('pre_', 2)).toEqual(['pre_c@x.example']);
    expect(await all('pre', 100)).toEqual([
      'pre-a@x.example',
      'pre-a@y.example',
      'pre-b@x.example',
      'pre_c@x.example',
      'prea@x.example',
    ]);
    expect(await all('zo', 1)).toEqual(['zo@x.example', 'zoe.b@x.example']);
    expect(await all('zoe', 1)).toEqual(['zoe.b@x.example']);
    expect(await all('pre-a@x.example', 5)).toEqual(['pre-a@x.example']);
    expect(await all('nobody', 5)).toEqual([]);
    // An internationalised domain, typed as people write it, up to a whole label: stored in ASCII.
    for (const start of ['juergen@bücher', 'JUERGEN@BÜCHER.example', 'juergen@xn--bcher', 'juergen@'])
      expect(await all(start, 5), start).toEqual(['juergen@xn--bcher-kva.example']);
    expect(await all('juergen@bü', 5)).toEqual([]);
    // Typed as it was added: IDNA maps the case (ẞ to "ss", a final Σ to σ), not JavaScript's lower case.
    for (const start of ['hans@STRAẞE', 'hans@STRAẞE.example', 'hans@strasse'])
      expect(await all(start, 5), start).toEqual(['hans@strasse.example']);
    for (const start of ['eleni@ΑΣ', 'eleni@ΑΣ.example'])
      expect(await all(start, 5), start).toEqual(['eleni@xn--mxa0b.example']);
    // Refused: both filters, blank, and a cursor of another search.
    const refused = async (query: string) => {
      const res = await call(carol, 'GET', `/api/suppressions?${query}`);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.body).toMatch(/^validation_error:/);
    };
    await refused('starts_with=pre&address=prea@x.example');
    await refused('starts_with=%20');
    await refused(`starts_with=zo&cursor=${Buffer.from('pre-a@x.example').toString('base64url')}`);
    // Cursors no page gave, which must not reach the database (PostgreSQL refuses NUL in text): a NUL,
    // and bytes that are no UTF-8 (decoding would replace them), each after the right prefix.
    await refused(`starts_with=zo&cursor=${Buffer.from('zo\0').toString('base64url')}`);
    await refused('starts_with=a&cursor=YQ%C0%80');
    await refused(`starts_with=zo&cursor=${Buffer.from([0x7a, 0x6f, 0xc0, 0x80]).toString('base64url')}`);
    await refused('starts_with=zo%01');
  });

  it('removes an address so sending works again', async () => {
    await call(alice, 'POST', '/api/suppressions', { address: 'back@dest.example' });
    expect(
      (await call(alice, 'POST', '/api/email/send', { ...validSend, to: 'back@dest.example' })).statusCode,
    ).toBe(422);
    expect((await call(alice, 'DELETE', '/api/suppressions/Back@dest.example')).statusCode).toBe(204);
    expect(
      (await call(alice, 'POST', '/api/email/send', { ...validSend, to: 'back@dest.example' })).statusCode,
    ).toBe(200);
    const gone = await call(alice, 'DELETE', '/api/suppressions/back@dest.example');
    expect(gone.statusCode).toBe(404);
    expect(gone.body).toMatch(/^not_found: /);
  });

  it.each([
    ['POST', '/api/suppressions', { address: 'not an address' }, 'validation_error'],
    ['POST', '/api/suppressions', {}, 'validation_error'],
    ['POST', '/api/suppressions', { address: 'a@b.example', extra: 1 }, 'validation_error'],
    ['POST', '/api/suppressions', { address: 'a@b.example', reason: 'two\nlines' }, 'validation_error'],
    ['GET', '/api/suppressions?limit=0', undefined, 'validation_error'],
    ['GET', '/api/suppressions?cursor=nope', undefined, 'validation_error'],
    ['GET', '/api/suppressions?address=%00', undefined, 'validation_error'],
    ['DELETE', '/api/suppressions/nope', undefined, 'validation_error'],
  ] as const)('%s %s %o is a 400 %s', async (method, url, payload, code) => {
    const res = await call(alice, method, url, payload);
    expect(res.statusCode).toBe(400);
    expect(res.body.startsWith(`${code}: `)).toBe(true);
  });

  it('needs an API key', async () => {
    for (const [method, url] of [
      ['GET', '/api/suppressions'],
      ['POST', '/api/suppressions'],
      ['DELETE', '/api/suppressions/a@b.example'],
    ] as const) {
      expect((await call(undefined, method, url, { address: 'a@b.example' })).statusCode).toBe(401);
    }
  });
});
