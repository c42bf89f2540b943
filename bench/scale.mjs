#!/usr/bin/env node
// bench/scale: txmail on PostgreSQL as separate processes: two `txmail api` and one, then two,
// `txmail worker` processes sharing one database, delivering DKIM-signed mail through a relay into
// Postfix's smtp-sink. Prints messages per second from the first request to the last delivery for each
// worker count, with where the time went: each role's CPU per message (the API processes, the workers
// with their signing threads, PostgreSQL's backends serving them) and what those backends were doing
// (running, waiting for a lock, for the WAL, or for the client inside a transaction: lib/pg-observer.mjs);
// then accept→delivered latency at a steady rate with two workers.
//   node bench/scale.mjs [--messages 10000] [--rate 200] [--rate-seconds 10]
// BENCH_PROFILE_DIR=dir writes a CPU profile of each txmail process there (named by role, worker count and index).
import { parseArgs } from 'node:util';
import pino from 'pino';
import { parseConfig } from '../dist/config.js';
import { createServices } from '../dist/services.js';
import { processMs } from './lib/cpu.mjs';
import { createDatabase } from './lib/database.mjs';
import { freePort, machine, start, waitForHttp } from './lib/harness.mjs';
import { describePostgres, observePostgres, withApplicationName } from './lib/pg-observer.mjs';
import { latencies, postAll, postSteady, poster } from './lib/post.mjs';
import { startSink } from './lib/sink.mjs';
import { createBenchTenant } from './lib/tenant.mjs';

const { values } = parseArgs({
  options: {
    messages: { type: 'string', default: '10000' },
    rate: { type: 'string', default: '200' },
    'rate-seconds': { type: 'string', default: '10' },
  },
});
const TOTAL = Number(values.messages);
const RATE = Number(values.rate);
const RATE_SECONDS = Number(values['rate-seconds']);
const bin = new URL('../bin/txmail', import.meta.url).pathname;
const profile = (role) =>
  process.env.BENCH_PROFILE_DIR
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`, `--cpu-prof-name=${role}.cpuprofile`]
    : [];

console.log(`bench/scale — ${machine()}; PostgreSQL; 2 API processes; ${TOTAL} messages per run`);
const sink = await startSink();

for (const workers of [1, 2]) {
  await withDeployment(workers, async ({ post, services, roles, applicationName }) => {
    const base = sink.count;
    const observer = await observePostgres(applicationName);
    const cpuBefore = roleCpu(roles);
    const t0 = Date.now();
    await postAll(post, TOTAL);
    const accepted = Date.now();
    const t1 = await sink.reaches(base + TOTAL);
    const cpuAfter = roleCpu(roles);
    const observed = await observer.stop();
    const rate = TOTAL / ((t1 - t0) / 1000);
    console.log(
      `${workers} worker${workers > 1 ? 's' : ' '}          ${rate.toFixed(0).padStart(6)} msg/s   (accepted all in ${((accepted - t0) / 1000).toFixed(1)} s, delivered all in ${((t1 - t0) / 1000).toFixed(1)} s)`,
    );
    const perMessage = (role) => ((cpuAfter[role] - cpuBefore[role]) / TOTAL).toFixed(3);
    console.log(
      `  CPU per message: API processes ${perMessage('api')} ms, worker processes ${perMessage('worker')} ms ` +
        `(${workers} × ${((cpuAfter.worker - cpuBefore.worker) / workers / TOTAL).toFixed(3)})`,
    );
    console.log(`  ${describePostgres(observed, TOTAL).replaceAll('\n', '\n  ')}`);
    if (workers !== 2) return;
    const since = await postSteady(post, RATE, RATE_SECONDS);
    await sink.reaches(base + TOTAL + RATE * RATE_SECONDS);
    await new Promise((r) => setTimeout(r, 500)); // the last records
    const lat = await latencies(services, since);
    console.log(
      `latency @${RATE}/s     accept→delivered p50 ${lat.p50} ms, p99 ${lat.p99} ms, max ${lat.max} ms (${lat.count} messages, 2 API + 2 workers)`,
    );
  });
}
sink.stop();

/** CPU so far of each role's processes (all their threads), in ms. */
function roleCpu(roles) {
  const sum = (procs) => procs.reduce((a, p) => a + processMs(p.child.pid), 0);
  return { api: sum(roles.api), worker: sum(roles.worker) };
}

/** A fresh schema, a tenant, two API processes and `workers` worker processes; torn down after. */
async function withDeployment(workers, fn) {
  const database = await createDatabase('postgres', `scale${workers}`);
  const applicationName = `txmail-bench-scale-${process.pid}-${workers}`;
  const env = {
    TXMAIL_DATABASE_URL: withApplicationName(database.url, applicationName),
    TXMAIL_HOSTNAME: 'mta.bench.example',
    TXMAIL_SECRET_KEY: 'b'.repeat(64),
    TXMAIL_RELAY_URL: `smtp://127.0.0.1:${sink.port}`,
    TXMAIL_RATE_LIMIT: '0',
    TXMAIL_LOG_LEVEL: 'warn',
  };
  // The bench's own connections (set-up, latencies) are not the deployment's: no application name.
  const services = await createServices(parseConfig({ ...env, TXMAIL_DATABASE_URL: database.url }), {
    logger: pino({ level: 'silent' }),
  });
  const key = await createBenchTenant(services, 'bench@acme.example');
  const ports = [await freePort(), await freePort()];
  const roles = {
    api: ports.map((port, i) =>
      start(process.execPath, [...profile(`api-${workers}-${i}`), bin, 'api'], {
        ...env,
        TXMAIL_HTTP_PORT: String(port),
      }),
    ),
    worker: [],
  };
  for (let i = 0; i < workers; i++) {
    roles.worker.push(
      start(process.execPath, [...profile(`worker-${workers}-${i}`), bin, 'worker'], {
        ...env,
        TXMAIL_HTTP_PORT: String(await freePort()),
      }),
    );
  }
  const procs = [...roles.api, ...roles.worker];
  try {
    for (const port of ports) await waitForHttp(`http://127.0.0.1:${port}/healthz`);
    await fn({ post: poster(ports, key), services, roles, applicationName });
  } finally {
    for (const p of procs) p.child.kill('SIGTERM');
    await Promise.all(procs.map((p) => p.exited));
    await services.close();
    await database.drop();
  }
}
