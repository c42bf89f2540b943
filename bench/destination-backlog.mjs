#!/usr/bin/env node
// bench/destination-backlog: what a backlog for one saturated destination costs the worker, on a virtual
// clock (ARCHITECTURE.md, "A saturated destination's backlog"). A simulated worker (its slots, its claim
// of due messages) drives the real DestinationLimits (the build's), against a destination that holds
// each connection `--hold` ms and, for its first `--stuck` ms, does not answer at all. Printed for each
// case: the reschedules (each one a record the worker writes: claimed, turned away, due again later),
// and when the last message was delivered. The reference, in the same run, is the limits as they were
// before parking: every turned-away delivery back a second later (maxParkMs = maxWaitMs, no recall).
// Needs a current build (npm run build).
//   node bench/destination-backlog.mjs [--backlog 2000] [--connections 5] [--hold 50] [--stuck 10000]
//                                      [--slots 50]
import { parseArgs } from 'node:util';
import { DestinationLimits } from '../dist/delivery/destination-limits.js';

const { values } = parseArgs({
  options: {
    backlog: { type: 'string', default: '2000' },
    connections: { type: 'string', default: '5' },
    hold: { type: 'string', default: '50' },
    stuck: { type: 'string', default: '10000' },
    slots: { type: 'string', default: '50' },
  },
});
const BACKLOG = Number(values.backlog);
const CONNECTIONS = Number(values.connections);
const HOLD_MS = Number(values.hold);
const SLOTS = Number(values.slots);
const TICK_MS = 10;
const LIMIT_MS = 30 * 60_000;

/** One run: `parking` true for today's limits, false for the reference. */
async function simulate(stuckMs, parking) {
  let now = 0;
  /** Queued messages by id: when each is due. */
  const due = new Map();
  for (let i = 0; i < BACKLOG; i++) due.set(`m${i}`, 0);
  const leased = new Set();
  const limits = new DestinationLimits(
    { rules: { default: { connections: CONNECTIONS } }, maxWaitMs: 1000, maxParkMs: parking ? 60_000 : 1000 },
    () => now,
    // The worker's recall: due now, if still due at the time it was parked for and not leased.
    parking
      ? (parked) => {
          for (const p of parked) if (due.get(p.id) === p.at && !leased.has(p.id)) due.set(p.id, now);
        }
      : undefined,
  );
  const holding = [];
  let reschedules = 0;
  let stuckReschedules = 0;
  let delivered = 0;
  const reschedule = (id, at) => {
    due.set(id, at);
    leased.delete(id);
    reschedules++;
    if (now < stuckMs) stuckReschedules++;
  };
  while (delivered < BACKLOG && now < LIMIT_MS) {
    // Connections whose delivery has ended.
    for (let i = holding.length - 1; i >= 0; i--) {
      if (holding[i].until > now) continue;
      const [{ id, release }] = holding.splice(i, 1);
      release();
      leased.delete(id);
      due.delete(id);
      delivered++;
    }
    // The claim: due messages, oldest first, as many as the worker has free slots.
    const free = SLOTS - leased.size;
    if (free > 0) {
      const claimed = [...due]
        .filter(([id, at]) => at <= now && !leased.has(id))
        .sort((a, b) => a[1] - b[1])
        .slice(0, free);
      for (const [id] of claimed) {
        leased.add(id);
        const away = limits.turnsAway('mx:busy.example', 'tenant', now, id);
        if (away !== undefined) {
          reschedule(id, away);
          continue;
        }
        void limits.acquire('mx:busy.example', 'tenant', id).then((admission) => {
          if ('retryAt' in admission) return reschedule(id, admission.retryAt);
          // A stuck destination answers nothing until it is back.
          holding.push({ id, release: admission.release, until: Math.max(now, stuckMs) + HOLD_MS });
        });
      }
    }
    // Let admissions (promises settled by the releases above) run before the clock moves.
    await new Promise((resolve) => setImmediate(resolve));
    now += TICK_MS;
  }
  return { reschedules, stuckReschedules, lastDelivered: now, delivered };
}

console.log(
  `bench/destination-backlog — virtual clock; ${BACKLOG} messages for one destination, ${CONNECTIONS} connections each held ${HOLD_MS} ms (${((CONNECTIONS * 1000) / HOLD_MS).toFixed(0)} messages/s), a worker of ${SLOTS} slots`,
);
for (const stuck of [0, Number(values.stuck)]) {
  const before = await simulate(stuck, false);
  const now = await simulate(stuck, true);
  const label = stuck === 0 ? 'answering from the start' : `not answering for the first ${stuck / 1000} s`;
  console.log(`destination ${label}:`);
  for (const [name, r] of [
    ['every turned-away back 1 s later (before)', before],
    ['spaced, recalled (now)', now],
  ]) {
    console.log(
      `  ${name.padEnd(42)} ${String(r.reschedules).padStart(7)} reschedules${stuck > 0 ? ` (${r.stuckReschedules} while it did not answer)` : ''}, ${r.delivered} delivered, the last at ${(r.lastDelivered / 1000).toFixed(2)} s`,
    );
  }
}
