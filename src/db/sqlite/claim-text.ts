// The delivery queue's fair claim (fair-claim.ts) on SQLite, compiled once per number of slots. Building
// and compiling its query with Kysely took about a fifth of each claim in bench/e2e, and its text
// depends only on the number of slots (written into it: fair-claim.ts pickLimit), the queue and the
// caps. The values that change from claim to claim (the owner, the time, the lease's end) are
// parameters: a compile with a stand-in for each shows where each one goes.
import type { Kysely } from 'kysely';
import { claimFairSqlite, type FairCaps, type FairQueue } from '../fair-claim.js';
import type { Database } from '../schema.js';

export interface ClaimText {
  sql: string;
  /** The statement's parameters for one claim. */
  parameters(owner: string, now: number, leaseUntil: number): unknown[];
}

/** Stand-ins no real value equals: an owner is printable text, times and caps are not negative. */
const STAND_IN = { owner: '\u0000owner', now: -1_000_000_000_001, leaseUntil: -1_000_000_000_002 };
/** The claim's numbers of slots are at most the worker's concurrency; past this the cache starts over. */
const MAX_TEXTS = 1024;

/** The claim's text and parameters for `limit` slots, each text compiled once. */
export function sqliteClaimTexts(
  kysely: Kysely<Database>,
  queue: FairQueue,
  caps: FairCaps,
): (limit: number) => ClaimText {
  const texts = new Map<number, ClaimText>();
  return (limit) => {
    let text = texts.get(limit);
    if (!text) {
      if (texts.size >= MAX_TEXTS) texts.clear();
      text = compileClaim(kysely, queue, caps, limit);
      texts.set(limit, text);
    }
    return text;
  };
}

function compileClaim(kysely: Kysely<Database>, queue: FairQueue, caps: FairCaps, limit: number): ClaimText {
  const { sql, parameters: compiled } = claimFairSqlite(
    queue,
    STAND_IN.owner,
    STAND_IN.now,
    STAND_IN.leaseUntil,
    limit,
    caps,
  ).compile(kysely);
  // Per parameter: 0, 1 or 2 for the owner, the time or the lease's end; -1 for a value of the text's own.
  const slots = compiled.map((p) =>
    p === STAND_IN.owner ? 0 : p === STAND_IN.now ? 1 : p === STAND_IN.leaseUntil ? 2 : -1,
  );
  return {
    sql,
    parameters: (owner, now, leaseUntil) => {
      const values = [owner, now, leaseUntil];
      return slots.map((slot, i) => (slot < 0 ? compiled[i] : values[slot]));
    },
  };
}
