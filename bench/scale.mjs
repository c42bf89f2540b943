#!/usr/bin/env node
// bench/scale: txmail on PostgreSQL as separate processes: two `txmail api` and one, then two,
// `txmail worker` processes sharing one database, delivering DKIM-signed mail through a relay into
// Postfix's smtp-sink. Prints messages per second from the first request to the last delivery for each
// worker count, then accept→delivered latency at a steady rate with two workers.
//   node bench/scale.mjs [--messages 10000] [--rate 200] [--rate-seconds 10]
import { parseArgs } from 'node:util';
import pino from 'pino';
import pg from 'pg';
import { parseConfig } from '../dist/config.js';
import { createServices } from '../dist/services.js';
import { freePort, machine, start, waitForHttp } from './lib/harness.mjs';
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
const ADMIN = 'postgres://postgres@127.0.0.1:5432/test';
const bin = new URL('../bin/txmail', import.meta.url).pathname;

console.log(`bench/scale — ${machine()}; PostgreSQL; 2 API processes; ${TOTAL} messages per run`);
const sink = await startSink();

for (const workers of [1, 2]) {
  await withDeployment(workers, async ({ post, services }) => {
    const base = sink.count;
    const t0 = Date.now();
    await postAll(post, TOTAL);
    const accepted = Date.now();
    const t1 = await sink.reaches(base + TOTAL);
    const rate = TOTAL / ((t1 - t0) / 1000);
    console.log(
      `${workers} worker${workers > 1 ? 's' : ' '}          ${rate.toFixed(0).padStart(6)} msg/s   (accepted all in ${((accepted - t0) / 1000).toFixed(1)} s, delivered all in ${((t1 - t0) / 1000).toFixed(1)} s)`,
    );
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

/** A fresh schema, a tenant, two API processes and `workers` worker processes; torn down after. */
async function withDeployment(workers, fn) {
  const schema = `bench_scale_${process.pid}_${workers}`;
  await admin(`create schema ${schema}`);
  const env = {
    TXMAIL_DATABASE_URL: `${ADMIN}?options=-c%20search_path%3D${schema}`,
    TXMAIL_HOSTNAME: 'mta.bench.example',
    TXMAIL_SECRET_KEY: 'b'.repeat(64),
    TXMAIL_RELAY_URL: `smtp://127.0.0.1:${sink.port}`,
    TXMAIL_RATE_LIMIT: '0',
    TXMAIL_LOG_LEVEL: 'warn',
  };
  const services = await createServices(parseConfig(env), { logger: pino({ level: 'silent' }) });
  const key = await createBenchTenant(services, 'bench@acme.example');
  const ports = [await freePort(), await freePort()];
  const procs = ports.map((port) =>
    start(process.execPath, [bin, 'api'], { ...env, TXMAIL_HTTP_PORT: String(port) }),
  );
  for (let i = 0; i < workers; i++) {
    procs.push(
      start(process.execPath, [bin, 'worker'], { ...env, TXMAIL_HTTP_PORT: String(await freePort()) }),
    );
  }
  try {
    for (const port of ports) await waitForHttp(`http://127.0.0.1:${port}/healthz`);
    await fn({ post: poster(ports, key), services });
  } finally {
    for (const p of procs) p.child.kill('SIGTERM');
    await Promise.all(procs.map((p) => p.exited));
    await services.close();
    await admin(`drop schema ${schema} cascade`);
  }
}

async function admin(text) {
  const c = new pg.Client({ connectionString: ADMIN });
  await c.connect();
  await c.query(text);
  await c.end();
}
