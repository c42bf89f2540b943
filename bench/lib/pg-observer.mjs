// Where PostgreSQL's time goes during a benchmark: the CPU of the backends serving one application name
// (every connection of the processes under test carries it: `application_name` in their database URL),
// and what those backends were doing, sampled from pg_stat_activity every few milliseconds: running
// (on a CPU or ready to), waiting for a lock (Lock:*), for the WAL or the disk (LWLock:WAL*, IO:*), or
// idle inside a transaction while the client works (the client's share of a transaction's time).
import pg from 'pg';
import { processMs } from './cpu.mjs';
import { POSTGRES } from './database.mjs';

/** `url` with `application_name` set, so that the observer can tell its backends from any other. */
export function withApplicationName(url, name) {
  const u = new URL(url);
  u.searchParams.set('application_name', name);
  return u.toString();
}

/**
 * Starts sampling the backends of `applicationName` every `everyMs`. `stop()` returns
 * { backendMs, samples, states } where states maps a state to its share of the samples of busy backends.
 */
export async function observePostgres(applicationName, everyMs = 10) {
  const client = new pg.Client({ connectionString: POSTGRES });
  await client.connect();
  /** pid → CPU ms when first seen: a backend's CPU counts from then. */
  const firstSeen = new Map();
  const lastSeen = new Map();
  const tally = new Map();
  const statements = new Map();
  let samples = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      // `limit 1`: a read of pg_stat_activity was seen to list the blocking pid twice, which failed the
      // subquery and with it the bench.
      const { rows } = await client.query(
        `select a.pid, a.state, a.wait_event_type, a.wait_event, left(a.query, 200) as query,
           (select left(b.query, 200) from pg_stat_activity b
             where b.pid = (pg_blocking_pids(a.pid))[1] limit 1) as blocker
         from pg_stat_activity a where a.application_name = $1`,
        [applicationName],
      );
      samples++;
      for (const r of rows) {
        const cpu = processMs(r.pid);
        if (!firstSeen.has(r.pid)) firstSeen.set(r.pid, cpu);
        lastSeen.set(r.pid, cpu);
        const state = stateOf(r);
        if (!state) continue;
        tally.set(state, (tally.get(state) ?? 0) + 1);
        // For the two states a transaction spends waiting: the statement behind it.
        const statement =
          r.wait_event_type === 'Lock'
            ? `waiting for a lock held by: ${shortSql(r.blocker)}`
            : r.state === 'idle in transaction'
              ? `idle in transaction after: ${shortSql(r.query)}`
              : undefined;
        if (statement) statements.set(statement, (statements.get(statement) ?? 0) + 1);
      }
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      await client.end();
      let backendMs = 0;
      for (const [pid, first] of firstSeen)
        backendMs += Math.max(0, processMs(pid) || lastSeen.get(pid)) - first;
      const busy = [...tally.values()].reduce((a, b) => a + b, 0);
      const states = [...tally]
        .sort((a, b) => b[1] - a[1])
        .map(([state, n]) => ({ state, share: n / busy, perSample: n / samples }));
      const top = [...statements]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 6)
        .map(([statement, n]) => ({ statement, share: n / busy }));
      return { backendMs, samples, states, statements: top };
    },
  };
}

/** The first words of a statement, its whitespace folded: enough to tell which it is. */
function shortSql(text) {
  return (text ?? '(gone)').replace(/\s+/g, ' ').trim().slice(0, 90);
}

/** A backend's state as the report names it; undefined for an idle connection (outside a transaction). */
function stateOf(r) {
  if (r.state === 'idle') return undefined;
  if (r.state === 'idle in transaction') return 'idle in transaction (the client at work)';
  if (r.state === 'active' && !r.wait_event_type) return 'running';
  if (r.wait_event_type === 'Client') return `waiting for the client (${r.wait_event})`;
  return `${r.wait_event_type}:${r.wait_event}`;
}

/** The report's lines: backends' CPU per message, then the states that took at least 1 %. */
export function describePostgres(observed, messages) {
  const lines = [
    `PostgreSQL backends ${(observed.backendMs / messages).toFixed(3)} ms CPU/msg; busy backends by state (${observed.samples} samples):`,
  ];
  for (const s of observed.states.filter((s) => s.share >= 0.01)) {
    lines.push(
      `  ${(s.share * 100).toFixed(1).padStart(5)} %  ${s.state}  (${s.perSample.toFixed(2)} backends on average)`,
    );
  }
  lines.push('  the statements behind the waits (share of busy samples):');
  for (const s of observed.statements.filter((s) => s.share >= 0.01)) {
    lines.push(`  ${(s.share * 100).toFixed(1).padStart(5)} %  ${s.statement}`);
  }
  return lines.join('\n');
}
