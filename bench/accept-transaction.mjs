#!/usr/bin/env node
// bench/accept-transaction: the SQLite accept transaction alone (db/sqlite/accept.ts, as the accept
// thread runs it), without HTTP or threads: CPU per message, user and system (the WAL's writes and the
// commit's fsync are the system part), in batches of a given size. With --without-index, rounds on a
// copy of the database without that index alternate with rounds on the database as migrated, which is
// the reference: what one index costs the send route. With --against, rounds of another tree's accept
// transaction (its dist/, built) alternate with this tree's, in this one process: what a change to the
// transaction costs or saves, without the drift between two processes run minutes apart. Both run on
// this tree's schema, so the other tree must have the same migrations (across a schema change, run
// each tree's own copy of this bench in turn instead).
//   node bench/accept-transaction.mjs [--batch 14] [--messages 20000] [--rounds 4] [--without-index NAME]
//                                     [--against DIR]
// 14 is about the batch bench/accept's 50 connections make (two batches in flight).
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import SQLite from 'better-sqlite3';
import { quotaNoticeAt } from '../dist/accounts/quota-warning.js';
import { prepareSqliteAccept } from '../dist/db/sqlite/accept.js';
import { configureSqlite } from '../dist/db/sqlite-pragmas.js';
import { newId } from '../dist/ids.js';
import { machine } from './lib/harness.mjs';

const { values } = parseArgs({
  options: {
    batch: { type: 'string', default: '14' },
    messages: { type: 'string', default: '20000' },
    rounds: { type: 'string', default: '4' },
    'without-index': { type: 'string' },
    against: { type: 'string' },
  },
});
const batch = Number(values.batch);
const HTML =
  '<p>Your code is <b>123456</b>. It expires in 10 minutes.</p><p>If you did not ask for it, ignore this email.</p>';
const messages = Number(values.messages);
const without = values['without-index'];
const againstPrepare = values.against
  ? (await import(join(resolve(values.against), 'dist/db/sqlite/accept.js'))).prepareSqliteAccept
  : undefined;

const dir = mkdtempSync(join(tmpdir(), 'txmail-accept-transaction-'));
const migrated = join(dir, 'migrated.db');
const tree = new URL('..', import.meta.url).pathname;
await promisify(execFile)(process.execPath, [
  new URL('./lib/tree-database.mjs', import.meta.url).pathname,
  tree,
  migrated,
]);

/**
 * One round on a fresh copy of the migrated database, with `prepare`'s accept transaction: CPU µs per
 * message, user and system.
 */
function round(dropIndex, prepare = prepareSqliteAccept) {
  const file = join(dir, `round-${newId()}.db`);
  copyFileSync(migrated, file);
  const db = new SQLite(file);
  try {
    configureSqlite(db);
    // As on the accept thread (accept/sqlite-thread-entry.ts).
    db.pragma('wal_autocheckpoint = 1000');
    if (dropIndex) db.exec(`drop index ${dropIndex}`);
    const account = db.prepare('select id from accounts limit 1').get().id;
    const run = prepare(db, quotaNoticeAt);
    const month = new Date().toISOString().slice(0, 7);
    // The items as the event loop makes them for bench/accept's request (messages/accept.ts).
    const item = () => {
      const now = Date.now();
      const id = newId();
      return {
        message: {
          id,
          account_id: account,
          status: 'queued',
          from_name: 'Acme',
          from_email: 'noreply@acme.example',
          from_domain: 'acme.example',
          to_name: 'Jane',
          to_email: 'jane@recipient.example',
          to_domain: 'recipient.example',
          subject: 'Your sign-in code is 123456',
          created_at: now,
          updated_at: now,
          attempts: 0,
          next_attempt_at: now,
          lease_owner: null,
          lease_expires_at: null,
          category: null,
        },
        html: HTML,
        event: {
          id: newId(),
          message_id: id,
          account_id: account,
          type: 'email.queued',
          created_at: now,
          data: '{}',
        },
        quota: { month, cap: 1_000_000_000 },
        refuseSuppressed: 'jane@recipient.example',
      };
    };
    const batches = Array.from({ length: Math.ceil(messages / batch) }, () =>
      Array.from({ length: batch }, item),
    );
    const before = process.cpuUsage();
    for (const b of batches) run(b);
    const used = process.cpuUsage(before);
    const n = batches.length * batch;
    return { user: used.user / n, system: used.system / n, total: (used.user + used.system) / n };
  } finally {
    db.close();
    for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
  }
}

console.log(
  `bench/accept-transaction — ${machine()}; ${messages} messages in batches of ${batch}, ${values.rounds} rounds each`,
);
const sides = [['as migrated']];
if (without) sides.push([`without ${without}`, without]);
if (againstPrepare) sides.push([`as migrated, ${values.against}'s transaction`, undefined, againstPrepare]);
const results = new Map(sides.map(([name]) => [name, []]));
round(); // warm-ups: the statements' and the JIT's first costs
if (againstPrepare) round(undefined, againstPrepare);
for (let i = 1; i <= Number(values.rounds); i++) {
  // Each side goes first in every other round: no side always runs on the warmer machine.
  for (const [name, index, prepare] of i % 2 === 0 ? [...sides].reverse() : sides) {
    const r = round(index, prepare);
    results.get(name).push(r);
    console.log(
      `round ${i}: ${name.padEnd(36)} ${r.total.toFixed(1)} µs CPU per message (user ${r.user.toFixed(1)}, system ${r.system.toFixed(1)})`,
    );
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const [name, rs] of results) {
  // User time apart: the system time (the WAL's writes, the fsync) is the same work on both sides and
  // the noisier part.
  console.log(
    `median ${name.padEnd(36)} ${median(rs.map((r) => r.total)).toFixed(1)} µs CPU per message (user ${median(rs.map((r) => r.user)).toFixed(1)})`,
  );
}
rmSync(dir, { recursive: true, force: true });
