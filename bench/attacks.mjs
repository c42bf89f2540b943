#!/usr/bin/env node
// bench/attacks: the hostile-input issue's attacks against a real `txmail serve` (SQLite), one after
// another, each with /healthz asked every 10 ms meanwhile. Prints whether each defence held and the
// health latency during it beside the same figure with nothing running (target: every answer within
// 50 ms while any attack runs).
//   node bench/attacks.mjs [--only NAME-SUBSTRING]
import { parseArgs } from 'node:util';
import { machine } from './lib/harness.mjs';
import { ATTACKS, startTarget, withHealthProbe } from './lib/attacks.mjs';

const { values } = parseArgs({ options: { only: { type: 'string' } } });
const names = Object.keys(ATTACKS).filter((n) => !values.only || n.includes(values.only));
console.log(`bench/attacks — ${machine()}`);

const LIMIT_MS = 90_000;
const timedOut = Symbol('timed out');
let target = await startTarget();
// The guards are judged with private networks refused, as in production: a second, plain target.
const guarded = names.some((n) => n.startsWith('guards'))
  ? await startTarget({ env: { TXMAIL_ALLOW_PRIVATE_NETWORKS: 'false' }, logLevel: 'warn' })
  : undefined;
const fmt = (h) =>
  `p50 ${h.p50.toFixed(1)} ms, p99 ${h.p99.toFixed(1)} ms, max ${h.max.toFixed(1)} ms (${h.n} probes, ${h.over50} over 50 ms)`;
let failures = 0;
try {
  const idle = await withHealthProbe(target.url, new Promise((r) => setTimeout(r, 2000)));
  console.log(`${'idle'.padEnd(46)} /healthz ${fmt(idle.health)}`);
  for (const name of names) {
    const t = name.startsWith('guards') ? guarded : target;
    // An attack that freezes the target would hold the run for hours: give up on it after 90 s, and
    // give the next attack a fresh target.
    let timer;
    const limit = new Promise((r) => (timer = setTimeout(() => r(timedOut), LIMIT_MS)));
    const { result: raced, health } = await withHealthProbe(t.url, Promise.race([ATTACKS[name](t), limit]));
    clearTimeout(timer);
    const result =
      raced === timedOut ? { held: false, detail: `did not finish within ${LIMIT_MS / 1000} s` } : raced;
    if (raced === timedOut) {
      await t.stop({ kill: true });
      if (t === target) target = await startTarget();
    }
    const healthy = health.max <= 50;
    if (!result.held || !healthy) failures++;
    console.log(
      `${name.padEnd(46)} ${result.held ? 'held  ' : 'BROKEN'} /healthz ${fmt(health)}${healthy ? '' : ' — over 50 ms'}`,
    );
    console.log(`${''.padEnd(46)} ${result.detail}`);
  }
} finally {
  await target.stop();
  await guarded?.stop();
}
console.log(
  failures === 0
    ? 'every defence held, /healthz within 50 ms throughout'
    : `${failures} attack(s) not held or /healthz over 50 ms`,
);
process.exitCode = failures === 0 ? 0 : 1;
