// The webhook enqueue seam's contract (db/seams.ts WebhookEnqueue), the same on SQLite and PostgreSQL:
// an event becomes one outbox row per enabled endpoint of its account subscribed to its type, and
// nothing else; the rows are written in the caller's transaction and counted by the statements.
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, EventType } from '../../src/db/schema.js';
import type { WebhookEnqueue } from '../../src/db/seams.js';
import { executeStatement } from '../../src/db/statement.js';
import type { RecordedEvent } from '../../src/db/webhook-enqueue.js';
import { newId } from '../../src/ids.js';
import { databaseKinds } from '../helpers/databases.js';
import { messageRow } from '../helpers/message-row.js';
import { insertAccounts, insertEndpoint } from '../helpers/webhook-pushes.js';
import { contractDatabase, type ContractDatabase } from './database.js';

const NOW = Date.UTC(2026, 10, 24, 12);

describe.each(databaseKinds)('the webhook enqueue seam on $name', (kind) => {
  let c: ContractDatabase;
  let enqueue: WebhookEnqueue;
  beforeAll(async () => {
    c = await contractDatabase(kind);
    enqueue = c.seams.webhookEnqueue;
  });
  afterAll(() => c.close());

  const db = () => c.db.kysely;
  const endpoint = async (accountId: string, eventTypes: string, enabled: 0 | 1 = 1) =>
    (await insertEndpoint(db(), accountId, { eventTypes, enabled })).id;
  /** A stored event of a message of the account (the outbox refers to it). */
  const event = async (accountId: string, type: EventType): Promise<RecordedEvent> => {
    const message = messageRow(accountId);
    await c.facade.insertMessage(message);
    const e = { id: newId(), account_id: accountId, type, created_at: NOW };
    await db()
      .insertInto('events')
      .values({ ...e, message_id: message.id, data: '{}' })
      .execute();
    return e;
  };
  /** Runs the seam's statements in `trx` (through Kysely, on either database); the pushes they queued. */
  const run = async (trx: Kysely<Database>, events: RecordedEvent[]) => {
    let pushes = 0;
    for (const s of enqueue.statements(events)) pushes += await executeStatement(trx, s);
    return pushes;
  };
  const outbox = (eventIds: string[]) =>
    db()
      .selectFrom('webhook_outbox')
      .select([
        'id',
        'webhook_id',
        'event_id',
        'account_id',
        'status',
        'attempts',
        'created_at',
        'next_attempt_at',
      ])
      .where('event_id', 'in', eventIds)
      .orderBy('id')
      .execute();

  it('queues one pending push per enabled endpoint of the account subscribed to the type', async () => {
    const [a, b] = await insertAccounts(db(), 2);
    const delivered = await endpoint(a!, ',email.delivered,');
    const both = await endpoint(a!, ',email.bounced,email.delivered,');
    await endpoint(a!, ',email.delivered,', 0);
    await endpoint(a!, ',email.bounced,');
    await endpoint(b!, ',email.delivered,');
    const e = await event(a!, 'email.delivered');
    expect(await run(db(), [e])).toBe(2);
    const expected = [delivered, both].map((w) => ({
      id: `${e.id}:${w}`,
      webhook_id: w,
      event_id: e.id,
      account_id: a,
      status: 'pending',
      attempts: 0,
      created_at: NOW,
      next_attempt_at: NOW,
    }));
    expect(await outbox([e.id])).toEqual(expected.sort((x, y) => x.id.localeCompare(y.id)));
  });

  it("fans a batch out to each event's own account and type", async () => {
    const [a, b] = await insertAccounts(db(), 2);
    const wa = await endpoint(a!, ',email.bounced,email.delivery_delayed,');
    const wb = await endpoint(b!, ',email.bounced,');
    const events = [
      await event(a!, 'email.bounced'),
      await event(b!, 'email.bounced'),
      await event(a!, 'email.delivery_delayed'),
      await event(b!, 'email.delivery_delayed'),
    ];
    expect(await run(db(), events)).toBe(3);
    const rows = await outbox(events.map((e) => e.id));
    expect(rows.map((r) => r.id).sort()).toEqual(
      [`${events[0]!.id}:${wa}`, `${events[1]!.id}:${wb}`, `${events[2]!.id}:${wa}`].sort(),
    );
  });

  it('matches the type as a whole word: no prefix, no LIKE wildcard', async () => {
    const [a] = await insertAccounts(db(), 1);
    // `_` in email.delivery_delayed is a LIKE wildcard unless escaped.
    await endpoint(a!, ',email.deliveryXdelayed,email.delivered2,');
    const events = [await event(a!, 'email.delivery_delayed'), await event(a!, 'email.delivered')];
    expect(await run(db(), events)).toBe(0);
    expect(await outbox(events.map((e) => e.id))).toEqual([]);
  });

  it('has nothing to run for a type no endpoint can subscribe to', async () => {
    const [a] = await insertAccounts(db(), 1);
    await endpoint(a!, ',email.queued,');
    expect(enqueue.statements([await event(a!, 'email.queued')])).toEqual([]);
    expect(enqueue.statements([])).toEqual([]);
  });

  it("writes in the caller's transaction: a rollback takes the pushes with it", async () => {
    const [a] = await insertAccounts(db(), 1);
    await endpoint(a!, ',email.complained,');
    const e = await event(a!, 'email.complained');
    await expect(
      db()
        .transaction()
        .execute(async (trx) => {
          expect(await run(trx, [e])).toBe(1);
          throw new Error('roll back');
        }),
    ).rejects.toThrow('roll back');
    expect(await outbox([e.id])).toEqual([]);
  });
});
