// The accept seam's contract (db/seams.ts AcceptTransaction), the same on SQLite and PostgreSQL: a batch
// commits at once and answers per item, in order; an Idempotency-Key is taken once (an expired one is
// taken over); a suppressed recipient, a full month and a used-up day of test sends are refused, and a
// refused send gives its key back; the send that reaches a quota threshold stores its notice once.
import type { KyselyPlugin, RootOperationNode } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresAcceptTransaction } from '../../src/db/postgres/accept.js';
import type { AcceptItem, QuotaNoticeAt } from '../../src/db/accept-item.js';
import type { AccountNoticeRow } from '../../src/db/schema.js';
import type { AcceptTransaction } from '../../src/db/seams.js';
import { newId } from '../../src/ids.js';
import { acceptItem } from '../helpers/accept-item.js';
import { databaseKinds } from '../helpers/databases.js';
import { insertAccounts } from '../helpers/webhook-pushes.js';
import { contractDatabase, type ContractDatabase } from './database.js';

const NOW = Date.UTC(2026, 10, 24, 12);
const MONTH = '2026-11';

/** A notice when a send is the cap's last: its id is the month's, so it is stored once. */
const noticeAt: QuotaNoticeAt = (accountId, month, sent, cap, now) =>
  sent === cap
    ? {
        id: `quota:${accountId}:${month}`,
        account_id: accountId,
        kind: 'quota',
        message: `${sent} of ${cap}`,
        data: '{}',
        created_at: now,
      }
    : undefined;

describe.each(databaseKinds)('the accept seam on $name', (kind) => {
  let c: ContractDatabase;
  let accept: AcceptTransaction;
  beforeAll(async () => {
    c = await contractDatabase(kind);
    accept = c.seams.accept(noticeAt);
  });
  afterAll(() => c.close());

  const db = () => c.db.kysely;
  const account = async () => (await insertAccounts(db(), 1))[0]!;
  const item = (accountId: string, changes: Partial<AcceptItem> = {}): AcceptItem => {
    const i = acceptItem(accountId);
    i.message.created_at = NOW;
    i.event.created_at = NOW;
    return { ...i, ...changes };
  };
  const stored = async (accountId: string) => (await c.facade.messagesOf(accountId)).map((r) => r.id).sort();
  const idempotency = (key: string, expiredBefore = NOW - 86_400_000) => ({
    key,
    requestHash: 'h',
    response: '{"id":"x"}',
    expiredBefore,
  });

  it('commits a batch and answers each item in order, with its message and first event', async () => {
    const a = await account();
    const items = [item(a, { html: '<p>one</p>' }), item(a, { html: '' }), item(a, { html: '<p>three</p>' })];
    expect(await accept(items)).toEqual([{ kind: 'accepted' }, { kind: 'accepted' }, { kind: 'accepted' }]);
    expect(await stored(a)).toEqual(items.map((i) => i.message.id).sort());
    // Each message's HTML apart from its row (message_bodies).
    const bodies = await db()
      .selectFrom('message_bodies')
      .select(['message_id', 'html'])
      .where(
        'message_id',
        'in',
        items.map((i) => i.message.id),
      )
      .execute();
    expect(new Map(bodies.map((b) => [b.message_id, b.html]))).toEqual(
      new Map(items.map((i) => [i.message.id, i.html])),
    );
    const events = await db()
      .selectFrom('events')
      .select(['id', 'message_id', 'type'])
      .where('account_id', '=', a)
      .orderBy('id')
      .execute();
    expect(events).toEqual(
      items
        .map((i) => ({ id: i.event.id, message_id: i.message.id, type: 'email.queued' }))
        .sort((x, y) => x.id.localeCompare(y.id)),
    );
  });

  it("marks a sealed item's body sealed and lists its message for the sweep, in the same commit", async () => {
    const a = await account();
    const items = [item(a, { html: 'v1:sealed-text', sealed: true }), item(a, { html: '<p>plain</p>' })];
    expect(await accept(items)).toEqual([{ kind: 'accepted' }, { kind: 'accepted' }]);
    const bodies = await db()
      .selectFrom('message_bodies')
      .select(['message_id', 'html', 'sealed'])
      .where(
        'message_id',
        'in',
        items.map((i) => i.message.id),
      )
      .execute();
    expect(new Map(bodies.map((b) => [b.message_id, [b.html, b.sealed]]))).toEqual(
      new Map([
        [items[0]!.message.id, ['v1:sealed-text', 1]],
        [items[1]!.message.id, ['<p>plain</p>', 0]],
      ]),
    );
    const listed = await db()
      .selectFrom('sealed_messages')
      .select('message_id')
      .where(
        'message_id',
        'in',
        items.map((i) => i.message.id),
      )
      .execute();
    expect(listed).toEqual([{ message_id: items[0]!.message.id }]);
  });

  it('takes an Idempotency-Key once, in one batch or across batches', async () => {
    const a = await account();
    const first = item(a, { idempotency: idempotency('k1') });
    const again = item(a, { idempotency: idempotency('k1') });
    const other = item(a, { idempotency: idempotency('k2') });
    expect(await accept([first, again, other])).toEqual([
      { kind: 'accepted' },
      { kind: 'idempotency_conflict' },
      { kind: 'accepted' },
    ]);
    expect(await accept([item(a, { idempotency: idempotency('k1') })])).toEqual([
      { kind: 'idempotency_conflict' },
    ]);
    expect(await stored(a)).toEqual([first.message.id, other.message.id].sort());
    // Another account's key of the same name is its own.
    const b = await account();
    expect(await accept([item(b, { idempotency: idempotency('k1') })])).toEqual([{ kind: 'accepted' }]);
  });

  it('takes over an expired Idempotency-Key', async () => {
    const a = await account();
    expect(await accept([item(a, { idempotency: idempotency('old') })])).toEqual([{ kind: 'accepted' }]);
    // Every key created before NOW + 1 has expired for this request.
    const later = item(a, { idempotency: { ...idempotency('old', NOW + 1), response: '{"id":"later"}' } });
    expect(await accept([later])).toEqual([{ kind: 'accepted' }]);
    const key = await db()
      .selectFrom('idempotency_keys')
      .select('response')
      .where('account_id', '=', a)
      .where('key', '=', 'old')
      .executeTakeFirstOrThrow();
    expect(key.response).toBe('{"id":"later"}');
  });

  it('refuses a suppressed recipient with the suppression, and stores nothing for it', async () => {
    const a = await account();
    await db()
      .insertInto('suppressions')
      .values({
        id: newId(),
        account_id: a,
        address: 'gone@dest.example',
        origin: 'bounce',
        reason: 'the mailbox does not exist',
        enhanced_code: '5.1.1',
        source_message_id: null,
        created_at: 7,
      })
      .execute();
    const kept = item(a, { refuseSuppressed: 'fine@dest.example' });
    expect(await accept([item(a, { refuseSuppressed: 'gone@dest.example' }), kept])).toEqual([
      { kind: 'suppressed', suppression: { reason: 'the mailbox does not exist', created_at: 7 } },
      { kind: 'accepted' },
    ]);
    expect(await stored(a)).toEqual([kept.message.id]);
  });

  it('counts the month up to its cap, refuses past it and gives the refused send its key back', async () => {
    const a = await account();
    const quota = { month: MONTH, cap: 2 };
    const items = [
      item(a, { quota }),
      item(a, { quota }),
      item(a, { quota, idempotency: idempotency('over') }),
    ];
    const outcomes = await accept(items);
    const notice: AccountNoticeRow = noticeAt(a, MONTH, 2, 2, NOW)!;
    expect(outcomes).toEqual([
      { kind: 'accepted' },
      { kind: 'accepted', warned: notice },
      { kind: 'quota_exceeded' },
    ]);
    expect(await stored(a)).toEqual([items[0]!.message.id, items[1]!.message.id].sort());
    const events = await db().selectFrom('events').select('message_id').where('account_id', '=', a).execute();
    expect(events.map((e) => e.message_id).sort()).toEqual(
      [items[0]!.message.id, items[1]!.message.id].sort(),
    );
    const usage = (await c.facade.usage(a)).map(({ sent }) => ({ sent }));
    expect(usage).toEqual([{ sent: 2 }]);
    const keys = await db()
      .selectFrom('idempotency_keys')
      .select('key')
      .where('account_id', '=', a)
      .execute();
    expect(keys).toEqual([]);
    const notices = await db()
      .selectFrom('account_notices')
      .selectAll()
      .where('account_id', '=', a)
      .execute();
    expect(notices).toEqual([notice]);
    // A later batch is refused as a whole once the month is full.
    expect(await accept([item(a, { quota })])).toEqual([{ kind: 'quota_exceeded' }]);
  });

  it('counts nothing of a batch that fails, and counts on from the stored count after it', async () => {
    const a = await account();
    const quota = { month: MONTH, cap: 10 };
    const first = item(a, { quota });
    const twin = item(a, { quota });
    twin.message.id = first.message.id; // the same id twice: the batch's insert fails
    twin.event.message_id = first.message.id;
    await expect(accept([first, twin])).rejects.toThrow();
    expect(await c.facade.usage(a)).toEqual([]);
    expect(await accept([item(a, { quota })])).toEqual([{ kind: 'accepted' }]);
    expect((await c.facade.usage(a)).map(({ sent }) => sent)).toEqual([1]);
  });

  it.runIf(kind.name === 'postgres')(
    'stores nothing, not even for a moment, for a month it has found full',
    async () => {
      // The statements the accept runs, by kind and table (Kysely's operation nodes).
      const ran: string[] = [];
      const recorder: KyselyPlugin = {
        transformQuery: ({ node }) => {
          ran.push(describeNode(node));
          return node;
        },
        transformResult: async ({ result }) => result,
      };
      const accept = postgresAcceptTransaction(db().withPlugin(recorder), noticeAt);
      const a = await account();
      const quota = { month: MONTH, cap: 5 };
      await c.facade.setMonthUsage(a, MONTH, 5);
      expect(await accept([item(a, { quota })])).toEqual([{ kind: 'quota_exceeded' }]);
      // The first refusal stored the send, then took it out again; from then on the month is known full.
      expect(ran.filter((r) => r.startsWith('delete'))).toEqual(['delete messages']);
      ran.length = 0;
      expect(await accept([item(a, { quota }), item(a, { quota })])).toEqual([
        { kind: 'quota_exceeded' },
        { kind: 'quota_exceeded' },
      ]);
      // The two together, then each alone (countInPeriods): counted, never stored.
      expect(ran.filter((r) => r.startsWith('insert') || r.startsWith('delete'))).toEqual([
        'insert usage',
        'insert usage',
        'insert usage',
      ]);
      expect(await stored(a)).toEqual([]);
      // The plan's cap raised: counted again, and stored.
      const raised = item(a, { quota: { month: MONTH, cap: 6 } });
      expect((await accept([raised]))[0]!.kind).toBe('accepted');
      expect(await stored(a)).toEqual([raised.message.id]);
    },
  );

  it("counts test sends against the day's allowance, apart from the month", async () => {
    const a = await account();
    const testQuota = { day: '2026-11-24', cap: 1 };
    expect(await accept([item(a, { testQuota }), item(a, { testQuota })])).toEqual([
      { kind: 'accepted' },
      { kind: 'test_quota_exceeded' },
    ]);
    const usage = (await c.facade.testUsage(a)).map(({ sent }) => ({ sent }));
    expect(usage).toEqual([{ sent: 1 }]);
    expect(await c.facade.usage(a)).toEqual([]);
  });
});

/** `insert messages`, `delete messages`…: a statement's kind and table, as a test reads them. */
function describeNode(node: RootOperationNode): string {
  const table = (n: unknown) =>
    (n as { table?: { identifier?: { name?: string } } } | undefined)?.table?.identifier?.name ?? '?';
  switch (node.kind) {
    case 'InsertQueryNode':
      return `insert ${table(node.into)}`;
    case 'DeleteQueryNode':
      return `delete ${table(node.from.froms[0])}`;
    default:
      return node.kind;
  }
}
