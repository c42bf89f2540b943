#!/usr/bin/env node
// bench/log-reads: what the log's search costs the event loop on SQLite (db/messages-repo.ts), with its
// reads on the event loop's connection (the reference, as before the SQLite reader) and on the reader
// threads (Db.reads, db/sqlite/reader.ts). One account holds N messages; searches for subject words
// that no message has scan all of them (the worst case a customer can ask for). While they run, a
// 1 ms timer stands for everyone else the process serves: its longest gap and p99 are printed, with
// each search's time. Both ways run in one process on one database, alternating.
// Needs a current build (npm run build).
//   node bench/log-reads.mjs [--messages 300000] [--searches 10] [--concurrency 1] [--rounds 2]
import { parseArgs } from 'node:util';
import { createDatabase } from './lib/database.mjs';
import { machine } from './lib/harness.mjs';
import { loopGaps } from './lib/loop-gaps.mjs';
import { migrate, openDatabase } from '../dist/db/database.js';
import { MessagesRepo } from '../dist/db/messages-repo.js';
import { newId } from '../dist/ids.js';

const { values } = parseArgs({
  options: {
    messages: { type: 'string', default: '300000' },
    searches: { type: 'string', default: '10' },
    concurrency: { type: 'string', default: '1' },
    rounds: { type: 'string', default: '2' },
  },
});
const N = Number(values.messages);
const SEARCHES = Number(values.searches);
const CONCURRENCY = Number(values.concurrency);
const ROUNDS = Number(values.rounds);
const ACCOUNT = 'acct-log';

const { url, drop } = await createDatabase('sqlite', 'logreads');
const db = openDatabase(url);
try {
  await migrate(db);
  await db.kysely
    .insertInto('accounts')
    .values({ id: ACCOUNT, email: 'log@bench.example', plan: 'scale', state: 'production', created_at: 1 })
    .execute();
  // Seeded directly, in one transaction: the bench measures reading, not accepting.
  const insert = db.sqlite.prepare(
    `insert into messages (id, account_id, status, from_name, from_email, from_domain, to_name, to_email,
       to_domain, subject, created_at, updated_at, attempts, next_attempt_at, lease_owner,
       lease_expires_at, category)
     values (?, ?, 'delivered', '', 'noreply@acme.example', 'acme.example', '', ?, 'dest.example', ?, ?, ?, 1,
       null, null, null, null)`,
  );
  const seed = db.sqlite.transaction(() => {
    for (let i = 0; i < N; i++) {
      const at = 1_700_000_000_000 + i * 1000;
      insert.run(newId(), ACCOUNT, `user${i}@dest.example`, `Your receipt #${i} from Acme`, at, at);
    }
  });
  seed();
  const ways = [
    { label: 'event loop', repo: new MessagesRepo(db.kysely, db.dialect, db.kysely) },
    { label: 'reader', repo: new MessagesRepo(db.kysely, db.dialect, db.reads) },
  ];
  console.log(
    `bench/log-reads — ${machine()}; ${N} messages in one account on SQLite; ${SEARCHES} searches ` +
      `matching nothing, ${CONCURRENCY} at a time, ${ROUNDS} rounds a way, alternating`,
  );
  // Warm both (the reader's threads start; the file's pages are cached).
  for (const way of ways) await way.repo.list(ACCOUNT, { subjectWords: ['warm'] }, 51);
  const results = new Map(ways.map((w) => [w.label, []]));
  for (let r = 0; r < ROUNDS; r++) {
    for (const way of r % 2 === 0 ? ways : [...ways].reverse()) {
      const times = [];
      const search = async (i) => {
        const start = performance.now();
        const rows = await way.repo.list(ACCOUNT, { subjectWords: [`nothing${i}`] }, 51);
        if (rows.length !== 0) throw new Error('a search found something');
        times.push(performance.now() - start);
      };
      const loop = await loopGaps(async () => {
        for (let i = 0; i < SEARCHES; i += CONCURRENCY) {
          await Promise.all(
            Array.from({ length: Math.min(CONCURRENCY, SEARCHES - i) }, (_, j) => search(i + j)),
          );
          // A turn of the loop between requests, as a server has (else the searches on the event
          // loop's connection would run as one chain of promises).
          await new Promise((resolve) => setImmediate(resolve));
        }
      });
      times.sort((a, b) => a - b);
      const res = { ...loop, searchMs: times[Math.floor(times.length / 2)] };
      results.get(way.label).push(res);
      console.log(
        `  ${way.label.padEnd(10)} round ${r + 1}: a search ${res.searchMs.toFixed(0)} ms (median); ` +
          `the loop's longest gap ${res.longestMs.toFixed(0)} ms, p99 ${res.p99Ms.toFixed(1)} ms`,
      );
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  for (const [label, rs] of results)
    console.log(
      `${label.padEnd(10)} median: a search ${median(rs.map((x) => x.searchMs)).toFixed(0)} ms; ` +
        `the loop's longest gap ${median(rs.map((x) => x.longestMs)).toFixed(0)} ms, ` +
        `p99 ${median(rs.map((x) => x.p99Ms)).toFixed(1)} ms`,
    );
} finally {
  await db.close();
  await drop();
}
