// A large inbound message's raw text written in parts on SQLite's event-loop connection (migration 038,
// db/inbound-repo.ts): stored whole and read back whole, the loop turning while it is written; the
// parts go with a message its client's budget refuses, with the prune, and, left by a store that never
// finished, with the sweep. Its fingerprint does not depend on how its bytes arrived in pieces.
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { v7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AttemptCountsRepo } from '../src/db/attempt-counts-repo.js';
import { base64Parts, InboundRepo } from '../src/db/inbound-repo.js';
import { RAW_PARTS_ABOVE } from '../src/inbound/message-memory.js';
import { CONTENT_BYTES_PER_BATCH, RetentionRepo } from '../src/db/retention-repo.js';
import type { ReceivedMessage } from '../src/db/schema.js';
import { INBOUND_RAW_PARTS, SqlitePartsStore } from '../src/db/sqlite/parts-store.js';
import { newId } from '../src/ids.js';
import { InboundBudget } from '../src/inbound/inbound-budget.js';
import { messageDigest } from '../src/inbound/message-digest.js';
import { contractDatabase, type ContractDatabase } from './contract/database.js';
import { databaseKinds } from './helpers/databases.js';
import { turnsDuring } from './helpers/loop-turns.js';

const sqlite = databaseKinds.find((k) => k.name === 'sqlite')!;

/** `bytes` cut into pieces at the given places (sorted, within its length). */
const cut = (bytes: Buffer, at: number[]): Buffer[] => {
  const ends = [...new Set(at.map((n) => n % (bytes.length + 1)))].sort((a, b) => a - b);
  const pieces: Buffer[] = [];
  let from = 0;
  for (const end of [...ends, bytes.length]) {
    pieces.push(bytes.subarray(from, end));
    from = end;
  }
  return pieces;
};

/** A received message of `size` bytes, given in pieces. */
const inboundMessage = (
  id: string,
  pieces: readonly Uint8Array[],
  size: number,
  now = Date.now(),
): ReceivedMessage => ({
  id,
  received_at: now,
  remote_ip: '192.0.2.7',
  helo: 'mta.remote.example',
  mail_from: '',
  rcpt_to: '["fbl@test.txmail.example"]',
  size,
  pieces,
  status: 'pending',
  attempts: 0,
  lease_expires_at: now,
  lease_owner: null,
  processed_at: null,
  outcome: null,
});

describe('base64Parts', () => {
  it('gives the whole base64 text, cut at parts of the given size, however the bytes are cut', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 300 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        fc.integer({ min: 1, max: 8 }),
        (bytes, at, thirds) => {
          const whole = Buffer.from(bytes);
          const parts = [...base64Parts(cut(whole, at), thirds * 3)];
          expect(parts.join('')).toBe(whole.toString('base64'));
          for (const part of parts.slice(0, -1)) expect(part).toHaveLength(thirds * 4);
        },
      ),
    );
  });
});

describe('messageDigest', () => {
  it('is SHA-256 of the envelope and of the bytes’ own SHA-256, however the bytes are cut', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 200 }),
        fc.array(fc.nat(), { maxLength: 5 }),
        async (b, at) => {
          const bytes = Buffer.from(b);
          const body = createHash('sha256').update(bytes).digest();
          const expected = createHash('sha256')
            .update(`${JSON.stringify(['', ['fbl@x.example']])}\n`)
            .update(body)
            .digest('hex');
          expect(await messageDigest('', ['fbl@x.example'], cut(bytes, at))).toBe(expected);
        },
      ),
    );
  });

  it('lets the loop turn while it hashes a large message', async () => {
    const { turns } = await turnsDuring(() => messageDigest('', [], [Buffer.alloc(5 * 1024 * 1024, 'x')]));
    expect(turns).toBeGreaterThanOrEqual(4);
  });
});

describe('a large inbound raw text in parts on SQLite', () => {
  let c: ContractDatabase;
  let repo: InboundRepo;
  /** Parts written so far (the store's insert, counted). */
  let partsWritten = 0;
  beforeAll(async () => {
    c = await contractDatabase(sqlite);
    const { kysely, sqlite: conn, sqlitePath } = c.db;
    const store = new SqlitePartsStore(kysely, conn!, sqlitePath, INBOUND_RAW_PARTS);
    const insert = (store as unknown as { insert: { run: (...a: unknown[]) => unknown } }).insert;
    const run = insert.run.bind(insert);
    insert.run = (...a: unknown[]) => {
      partsWritten++;
      return run(...a);
    };
    repo = new InboundRepo(kysely, c.db.dialect, undefined, store);
  });
  afterAll(() => c.close());

  const db = () => c.db.kysely;
  const partsOf = async (id: string) =>
    (await db().selectFrom('inbound_raw_parts').select('seq').where('inbound_id', '=', id).execute()).length;
  const pendingOf = async (id: string) =>
    (
      await db()
        .selectFrom('inbound_raw_parts_pending')
        .select('inbound_id')
        .where('inbound_id', '=', id)
        .execute()
    ).length;
  /** About 2.5 MB of a report, in the receiver's 16 KiB blocks. */
  const bytes = () => {
    const line = Buffer.from(`${'x'.repeat(76)}\r\n`);
    const whole = Buffer.concat([Buffer.from('Subject: large\r\n\r\n'), ...Array<Buffer>(32_000).fill(line)]);
    return {
      whole,
      pieces: cut(
        whole,
        Array.from({ length: Math.ceil(whole.length / 16384) }, (_, i) => i * 16384),
      ),
    };
  };

  it('stores it in parts, the loop turning meanwhile, and gives it back whole', async () => {
    const { whole, pieces } = bytes();
    const id = newId();
    const { turns } = await turnsDuring(() => repo.store(inboundMessage(id, pieces, whole.length)));
    const row = await db()
      .selectFrom('inbound_raw')
      .selectAll()
      .where('inbound_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.raw).toBe('');
    expect(row.parts).toBe(Math.ceil(whole.length / (3 * 128 * 1024)));
    expect(row.parts).toBeGreaterThan(5);
    expect(await partsOf(id)).toBe(row.parts);
    expect(await pendingOf(id)).toBe(0);
    expect(turns).toBeGreaterThanOrEqual(row.parts - 1);
    const back = await repo.raw(id);
    expect(back && 'pieces' in back && Buffer.concat(back.pieces).equals(whole)).toBe(true);
  });

  it('stores a message up to RAW_PARTS_ABOVE whole, as base64', async () => {
    const whole = Buffer.alloc(RAW_PARTS_ABOVE, 'y');
    const id = newId();
    await repo.store(inboundMessage(id, [whole.subarray(0, 1000), whole.subarray(1000)], whole.length));
    expect(await repo.raw(id)).toEqual({ raw: whole.toString('base64') });
    expect(await partsOf(id)).toBe(0);
  });

  it('writes no part of a message its client’s budget refuses, and says which limit', async () => {
    const { whole, pieces } = bytes();
    const budget = new InboundBudget(new AttemptCountsRepo(db()), { messagesPerHour: 0, bytesPerHour: 1024 });
    const id = newId();
    const now = Date.now();
    const before = partsWritten;
    const refused = await repo.storeCharged(
      inboundMessage(id, pieces, whole.length),
      budget.charges('192.0.2.7', whole.length),
      now,
    );
    expect(refused?.limit).toBe('hourly_bytes');
    // Refused on a read before any part is written (a client past its budget could otherwise have
    // 10 MB written and deleted again and again).
    expect(partsWritten).toBe(before);
    expect(await repo.get(id)).toBeUndefined();
    expect(await partsOf(id)).toBe(0);
    expect(await pendingOf(id)).toBe(0);
  });

  it('gives it up when a part is missing, never the text with a hole in it', async () => {
    const { whole, pieces } = bytes();
    const id = newId();
    await repo.store(inboundMessage(id, pieces, whole.length));
    await db().deleteFrom('inbound_raw_parts').where('inbound_id', '=', id).where('seq', '=', 2).execute();
    expect(await repo.raw(id)).toBeUndefined();
  });

  it('prunes the parts with their message', async () => {
    const { whole, pieces } = bytes();
    const id = newId();
    await repo.store(inboundMessage(id, pieces, whole.length, 1000));
    await db().updateTable('inbound_messages').set({ status: 'processed' }).where('id', '=', id).execute();
    expect(await repo.prune(2000)).toBeGreaterThanOrEqual(1);
    expect(await partsOf(id)).toBe(0);
  });

  it('prunes in batches bounded by their raw texts’ bytes, a turn of the loop between them', async () => {
    const ids = [newId(), newId(), newId()];
    // Small raw texts whose rows say they are large: each fills a batch alone.
    for (const id of ids)
      await repo.store({ ...inboundMessage(id, [Buffer.from('x')], CONTENT_BYTES_PER_BATCH, 500) });
    await db().updateTable('inbound_messages').set({ status: 'processed' }).where('id', 'in', ids).execute();
    const { result: pruned, turns } = await turnsDuring(() => repo.prune(600));
    expect(pruned).toBe(3);
    expect(turns).toBeGreaterThanOrEqual(2);
    for (const id of ids) expect(await repo.get(id)).toBeUndefined();
  });

  it('sweeps parts whose message was never stored, once they are an hour old', async () => {
    const retention = new RetentionRepo(db());
    const now = Date.now();
    const old = v7({ msecs: now - 2 * 3600_000 });
    const recent = newId();
    for (const id of [old, recent]) {
      await db()
        .insertInto('inbound_raw_parts')
        .values([0, 1].map((seq) => ({ inbound_id: id, seq, part: 'eA==' })))
        .execute();
      await db().insertInto('inbound_raw_parts_pending').values({ inbound_id: id }).execute();
    }
    // A stored message's parts stay, however old.
    const { whole, pieces } = bytes();
    const stored = v7({ msecs: now - 3 * 3600_000 });
    await repo.store(inboundMessage(stored, pieces, whole.length));
    expect(await retention.deleteOrphanInboundRawParts(now - 3600_000, 100)).toBe(1);
    expect(await partsOf(old)).toBe(0);
    expect(await pendingOf(old)).toBe(0);
    expect(await partsOf(recent)).toBe(2);
    expect(await partsOf(stored)).toBeGreaterThan(0);
  });
});

describe('a large inbound raw text in parts on PostgreSQL', () => {
  const postgres = databaseKinds.find((k) => k.name === 'postgres')!;
  let c: ContractDatabase;
  let repo: InboundRepo;
  beforeAll(async () => {
    c = await contractDatabase(postgres);
    repo = new InboundRepo(c.db.kysely, c.db.dialect);
  });
  afterAll(() => c.close());

  const db = () => c.db.kysely;
  const partsOf = async (id: string) =>
    (await db().selectFrom('inbound_raw_parts').select('seq').where('inbound_id', '=', id).execute()).length;

  it('inserts its parts in the transaction that stores it, and gives it back whole', async () => {
    const whole = Buffer.from(`Subject: large\r\n\r\n${'y'.repeat(76)}\r\n`.repeat(30_000));
    const id = newId();
    await repo.store(inboundMessage(id, [whole.subarray(0, 5000), whole.subarray(5000)], whole.length));
    const row = await db()
      .selectFrom('inbound_raw')
      .selectAll()
      .where('inbound_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.raw).toBe('');
    expect(row.parts).toBe(Math.ceil(whole.length / (3 * 128 * 1024)));
    expect(await partsOf(id)).toBe(row.parts);
    const back = await repo.raw(id);
    expect(back && 'pieces' in back && Buffer.concat(back.pieces).equals(whole)).toBe(true);
    await db().updateTable('inbound_messages').set({ status: 'processed' }).where('id', '=', id).execute();
    expect(await repo.prune(Date.now() + 1000)).toBeGreaterThanOrEqual(1);
    expect(await partsOf(id)).toBe(0);
  });

  it('writes no part of a message its client’s budget refuses', async () => {
    const whole = Buffer.alloc(2 * 1024 * 1024, 'z');
    const budget = new InboundBudget(new AttemptCountsRepo(db()), { messagesPerHour: 0, bytesPerHour: 1024 });
    const id = newId();
    const refused = await repo.storeCharged(
      inboundMessage(id, [whole], whole.length),
      budget.charges('192.0.2.8', whole.length),
      Date.now(),
    );
    expect(refused?.limit).toBe('hourly_bytes');
    expect(await repo.get(id)).toBeUndefined();
    expect(await partsOf(id)).toBe(0);
  });
});
