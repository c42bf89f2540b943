#!/usr/bin/env node
// bench/accept-instructions: machine instructions per request on POST /api/email/send, for this tree
// and a reference tree (another commit's checkout, built), counted by valgrind's callgrind. On this
// kind of shared virtual machine the CPU time of one request drifts by 10-20 % between runs minutes
// apart (docs/benchmarks.md); on a quieter machine the instruction count of runs back to back
// repeated within 1-2 %, so a few percent between two builds can be told apart from noise. Not under other
// load: valgrind runs the process's threads one at a time, when the JIT's compilations and the
// collector's passes fall then shifts, and runs spread by 10-25 % (seen beside a full test run).
//   node bench/accept-instructions.mjs --reference DIR [--requests 2000] [--warm-up 3000] [--runs 3]
//                                      [--concurrency 1]
// Each run starts `txmail api` (SQLite, a fresh database made by that tree's own migrations) under
// callgrind, sends the warm-up requests (so the JIT has compiled the hot path), zeroes the counters,
// sends the measured requests, and reads the count: the whole process, every thread (the accept
// thread included), user space only (system calls are the kernel's and are not counted). What the
// process does on its own meanwhile (the checkpointer's passes, timers, the JIT's and the collector's
// threads) is counted too: about 2 % of a run, more in one where a major collection or a late
// compilation falls, so the median of the runs is the figure (3 by default).
// Concurrency 1 by default: each request then commits on its own, as in every run. With more requests
// in flight, the batches the accept thread commits depend on how valgrind schedules its threads (it runs
// one at a time), and the count with them (±15 % seen at 50).
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { freePort, machine, waitForHttp } from './lib/harness.mjs';
import { poster, postAll } from './lib/post.mjs';

const run = promisify(execFile);
const { values } = parseArgs({
  options: {
    reference: { type: 'string' },
    requests: { type: 'string', default: '2000' },
    'warm-up': { type: 'string', default: '3000' },
    runs: { type: 'string', default: '3' },
    concurrency: { type: 'string', default: '1' },
  },
});
if (!values.reference) {
  console.error(
    'usage: node bench/accept-instructions.mjs --reference DIR (a built checkout of another commit)',
  );
  process.exit(2);
}
try {
  await run('valgrind', ['--version']);
} catch {
  console.error('valgrind is needed (Debian package valgrind)');
  process.exit(2);
}
const requests = Number(values.requests);
const warmUp = Number(values['warm-up']);
const concurrency = Number(values.concurrency);
const trees = {
  reference: resolve(values.reference),
  this: resolve(new URL('..', import.meta.url).pathname),
};

// bench/accept's request (lib/wrk-post.lua), so the two benches' figures speak of the same request.
const BODY = JSON.stringify({
  from: 'Acme <noreply@acme.example>',
  to: 'Jane <jane@recipient.example>',
  subject: 'Your sign-in code is 123456',
  message:
    '<p>Your code is <b>123456</b>. It expires in 10 minutes.</p><p>If you did not ask for it, ignore this email.</p>',
});

/** The instruction count of the n-th dump callgrind wrote on request (callgrind.out.<n>). */
function dumpedCount(dir, n) {
  const name = readdirSync(dir).find((f) => f.startsWith('callgrind.out') && f.endsWith(`.${n}`));
  if (!name) throw new Error(`no callgrind dump ${n} in ${readdirSync(dir).join(', ')}`);
  const summary = readFileSync(join(dir, name), 'utf8').match(/^summary: (\d+)/m);
  if (!summary) throw new Error(`callgrind dump ${n} has no summary line`);
  return Number(summary[1]);
}

/** Instructions per measured request of one run of `tree`'s `txmail api`. */
async function measure(tree) {
  const dir = mkdtempSync(join(tmpdir(), 'txmail-instructions-'));
  try {
    const file = join(dir, 'txmail.db');
    const helper = new URL('./lib/tree-database.mjs', import.meta.url).pathname;
    const key = (await run(process.execPath, [helper, tree, file])).stdout.trim();
    const port = await freePort();
    const out = join(dir, 'callgrind.out');
    const api = spawn(
      'valgrind',
      ['--tool=callgrind', `--callgrind-out-file=${out}`, process.execPath, join(tree, 'bin/txmail'), 'api'],
      {
        cwd: tree,
        stdio: ['ignore', 'ignore', 'pipe'],
        env: {
          ...process.env,
          TXMAIL_DATABASE_URL: `sqlite:${file}`,
          TXMAIL_HOSTNAME: 'mta.bench.example',
          TXMAIL_HTTP_PORT: String(port),
          TXMAIL_RATE_LIMIT: '0',
          TXMAIL_LOG_LEVEL: 'warn',
        },
      },
    );
    const exited = new Promise((done) => api.on('exit', done));
    let stderr = '';
    api.stderr.on('data', (chunk) => (stderr += chunk));
    try {
      // Under valgrind the process starts some fifty times slower.
      await waitForHttp(`http://127.0.0.1:${port}/healthz`, 600_000);
      const post = poster([port], key, { body: BODY, sockets: Math.max(concurrency, 1) });
      await postAll(post, warmUp, concurrency);
      await run('callgrind_control', ['--zero', String(api.pid)]);
      await postAll(post, requests, concurrency);
      await run('callgrind_control', ['--dump', String(api.pid)]);
    } catch (err) {
      throw new Error(`${err.message}\n${stderr.slice(-2000)}`);
    } finally {
      api.kill('SIGTERM');
      await exited;
    }
    return dumpedCount(dir, 1) / requests;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

console.log(
  `bench/accept-instructions — ${machine()}; ${warmUp} warm-up requests, ${requests} counted, ${concurrency} in flight`,
);
const counts = { reference: [], this: [] };
for (let i = 1; i <= Number(values.runs); i++) {
  for (const side of ['reference', 'this']) {
    const perRequest = await measure(trees[side]);
    counts[side].push(perRequest);
    console.log(`run ${i}: ${side.padEnd(9)} ${(perRequest / 1000).toFixed(1)} k instructions per request`);
  }
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const [ref, now] = [median(counts.reference), median(counts.this)];
const spread = (xs) => ((Math.max(...xs) - Math.min(...xs)) / median(xs)) * 100;
console.log(
  `reference ${trees.reference}: median ${(ref / 1000).toFixed(1)} k (runs spread ${spread(counts.reference).toFixed(1)} %)`,
);
console.log(
  `this tree ${trees.this}: median ${(now / 1000).toFixed(1)} k (runs spread ${spread(counts.this).toFixed(1)} %)`,
);
console.log(`this / reference: ${(now / ref).toFixed(3)}`);
