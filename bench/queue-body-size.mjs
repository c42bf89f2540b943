#!/usr/bin/env node
// bench/queue-body-size: what the size of a message's HTML costs the delivery queue's claim and record
// (db/queue-repo.ts over db/sqlite/queue.ts or db/postgres/queue.ts), which never change it. Until
// migration 033 the HTML was a column of the queue's own row (messages.html), and both databases write
// a changed row out whole: SQLite rewrites the record (and its overflow pages), PostgreSQL writes a new
// version of the row (with the HTML inline below about 2 KB compressed; above, a pointer to its TOAST
// copy). Since, it is in message_bodies, written once; the claim reads it. Messages of each size are
// queued, then claimed 12 at a time and recorded delivered, as the worker does, in rounds that
// alternate the sizes; CPU (this process: SQLite runs in it) and wall time per message are printed by
// size. Runs on a tree from before 033 too (copy this file into its bench/), to compare. Needs a
// current build (npm run build).
//   node bench/queue-body-size.mjs [--sizes 150,1129,20000] [--messages 3000] [--rounds 4]
//                                  [--database sqlite|postgres|both]
import { parseArgs } from 'node:util';
import { randomBytes } from 'node:crypto';
import { createDatabase } from './lib/database.mjs';
import { deliveredRecord } from './lib/delivered-record.mjs';
import { machine } from './lib/harness.mjs';
import { migrate, openDatabase } from '../dist/db/database.js';
import { dialectSeams } from '../dist/db/dialect.js';
import { migrations } from '../dist/db/migrations/index.js';
import { QueueRepo } from '../dist/db/queue-repo.js';
import { newId } from '../dist/ids.js';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '150,1129,20000' },
    messages: { type: 'string', default: '3000' },
    rounds: { type: 'string', default: '4' },
    database: { type: 'string', default: 'sqlite' },
  },
});
const sizes = values.sizes.split(',').map(Number);
const perRound = Number(values.messages);
const rounds = Number(values.rounds);
const CLAIM = 12;
/** Whether this tree keeps the HTML apart from the message's row (migration 033). */
const apart = '033-message-bodies' in migrations;
const NOW = Date.UTC(2026, 10, 29, 12);

/** HTML of `bytes` bytes that compresses about as real markup does (not a run of one character). */
function html(bytes) {
  const words = randomBytes(Math.ceil(bytes / 2))
    .toString('base64')
    .replace(/[+/=]/g, ' ');
  return `<p>${words}</p>`.slice(0, bytes);
}

console.log(
  `bench/queue-body-size — ${machine()}; ${perRound} messages a round and size, claimed ${CLAIM} at a time, ` +
    `${rounds} rounds; the HTML ${apart ? 'in message_bodies' : 'in the message row'}`,
);
for (const kind of values.database === 'both' ? ['sqlite', 'postgres'] : [values.database]) {
  const { url, drop } = await createDatabase(kind, 'qbody');
  const db = openDatabase(url);
  try {
    await migrate(db);
    const k = db.kysely;
    await k
      .insertInto('accounts')
      .values({ id: 'acct-0', email: 'a0@bench.example', plan: 'scale', state: 'production', created_at: 1 })
      .execute();
    const queue = new QueueRepo(k, dialectSeams(db).queue());
    const bodies = new Map(sizes.map((s) => [s, html(s)]));
    const results = new Map(sizes.map((s) => [s, { cpu: [], wall: [] }]));

    /** Queues `perRound` messages of this size, due now (the round's messages only: earlier ones are done). */
    const enqueue = async (size) => {
      const rows = Array.from({ length: perRound }, (_, i) => ({
        id: newId(),
        account_id: 'acct-0',
        status: 'queued',
        from_name: '',
        from_email: 'noreply@acme.example',
        from_domain: 'acme.example',
        to_name: '',
        to_email: `r${i}@dest.example`,
        to_domain: 'dest.example',
        subject: 's',
        html: bodies.get(size),
        created_at: NOW - 1000,
        updated_at: NOW - 1000,
        attempts: 0,
        next_attempt_at: NOW,
        lease_owner: null,
        lease_expires_at: null,
        category: null,
      }));
      for (let i = 0; i < rows.length; i += 200) {
        const chunk = rows.slice(i, i + 200);
        await k
          .insertInto('messages')
          .values(apart ? chunk.map(({ html: _, ...row }) => row) : chunk)
          .execute();
        if (apart)
          await k
            .insertInto('message_bodies')
            .values(chunk.map((r) => ({ message_id: r.id, html: r.html })))
            .execute();
      }
    };

    for (let round = 0; round < rounds; round++) {
      // Each size goes first in turn: none always runs on the warmer process.
      const order = sizes.map((_, i) => sizes[(i + round) % sizes.length]);
      for (const size of order) {
        await enqueue(size);
        const cpu = process.cpuUsage();
        const start = process.hrtime.bigint();
        let done = 0;
        for (;;) {
          const claimed = await queue.claimDue('w', NOW, NOW + 600_000, CLAIM);
          if (claimed.length === 0) break;
          const outcomes = await queue.recordMany(claimed.map((m) => deliveredRecord(m, NOW)));
          if (outcomes.some((o) => o !== 'applied')) throw new Error('a record did not apply');
          done += claimed.length;
        }
        if (done !== perRound) throw new Error(`claimed ${done} of ${perRound}`);
        const used = process.cpuUsage(cpu);
        results.get(size).cpu.push((used.user + used.system) / done);
        results.get(size).wall.push(Number(process.hrtime.bigint() - start) / 1000 / done);
      }
    }
    const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const base = results.get(sizes[0]);
    for (const size of sizes) {
      const r = results.get(size);
      const extra =
        size === sizes[0]
          ? ''
          : `; +${(median(r.wall) - median(base.wall)).toFixed(0)} µs wall against ${sizes[0]} bytes`;
      console.log(
        `${kind.padEnd(8)} HTML ${String(size).padStart(6)} bytes: claim + record ${median(r.wall).toFixed(0)} µs wall, ` +
          `${median(r.cpu).toFixed(0)} µs CPU of this process a message (median of ${rounds})${extra}`,
      );
    }
  } finally {
    await db.close();
    await drop();
  }
}
