#!/usr/bin/env node
// bench/fairness: one tenant's trickle while another tenant's burst drains, on `txmail serve`. Tenant A
// posts a burst (50 requests in flight); tenant B posts single messages at a steady rate from the
// burst's start until A's burst is delivered. Prints B's accept→delivered p50/p99/max (and A's, for
// scale), each from the message's acceptance (its row's created_at, just before the 200) to its
// email.delivered event. Every build named runs the same scenario on a fresh database, in turn, in the
// same run: compare the fair claim (this tree) with a build of main that claims first-due.
//   node bench/fairness.mjs [--burst 10000] [--rate 5] [--database sqlite|postgres]
//                           [--build label=/path/to/tree ...]   (default: this tree, as "fair")
import { parseArgs } from 'node:util';
import pino from 'pino';
import { createDatabase } from './lib/database.mjs';
import { createBenchTenant } from './lib/tenant.mjs';
import { poster, postAll } from './lib/post.mjs';
import { startSink } from './lib/sink.mjs';
import { freePort, machine, start, waitForHttp } from './lib/harness.mjs';

const { values } = parseArgs({
  options: {
    burst: { type: 'string', default: '10000' },
    rate: { type: 'string', default: '5' },
    database: { type: 'string', default: 'sqlite' },
    build: { type: 'string', multiple: true },
  },
});
const BURST = Number(values.burst);
const RATE = Number(values.rate);
const here = new URL('..', import.meta.url).pathname;
const builds = (values.build ?? [`fair=${here}`]).map((b) => {
  const [label, path] = b.split('=');
  return { label, root: path.endsWith('/') ? path : `${path}/` };
});

console.log(
  `bench/fairness — ${machine()}; database ${values.database}; A bursts ${BURST}, B sends ${RATE}/s meanwhile`,
);
const sink = await startSink();
/** Each build's run gets its own database. */
let runs = 0;
for (const build of builds) {
  const r = await scenario(build);
  const f = (l) => `p50 ${l.p50} ms, p99 ${l.p99} ms, max ${l.max} ms (${l.count} messages)`;
  console.log(`${build.label.padEnd(8)} B (trickle) accept→delivered ${f(r.b)}`);
  console.log(
    `${''.padEnd(8)} A (burst)   accept→delivered ${f(r.a)}; burst drained in ${(r.drainedMs / 1000).toFixed(1)} s`,
  );
  console.log(
    `${''.padEnd(8)} B within 2 s: ${r.b.within2s}/${r.b.count}; B delivered before the burst drained: ${r.bBeforeDrained}/${r.b.count}`,
  );
}
sink.stop();

async function scenario({ root }) {
  const { parseConfig } = await import(`${root}dist/config.js`);
  const { createServices } = await import(`${root}dist/services.js`);
  const database = await createDatabase(values.database, `fair${++runs}`);
  const env = {
    TXMAIL_DATABASE_URL: database.url,
    TXMAIL_HOSTNAME: 'mta.bench.example',
    TXMAIL_SECRET_KEY: 'b'.repeat(64),
    TXMAIL_RELAY_URL: `smtp://127.0.0.1:${sink.port}`,
    TXMAIL_RATE_LIMIT: '0',
    TXMAIL_LOG_LEVEL: 'warn',
    TXMAIL_INBOUND_HOST: '127.0.0.1',
    TXMAIL_INBOUND_PORT: '0',
  };
  const config = parseConfig(env);
  let services = await createServices(config, { logger: pino({ level: 'silent' }) });
  const keyA = await createBenchTenant(services, 'burst@acme.example');
  const keyB = await createBenchTenant(services, 'trickle@beta.example', { domain: 'beta.example' });
  const accountA = (await services.repos.accounts.findByEmail('burst@acme.example')).id;
  const accountB = (await services.repos.accounts.findByEmail('trickle@beta.example')).id;
  await services.close();

  const port = await freePort();
  const server = start(process.execPath, [`${root}bin/txmail`, 'serve'], {
    ...env,
    TXMAIL_HTTP_PORT: String(port),
  });
  await waitForHttp(`http://127.0.0.1:${port}/healthz`);
  const postA = poster([port], keyA);
  const postB = poster([port], keyB, { from: 'Beta <codes@beta.example>' });

  const base = sink.count;
  const t0 = Date.now();
  let bPosted = 0;
  const bPending = [];
  const burst = postAll(postA, BURST);
  // B: one message every 1/RATE s until every message posted so far (A's and B's) is delivered.
  for (let i = 0; ; i++) {
    const wait = t0 + (i * 1000) / RATE - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    if (i > 0 && sink.count - base >= BURST + bPosted) break;
    bPosted++;
    bPending.push(postB());
  }
  await burst;
  await Promise.all(bPending);
  await sink.reaches(base + BURST + bPosted);
  await new Promise((r) => setTimeout(r, 500)); // the last deliveries' records
  server.child.kill('SIGTERM');
  await server.exited;

  services = await createServices(config, { logger: pino({ level: 'silent' }), migrate: false });
  const a = await latencies(services, accountA);
  const b = await latencies(services, accountB);
  await services.close();
  await database.drop();
  if (a.count !== BURST || b.count !== bPosted)
    throw new Error(`delivered ${a.count}/${BURST} of A's and ${b.count}/${bPosted} of B's`);
  return {
    a,
    b,
    drainedMs: a.lastDelivered - t0,
    bBeforeDrained: b.delivered.filter((t) => t < a.lastDelivered).length,
  };
}

/** Accept→delivered of the account's messages, from its rows and their email.delivered events. */
async function latencies(services, accountId) {
  const rows = await services.db.kysely
    .selectFrom('messages')
    .innerJoin('events', 'events.message_id', 'messages.id')
    .select(['messages.created_at as accepted', 'events.created_at as delivered'])
    .where('events.type', '=', 'email.delivered')
    .where('messages.account_id', '=', accountId)
    .execute();
  const lat = rows.map((r) => Number(r.delivered) - Number(r.accepted)).sort((x, y) => x - y);
  const pct = (p) => lat[Math.min(lat.length - 1, Math.floor((p / 100) * lat.length))];
  const delivered = rows.map((r) => Number(r.delivered));
  return {
    p50: pct(50),
    p99: pct(99),
    max: lat.at(-1),
    count: lat.length,
    within2s: lat.filter((l) => l <= 2000).length,
    delivered,
    lastDelivered: Math.max(...delivered),
  };
}
