#!/usr/bin/env node
// bench/e2e: messages per second from HTTP request to delivered, and the server's CPU per delivered
// message, against the stack a self-hosting user would otherwise run: Postfix with Debian's OpenDKIM
// as its milter (RSA-2048, relaxed/relaxed), the headline reference, and unsigned Postfix beside it.
// Every side delivers the same number of messages of the same size into the same sink (Postfix's
// smtp-sink, counting only), in the same run; then accept-to-delivered latency at a steady rate.
// Needs Debian's postfix and opendkim packages (smtp-sink, smtp-source) and root (Postfix's queue).
//   node bench/e2e.mjs [--messages 20000] [--rate 200] [--rate-seconds 15] [--database sqlite|postgres]
//                      [--webhook]   (the tenant has a webhook endpoint, a local HTTP server: every
//                                     email.delivered is pushed too, and counted)
//                      [--build label=/path/to/tree[,KEY=VALUE...] ...] [--rounds 1]
//                      [--no-references]  (txmail only: for comparing builds or settings, no ratios)
//                      [--html-bytes N]  (a receipt of about N bytes of HTML instead of the short message;
//                                         Postfix's messages are sized by estimate)
// Each --build (default: this tree) runs its own `txmail serve` in turn, in every round, the order
// reversed every other round (a, b, b, a, …), so builds are compared within one run. Settings after the
// tree are added to that build's environment: `--build one=.,TXMAIL_BUILD_THREADS=1 --build two=.`
// compares two settings of this tree.
//
// CPU per message (bench/lib/cpu.mjs), over the window from the first message injected to the last
// one at the sink: "server" is the server's own processes (txmail's process with its threads; Postfix's
// master and every process under it, plus OpenDKIM), "machine" is the machine's busy time less the
// injector's (this process for HTTP, smtp-source for Postfix) and the sink's, which also counts
// whatever else the machine ran meanwhile.
import http from 'node:http';
import { createServer } from 'node:net';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { createDatabase } from './lib/database.mjs';
import { createBenchTenant } from './lib/tenant.mjs';
import { htmlOf, latencies, postAll, postSteady, poster } from './lib/post.mjs';
import { startSink } from './lib/sink.mjs';
import { cpuWindow, describeCpu, processMs, treeMs } from './lib/cpu.mjs';
import { startOpenDkim, startPostfix } from './lib/postfix.mjs';
import { freePort, machine, run, start, waitForHttp } from './lib/harness.mjs';

const { values } = parseArgs({
  options: {
    messages: { type: 'string', default: '20000' },
    rate: { type: 'string', default: '200' },
    'rate-seconds': { type: 'string', default: '15' },
    database: { type: 'string', default: 'sqlite' },
    webhook: { type: 'boolean', default: false },
    build: { type: 'string', multiple: true },
    rounds: { type: 'string', default: '1' },
    'html-bytes': { type: 'string' },
    'no-references': { type: 'boolean', default: false },
  },
});
const TOTAL = Number(values.messages);
const RATE = Number(values.rate);
const RATE_SECONDS = Number(values['rate-seconds']);
const ROUNDS = Number(values.rounds);
/** The message's HTML: bench/lib/post.mjs's short one, or a receipt of about --html-bytes bytes. */
const HTML = htmlOf(values['html-bytes'] === undefined ? undefined : Number(values['html-bytes']));
const here = new URL('..', import.meta.url).pathname;
const builds = (values.build ?? [`txmail=${here}`]).map((b) => {
  const eq = b.indexOf('=');
  // Settings start at a comma followed by NAME=, so a value may hold commas (a list of addresses).
  const [tree, ...settings] = b.slice(eq + 1).split(/,(?=[A-Z][A-Z0-9_]*=)/);
  const env = Object.fromEntries(
    settings.map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
  );
  return { label: b.slice(0, eq), tree: resolve(tree), env };
});
const REFERENCES = !values['no-references'];
const FROM_DOMAIN = 'acme.example';

// --- The sink: Postfix's smtp-sink, counting messages. ------------------------------------------
const sink = await startSink();
/** The injector: this process (HTTP posting) and the children it has reaped (smtp-source). */
const injectorMs = () => processMs(process.pid, { children: true });
const sinkMs = () => processMs(sink.pid);

console.log(
  `bench/e2e — ${machine()}; ${TOTAL} messages; database ${values.database}; ` +
    `load average ${loadavg()[0].toFixed(1)} at the start`,
);
const size = messageSize();
const results = [];
/** Each txmail run gets its own database. */
let txmailRuns = 0;

for (let round = 0; round < ROUNDS; round++) {
  if (ROUNDS > 1) console.log(`--- round ${round + 1} of ${ROUNDS}`);
  const signed = REFERENCES ? await postfixRun({ dkim: true }) : undefined;
  const unsigned = REFERENCES ? await postfixRun({ dkim: false }) : undefined;
  const order = round % 2 === 0 ? builds : [...builds].reverse();
  for (const build of order) {
    const tx = await txmailRun(build);
    results.push({ round, build: build.label, tx, signed, unsigned });
    if (!signed || !unsigned) continue;
    console.log(
      `ratio              ${build.label}: ${(tx.rate / signed.rate).toFixed(2)}× Postfix + OpenDKIM (target ≥ 5×), ` +
        `${(tx.rate / unsigned.rate).toFixed(2)}× unsigned Postfix; server CPU per message ` +
        `${(tx.cpu.serverPerMessage / signed.cpu.serverPerMessage).toFixed(2)}× Postfix + OpenDKIM's ` +
        `(machine: ${(tx.cpu.machinePerMessage / signed.cpu.machinePerMessage).toFixed(2)}×; target ≤ 0.4×)`,
    );
  }
}
if (results.length > 1) {
  console.log('--- summary (each txmail run against the references of its round)');
  for (const r of results) {
    if (!r.signed) {
      const cpu = r.tx.cpu.serverPerMessage.toFixed(3);
      console.log(
        `round ${r.round + 1} ${r.build.padEnd(10)} ${r.tx.rate.toFixed(0).padStart(5)} msg/s, CPU ${cpu} ms/msg`,
      );
      continue;
    }
    console.log(
      `round ${r.round + 1} ${r.build.padEnd(10)} ${r.tx.rate.toFixed(0).padStart(5)} msg/s ` +
        `${(r.tx.rate / r.signed.rate).toFixed(2)}× (Postfix + OpenDKIM ${r.signed.rate.toFixed(0)} msg/s), ` +
        `CPU ${r.tx.cpu.serverPerMessage.toFixed(3)} ms/msg ` +
        `${(r.tx.cpu.serverPerMessage / r.signed.cpu.serverPerMessage).toFixed(2)}× ` +
        `(theirs ${r.signed.cpu.serverPerMessage.toFixed(3)}); machine ` +
        `${(r.tx.cpu.machinePerMessage / r.signed.cpu.machinePerMessage).toFixed(2)}×`,
    );
  }
}
sink.stop();
console.log(`load average ${loadavg()[0].toFixed(1)} at the end`);

// ---------------------------------------------------------------------------------------------------

/** Postfix (with OpenDKIM signing, or not) relaying TOTAL messages from smtp-source into the sink. */
async function postfixRun({ dkim }) {
  const opendkim = dkim ? await startOpenDkim(FROM_DOMAIN) : undefined;
  const capture = dkim ? await captureServer() : undefined;
  const postfix = await startPostfix({
    relayPort: sink.port,
    milterPort: opendkim?.port,
    transports: capture ? { 'check.example': `smtp:[127.0.0.1]:${capture.port}` } : {},
  });
  try {
    if (capture) {
      // One message to a capturing server first: the reference must really sign.
      await source(postfix.port, 1, 'probe@check.example');
      const probe = await capture.message;
      const m = /^DKIM-Signature:[^]*?(?=^\S)/im.exec(probe);
      if (
        !m ||
        !/a=rsa-sha256/.test(m[0]) ||
        !/c=relaxed\/relaxed/.test(m[0]) ||
        !/d=acme\.example/.test(m[0])
      )
        throw new Error(`Postfix + OpenDKIM did not sign as expected:\n${probe.slice(0, 2000)}`);
    }
    const label = dkim ? 'postfix + opendkim' : 'postfix unsigned  ';
    const server = () => treeMs(postfix.masterPid) + (opendkim ? processMs(opendkim.pid) : 0);
    const base = sink.count;
    const start = Date.now();
    const cpu = cpuWindow({ server, injector: injectorMs, sink: sinkMs });
    await source(postfix.port, TOTAL, 'jane@recipient.example');
    const end = await sink.reaches(base + TOTAL);
    const used = cpu.end(TOTAL);
    const rate = TOTAL / ((end - start) / 1000);
    console.log(
      `${label} ${rate.toFixed(0).padStart(6)} msg/s   (${TOTAL} × ${size} bytes in ${((end - start) / 1000).toFixed(1)} s); ${describeCpu(used)}`,
    );
    return { rate, cpu: used };
  } finally {
    await postfix.stop();
    await opendkim?.stop();
    capture?.close();
  }
}

function source(port, messages, to) {
  return run(
    'smtp-source',
    [
      '-s',
      '50',
      '-m',
      String(messages),
      '-l',
      String(size),
      '-f',
      `noreply@${FROM_DOMAIN}`,
      '-t',
      to,
      `127.0.0.1:${port}`,
    ],
    { maxBuffer: 1 << 24 },
  );
}

/** A one-message SMTP server: `message` resolves with what it received. */
async function captureServer() {
  let done;
  const message = new Promise((r) => (done = r));
  const server = createServer((socket) => {
    let data = false;
    let buf = '';
    socket.write('220 capture ESMTP\r\n');
    socket.on('data', (chunk) => {
      buf += chunk.toString('latin1');
      for (;;) {
        if (data) {
          const end = buf.indexOf('\r\n.\r\n');
          if (end < 0) return;
          done(buf.slice(0, end + 2));
          buf = buf.slice(end + 5);
          data = false;
          socket.write('250 ok\r\n');
          continue;
        }
        const nl = buf.indexOf('\r\n');
        if (nl < 0) return;
        const line = buf.slice(0, nl).toUpperCase();
        buf = buf.slice(nl + 2);
        if (line.startsWith('EHLO')) socket.write('250-capture\r\n250 8BITMIME\r\n');
        else if (line.startsWith('DATA')) {
          data = true;
          socket.write('354 go on\r\n');
        } else if (line.startsWith('QUIT')) socket.end('221 bye\r\n');
        else socket.write('250 ok\r\n');
      }
    });
    socket.on('error', () => undefined);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { port: server.address().port, message, close: () => server.close() };
}

/** txmail from `build.tree` (its dist/ and bin/): HTTP → queue → DKIM → SMTP into the same sink. */
async function txmailRun(build) {
  const { parseConfig } = await import(join(build.tree, 'dist/config.js'));
  const { createServices } = await import(join(build.tree, 'dist/services.js'));
  const database = await createDatabase(values.database, `e2e${++txmailRuns}`);
  const env = {
    TXMAIL_DATABASE_URL: database.url,
    TXMAIL_HOSTNAME: 'mta.bench.example',
    TXMAIL_SECRET_KEY: 'b'.repeat(64),
    TXMAIL_RELAY_URL: `smtp://127.0.0.1:${sink.port}`,
    TXMAIL_RATE_LIMIT: '0',
    TXMAIL_LOG_LEVEL: 'warn',
    // serve also runs the bounce receiver; any free port keeps it out of the way.
    TXMAIL_INBOUND_HOST: '127.0.0.1',
    TXMAIL_INBOUND_PORT: '0',
    ...(values.webhook ? { TXMAIL_ALLOW_PRIVATE_NETWORKS: 'true' } : {}),
  };
  const config = parseConfig(env);
  let services = await createServices(config, { logger: pino({ level: 'silent' }) });
  const key = await createBenchTenant(services, 'bench@acme.example', { domain: FROM_DOMAIN });
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
  const profile = process.env.BENCH_PROFILE_DIR
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`]
    : [];
  const server = start(process.execPath, [...profile, join(build.tree, 'bin/txmail'), 'serve'], {
    ...env,
    ...build.env,
    TXMAIL_HTTP_PORT: String(port),
  });
  await waitForHttp(`http://127.0.0.1:${port}/healthz`);
  const post = poster([port], key, { html: HTML });

  const txBase = sink.count;
  const txStart = Date.now();
  const cpu = cpuWindow({ server: () => treeMs(server.child.pid), injector: injectorMs, sink: sinkMs });
  await postAll(post, TOTAL);
  const acceptedAt = Date.now();
  const txEnd = await sink.reaches(txBase + TOTAL);
  const used = cpu.end(TOTAL);
  const rate = TOTAL / ((txEnd - txStart) / 1000);
  console.log(
    `txmail ${build.label.padEnd(11)} ${rate.toFixed(0).padStart(6)} msg/s   (accepted all in ${((acceptedAt - txStart) / 1000).toFixed(1)} s, delivered all in ${((txEnd - txStart) / 1000).toFixed(1)} s, DKIM-signed, durable); ${describeCpu(used)}`,
  );
  if (values.webhook) {
    const deadline = Date.now() + 600_000;
    while (pushes < TOTAL && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const hookEnd = Date.now();
    console.log(
      `webhooks           ${pushes} email.delivered pushes received, the last ${((hookEnd - txEnd) / 1000).toFixed(1)} s after the last delivery (${(pushes / ((hookEnd - txStart) / 1000)).toFixed(0)} pushes/s overall)`,
    );
  }

  // --- Latency at a steady rate. -------------------------------------------------------------------
  let latencyStart;
  if (RATE_SECONDS > 0) {
    latencyStart = await postSteady(post, RATE, RATE_SECONDS);
    await sink.reaches(txBase + TOTAL + RATE * RATE_SECONDS);
  }
  await new Promise((r) => setTimeout(r, 500)); // the last deliveries' records
  server.child.kill('SIGTERM');
  await server.exited;

  services = await createServices(config, { logger: pino({ level: 'silent' }), migrate: false });
  const lat = latencyStart === undefined ? undefined : await latencies(services, latencyStart);
  const delivered = await services.db.kysely
    .selectFrom('messages')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('status', '=', 'delivered')
    .executeTakeFirstOrThrow();
  await services.close();
  if (lat) {
    console.log(
      `latency @${RATE}/s     accept→delivered p50 ${lat.p50} ms, p99 ${lat.p99} ms, max ${lat.max} ms (${lat.count} messages)`,
    );
  }
  const sent = TOTAL + (RATE_SECONDS > 0 ? RATE * RATE_SECONDS : 0);
  console.log(`check              ${Number(delivered.n)} messages recorded delivered of ${sent} sent`);
  hookServer?.close();
  if (!process.env.BENCH_KEEP) await database.drop();
  else console.log('kept', database.url);
  return { rate, cpu: used };
}

/** Size of the message txmail sends for this body, so Postfix relays messages of the same size. */
function messageSize() {
  return 1400 + HTML.length + 1200; // headers + HTML + generated text part + DKIM-Signature
}
