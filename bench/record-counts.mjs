#!/usr/bin/env node
// bench/record-counts: what keeping the reputation counts costs the delivery worker's record (the one
// transaction per batch of attempts: db/queue-repo.ts, db/sqlite/queue.ts). The same records of
// "delivered" attempts (state, attempt row, event) are stored in batches of 50, in alternating rounds
// with and without their reputation delta (reputation/counts.ts), on SQLite and PostgreSQL, and the
// time per batch of each kind is printed side by side. Needs a current build (npm run build).
//   node bench/record-counts.mjs [--rounds 6] [--records 2000] [--accounts 20] [--database sqlite|postgres|both]
import { parseArgs } from 'node:util';
import { createDatabase } from './lib/database.mjs';
import { deliveredRecord } from './lib/delivered-record.mjs';
import { migrate, openDatabase } from '../dist/db/database.js';
import { QueueRepo } from '../dist/db/queue-repo.js';
import { dialectSeams } from '../dist/db/dialect.js';
import { newId } from '../dist/ids.js';
import { deliveryDelta } from '../dist/reputation/counts.js';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '6' },
    records: { type: 'string', default: '2000' },
    accounts: { type: 'string', default: '20' },
    database: { type: 'string', default: 'both' },
  },
});
const rounds = Number(values.rounds);
const perRound = Number(values.records);
const accounts = Number(values.accounts);
const BATCH = 50;
const NOW = Date.UTC(2026, 10, 24, 12);

for (const kind of values.database === 'both' ? ['sqlite', 'postgres'] : [values.database]) {
  const { url, drop } = await createDatabase(kind, 'rcounts');
  const db = openDatabase(url);
  try {
    await migrate(db);
    const k = db.kysely;
    await k
      .insertInto('accounts')
      .values(
        Array.from({ length: accounts }, (_, i) => ({
          id: `acct-${i}`,
          email: `a${i}@bench.example`,
          plan: 'scale',
          state: 'production',
          created_at: 1,
        })),
      )
      .execute();
    const messages = Array.from({ length: rounds * perRound }, (_, i) => ({
      id: newId(),
      account_id: `acct-${i % accounts}`,
      status: 'queued',
      from_name: '',
      from_email: 'noreply@acme.example',
      from_domain: 'acme.example',
      to_name: '',
      to_email: `r${i}@dest.example`,
      to_domain: 'dest.example',
      subject: 's',
      created_at: NOW - 1000,
      updated_at: NOW - 1000,
      attempts: 0,
      next_attempt_at: NOW,
      lease_owner: 'w',
      lease_expires_at: NOW + 600_000,
      category: null,
    }));
    for (let i = 0; i < messages.length; i += 500)
      await k
        .insertInto('messages')
        .values(messages.slice(i, i + 500))
        .execute();
    const queue = new QueueRepo(k, dialectSeams(db).queue());

    const record = (m, counted) => {
      const r = deliveredRecord(m, NOW);
      return counted ? { ...r, reputation: deliveryDelta(m, r) } : r;
    };
    const times = { without: [], with: [] };
    for (let round = 0; round < rounds; round++) {
      const counted = round % 2 === 1;
      const slice = messages.slice(round * perRound, (round + 1) * perRound);
      for (let i = 0; i < slice.length; i += BATCH) {
        const batch = slice.slice(i, i + BATCH).map((m) => record(m, counted));
        const t = process.hrtime.bigint();
        const outcomes = await queue.recordMany(batch);
        times[counted ? 'with' : 'without'].push(Number(process.hrtime.bigint() - t) / 1e6);
        if (outcomes.some((o) => o !== 'applied')) throw new Error('a record did not apply');
      }
    }
    const counts = await k
      .selectFrom('reputation_counts')
      .select((eb) => eb.fn.sum('delivered').as('delivered'))
      .executeTakeFirst();
    const stat = (xs) => {
      const s = [...xs].sort((a, b) => a - b);
      return `median ${s[Math.floor(s.length / 2)].toFixed(2)} ms, p90 ${s[Math.floor(s.length * 0.9)].toFixed(2)} ms, ${((BATCH * s.length * 1000) / s.reduce((a, b) => a + b, 0)).toFixed(0)} records/s`;
    };
    console.log(
      `${kind}: ${rounds} alternating rounds of ${perRound} records in batches of ${BATCH}, ${accounts} accounts`,
    );
    console.log(`  without reputation counts: ${stat(times.without)}`);
    console.log(`  with reputation counts:    ${stat(times.with)}`);
    console.log(`  (counted deliveries stored: ${Number(counts?.delivered ?? 0)})`);
  } finally {
    await db.close();
    await drop();
  }
}
