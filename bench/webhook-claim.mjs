#!/usr/bin/env node
// bench/webhook-claim: how long the webhook dispatcher's fair claim (db/fair-claim.ts) takes when one
// account's endpoint has a long backlog and 100 other accounts have a few pushes each, on SQLite and
// PostgreSQL: a claim of 20 (a dispatcher with every slot free) and of 1 (a busy dispatcher, as each push
// ends); beside them the plain first-due claim (db/lease-claim.ts) the outbox used before, on the same
// rows. Needs a current build (npm run build).
//   node bench/webhook-claim.mjs [--backlog 100000] [--accounts 100] [--history 200] [--claims 50]
//                                [--database sqlite|postgres|both]
// Every claim is given back before the next (the rows' leases cleared), so each one sees the same queue:
// the backlog endpoint with its 4 pushes in flight (at its cap), or with none ("cold").
import { parseArgs } from 'node:util';
import { createDatabase } from './lib/database.mjs';
import { migrate, openDatabase } from '../dist/db/database.js';
import { claimLeased } from '../dist/db/lease-claim.js';
import { WebhookOutboxRepo } from '../dist/db/webhook-outbox-repo.js';
import { PUSHES_PER_ACCOUNT, PUSHES_PER_ENDPOINT } from '../dist/webhooks/dispatch-limits.js';

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
const CAPS = { perEndpoint: PUSHES_PER_ENDPOINT, perAccount: PUSHES_PER_ACCOUNT };

for (const kind of values.database === 'both' ? ['sqlite', 'postgres'] : [values.database]) {
  const { url, drop } = await createDatabase(kind, 'claim');
  const db = openDatabase(url);
  try {
    await migrate(db);
    await seed(db.kysely, kind);
    const outbox = new WebhookOutboxRepo(db.kysely, db.dialect);
    const k = db.kysely;
    const release = () =>
      k
        .updateTable('webhook_outbox')
        .set({ lease_owner: null, lease_expires_at: null })
        .where('lease_owner', 'is not', null)
        .execute();
    const rows = await k
      .selectFrom('webhook_outbox')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('next_attempt_at', 'is not', null)
      .executeTakeFirst();
    console.log(
      `${kind}: ${Number(rows.n).toLocaleString('en-US')} pending pushes, ${backlog.toLocaleString('en-US')} of them on one endpoint, ${others} other accounts`,
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
        `  ${label.padEnd(46)} median ${times[Math.floor(times.length / 2)].toFixed(2)} ms, p90 ${times[Math.floor(times.length * 0.9)].toFixed(2)} ms; took ${taken.length} (${backlogTaken} of the backlog account)`,
      );
    };
    // The backlog endpoint at its cap: 4 of its oldest pushes leased to a dispatcher still sending them.
    const atCap = async () => {
      await release();
      const oldest = await k
        .selectFrom('webhook_outbox')
        .select('id')
        .where('webhook_id', '=', 'hook-backlog')
        .orderBy('next_attempt_at')
        .limit(4)
        .execute();
      await k
        .updateTable('webhook_outbox')
        .set({ lease_owner: 'busy', lease_expires_at: NOW + 60_000 })
        .where(
          'id',
          'in',
          oldest.map((r) => r.id),
        )
        .execute();
    };
    await measure(
      'fair claim of 20, backlog endpoint cold',
      () => outbox.claimDue('d', NOW, NOW + 60_000, 20, CAPS),
      release,
    );
    await measure(
      'fair claim of 20, backlog endpoint at its cap',
      () => outbox.claimDue('d', NOW, NOW + 60_000, 20, CAPS),
      atCap,
    );
    await measure(
      'fair claim of 1, backlog endpoint cold',
      () => outbox.claimDue('d', NOW, NOW + 60_000, 1, CAPS),
      release,
    );
    await measure(
      'fair claim of 1, backlog endpoint at its cap',
      () => outbox.claimDue('d', NOW, NOW + 60_000, 1, CAPS),
      atCap,
    );
    await measure(
      'first-due claim of 20 (before), for reference',
      () =>
        claimLeased(
          k,
          db.dialect,
          {
            table: 'webhook_outbox',
            due: 'next_attempt_at',
            owner: 'lease_owner',
            until: 'lease_expires_at',
          },
          'd',
          NOW,
          NOW + 60_000,
          20,
        ),
      release,
    );
  } finally {
    await db.close();
    await drop();
  }
}

/**
 * The backlog account: one endpoint with `backlog` pending pushes (replays of one event), all due and
 * older than anything else; 100 accounts with one endpoint and 2 due pushes each; and a history of
 * delivered pushes (not pending) on every endpoint, as a real outbox keeps until retention.
 */
async function seed(k, kind) {
  const { sql } = await import('kysely');
  const accounts = ['backlog', ...Array.from({ length: others }, (_, i) => `o${String(i).padStart(3, '0')}`)];
  for (const a of accounts) {
    await k
      .insertInto('accounts')
      .values({
        id: `acct-${a}`,
        email: `${a}@bench.example`,
        plan: 'scale',
        state: 'production',
        created_at: 1,
      })
      .execute();
    await k
      .insertInto('webhooks')
      .values({
        id: `hook-${a}`,
        account_id: `acct-${a}`,
        url: 'https://hooks.example.com/',
        description: '',
        event_types: ',email.delivered,',
        enabled: 1,
        disabled_reason: null,
        secret: 'sealed',
        previous_secret: null,
        previous_secret_until: null,
        created_at: 1,
        updated_at: 1,
      })
      .execute();
    await k
      .insertInto('messages')
      .values({
        id: `msg-${a}`,
        account_id: `acct-${a}`,
        status: 'delivered',
        from_name: '',
        from_email: 'noreply@acme.example',
        from_domain: 'acme.example',
        to_name: '',
        to_email: 'someone@dest.example',
        to_domain: 'dest.example',
        subject: 's',
        created_at: 1,
        updated_at: 1,
        attempts: 1,
        next_attempt_at: null,
        lease_owner: null,
        lease_expires_at: null,
      })
      .execute();
    await k
      .insertInto('events')
      .values({
        id: `evt-${a}`,
        message_id: `msg-${a}`,
        account_id: `acct-${a}`,
        type: 'email.delivered',
        created_at: 1,
        data: '{}',
      })
      .execute();
  }
  const cast = kind === 'postgres' ? (x) => sql`cast(${x} as bigint)` : (x) => x;
  const series = (n, body) =>
    sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < ${cast(n)}) ${body}`.execute(
      k,
    );
  // The backlog: due from NOW − backlog ms on, one per ms.
  await series(
    backlog,
    sql`insert into webhook_outbox (id, webhook_id, event_id, account_id, status, attempts, created_at, next_attempt_at, replay)
        select 'evt-backlog:hook-backlog:' || i, 'hook-backlog', 'evt-backlog', 'acct-backlog', 'pending', 0, 1, ${NOW - backlog} + i, 1 from n`,
  );
  for (const a of accounts.slice(1)) {
    // Each other account: 2 due pushes, newer than the whole backlog, and `history` delivered ones.
    await series(
      2,
      sql`insert into webhook_outbox (id, webhook_id, event_id, account_id, status, attempts, created_at, next_attempt_at, replay)
          select ${`evt-${a}:hook-${a}:`} || i, ${`hook-${a}`}, ${`evt-${a}`}, ${`acct-${a}`}, 'pending', 0, 1, ${NOW - 10} + i, 1 from n`,
    );
    await series(
      history,
      sql`insert into webhook_outbox (id, webhook_id, event_id, account_id, status, attempts, created_at, next_attempt_at, replay)
          select ${`evt-${a}:hook-${a}:done-`} || i, ${`hook-${a}`}, ${`evt-${a}`}, ${`acct-${a}`}, 'delivered', 1, 1, null, 1 from n`,
    );
  }
  // PostgreSQL's autovacuum keeps statistics; txmail never runs ANALYZE on SQLite, so neither does this.
  if (kind === 'postgres') await sql`analyze`.execute(k);
}
