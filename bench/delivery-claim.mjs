#!/usr/bin/env node
// bench/delivery-claim: how long the delivery worker's fair claim (db/queue-repo.ts over
// db/fair-claim.ts) takes when one account has a long backlog of queued messages and 100 other accounts
// have one each, on SQLite and PostgreSQL: claims of 50 (a worker with every slot free) and of 12 (a
// quarter of the slots, what a busy worker claims as deliveries end), the backlog account holding no
// lease ("cold") or 38 (the rest of that worker's slots); beside them the first-due claim the queue used
// before (every account's messages by due time), on the same rows. Needs a current build (npm run build).
//   node bench/delivery-claim.mjs [--backlog 100000] [--accounts 100] [--history 200] [--claims 50]
//                                 [--database sqlite|postgres|both]
// Every claim is given back before the next (the rows' leases cleared), so each one sees the same queue.
import { parseArgs } from 'node:util';
import { createDatabase } from './lib/database.mjs';
import { migrate, openDatabase } from '../dist/db/database.js';
import { claimLeased } from '../dist/db/lease-claim.js';
import { QueueRepo } from '../dist/db/queue-repo.js';
import { dialectSeams } from '../dist/db/dialect.js';

const { values } = parseArgs({
  options: {
    backlog: { type: 'string', default: '100000' },
    accounts: { type: 'string', default: '100' },
    claims: { type: 'string', default: '50' },
    history: { type: 'string', default: '200' },
    database: { type: 'string', default: 'both' },
  },
});
const backlog = Number(values.backlog);
const others = Number(values.accounts);
const claims = Number(values.claims);
const history = Number(values.history);
const NOW = 10_000_000;

for (const kind of values.database === 'both' ? ['sqlite', 'postgres'] : [values.database]) {
  const { url, drop } = await createDatabase(kind, 'dclaim');
  const db = openDatabase(url);
  try {
    await migrate(db);
    await seed(db.kysely, kind);
    const queue = new QueueRepo(db.kysely, dialectSeams(db).queue());
    const k = db.kysely;
    const release = () =>
      k
        .updateTable('messages')
        .set({ lease_owner: null, lease_expires_at: null })
        .where('lease_owner', 'is not', null)
        .execute();
    // The claim the queue used before, as it was: a prepared statement on SQLite (db/sqlite/queue.ts),
    // lease-claim.ts's statement with SKIP LOCKED on PostgreSQL.
    const firstDue = db.sqlite
      ? (() => {
          const s = db.sqlite.prepare(
            `update messages set lease_owner = ?, lease_expires_at = ?
             where id in (select id from messages
                          where next_attempt_at is not null and next_attempt_at <= ?
                            and (lease_expires_at is null or lease_expires_at <= ?)
                          order by next_attempt_at limit ?)
             returning *`,
          );
          return async (limit) => s.all('w', NOW + 60_000, NOW, NOW, limit);
        })()
      : (limit) =>
          claimLeased(
            k,
            db.dialect,
            { table: 'messages', due: 'next_attempt_at', owner: 'lease_owner', until: 'lease_expires_at' },
            'w',
            NOW,
            NOW + 60_000,
            limit,
          );
    const rows = await k
      .selectFrom('messages')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('next_attempt_at', 'is not', null)
      .executeTakeFirst();
    console.log(
      `${kind}: ${Number(rows.n).toLocaleString('en-US')} queued messages, ${backlog.toLocaleString('en-US')} of them of one account, ${others} other accounts with one each, ${history} delivered per account`,
    );

    const measure = async (label, claim, before) => {
      const times = [];
      let taken;
      for (let i = 0; i < claims; i++) {
        await before();
        const t = process.hrtime.bigint();
        taken = await claim();
        times.push(Number(process.hrtime.bigint() - t) / 1e6);
      }
      await release();
      times.sort((a, b) => a - b);
      const backlogTaken = taken.filter((r) => r.account_id === 'acct-backlog').length;
      console.log(
        `  ${label.padEnd(48)} median ${times[Math.floor(times.length / 2)].toFixed(2)} ms, p90 ${times[Math.floor(times.length * 0.9)].toFixed(2)} ms; took ${taken.length} (${backlogTaken} of the backlog account)`,
      );
    };
    // The backlog account busy: 38 of its oldest messages leased to a worker still delivering them.
    const busy = async () => {
      await release();
      const oldest = await k
        .selectFrom('messages')
        .select('id')
        .where('account_id', '=', 'acct-backlog')
        .where('next_attempt_at', 'is not', null)
        .orderBy('next_attempt_at')
        .limit(38)
        .execute();
      await k
        .updateTable('messages')
        .set({ lease_owner: 'busy', lease_expires_at: NOW + 60_000 })
        .where(
          'id',
          'in',
          oldest.map((r) => r.id),
        )
        .execute();
    };
    for (const limit of [50, 12]) {
      await measure(
        `fair claim of ${limit}, backlog account cold`,
        () => queue.claimDue('w', NOW, NOW + 60_000, limit),
        release,
      );
      await measure(
        `fair claim of ${limit}, backlog account holding 38`,
        () => queue.claimDue('w', NOW, NOW + 60_000, limit),
        busy,
      );
      await measure(`first-due claim of ${limit} (before)`, () => firstDue(limit), release);
    }
  } finally {
    await db.close();
    await drop();
  }
}

/**
 * The backlog account: `backlog` queued messages, all due and older than anything else; 100 accounts
 * with one due message each, newer than the whole backlog; and a history of delivered messages (not
 * queued) of every account, as the table keeps them until retention.
 */
async function seed(k, kind) {
  const { sql } = await import('kysely');
  const accounts = ['backlog', ...Array.from({ length: others }, (_, i) => `o${String(i).padStart(3, '0')}`)];
  await k
    .insertInto('accounts')
    .values(
      accounts.map((a) => ({
        id: `acct-${a}`,
        email: `${a}@bench.example`,
        plan: 'scale',
        state: 'production',
        created_at: 1,
      })),
    )
    .execute();
  const cast = kind === 'postgres' ? (x) => sql`cast(${x} as bigint)` : (x) => x;
  const series = (n, body) =>
    sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < ${cast(n)}) ${body}`.execute(
      k,
    );
  const insert = (a, n, status, due) =>
    series(
      n,
      sql`insert into messages (id, account_id, status, from_name, from_email, from_domain, to_name, to_email,
            to_domain, subject, created_at, updated_at, attempts, next_attempt_at)
          select ${`msg-${a}-${status}-`} || i, ${`acct-${a}`}, ${status}, '', 'noreply@acme.example',
            'acme.example', '', 'someone@dest.example', 'dest.example', 's', 1, 1, 0, ${due}
          from n`,
    );
  // The backlog: due from NOW − backlog ms on, one per ms.
  await insert('backlog', backlog, 'queued', sql`${NOW - backlog} + i`);
  for (const a of accounts) {
    if (a !== 'backlog') await insert(a, 1, 'queued', sql`${NOW - 10} + i`);
    await insert(a, history, 'delivered', sql`null`);
  }
  // PostgreSQL's autovacuum keeps statistics; txmail never runs ANALYZE on SQLite, so neither does this.
  if (kind === 'postgres') await sql`analyze`.execute(k);
}
