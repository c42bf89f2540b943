#!/usr/bin/env node
// bench/inbound-backlog: what the event loop pays while the inbound recovery pass drains a backlog of
// large reports (inbound/inbound-processor.ts). Reports the receiver had no room for wait in the
// database; the pass leases them, reads each back, parses it on the parse thread and marks it done.
// Every step but the parse runs on the event loop, which also answers the API and the receiver: a
// step whose cost grows with the report's size stalls them all. N bounces of S MB (a DSN returning
// the original with a large attachment) are stored for the pass, which then drains them while a
// timer samples the event loop. Prints the longest stall, the loop's p99 delay, the time to drain and
// this process's CPU a report (SQLite runs in it; the parse thread's CPU is not counted).
// Every build named runs in turn, alternating (compare with a tree of main: `--build`).
//   node bench/inbound-backlog.mjs [--reports 12] [--mb 10] [--rounds 2] [--database sqlite|postgres]
//                                  [--build label=/path/to/tree ...]
import { randomBytes } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { createDatabase } from './lib/database.mjs';
import { machine } from './lib/harness.mjs';

const { values } = parseArgs({
  options: {
    reports: { type: 'string', default: '12' },
    mb: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '2' },
    database: { type: 'string', default: 'sqlite' },
    build: { type: 'string', multiple: true },
  },
});
const N = Number(values.reports);
const BYTES = Math.round(Number(values.mb) * 1024 * 1024);
const ROUNDS = Number(values.rounds);
const here = new URL('..', import.meta.url).pathname;
const builds = (values.build ?? [`this=${here}`]).map((b) => {
  const [label, path] = b.split('=');
  return { label, root: path.endsWith('/') ? path : `${path}/` };
});

/** A DSN (RFC 3464) returning a message with an attachment of about `bytes` bytes. */
function bounce(bytes) {
  const attachment = randomBytes(Math.floor((bytes * 3) / 4))
    .toString('base64')
    .replace(/.{76}/g, '$&\r\n');
  return Buffer.from(
    [
      'From: MAILER-DAEMON@mx.dest.example (Mail Delivery System)',
      'To: b+0@bounces.bench.example',
      'Subject: Undelivered Mail Returned to Sender',
      'Date: Sun, 29 Nov 2026 12:00:00 +0000',
      'Message-ID: <dsn.1@mx.dest.example>',
      'MIME-Version: 1.0',
      'Content-Type: multipart/report; report-type=delivery-status; boundary="B1"',
      '',
      '--B1',
      'Content-Type: text/plain; charset=us-ascii',
      '',
      'I could not deliver your message to <gone@dest.example>: the mailbox does not exist.',
      '',
      '--B1',
      'Content-Type: message/delivery-status',
      '',
      'Reporting-MTA: dns; mx.dest.example',
      '',
      'Final-Recipient: rfc822; gone@dest.example',
      'Action: failed',
      'Status: 5.1.1',
      'Diagnostic-Code: smtp; 550 5.1.1 <gone@dest.example>: Recipient address rejected',
      '',
      '--B1',
      'Content-Type: message/rfc822',
      '',
      'From: noreply@acme.example',
      'To: gone@dest.example',
      'Subject: Your receipt',
      'Message-ID: <0193a4b2-0000-7000-8000-000000000000@mta.bench.example>',
      'MIME-Version: 1.0',
      'Content-Type: multipart/mixed; boundary="B2"',
      '',
      '--B2',
      'Content-Type: text/plain',
      '',
      'Your receipt is attached.',
      '--B2',
      'Content-Type: application/pdf; name="receipt.pdf"',
      'Content-Transfer-Encoding: base64',
      '',
      attachment,
      '--B2--',
      '',
      '--B1--',
      '',
    ].join('\r\n'),
  );
}

/** Runs `work` while sampling the event loop; returns its longest stall and p99 delay in ms. */
async function sampled(work) {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 5);
  try {
    await work();
  } finally {
    clearInterval(timer);
    histogram.disable();
  }
  return { longestMs: longest, p99Ms: histogram.percentile(99) / 1e6 };
}

async function load(root) {
  const dist = `${root}dist/`;
  const [database, inboundRepo, processor, parser, verp, ids] = await Promise.all([
    import(`${dist}db/database.js`),
    import(`${dist}db/inbound-repo.js`),
    import(`${dist}inbound/inbound-processor.js`),
    import(`${dist}inbound/report-parser.js`),
    import(`${dist}delivery/verp.js`),
    import(`${dist}ids.js`),
  ]);
  return { ...database, ...inboundRepo, ...processor, ...parser, ...verp, ...ids };
}

/** Stores N reports for the recovery pass, then drains them; returns what it measured. */
async function round(m, raw) {
  const { url, drop } = await createDatabase(values.database, 'inbacklog');
  const db = m.openDatabase(url);
  const parser = new m.ThreadedReportParser({ timeoutMs: 60_000 });
  try {
    await m.migrate(db);
    const repo = new m.InboundRepo(db.kysely, db.dialect);
    const base64 = raw.toString('base64');
    const now = Date.now();
    for (let i = 0; i < N; i++) {
      await repo.store({
        id: m.newId(),
        received_at: now,
        remote_ip: '192.0.2.1',
        helo: 'mx.dest.example',
        mail_from: '',
        rcpt_to: '["b+0@bounces.bench.example"]',
        size: raw.length,
        raw: base64,
        status: 'pending',
        attempts: 0,
        lease_expires_at: null,
        lease_owner: null,
        processed_at: null,
        outcome: null,
      });
    }
    const processor = new m.InboundProcessor({
      repo,
      parser,
      verp: new m.Verp(Buffer.alloc(32, 7)),
      clock: { now: () => Date.now() },
      logger: pino({ level: 'silent' }),
      hostname: 'mta.bench.example',
    });
    const cpu = process.cpuUsage();
    const start = performance.now();
    let drained = 0;
    const stalls = await sampled(async () => {
      drained = await processor.recover();
    });
    const wallMs = performance.now() - start;
    const used = process.cpuUsage(cpu);
    if (drained !== N) throw new Error(`drained ${drained} of ${N}`);
    const left = await db.kysely
      .selectFrom('inbound_messages')
      .select('id')
      .where('status', '=', 'pending')
      .execute();
    if (left.length > 0) throw new Error(`${left.length} still pending`);
    return { ...stalls, wallMs, cpuMs: (used.user + used.system) / 1000 / N };
  } finally {
    await parser.close();
    await db.close();
    await drop();
  }
}

const raw = bounce(BYTES);
console.log(
  `bench/inbound-backlog — ${machine()}; ${N} reports of ${(raw.length / 1048576).toFixed(1)} MiB on ` +
    `${values.database}, drained by the recovery pass; ${ROUNDS} rounds a build, alternating`,
);
const loaded = await Promise.all(builds.map(async (b) => ({ ...b, m: await load(b.root) })));
const results = new Map(builds.map((b) => [b.label, []]));
for (let r = 0; r < ROUNDS; r++) {
  for (const b of r % 2 === 0 ? loaded : [...loaded].reverse()) {
    const res = await round(b.m, raw);
    results.get(b.label).push(res);
    console.log(
      `  ${b.label.padEnd(10)} round ${r + 1}: longest stall ${res.longestMs.toFixed(0)} ms, loop p99 ` +
        `${res.p99Ms.toFixed(1)} ms, drained in ${(res.wallMs / 1000).toFixed(1)} s, ` +
        `${res.cpuMs.toFixed(1)} ms of this process's CPU a report`,
    );
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const [label, rs] of results) {
  console.log(
    `${label.padEnd(10)} median: longest stall ${median(rs.map((x) => x.longestMs)).toFixed(0)} ms, ` +
      `loop p99 ${median(rs.map((x) => x.p99Ms)).toFixed(1)} ms, ` +
      `${median(rs.map((x) => x.cpuMs)).toFixed(1)} ms CPU a report`,
  );
}
