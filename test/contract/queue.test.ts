// The queue seam's contract (db/seams.ts QueueStore), the same on SQLite and PostgreSQL: a claim leases
// the due messages, none twice however many claims run at once; a record moves the message only while
// the lease is its worker's and the status still queued (db/queue-record.ts), and says what it did.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AttemptRecord, KeptRaw } from '../../src/db/queue-record.js';
import type { DeliveryAttemptRow, MessageRow } from '../../src/db/schema.js';
import { QueueRepo } from '../../src/db/queue-repo.js';
import type { QueueStore } from '../../src/db/seams.js';
import { newId } from '../../src/ids.js';
import { databaseKinds } from '../helpers/databases.js';
import { messageRow } from '../helpers/message-row.js';
import { insertAccounts, insertEndpoint } from '../helpers/webhook-pushes.js';
import { contractDatabase, type ContractDatabase } from './database.js';

const NOW = Date.UTC(2026, 10, 24, 12);
const UNTIL = NOW + 600_000;

describe.each(databaseKinds)('the queue seam on $name', (kind) => {
  let c: ContractDatabase;
  let queue: QueueStore;
  beforeAll(async () => {
    c = await contractDatabase(kind);
    queue = c.seams.queue();
    await insertEndpoint(db(), c.accountId, { eventTypes: ',email.delivered,email.bounced,' });
  });
  afterAll(() => c.close());
  // Each test's messages are the only ones in the queue.
  beforeEach(async () => {
    await db().updateTable('messages').set({ next_attempt_at: null, lease_owner: null }).execute();
  });

  const db = () => c.db.kysely;
  const insert = async (changes: Partial<MessageRow> = {}, html = '<p>x</p>') => {
    const row = messageRow(c.accountId, {
      created_at: NOW,
      updated_at: NOW,
      next_attempt_at: NOW,
      ...changes,
    });
    await c.facade.insertMessage({ ...row, html });
    return row.id;
  };
  const message = (id: string) => c.facade.message(c.accountId, id);
  const attempts = (id: string) => c.facade.attempts(c.accountId, id);
  const events = async (id: string) =>
    (await c.facade.events(c.accountId, id)).map(({ type, data }) => ({ type, data }));
  /** The bytes kept for the message (message_raw), as stored. */
  const kept = (id: string) =>
    db()
      .selectFrom('message_raw')
      .select(['account_id', 'raw', 'size', 'signed_at'])
      .where('message_id', '=', id)
      .execute();
  /** What a record carries of the bytes it sent (gzip in base64, as compressRaw makes them). */
  const sentBytes = (label: string): KeptRaw => ({
    raw: Buffer.from(`gzip of ${label}`).toString('base64'),
    size: 100 + label.length,
    signed_at: NOW + 500,
  });
  const attempt = (messageId: string): DeliveryAttemptRow => ({
    id: newId(),
    message_id: messageId,
    account_id: c.accountId,
    started_at: NOW,
    duration_ms: 5,
    outcome: 'delivered',
    remote_host: 'mx.dest.example',
    remote_ip: '192.0.2.1',
    tls: 1,
    smtp_code: 250,
    enhanced_code: '2.0.0',
    reply: '250 2.0.0 Ok',
    source_ip: null,
    tls_version: 'TLSv1.3',
    tls_cipher: 'TLS_AES_256_GCM_SHA384',
    tls_certificate: 'valid',
    tls_certificate_error: null,
    tls_policy: 'opportunistic',
    tls_fallback: 0,
  });
  const delivered = (
    messageId: string,
    owner: string,
    changes: Partial<AttemptRecord> = {},
  ): AttemptRecord => ({
    messageId,
    accountId: c.accountId,
    owner,
    status: 'delivered',
    nextAttemptAt: null,
    counted: true,
    attempt: attempt(messageId),
    events: [{ id: newId(), type: 'email.delivered', data: { smtp_code: 250 } }],
    raw: sentBytes(owner),
    now: NOW + 1000,
    ...changes,
  });

  it('leases the due messages, and only those, to the claiming worker', async () => {
    const due = [await insert(), await insert({ next_attempt_at: NOW - 5000 })];
    const expired = await insert({ lease_owner: 'dead', lease_expires_at: NOW - 1 });
    await insert({ next_attempt_at: NOW + 60_000 });
    await insert({ lease_owner: 'other', lease_expires_at: UNTIL });
    await insert({ status: 'delivered', next_attempt_at: null });
    const claimed = await queue.claim('w1', NOW, UNTIL, 10);
    expect(claimed.map((m) => m.id).sort()).toEqual([...due, expired].sort());
    for (const m of claimed) {
      expect(await message(m.id)).toMatchObject({ lease_owner: 'w1', lease_expires_at: UNTIL });
    }
    expect(await queue.claim('w2', NOW, UNTIL, 10)).toEqual([]);
  });

  it("leases each account's due mail with a deadline, up to its number, earliest due first", async () => {
    const [other] = await insertAccounts(db(), 1);
    await insert({ next_attempt_at: NOW - 9000 });
    const codes = [
      await insert({ next_attempt_at: NOW - 3000, deadline_at: NOW + 90_000 }),
      await insert({ next_attempt_at: NOW - 2000, deadline_at: NOW + 30_000 }),
    ];
    await insert({ next_attempt_at: NOW - 1000, deadline_at: NOW + 90_000 });
    await insert({ next_attempt_at: NOW + 5000, deadline_at: NOW + 90_000 });
    await insert({ deadline_at: NOW + 90_000, lease_owner: 'other', lease_expires_at: UNTIL });
    const theirs = messageRow(other!, { created_at: NOW, next_attempt_at: NOW, deadline_at: NOW + 90_000 });
    await c.facade.insertMessage({ ...theirs, html: '<p>x</p>' });
    const lane = await queue.claimDeadlineLane(
      'w1',
      NOW,
      UNTIL,
      new Map([
        [c.accountId, 2],
        [other!, 5],
      ]),
    );
    expect(lane.map((m) => m.id).sort()).toEqual([...codes, theirs.id].sort());
    expect(lane.every((m) => m.html === '<p>x</p>')).toBe(true);
    const leased = await db()
      .selectFrom('messages')
      .select(['id', 'lease_expires_at'])
      .where('lease_owner', '=', 'w1')
      .execute();
    expect(leased.map((r) => r.id).sort()).toEqual([...codes, theirs.id].sort());
    expect(leased.every((r) => Number(r.lease_expires_at) === UNTIL)).toBe(true);
    // Given back, they are due again; another account's limit of 0 takes none.
    await queue.release('w1', codes);
    expect(await message(codes[0]!)).toMatchObject({ lease_owner: null, lease_expires_at: null });
    expect(await queue.claimDeadlineLane('w2', NOW, UNTIL, new Map([[other!, 0]]))).toEqual([]);
  });

  it('leases for the lane one due message with a deadline per account, earliest due first', async () => {
    const [other, third, fourth] = await insertAccounts(db(), 3);
    // Past its deadline: the expiry pass's, never the lane's.
    const expired = messageRow(fourth!, { created_at: NOW, next_attempt_at: NOW - 5000, deadline_at: NOW });
    await c.facade.insertMessage({ ...expired, html: '<p>x</p>' });
    const mine = [
      await insert({ next_attempt_at: NOW - 3000, deadline_at: NOW + 90_000 }),
      await insert({ next_attempt_at: NOW - 2000, deadline_at: NOW + 90_000 }),
    ];
    await insert({ next_attempt_at: NOW - 9000 });
    const theirs = messageRow(other!, {
      created_at: NOW,
      next_attempt_at: NOW - 1000,
      deadline_at: NOW + 9000,
    });
    const latest = messageRow(third!, { created_at: NOW, next_attempt_at: NOW, deadline_at: NOW + 9000 });
    for (const row of [theirs, latest]) await c.facade.insertMessage({ ...row, html: '<p>x</p>' });
    // Accounts that hold a lane place already are passed over.
    const except = await queue.claimDeadlineLane('w1', NOW, UNTIL, {
      limit: 10,
      except: [c.accountId, other!],
    });
    expect(except.map((m) => m.id)).toEqual([latest.id]);
    await queue.release('w1', [latest.id]);
    const two = await queue.claimDeadlineLane('w1', NOW, UNTIL, { limit: 2 });
    expect(two.map((m) => m.id).sort()).toEqual([mine[0]!, theirs.id].sort());
    expect(two.every((m) => m.html === '<p>x</p>')).toBe(true);
    const rest = await queue.claimDeadlineLane('w1', NOW, UNTIL, { limit: 10 });
    expect(rest.map((m) => m.id).sort()).toEqual([mine[1]!, latest.id].sort());
    expect(await queue.claimDeadlineLane('w2', NOW, UNTIL, { limit: 10 })).toEqual([]);
  });

  it("takes an account's nearest deadline first, on the lane and in the swap", async () => {
    const [other] = await insertAccounts(db(), 1);
    const row = (dueAgo: number, deadlineIn: number) =>
      messageRow(other!, { created_at: NOW, next_attempt_at: NOW - dueAgo, deadline_at: NOW + deadlineIn });
    const [longer, nearer] = [row(9000, 600_000), row(1000, 60_000)];
    for (const r of [longer, nearer]) await c.facade.insertMessage({ ...r, html: '<p>x</p>' });
    expect((await queue.claimDeadlineLane('w1', NOW, UNTIL, { limit: 10 })).map((m) => m.id)).toEqual([
      nearer.id,
    ]);
    await queue.release('w1', [nearer.id]);
    expect(
      (await queue.claimDeadlineLane('w1', NOW, UNTIL, new Map([[other!, 1]]))).map((m) => m.id),
    ).toEqual([nearer.id]);
  });

  it("puts an account's due mail with a deadline ahead of its older mail, in the claim and in its answer", async () => {
    const repo = new QueueRepo(db(), queue);
    const older = [];
    for (let i = 0; i < 4; i++) older.push(await insert({ next_attempt_at: NOW - 10_000 + i }));
    const code = await insert({ deadline_at: NOW + 90_000 });
    expect((await repo.claimDue('w1', NOW, UNTIL, 1)).map((m) => m.id)).toEqual([code]);
    // The older message it took first went back: due again, leased to nobody.
    expect(await message(older[0]!)).toMatchObject({ lease_owner: null, lease_expires_at: null });
    await db().updateTable('messages').set({ lease_owner: null, lease_expires_at: null }).execute();
    // With room for all: the code first, then the rest in due order.
    expect((await repo.claimDue('w1', NOW, UNTIL, 10)).map((m) => m.id)).toEqual([code, ...older]);
  });

  it("keeps the accounts' turns: one account's mail with a deadline takes no other account's slot", async () => {
    const repo = new QueueRepo(db(), queue);
    const [other] = await insertAccounts(db(), 1);
    // The other account: one message without a deadline, due a minute ago.
    const theirs = messageRow(other!, { created_at: NOW, next_attempt_at: NOW - 60_000 });
    await c.facade.insertMessage({ ...theirs, html: '<p>x</p>' });
    for (let i = 0; i < 20; i++) await insert({ next_attempt_at: NOW - 1000 + i, deadline_at: NOW + 90_000 });
    const first = await repo.claimDue('w1', NOW, UNTIL, 5);
    expect(first.map((m) => m.id)).toContain(theirs.id);
    expect(first.filter((m) => m.account_id === c.accountId)).toHaveLength(4);
  });

  it('leases the mail past its deadline that no live lease holds, earliest deadline first, once', async () => {
    const late = await insert({ deadline_at: NOW - 5000, next_attempt_at: NOW - 60_000 });
    const deadLease = await insert({
      deadline_at: NOW - 2000,
      lease_owner: 'dead',
      lease_expires_at: NOW - 1,
    });
    const later = await insert({ deadline_at: NOW - 1000 });
    const atNow = await insert({ deadline_at: NOW });
    await insert({ deadline_at: NOW + 1 });
    await insert({ deadline_at: NOW - 3000, lease_owner: 'other', lease_expires_at: UNTIL });
    await insert({ deadline_at: NOW - 3000, status: 'delivered', next_attempt_at: null });
    await insert({ next_attempt_at: NOW - 99_000 });
    // The two earliest deadlines (an UPDATE answers its rows in no set order).
    const ids = (ms: { id: string }[]) => ms.map((m) => m.id).sort();
    expect(ids(await queue.claimExpired('w1', NOW, UNTIL, 2))).toEqual([late, deadLease].sort());
    const rest = await queue.claimExpired('w1', NOW, UNTIL, 10);
    expect(ids(rest)).toEqual([later, atNow].sort());
    expect(rest.find((m) => m.id === later)).toMatchObject({
      html: '',
      deadline_at: NOW - 1000,
      account_id: c.accountId,
    });
    for (const id of [late, deadLease, later, atNow])
      expect(await message(id)).toMatchObject({ lease_owner: 'w1', lease_expires_at: UNTIL });
    expect(await queue.claimExpired('w2', NOW, UNTIL, 10)).toEqual([]);
  });

  it('never leases an expired message twice to passes claiming at the same moment', async () => {
    const ids = [];
    for (let i = 0; i < 60; i++) ids.push(await insert({ deadline_at: NOW - 1000 - i }));
    const [a, b, d] = await Promise.all(
      ['p1', 'p2', 'p3'].map((owner) => queue.claimExpired(owner, NOW, UNTIL, 25)),
    );
    const all = [...a!, ...b!, ...d!].map((m) => m.id);
    expect(new Set(all).size).toBe(all.length);
    expect(all.length).toBe(60);
  });

  it('gives each claimed message its own HTML, kept apart from its row', async () => {
    const bodies = ['<p>one</p>', `<p>${'long '.repeat(6000)}</p>`, '<p>caf\u00e9 \u{1F600}</p>'];
    const ids = [];
    for (const html of bodies) ids.push(await insert({}, html));
    const claimed = await queue.claim('w1', NOW, UNTIL, 10);
    expect(new Map(claimed.map((m) => [m.id, m.html]))).toEqual(new Map(ids.map((id, i) => [id, bodies[i]])));
    // The claim and the record change the row, never the body.
    await queue.record(claimed.map((m) => delivered(m.id, 'w1')));
    const kept = await db().selectFrom('message_bodies').select(['message_id', 'html']).execute();
    for (const [i, id] of ids.entries()) expect(kept.find((b) => b.message_id === id)?.html).toBe(bodies[i]);
  });

  it('says which claimed bodies are sealed, to be opened before they are built', async () => {
    const plain = await insert({}, '<p>plain</p>');
    const sealed = await insert({}, 'v1:sealed-text');
    await db().updateTable('message_bodies').set({ sealed: 1 }).where('message_id', '=', sealed).execute();
    const claimed = await queue.claim('w1', NOW, UNTIL, 10);
    expect(new Map(claimed.map((m) => [m.id, [m.html, m.sealed === true]]))).toEqual(
      new Map([
        [plain, ['<p>plain</p>', false]],
        [sealed, ['v1:sealed-text', true]],
      ]),
    );
  });

  it('gives large bodies whole, and lets the event loop turn while it reads several of them', async () => {
    // Over the size read with the claim's others (64 KiB), in UTF-8 bytes: two-byte é and four-byte
    // emoji, so characters and bytes differ; together past what one turn reads (1 MiB).
    const large = (c: string, n: number) => `<p>${c.repeat(n)}</p>`;
    const bodies = [
      '<p>small</p>',
      large('\u00e9', 400_000),
      large('x', 64 * 1024 - 7),
      large('\u{1F600}', 200_000),
      large('y', 900_000),
    ];
    const ids = [];
    for (const html of bodies) ids.push(await insert({}, html));
    let turned = false;
    setImmediate(() => (turned = true));
    const claimed = await queue.claim('w1', NOW, UNTIL, 10);
    expect(turned).toBe(true);
    expect(claimed.map((m) => m.html.length).sort()).toEqual(bodies.map((b) => b.length).sort());
    expect(new Map(claimed.map((m) => [m.id, m.html]))).toEqual(new Map(ids.map((id, i) => [id, bodies[i]])));
  });

  it('claims a message whose body row is missing with no HTML, and the rest of its claim as ever', async () => {
    const whole = await insert({}, '<p>whole</p>');
    const row = messageRow(c.accountId, { created_at: NOW, updated_at: NOW, next_attempt_at: NOW });
    await db().insertInto('messages').values(row).execute();
    const claimed = await queue.claim('w1', NOW, UNTIL, 10);
    expect(new Map(claimed.map((m) => [m.id, m.html]))).toEqual(
      new Map([
        [whole, '<p>whole</p>'],
        [row.id, ''],
      ]),
    );
  });

  it('never leases a message twice to claims running at once, and stops at the limit', async () => {
    const due = await Promise.all(Array.from({ length: 12 }, () => insert()));
    // On PostgreSQL a claim skips the accounts another claim is taking from: what the concurrent claims
    // leave, later claims take.
    const claims = await Promise.all(['a', 'b', 'c', 'd'].map((w) => queue.claim(w, NOW, UNTIL, 4)));
    for (let w = 0; ; w++) {
      const later = await queue.claim(`later-${w}`, NOW, UNTIL, 4);
      if (later.length === 0) break;
      claims.push(later);
    }
    for (const claim of claims) expect(claim.length).toBeLessThanOrEqual(4);
    const ids = claims.flatMap((claim) => claim.map((m) => m.id));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.sort()).toEqual([...due].sort());
  });

  it('records an attempt: the new status, the attempt, the events and their pushes, the lease given back', async () => {
    const id = await insert();
    await queue.claim('w1', NOW, UNTIL, 10);
    const r = delivered(id, 'w1');
    expect(await queue.record([r])).toEqual({ outcomes: ['applied'], pushes: 1 });
    expect(await message(id)).toMatchObject({
      status: 'delivered',
      next_attempt_at: null,
      updated_at: NOW + 1000,
      attempts: 1,
      lease_owner: null,
      lease_expires_at: null,
    });
    expect(await attempts(id)).toEqual([r.attempt]);
    expect(await events(id)).toEqual([{ type: 'email.delivered', data: '{"smtp_code":250}' }]);
    // The bytes it sent, kept in the same transaction.
    expect(await kept(id)).toEqual([{ account_id: c.accountId, ...r.raw }]);
    const outbox = await db()
      .selectFrom('webhook_outbox')
      .select('event_id')
      .where('event_id', '=', r.events[0]!.id)
      .execute();
    expect(outbox).toHaveLength(1);
  });

  it('reschedules a deferral, keeps the count of an attempt that did not count, and takes the category', async () => {
    const id = await insert();
    await queue.claim('w1', NOW, UNTIL, 10);
    const r = delivered(id, 'w1', {
      status: 'deferred',
      nextAttemptAt: NOW + 300_000,
      counted: false,
      attempt: undefined,
      events: [{ id: newId(), type: 'email.delivery_delayed', data: { category: 'mailbox_full' } }],
    });
    expect(await queue.record([r])).toEqual({ outcomes: ['applied'], pushes: 0 });
    expect(await message(id)).toMatchObject({
      status: 'deferred',
      next_attempt_at: NOW + 300_000,
      attempts: 0,
      category: 'mailbox_full',
      lease_owner: null,
    });
    expect(await attempts(id)).toEqual([]);
    expect(await queue.nextDue(NOW)).toBe(NOW + 300_000);
  });

  it('keeps a final status recorded meanwhile: the record is superseded, stores its attempt, not its events', async () => {
    const id = await insert();
    await queue.claim('w1', NOW, UNTIL, 10);
    // The receiver recorded a bounce while the worker still held the lease.
    await db()
      .updateTable('messages')
      .set({ status: 'bounced', category: 'bad_mailbox' })
      .where('id', '=', id)
      .execute();
    const r = delivered(id, 'w1');
    expect(await queue.record([r])).toEqual({ outcomes: ['superseded'], pushes: 0 });
    expect(await message(id)).toMatchObject({
      status: 'bounced',
      category: 'bad_mailbox',
      next_attempt_at: null,
      attempts: 1,
      lease_owner: null,
    });
    expect(await attempts(id)).toEqual([r.attempt]);
    expect(await events(id)).toEqual([]);
    // The message went out: its bytes are kept all the same.
    expect(await kept(id)).toEqual([{ account_id: c.accountId, ...r.raw }]);
  });

  it("refuses a stale lease's record: nothing of it is stored", async () => {
    const id = await insert({ lease_owner: 'dead', lease_expires_at: NOW - 1 });
    await queue.claim('w2', NOW, UNTIL, 10);
    const stale = delivered(id, 'dead', {
      suppression: {
        id: newId(),
        address: 'someone@dest.example',
        origin: 'bounce',
        reason: 'r',
        enhanced_code: null,
      },
    });
    expect(await queue.record([stale, delivered(id, 'w2')])).toEqual({
      outcomes: ['lease_lost', 'applied'],
      pushes: 1,
    });
    expect(await attempts(id)).toHaveLength(1);
    expect(await events(id)).toHaveLength(1);
    expect(
      await db().selectFrom('suppressions').selectAll().where('source_message_id', '=', id).execute(),
    ).toEqual([]);
    // The bytes kept are the live lease's; a stale record alone keeps none.
    expect(await kept(id)).toEqual([{ account_id: c.accountId, ...sentBytes('w2') }]);
    const lost = await insert({ lease_owner: 'w3', lease_expires_at: UNTIL });
    expect(await queue.record([delivered(lost, 'dead')])).toEqual({ outcomes: ['lease_lost'], pushes: 0 });
    expect(await kept(lost)).toEqual([]);
  });

  it('stores the suppression a record found, once per address', async () => {
    const [a, b] = [
      await insert({ to_email: 'gone@dest.example' }),
      await insert({ to_email: 'gone@dest.example' }),
    ];
    await queue.claim('w1', NOW, UNTIL, 10);
    const bounced = (id: string): AttemptRecord =>
      delivered(id, 'w1', {
        status: 'bounced',
        events: [{ id: newId(), type: 'email.bounced', data: { category: 'bad_mailbox' } }],
        suppression: {
          id: newId(),
          address: 'gone@dest.example',
          origin: 'bounce',
          reason: 'r',
          enhanced_code: '5.1.1',
        },
      });
    expect(await queue.record([bounced(a), bounced(b)])).toEqual({
      outcomes: ['applied', 'applied'],
      pushes: 2,
    });
    const rows = await db()
      .selectFrom('suppressions')
      .select(['address', 'source_message_id'])
      .where('account_id', '=', c.accountId)
      .where('address', '=', 'gone@dest.example')
      .execute();
    expect(rows).toEqual([{ address: 'gone@dest.example', source_message_id: a }]);
  });

  it('records a batch larger than one statement takes, each record as if alone', async () => {
    // 250 records (three statements of each kind): every third superseded (bounced meanwhile), every
    // seventh of a stale lease; each with its attempt, and two events for the applied.
    const ids = await Promise.all(Array.from({ length: 250 }, () => insert()));
    const claimed = await queue.claim('w1', NOW, UNTIL, 250);
    expect(claimed).toHaveLength(250);
    const superseded = ids.filter((_, i) => i % 3 === 1);
    await db().updateTable('messages').set({ status: 'bounced' }).where('id', 'in', superseded).execute();
    const records = ids.map((id, i) =>
      delivered(id, i % 7 === 3 ? 'dead' : 'w1', {
        status: i % 2 === 0 ? 'delivered' : 'deferred',
        nextAttemptAt: i % 2 === 0 ? null : NOW + 60_000,
        events: [
          { id: newId(), type: i % 2 === 0 ? 'email.delivered' : 'email.delivery_delayed', data: { n: i } },
          { id: newId(), type: 'email.delivered', data: { n: i, second: true } },
        ],
      }),
    );
    const expected = ids.map((_, i) => (i % 7 === 3 ? 'lease_lost' : i % 3 === 1 ? 'superseded' : 'applied'));
    const result = await queue.record(records);
    expect(result.outcomes).toEqual(expected);
    for (const [i, id] of ids.entries()) {
      const m = await message(id);
      const outcome = expected[i];
      if (outcome === 'lease_lost') {
        expect(m, `message ${i}`).toMatchObject({ lease_owner: 'w1', attempts: 0 });
        expect(await attempts(id)).toHaveLength(0);
      } else {
        expect(m, `message ${i}`).toMatchObject({
          status: outcome === 'superseded' ? 'bounced' : i % 2 === 0 ? 'delivered' : 'deferred',
          next_attempt_at: outcome === 'applied' && i % 2 === 1 ? NOW + 60_000 : null,
          lease_owner: null,
          attempts: 1,
        });
        expect(await attempts(id)).toHaveLength(1);
      }
      expect(await events(id), `message ${i}`).toHaveLength(outcome === 'applied' ? 2 : 0);
    }
  });

  it('gives the earliest due time of a message no live lease holds, or none', async () => {
    expect(await queue.nextDue(NOW)).toBeUndefined();
    await insert({ next_attempt_at: NOW + 7 });
    await insert({ next_attempt_at: NOW + 3 });
    expect(await queue.nextDue(NOW)).toBe(NOW + 3);
    // Due long ago but leased (in flight here or elsewhere): not what the worker waits for, until
    // its lease has ended.
    await insert({ next_attempt_at: NOW - 1000, lease_owner: 'w1', lease_expires_at: NOW + 60_000 });
    expect(await queue.nextDue(NOW)).toBe(NOW + 3);
    expect(await queue.nextDue(NOW + 60_000)).toBe(NOW - 1000);
  });
});
