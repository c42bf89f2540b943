#!/usr/bin/env node
// bench/accept: requests per second and latency of POST /api/email/send at 50 connections, against a
// bare Node.js JSON server measured in the same run; then checks every 2xx is stored in the database.
//   node bench/accept.mjs [--seconds 10] [--rounds 3] [--connections 50] [--database sqlite|postgres]
//                         [--profile DIR]
// The two servers are measured in turn, round after round, and the medians compared: on a shared
// virtual machine the speed of both drifts by 10-20 % over minutes, and a single pair of runs can land
// on different sides of a drift. --profile writes a V8 CPU profile of the txmail process into DIR.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pino from 'pino';
import pg from 'pg';
import { parseConfig } from '../dist/config.js';
import { createServices } from '../dist/services.js';
import { processMs } from './lib/cpu.mjs';
import { createBenchTenant } from './lib/tenant.mjs';
import { freePort, machine, start, waitForHttp, wrk } from './lib/harness.mjs';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '50' },
    database: { type: 'string', default: 'sqlite' },
    profile: { type: 'string' },
  },
});
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const rounds = Number(values.rounds);

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
// The measured run sends more than the scale plan's 100,000 a month.
const key = await createBenchTenant(services, 'bench@acme.example', { dkim: false, uncapped: true });
await services.close();

console.log(
  `bench/accept — ${machine()}; ${connections} connections, ${seconds} s per run, database ${values.database}`,
);

// Reference: the bare server. Beside it, txmail as `txmail api`; each idles while the other is measured.
const barePort = await freePort();
const bare = start(process.execPath, [new URL('./lib/bare-server.mjs', import.meta.url).pathname], {
  PORT: String(barePort),
});
const bareUrl = `http://127.0.0.1:${barePort}/`;
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
await waitForHttp(bareUrl);
await waitForHttp(`http://127.0.0.1:${port}/healthz`);
const sendUrl = `http://127.0.0.1:${port}/api/email/send`;
await wrk(bareUrl, { connections, seconds: 2 });
const warm = await wrk(sendUrl, { connections, seconds: 2, key: warmKey });
const refs = [];
const txs = [];
for (let round = 1; round <= rounds; round++) {
  refs.push(await wrk(bareUrl, { connections, seconds }));
  const cpuBefore = processMs(api.child.pid);
  txs.push(await wrk(sendUrl, { connections, seconds, key }));
  const [r, t] = [refs.at(-1), txs.at(-1)];
  // The txmail process's CPU (all its threads, the accept thread included) per acknowledged request.
  t.cpu_us = ((processMs(api.child.pid) - cpuBefore) / Math.max(t.ok, 1)) * 1000;
  console.log(
    `round ${round}: bare ${r.rps.toFixed(0)} req/s, txmail ${t.rps.toFixed(0)} req/s (p99 ${t.p99_ms.toFixed(2)} ms, ${t.cpu_us.toFixed(0)} µs CPU per request), ${(t.rps / r.rps).toFixed(2)}×`,
  );
}
bare.child.kill('SIGTERM');
api.child.kill('SIGTERM');
await Promise.all([bare.exited, api.exited]);
const middle = (sorted) => sorted[Math.floor(sorted.length / 2)];
const median = (runs) => middle([...runs].sort((x, y) => x.rps - y.rps));
const ref = median(refs);
const tx = median(txs);
// The CPU's own median: the median-rate round's CPU may be any round's.
const cpuUs = middle(txs.map((t) => t.cpu_us).sort((x, y) => x - y));
// Each round's pair ran minutes apart at most: their ratio is what drift disturbs least.
const ratios = txs.map((t, i) => t.rps / refs[i].rps).sort((x, y) => x - y);
const ratio = middle(ratios);

// Every acknowledged message must be in the database.
services = await createServices(config, { logger: pino({ level: 'silent' }), migrate: false });
const { count } = await services.db.kysely
  .selectFrom('messages')
  .select((eb) => eb.fn.countAll().as('count'))
  .executeTakeFirstOrThrow();
await services.close();
const acked = warm.ok + txs.reduce((sum, t) => sum + t.ok, 0);

const fmt = (r) =>
  `${r.rps.toFixed(0).padStart(7)} req/s   p50 ${r.p50_ms.toFixed(2)} ms   p99 ${r.p99_ms.toFixed(2)} ms   max ${r.max_ms.toFixed(1)} ms   non-2xx ${r.other}   socket errors ${r.errors}`;
console.log(`median of ${rounds} runs each:`);
console.log(`bare node server   ${fmt(ref)}`);
console.log(`txmail send route  ${fmt(tx)}   ${cpuUs.toFixed(0)} µs CPU per request (median)`);
console.log(
  `ratio              ${ratio.toFixed(2)}× the bare server, median of the rounds (target ≥ 0.35×, aim 0.40×: docs/design.md §10); p99 target ≤ 15 ms`,
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
