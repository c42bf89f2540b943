#!/usr/bin/env node
// bench/recovery: how long acknowledged mail waits after `kill -9` under load (process-registry.ts).
//   restart (default; SQLite or PostgreSQL): `txmail serve` accepts N messages (all answered 200), is
//     killed with SIGKILL mid-delivery and started again; prints how many messages were leased at the
//     kill and the time from the restart until every acknowledged message is delivered.
//   takeover (PostgreSQL): `txmail api` and two `txmail worker`s; one worker is killed mid-delivery and
//     never restarted; prints the time until the other has delivered everything.
// Every build named runs in turn (compare with a tree of main, whose leases last 600 s: `--give-up`
// ends a run that has not finished by then, printing what was still waiting).
//   node bench/recovery.mjs [--messages 3000] [--database sqlite|postgres] [--mode restart|takeover]
//                           [--give-up 60] [--kill-at 0.5 (share delivered at the kill)]
//                           [--build label=/path/to/tree ...]
import { parseArgs } from 'node:util';
import pino from 'pino';
import { createDatabase } from './lib/database.mjs';
import { freePort, machine, start, waitForHttp } from './lib/harness.mjs';
import { poster, postAll } from './lib/post.mjs';
import { startSink } from './lib/sink.mjs';
import { createBenchTenant } from './lib/tenant.mjs';

const { values } = parseArgs({
  options: {
    messages: { type: 'string', default: '3000' },
    database: { type: 'string', default: 'sqlite' },
    mode: { type: 'string', default: 'restart' },
    'give-up': { type: 'string', default: '60' },
    'kill-at': { type: 'string', default: '0.5' },
    build: { type: 'string', multiple: true },
  },
});
const N = Number(values.messages);
const KILL_AT = Number(values['kill-at']);
const GIVE_UP_MS = Number(values['give-up']) * 1000;
const here = new URL('..', import.meta.url).pathname;
const builds = (values.build ?? [`registry=${here}`]).map((b) => {
  const [label, path] = b.split('=');
  return { label, root: path.endsWith('/') ? path : `${path}/` };
});
if (values.mode === 'takeover' && values.database !== 'postgres')
  throw new Error('--mode takeover needs --database postgres (SQLite has one writing process)');

console.log(
  `bench/recovery — ${machine()}; database ${values.database}; mode ${values.mode}; ${N} messages acknowledged, then kill -9 mid-delivery`,
);
const sink = await startSink();
/** Each build's run gets its own database. */
let runs = 0;
for (const build of builds) {
  const r = await scenario(build);
  const leasedAfter =
    r.leasedDoneMs === undefined ? 'not all' : `all within ${(r.leasedDoneMs / 1000).toFixed(1)} s`;
  const after =
    r.doneMs === undefined
      ? `not all delivered after ${GIVE_UP_MS / 1000} s`
      : `all delivered ${(r.doneMs / 1000).toFixed(1)} s`;
  console.log(
    `${build.label.padEnd(9)} ${r.deliveredAtKill}/${N} delivered and ${r.leasedAtKill} leased at the kill; ` +
      `of those ${leasedAfter}, and ${after} after ${values.mode === 'restart' ? 'the restart began' : 'the kill'} ` +
      `(still waiting: ${r.waitingAt10s} at 10 s, ${r.waitingAt20s} at 20 s)`,
  );
}
sink.stop();

async function scenario({ root }) {
  const { parseConfig } = await import(`${root}dist/config.js`);
  const { createServices } = await import(`${root}dist/services.js`);
  const database = await createDatabase(values.database, `recovery${++runs}`);
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
  const services = await createServices(config, { logger: pino({ level: 'silent' }) });
  const key = await createBenchTenant(services, 'codes@acme.example');
  const count = async (where) => {
    let q = services.db.kysely.selectFrom('messages').select((eb) => eb.fn.countAll().as('n'));
    q = where(q);
    return Number((await q.executeTakeFirstOrThrow()).n);
  };
  const delivered = () => count((q) => q.where('status', '=', 'delivered'));

  const bin = `${root}bin/txmail`;
  const port = await freePort();
  const http = { ...env, TXMAIL_HTTP_PORT: String(port) };
  const children = [];
  const run = (role, extra = {}) => {
    const p = start(process.execPath, [bin, role], { ...env, ...extra });
    children.push(p);
    return p;
  };
  let victim;
  if (values.mode === 'restart') {
    victim = run('serve', http);
  } else {
    run('api', http);
    victim = run('worker');
    run('worker');
  }
  await waitForHttp(`http://127.0.0.1:${port}/healthz`);
  const base = sink.count;
  await postAll(poster([port], key), N);
  // Mid-delivery: KILL_AT of the acknowledged messages have arrived.
  await sink.reaches(base + Math.ceil(N * KILL_AT));
  victim.child.kill('SIGKILL');
  await victim.exited;
  const leased = (
    await services.db.kysely
      .selectFrom('messages')
      .select('id')
      .where('lease_owner', 'is not', null)
      .where('next_attempt_at', 'is not', null)
      .execute()
  ).map((r) => r.id);
  const leasedAtKill = await count((q) =>
    q.where('lease_owner', 'is not', null).where('next_attempt_at', 'is not', null),
  );
  const deliveredAtKill = await delivered();

  const t0 = Date.now();
  if (values.mode === 'restart') {
    run('serve', http);
  }
  let doneMs;
  let leasedDoneMs;
  let waitingAt10s;
  let waitingAt20s;
  for (;;) {
    const n = await delivered();
    const elapsed = Date.now() - t0;
    if (leasedDoneMs === undefined && (await leasedLeft(services, leased)) === 0) leasedDoneMs = elapsed;
    if (waitingAt10s === undefined && elapsed >= 10_000) waitingAt10s = N - n;
    if (waitingAt20s === undefined && elapsed >= 20_000) waitingAt20s = N - n;
    if (n === N) {
      doneMs = elapsed;
      break;
    }
    if (elapsed > GIVE_UP_MS) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  waitingAt10s ??= 0;
  waitingAt20s ??= 0;
  for (const c of children) {
    if (c.child.exitCode === null && c.child.signalCode === null) {
      c.child.kill('SIGTERM');
      await c.exited;
    }
  }
  await services.close();
  await database.drop();
  return { leasedAtKill, deliveredAtKill, doneMs, leasedDoneMs, waitingAt10s, waitingAt20s };
}

/** How many of the messages leased at the kill are not delivered yet. */
async function leasedLeft(services, ids) {
  let left = 0;
  for (let i = 0; i < ids.length; i += 500) {
    const row = await services.db.kysely
      .selectFrom('messages')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('id', 'in', ids.slice(i, i + 500))
      .where('status', '!=', 'delivered')
      .executeTakeFirstOrThrow();
    left += Number(row.n);
  }
  return left;
}
