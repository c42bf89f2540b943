// The log's detail of a message with a large HTML (MessagesRepo.getInPieces) on both databases: an
// HTML stored whole and long (PostgreSQL stores every HTML whole) is read a MiB of characters a
// statement, in pieces that put together give it back exactly and never split a surrogate pair; a
// short one is read in one piece.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MessagesRepo } from '../src/db/messages-repo.js';
import { contractDatabase, type ContractDatabase } from './contract/database.js';
import { databaseKinds } from './helpers/databases.js';
import { messageRow } from './helpers/message-row.js';

describe.each(databaseKinds)('a large HTML stored whole, in the log’s detail on $name', (kind) => {
  let c: ContractDatabase;
  let repo: MessagesRepo;
  beforeAll(async () => {
    c = await contractDatabase(kind);
    repo = new MessagesRepo(c.db.kysely, c.db.dialect, c.db.reads);
  });
  afterAll(() => c.close());

  it('is read a MiB of characters a statement, and given back exactly', async () => {
    // 2.5 Mi characters, an emoji (two UTF-16 units) in every four.
    const html = `<p>${'ab\u{1F600}é'.repeat(655_360)}</p>`;
    const row = messageRow(c.accountId);
    await c.facade.insertMessage({ ...row, html });
    const found = await repo.getInPieces(c.accountId, row.id);
    expect(found!.htmlPieces.length).toBe(3);
    expect(found!.htmlPieces.join('')).toBe(html);
    for (const piece of found!.htmlPieces.slice(0, -1)) {
      const last = piece.charCodeAt(piece.length - 1);
      expect(last >= 0xd800 && last <= 0xdbff).toBe(false);
    }
    expect((await repo.get(c.accountId, row.id))!.html).toBe(html);
  });

  it('is read in one piece when short', async () => {
    const row = messageRow(c.accountId);
    await c.facade.insertMessage({ ...row, html: '<p>short</p>' });
    expect((await repo.getInPieces(c.accountId, row.id))!.htmlPieces).toEqual(['<p>short</p>']);
    const bare = messageRow(c.accountId);
    await c.db.kysely.insertInto('messages').values(bare).execute();
    expect((await repo.getInPieces(c.accountId, bare.id))!.htmlPieces).toEqual(['']);
  });
});
