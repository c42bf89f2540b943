#!/usr/bin/env node
// bench/accept: requests per second and latency of POST /api/email/send at 50 connections, against a
// bare Node.js JSON server measured in the same run; then checks every 2xx is stored in the database.
//   node bench/accept.mjs [--seconds 10] [--connections 50] [--database sqlite|postgres] [--profile DIR]
// --profile writes a V8 CPU profile of the txmail process into DIR (open it in Chrome DevTools).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pino from 'pino';
import pg from 'pg';
import { parseConfig } from '../dist/config.js';
import { createServices } from '../dist/services.js';
import { createBenchTenant } from './lib/tenant.mjs';
import { freePort, machine, start, waitForHttp, wrk } from './lib/harness.mjs';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    database: { type: 'string', default: 'sqlite' },
    profile: { type: 'string' },
  },
});
const seconds = Number(values.seconds);
const connections = Number(values.connections);

const dir = mkdtempSync(join(tmpdir(), 'txmail-bench-'));
let databaseUrl = `sqlite:${join(dir, 'txmail.db')}`;
let pgSchema;
if (values.database === 'postgres') {
  pgSchema = `bench_${process.pid}`;
  const admin = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/test' });
  await admin.connect();
  await admin.query(`create schema ${pgSchema}`);
  await admin.end();
  databaseUrl = `postgres://postgres@127.0.0.1:5432/test?options=-c%20search_path%3D${pgSchema}`;
}
const config = parseConfig({ TXMAIL_DATABASE_URL: databaseUrl, TXMAIL_HOSTNAME: 'mta.bench.example' });

// Production accounts with a verified domain: one for the warm-up, one for the measured run, so
// neither reaches the scale plan's monthly cap.
let services = await createServices(config, { logger: pino({ level: 'silent' }) });
const warmKey = await createBenchTenant(services, 'warmup@acme.example', { dkim: false });
const key = await createBenchTenant(services, 'bench@acme.example', { dkim: false });
// The measured run sends more than the scale plan's 100,000 a month: start its count a million below
// zero, so every request is judged by the whole send path and none is refused by the cap.
const benchAccount = await services.repos.accounts.findByEmail('bench@acme.example');
await services.db.kysely
  .insertInto('usage')
  .values({ account_id: benchAccount.id, month: new Date().toISOString().slice(0, 7), sent: -1_000_000 })
  .execute();
await services.close();

console.log(
  `bench/accept — ${machine()}; ${connections} connections, ${seconds} s per run, database ${values.database}`,
);

// Reference: the bare server.
const barePort = await freePort();
const bare = start(process.execPath, [new URL('./lib/bare-server.mjs', import.meta.url).pathname], {
  PORT: String(barePort),
});
await waitForHttp(`http://127.0.0.1:${barePort}/`);
await wrk(`http://127.0.0.1:${barePort}/`, { connections, seconds: 2 });
const ref = await wrk(`http://127.0.0.1:${barePort}/`, { connections, seconds });
bare.child.kill('SIGTERM');
await bare.exited;

// txmail, as `txmail api`.
const port = await freePort();
const txmailBin = new URL('../bin/txmail', import.meta.url).pathname;
const profileArgs = values.profile ? ['--cpu-prof', `--cpu-prof-dir=${values.profile}`] : [];
const api = start(process.execPath, [...profileArgs, txmailBin, 'api'], {
  TXMAIL_DATABASE_URL: databaseUrl,
  TXMAIL_HOSTNAME: 'mta.bench.example',
  TXMAIL_HTTP_PORT: String(port),
  TXMAIL_RATE_LIMIT: '0',
  TXMAIL_LOG_LEVEL: 'warn',
});
await waitForHttp(`http://127.0.0.1:${port}/healthz`);
const sendUrl = `http://127.0.0.1:${port}/api/email/send`;
const warm = await wrk(sendUrl, { connections, seconds: 2, key: warmKey });
const tx = await wrk(sendUrl, { connections, seconds, key });
api.child.kill('SIGTERM');
await api.exited;

// Every acknowledged message must be in the database.
services = await createServices(config, { logger: pino({ level: 'silent' }), migrate: false });
const { count } = await services.db.kysely
  .selectFrom('messages')
  .select((eb) => eb.fn.countAll().as('count'))
  .executeTakeFirstOrThrow();
await services.close();
const acked = warm.ok + tx.ok;

const fmt = (r) =>
  `${r.rps.toFixed(0).padStart(7)} req/s   p50 ${r.p50_ms.toFixed(2)} ms   p99 ${r.p99_ms.toFixed(2)} ms   max ${r.max_ms.toFixed(1)} ms   non-2xx ${r.other}   socket errors ${r.errors}`;
console.log(`bare node server   ${fmt(ref)}`);
console.log(`txmail send route  ${fmt(tx)}`);
console.log(
  `ratio              ${(tx.rps / ref.rps).toFixed(2)}× the bare server (target ≥ 0.35×); p99 target ≤ 15 ms`,
);
console.log(
  `durability         ${acked} acknowledged, ${Number(count)} stored${Number(count) >= acked ? ' — none lost' : ' — LOST MESSAGES'}`,
);

if (pgSchema) {
  const admin = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/test' });
  await admin.connect();
  await admin.query(`drop schema ${pgSchema} cascade`);
  await admin.end();
}
rmSync(dir, { recursive: true, force: true });
process.exitCode = Number(count) >= acked ? 0 : 1;
