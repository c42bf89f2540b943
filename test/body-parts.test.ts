// A large HTML written in parts on SQLite's event-loop writer (db/sqlite/body-parts.ts, migration 037):
// stored whole and read back whole by the claim and the log, never cut inside a character, the loop
// turning while it is written; the parts go with a refused message, with the content retention, with
// the message, and, left by an accept that never finished, with the sweep.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteAcceptWriter } from '../src/accept/sqlite-writer.js';
import { PARTS_ABOVE, splitParts } from '../src/db/sqlite/body-parts.js';
import { RetentionRepo } from '../src/db/retention-repo.js';
import { v7 } from 'uuid';
import { newId } from '../src/ids.js';
import { acceptItem } from './helpers/accept-item.js';
import { databaseKinds } from './helpers/databases.js';
import { contractDatabase, type ContractDatabase } from './contract/database.js';
import { turnsDuring } from './helpers/loop-turns.js';

const sqlite = databaseKinds.find((k) => k.name === 'sqlite')!;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** A message id (UUIDv7) made at `ms`. */
const idAt = (ms: number) => v7({ msecs: ms });

describe('splitParts', () => {
  it('cuts anywhere but between the halves of a surrogate pair, and loses nothing', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 200 }),
        fc.integer({ min: 1, max: 9 }),
        (s, length) => {
          const parts = splitParts(s, length);
          expect(parts.join('')).toBe(s);
          for (const part of parts) {
            expect(part.length).toBeGreaterThan(0);
            // A surrogate pair alone is longer than a length of 1.
            expect(part.length).toBeLessThanOrEqual(Math.max(length, 2));
            expect(part).not.toMatch(LONE_SURROGATE);
          }
        },
      ),
    );
  });
});

describe('large HTML in parts on SQLite', () => {
  let c: ContractDatabase;
  let writer: SqliteAcceptWriter;
  beforeAll(async () => {
    c = await contractDatabase(sqlite);
    writer = new SqliteAcceptWriter(c.db, { threaded: false });
  });
  afterAll(async () => {
    await writer.close();
    await c.close();
  });

  const db = () => c.db.kysely;
  const partsOf = async (id: string) =>
    (await db().selectFrom('message_body_parts').select('seq').where('message_id', '=', id).execute()).length;
  /** About 1.5 MiB of HTML whose parts would end inside an emoji if cut blindly. */
  const large = () => `<p>${'a\u{1F600}'.repeat(Math.ceil(PARTS_ABOVE / 3) * 2)}</p>`;

  it('stores it in parts, the loop turning meanwhile, and gives it back whole to the claim and the log', async () => {
    const item = { ...acceptItem(c.accountId), html: large() };
    const { result, turns } = await turnsDuring(() => writer.submit(item));
    expect(result.kind).toBe('accepted');
    const id = item.message.id;
    const body = await db()
      .selectFrom('message_bodies')
      .selectAll()
      .where('message_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(body.html).toBe('');
    expect(body.parts).toBe(splitParts(item.html).length);
    expect(body.parts).toBeGreaterThan(5);
    expect(await partsOf(id)).toBe(body.parts);
    // A turn of the loop for each part at least.
    expect(turns).toBeGreaterThanOrEqual(body.parts - 1);
    expect((await c.facade.message(c.accountId, id))?.html).toBe(item.html);
    const claimed = await c.seams.queue().claim('w1', Date.now() + 1000, Date.now() + 60_000, 10);
    expect(claimed.find((m) => m.id === id)?.html).toBe(item.html);
  });

  it('removes the parts of a message the accept refuses', async () => {
    const item = {
      ...acceptItem(c.accountId),
      html: large(),
      quota: { month: new Date().toISOString().slice(0, 7), cap: 0 },
    };
    expect((await writer.submit(item)).kind).toBe('quota_exceeded');
    expect(await partsOf(item.message.id)).toBe(0);
  });

  it('removes the parts with the content, and with the message', async () => {
    const retention = new RetentionRepo(db());
    const kept = { ...acceptItem(c.accountId), html: large() };
    const gone = { ...acceptItem(c.accountId), html: large() };
    await writer.submit(kept);
    await writer.submit(gone);
    // Both final long ago.
    await db()
      .updateTable('messages')
      .set({ next_attempt_at: null, updated_at: 1, created_at: 1 })
      .where('id', 'in', [kept.message.id, gone.message.id])
      .execute();
    expect(
      (await retention.removeContent(c.accountId, { from: undefined, before: 2 }, Date.now(), 100)).removed,
    ).toBeGreaterThanOrEqual(1);
    expect(await partsOf(kept.message.id)).toBe(0);
    expect((await c.facade.message(c.accountId, kept.message.id))?.html).toBe('');
    await writer.submit({ ...acceptItem(c.accountId), html: large() });
    expect((await retention.deleteMessages(c.accountId, 2, 100)).removed).toBeGreaterThanOrEqual(2);
    expect(await partsOf(gone.message.id)).toBe(0);
  });

  it('sweeps parts whose message was never stored, once they are an hour old', async () => {
    const retention = new RetentionRepo(db());
    const now = Date.now();
    const old = idAt(now - 2 * 3600_000);
    const recent = newId();
    for (const id of [old, recent]) {
      await db()
        .insertInto('message_body_parts')
        .values([0, 1].map((seq) => ({ message_id: id, seq, part: 'x' })))
        .execute();
      await db().insertInto('message_body_parts_pending').values({ message_id: id }).execute();
    }
    // A stored message's parts stay, however old.
    const stored = { ...acceptItem(c.accountId, idAt(now - 3 * 3600_000)), html: large() };
    expect((await writer.submit(stored)).kind).toBe('accepted');
    expect(await retention.deleteOrphanBodyParts(now - 3600_000, 100)).toBe(1);
    expect(await partsOf(old)).toBe(0);
    expect(await partsOf(recent)).toBe(2);
    expect(await partsOf(stored.message.id)).toBeGreaterThan(0);
  });
});
