#!/usr/bin/env node
// bench/log-recipient: the log's search for one recipient (GET /api/emails?to=…) in a large log, on
// both databases. One account holds N messages to 500 domains, one of them to the address searched for.
// The reference is the search as it was, by the address alone (the account's log read newest first,
// row by row, to its end); beside it the search as the route now makes it, with the address's domain,
// a range of the messages_account_to_domain index. Needs a current build (npm run build).
//   node bench/log-recipient.mjs [--messages 300000] [--runs 7] [--database sqlite|postgres|both]
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { createDatabase } from './lib/database.mjs';
import { machine } from './lib/harness.mjs';
import { migrate, openDatabase } from '../dist/db/database.js';
import { MessagesRepo } from '../dist/db/messages-repo.js';
import { newId } from '../dist/ids.js';

const { values } = parseArgs({
  options: {
    messages: { type: 'string', default: '300000' },
    runs: { type: 'string', default: '7' },
    database: { type: 'string', default: 'both' },
  },
});
const N = Number(values.messages);
const RUNS = Number(values.runs);
const ACCOUNT = 'acct-log';
const DOMAINS = 500;
const kinds = values.database === 'both' ? ['sqlite', 'postgres'] : [values.database];

console.log(
  `bench/log-recipient — ${machine()}; ${N} messages to ${DOMAINS} domains in one account; ${RUNS} runs each`,
);
for (const kind of kinds) {
  const { url, drop } = await createDatabase(kind, 'logrcpt');
  const db = openDatabase(url);
  try {
    await migrate(db);
    await db.kysely
      .insertInto('accounts')
      .values({ id: ACCOUNT, email: 'log@bench.example', plan: 'scale', state: 'production', created_at: 1 })
      .execute();
    // Seeded directly: the bench measures reading. The address searched for is among the oldest.
    const row = (i) => {
      const at = 1_700_000_000_000 + i * 1000;
      const domain = `dest${i % DOMAINS}.example`;
      return {
        id: newId(),
        account_id: ACCOUNT,
        status: 'delivered',
        from_name: '',
        from_email: 'noreply@acme.example',
        from_domain: 'acme.example',
        to_name: '',
        to_email: i === 10 ? 'rare@dest10.example' : `user${i}@${domain}`,
        to_domain: domain,
        subject: `Receipt ${i}`,
        created_at: at,
        updated_at: at,
        attempts: 1,
        next_attempt_at: null,
        lease_owner: null,
        lease_expires_at: null,
        category: null,
      };
    };
    for (let i = 0; i < N; i += 500) {
      const batch = Array.from({ length: Math.min(500, N - i) }, (_, j) => row(i + j));
      await db.kysely.insertInto('messages').values(batch).execute();
    }
    if (kind === 'postgres') await sql`analyze messages`.execute(db.kysely);
    const repo = new MessagesRepo(db.kysely, db.dialect, db.kysely);
    const ways = [
      ['by the address alone (as before)', { toEmail: 'rare@dest10.example' }],
      ['with its domain (the route now)', { toEmail: 'rare@dest10.example', toDomain: 'dest10.example' }],
    ];
    for (const [label, filter] of ways) {
      const times = [];
      for (let r = 0; r < RUNS; r++) {
        const start = performance.now();
        const found = await repo.list(ACCOUNT, filter, 51);
        times.push(performance.now() - start);
        if (found.length !== 1) throw new Error(`found ${found.length} messages, not 1`);
      }
      times.sort((a, b) => a - b);
      const ms = (t) => t.toFixed(2);
      console.log(
        `${kind.padEnd(9)} ${label.padEnd(34)} median ${ms(times[Math.floor(RUNS / 2)])} ms (min ${ms(times[0])}, max ${ms(times.at(-1))})`,
      );
    }
  } finally {
    await db.close();
    await drop();
  }
}
