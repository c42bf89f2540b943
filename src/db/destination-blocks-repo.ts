// The shared memory of destination blocks (migration 021, ARCHITECTURE.md "Destination blocks"): each
// account's latest sender block per destination and source address (and how many it had within the
// window), and the pauses set when several accounts, or several replies, were refused within the
// window (TXMAIL_DESTINATION_BLOCKS). Every worker process reads and writes it.
import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';

export interface DestinationBlock {
  destination: string;
  /** '' for the system's choice of address. */
  sourceIp: string;
  pausedUntil: number;
  pausedAt: number;
  /** Distinct accounts refused within the window when the pause was set. */
  accounts: number;
  /** The last refusal's reply. */
  reply: string;
}

export interface SenderBlockHit {
  destination: string;
  sourceIp: string;
  accountId: string;
  reply: string;
  now: number;
}

export interface BlockRule {
  /** Distinct accounts refused within the window that pause the destination for the address. */
  accounts: number;
  /**
   * Sender-block replies within the window, whichever accounts they came to, that pause it too: a
   * deployment with one tenant has no second account to prove that the address is the trouble, and a
   * reply naming the address's listing or reputation says so by itself once it repeats.
   */
  replies: number;
  windowMs: number;
  pauseMs: number;
}

/** What one sender block led to: the accounts refused within the window, and the pause now standing. */
export interface HitOutcome {
  accounts: number;
  /** Sender-block replies within the window (every account's). */
  replies: number;
  pause: DestinationBlock | undefined;
  /** This call set the pause (a pause already standing is left as it was). */
  newlyPaused: boolean;
}

/** Longest reply kept for the operator. */
const MAX_REPLY = 300;

export class DestinationBlocksRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Records an account's sender block; when `rule.accounts` distinct accounts, or `rule.replies`
   * replies, were refused within the window and no pause stands, pauses the destination for the address until now + pauseMs. Two
   * processes racing to pause: the conditional upsert lets one of them set it.
   */
  async hit(h: SenderBlockHit, rule: BlockRule): Promise<HitOutcome> {
    return this.db.transaction().execute(async (trx) => {
      const since = h.now - rule.windowMs;
      await trx
        .insertInto('sender_block_hits')
        .values({
          destination: h.destination,
          source_ip: h.sourceIp,
          account_id: h.accountId,
          hit_at: h.now,
          replies: 1,
        })
        .onConflict((oc) =>
          oc.columns(['destination', 'source_ip', 'account_id']).doUpdateSet({
            hit_at: h.now,
            // An account whose last block fell out of the window starts counting afresh.
            replies: sql<number>`case when sender_block_hits.hit_at >= ${since} then sender_block_hits.replies + 1 else 1 end`,
          }),
        )
        .execute();
      // What fell out of the window is never read again.
      await trx
        .deleteFrom('sender_block_hits')
        .where('destination', '=', h.destination)
        .where('source_ip', '=', h.sourceIp)
        .where('hit_at', '<', since)
        .execute();
      const { n, r } = await trx
        .selectFrom('sender_block_hits')
        .select((eb) => [
          eb.fn.countAll<number | string>().as('n'),
          eb.fn.sum<number | string | null>('replies').as('r'),
        ])
        .where('destination', '=', h.destination)
        .where('source_ip', '=', h.sourceIp)
        .executeTakeFirstOrThrow();
      const accounts = Number(n);
      const replies = Number(r ?? 0);
      let newlyPaused = false;
      if (accounts >= rule.accounts || replies >= rule.replies) {
        const row = {
          destination: h.destination,
          source_ip: h.sourceIp,
          paused_until: h.now + rule.pauseMs,
          paused_at: h.now,
          accounts,
          reply: h.reply.slice(0, MAX_REPLY),
        };
        const set = await trx
          .insertInto('destination_blocks')
          .values(row)
          .onConflict((oc) =>
            oc
              .columns(['destination', 'source_ip'])
              .doUpdateSet({
                paused_until: row.paused_until,
                paused_at: row.paused_at,
                accounts: row.accounts,
                reply: row.reply,
              })
              .where('destination_blocks.paused_until', '<=', h.now),
          )
          .returning('destination')
          .execute();
        newlyPaused = set.length > 0;
      }
      const pause = await trx
        .selectFrom('destination_blocks')
        .selectAll()
        .where('destination', '=', h.destination)
        .where('source_ip', '=', h.sourceIp)
        .where('paused_until', '>', h.now)
        .executeTakeFirst();
      return { accounts, replies, pause: pause && toBlock(pause), newlyPaused };
    });
  }

  /** Every pause standing at `now`, the longest-standing first. */
  async active(now: number): Promise<DestinationBlock[]> {
    const rows = await this.db
      .selectFrom('destination_blocks')
      .selectAll()
      .where('paused_until', '>', now)
      .orderBy('paused_at')
      .orderBy('destination')
      .orderBy('source_ip')
      .execute();
    return rows.map(toBlock);
  }
}

function toBlock(r: {
  destination: string;
  source_ip: string;
  paused_until: number | string;
  paused_at: number | string;
  accounts: number | string;
  reply: string;
}): DestinationBlock {
  return {
    destination: r.destination,
    sourceIp: r.source_ip,
    pausedUntil: Number(r.paused_until),
    pausedAt: Number(r.paused_at),
    accounts: Number(r.accounts),
    reply: r.reply,
  };
}
