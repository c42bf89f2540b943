// Migration 034: an inbound message's raw text moves out of its row into inbound_raw, unchanged.
import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migratorFor, openDatabase } from '../src/db/database.js';
import { InboundRepo } from '../src/db/inbound-repo.js';
import { databaseKinds } from './helpers/databases.js';

describe.each(databaseKinds)('upgrading to inbound_raw on $name', (kind) => {
  it('moves every stored message’s raw text, and the row no longer holds it', async () => {
    const database = await kind.create();
    const db = openDatabase(database.url);
    try {
      const migrator = await migratorFor(db);
      expect((await migrator.migrateTo('033-message-bodies')).error).toBeUndefined();
      const k = db.kysely as unknown as Kysely<Record<string, Record<string, unknown>>>;
      const raw = Buffer.from('From: MAILER-DAEMON@mx.example\r\n\r\nI could not deliver it.\r\n').toString(
        'base64',
      );
      const rows = [
        ['00000000-0000-7000-8000-0000000000b1', 'pending'],
        ['00000000-0000-7000-8000-0000000000b2', 'processed'],
      ] as const;
      for (const [id, status] of rows)
        await k
          .insertInto('inbound_messages')
          .values({
            id,
            received_at: 1000,
            remote_ip: '192.0.2.1',
            helo: 'mx.example',
            mail_from: '',
            rcpt_to: '[]',
            size: 60,
            raw: `${raw}${id.slice(-2)}`,
            status,
            attempts: 0,
            lease_expires_at: null,
            lease_owner: null,
            processed_at: null,
            outcome: null,
          })
          .execute();
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      const repo = new InboundRepo(db.kysely, db.dialect);
      expect(await repo.raw('00000000-0000-7000-8000-0000000000b1')).toEqual({ raw: `${raw}b1` });
      expect(await repo.raw('00000000-0000-7000-8000-0000000000b2')).toEqual({ raw: `${raw}b2` });
      const row = await repo.get('00000000-0000-7000-8000-0000000000b1');
      expect(row).toMatchObject({ status: 'pending', size: 60 });
      expect(row).not.toHaveProperty('raw');
    } finally {
      await db.close();
      await database.drop();
    }
  });
});
