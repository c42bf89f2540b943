#!/usr/bin/env node
// bench/e2e: messages per second from HTTP request to delivered, against Postfix relaying the same
// number of messages of the same size into the same sink (Postfix's smtp-sink), in the same run; then
// accept-to-delivered latency at a steady rate. Needs Debian's postfix package (smtp-sink, smtp-source).
//   node bench/e2e.mjs [--messages 20000] [--rate 200] [--rate-seconds 15] [--database sqlite|postgres]
//                      [--webhook]   (the tenant has a webhook endpoint, a local HTTP server: every
//                                     email.delivered is pushed too, and counted)
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, chownSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import http from 'node:http';
import { parseArgs } from 'node:util';
import pino from 'pino';
import pg from 'pg';
import { parseConfig } from '../dist/config.js';
import { createServices } from '../dist/services.js';
import { createBenchTenant } from './lib/tenant.mjs';
import { HTML, latencies, postAll, postSteady, poster } from './lib/post.mjs';
import { startSink } from './lib/sink.mjs';
import { freePort, machine, run, start, waitForHttp } from './lib/harness.mjs';

const { values } = parseArgs({
  options: {
    messages: { type: 'string', default: '20000' },
    rate: { type: 'string', default: '200' },
    'rate-seconds': { type: 'string', default: '15' },
    database: { type: 'string', default: 'sqlite' },
    webhook: { type: 'boolean', default: false },
  },
});
const TOTAL = Number(values.messages);
const RATE = Number(values.rate);
const RATE_SECONDS = Number(values['rate-seconds']);
const dir = mkdtempSync(join(tmpdir(), 'txmail-e2e-'));

// --- The sink: Postfix's smtp-sink, counting messages. ------------------------------------------
const sink = await startSink();
const sinkPort = sink.port;

console.log(`bench/e2e — ${machine()}; ${TOTAL} messages; database ${values.database}`);

// --- Reference: Postfix relaying into the sink. --------------------------------------------------
const size = messageSize();
const postfix = await startPostfix(sinkPort);
const pfBase = sink.count;
const pfStart = Date.now();
await run(
  'smtp-source',
  [
    '-s',
    '50',
    '-m',
    String(TOTAL),
    '-l',
    String(size),
    '-f',
    'noreply@acme.example',
    '-t',
    'jane@recipient.example',
    `127.0.0.1:${postfix.port}`,
  ],
  { maxBuffer: 1 << 24 },
);
const pfEnd = await sink.reaches(pfBase + TOTAL);
await postfix.stop();
const pfRate = TOTAL / ((pfEnd - pfStart) / 1000);
console.log(
  `postfix relay      ${pfRate.toFixed(0).padStart(6)} msg/s   (${TOTAL} × ${size} bytes in ${((pfEnd - pfStart) / 1000).toFixed(1)} s)`,
);

// --- txmail: HTTP → queue → DKIM → SMTP into the same sink. --------------------------------------
let databaseUrl = `sqlite:${join(dir, 'txmail.db')}`;
let pgSchema;
if (values.database === 'postgres') {
  pgSchema = `bench_e2e_${process.pid}`;
  await adminQuery(`create schema ${pgSchema}`);
  databaseUrl = `postgres://postgres@127.0.0.1:5432/test?options=-c%20search_path%3D${pgSchema}`;
}
const env = {
  TXMAIL_DATABASE_URL: databaseUrl,
  TXMAIL_HOSTNAME: 'mta.bench.example',
  TXMAIL_SECRET_KEY: 'b'.repeat(64),
  TXMAIL_RELAY_URL: `smtp://127.0.0.1:${sinkPort}`,
  TXMAIL_RATE_LIMIT: '0',
  TXMAIL_LOG_LEVEL: 'warn',
  // serve also runs the bounce receiver; any free port keeps it out of the way.
  TXMAIL_INBOUND_HOST: '127.0.0.1',
  TXMAIL_INBOUND_PORT: '0',
  ...(values.webhook ? { TXMAIL_ALLOW_PRIVATE_NETWORKS: 'true' } : {}),
};
const config = parseConfig(env);
let services = await createServices(config, { logger: pino({ level: 'silent' }) });
const key = await createBenchTenant(services, 'bench@acme.example');
// --webhook: an endpoint that answers 204 and counts the pushes it receives.
let pushes = 0;
let hookServer;
if (values.webhook) {
  hookServer = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      pushes++;
      res.writeHead(204).end();
    });
  });
  await new Promise((r) => hookServer.listen(0, '127.0.0.1', r));
  const account = await services.repos.accounts.findByEmail('bench@acme.example');
  await services.webhooks.create(account, { url: `http://127.0.0.1:${hookServer.address().port}/hook` });
}
await services.close();

const port = await freePort();
// BENCH_PROFILE_DIR=dir writes a CPU profile of the txmail process there.
const bin = new URL('../bin/txmail', import.meta.url).pathname;
const profile = process.env.BENCH_PROFILE_DIR
  ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`]
  : [];
const server = start(process.execPath, [...profile, bin, 'serve'], {
  ...env,
  TXMAIL_HTTP_PORT: String(port),
});
await waitForHttp(`http://127.0.0.1:${port}/healthz`);
const post = poster([port], key);

const txBase = sink.count;
const txStart = Date.now();
await postAll(post, TOTAL);
const acceptedAt = Date.now();
const txEnd = await sink.reaches(txBase + TOTAL);
const txRate = TOTAL / ((txEnd - txStart) / 1000);
console.log(
  `txmail e2e         ${txRate.toFixed(0).padStart(6)} msg/s   (accepted all in ${((acceptedAt - txStart) / 1000).toFixed(1)} s, delivered all in ${((txEnd - txStart) / 1000).toFixed(1)} s, DKIM-signed, durable)`,
);
if (values.webhook) {
  const deadline = Date.now() + 600_000;
  while (pushes < TOTAL && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  const hookEnd = Date.now();
  console.log(
    `webhooks           ${pushes} email.delivered pushes received, the last ${((hookEnd - txEnd) / 1000).toFixed(1)} s after the last delivery (${(pushes / ((hookEnd - txStart) / 1000)).toFixed(0)} pushes/s overall)`,
  );
}
console.log(`ratio              ${(txRate / pfRate).toFixed(2)}× Postfix (target ≥ 4×)`);

// --- Latency at a steady rate. ---------------------------------------------------------------------
const latencyStart = await postSteady(post, RATE, RATE_SECONDS);
await sink.reaches(txBase + TOTAL + RATE * RATE_SECONDS);
await new Promise((r) => setTimeout(r, 500)); // the last deliveries' records
server.child.kill('SIGTERM');
await server.exited;

services = await createServices(config, { logger: pino({ level: 'silent' }), migrate: false });
const lat = await latencies(services, latencyStart);
const delivered = await services.db.kysely
  .selectFrom('messages')
  .select((eb) => eb.fn.countAll().as('n'))
  .where('status', '=', 'delivered')
  .executeTakeFirstOrThrow();
await services.close();
console.log(
  `latency @${RATE}/s     accept→delivered p50 ${lat.p50} ms, p99 ${lat.p99} ms, max ${lat.max} ms (${lat.count} messages)`,
);
console.log(
  `check              ${Number(delivered.n)} messages recorded delivered of ${TOTAL + RATE * RATE_SECONDS} sent`,
);

sink.stop();
hookServer?.close();
if (pgSchema) await adminQuery(`drop schema ${pgSchema} cascade`);
if (!process.env.BENCH_KEEP) rmSync(dir, { recursive: true, force: true });
else console.log('kept', dir);

/** Size of the message txmail sends for this body, so Postfix relays messages of the same size. */
function messageSize() {
  return 1400 + HTML.length + 1200; // headers + HTML + generated text part + DKIM-Signature
}

async function adminQuery(text) {
  const c = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/test' });
  await c.connect();
  await c.query(text);
  await c.end();
}

/** A private Postfix instance in a temporary directory, relaying everything to the sink. */
async function startPostfix(relayPort) {
  // A fixed place: the default configuration must name it (alternate_config_directories).
  const base = join(tmpdir(), 'txmail-bench-postfix');
  await run('postfix', ['-c', join(base, 'etc'), 'stop']).catch(() => undefined);
  rmSync(base, { recursive: true, force: true });
  const etc = join(base, 'etc');
  mkdirSync(etc, { recursive: true });
  mkdirSync(join(base, 'queue'));
  mkdirSync(join(base, 'data'));
  chownSync(join(base, 'data'), Number((await run('id', ['-u', 'postfix'])).stdout.trim()), 0);
  const pfPort = await freePort();
  writeFileSync(
    join(etc, 'main.cf'),
    [
      'compatibility_level = 3.6',
      `queue_directory = ${base}/queue`,
      `data_directory = ${base}/data`,
      'mail_owner = postfix',
      'setgid_group = postdrop',
      'myhostname = bench.localdomain',
      'inet_interfaces = 127.0.0.1',
      'inet_protocols = ipv4',
      'mydestination =',
      'mynetworks = 127.0.0.0/8',
      `relayhost = [127.0.0.1]:${relayPort}`,
      'smtpd_relay_restrictions = permit_mynetworks, reject',
      'smtp_tls_security_level = none',
      'alias_maps =',
      'alias_database =',
      'local_recipient_maps =',
      'multi_instance_wrapper =',
      `maillog_file = ${base}/maillog`,
      `maillog_file_prefixes = ${tmpdir()}`,
      '',
    ].join('\n'),
  );
  const master = readFileSync('/etc/postfix/master.cf', 'utf8')
    .replace(/^smtp(\s+)inet(\s+)n(\s+)-(\s+)y/m, `127.0.0.1:${pfPort} inet n - n`)
    .replace(/^([a-z]+\s+(?:unix|unix-dgram|inet|fifo|pass)\s+[-ny]\s+[-ny]\s+)y/gm, '$1n');
  writeFileSync(join(etc, 'master.cf'), master);
  // The postfix command refuses a configuration directory the default one does not list.
  const defaultMain = '/etc/postfix/main.cf';
  let main = '';
  try {
    main = readFileSync(defaultMain, 'utf8');
  } catch {
    /* no default configuration */
  }
  const kept = main
    .split('\n')
    .filter((l) => !/^(alternate_config_directories|multi_instance_wrapper)\s*=/.test(l));
  writeFileSync(
    defaultMain,
    [...kept, `alternate_config_directories = ${etc}`, 'multi_instance_wrapper =', ''].join('\n'),
  );
  await run('postfix', ['-c', etc, 'set-permissions']).catch(() => undefined);
  await run('postfix', ['-c', etc, 'start']);
  await new Promise((r) => setTimeout(r, 1000));
  return { port: pfPort, stop: () => run('postfix', ['-c', etc, 'stop']) };
}
