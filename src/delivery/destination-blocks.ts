// Destination blocks (ARCHITECTURE.md, "Destination blocks"): when one destination refuses the mail of
// several accounts as sender blocks (a blocklist, the address's reputation: reply-intelligence.ts
// isSenderBlock) from one source address, the trouble is the address, not the tenants: the destination
// is paused for that address, so the mail waits (or leaves from another address) instead of bouncing
// and deepening the block. The counts and pauses are shared by every worker through the database
// (destination-blocks-repo.ts); each worker reads the pauses through a short cache.
import { numberText } from '../number-text.js';
import type { Logger } from 'pino';
import { Snapshot } from '../snapshot.js';
import type {
  BlockRule,
  DestinationBlock,
  HitOutcome,
  SenderBlockHit,
} from '../db/destination-blocks-repo.js';

export type DestinationBlockSettings = BlockRule;

export const DEFAULT_DESTINATION_BLOCKS: DestinationBlockSettings = {
  accounts: 2,
  replies: 3,
  windowMs: 60 * 60_000,
  pauseMs: 60 * 60_000,
};

/** The shared store (DestinationBlocksRepo). */
export interface DestinationBlockStore {
  hit(h: SenderBlockHit, rule: BlockRule): Promise<HitOutcome>;
  active(now: number): Promise<DestinationBlock[]>;
}

/** How long a worker trusts its copy of the shared pauses. */
export const BLOCK_CACHE_MS = 5000;

/** destination → source address → paused until. */
type Pauses = Map<string, Map<string, number>>;

export class DestinationBlocks {
  /** Every worker's pauses, as last read from the shared store. */
  private readonly shared: Snapshot<Pauses>;
  /**
   * The pauses this worker set itself: a pause only ends with its time, so one set while a read was
   * under way (and missing from it) still counts.
   */
  private readonly own: Pauses = new Map();

  constructor(
    private readonly store: DestinationBlockStore,
    private readonly settings: DestinationBlockSettings,
    private readonly now: () => number,
    private readonly logger: Logger,
    /** Told of every sender block reply (metrics). */
    private readonly onSenderBlock: () => void = () => undefined,
    cacheMs = BLOCK_CACHE_MS,
  ) {
    this.shared = new Snapshot(
      async () => {
        const pauses: Pauses = new Map();
        for (const b of await store.active(now())) addPause(pauses, b.destination, b.sourceIp, b.pausedUntil);
        return pauses;
      },
      new Map(),
      cacheMs,
      now,
      (err) => logger.warn({ err }, 'could not read the destination blocks; using the last copy'),
    );
  }

  /**
   * The source addresses ('' for the system's choice) the destination is paused for now, with when
   * each pause ends. A store that cannot be read leaves the last copy in use (logged): mail goes on as
   * it did rather than stopping.
   */
  async paused(destination: string): Promise<ReadonlyMap<string, number>> {
    const shared = (await this.shared.get()).get(destination);
    const own = this.own.get(destination);
    if (!shared && !own) return EMPTY;
    const now = this.now();
    const standing = new Map<string, number>();
    for (const sources of [shared, own])
      for (const [sourceIp, until] of sources ?? [])
        if (until > now) standing.set(sourceIp, Math.max(until, standing.get(sourceIp) ?? 0));
    return standing;
  }

  /**
   * A sender block from the destination for the account's mail from the source address: recorded in
   * the shared store, which pauses the pair once enough accounts were refused. Never throws: the
   * attempt's own record matters more (a failure is logged).
   */
  async senderBlock(hit: Omit<SenderBlockHit, 'now'>): Promise<void> {
    this.onSenderBlock();
    const now = this.now();
    let outcome: HitOutcome;
    try {
      outcome = await this.store.hit({ ...hit, now }, this.settings);
    } catch (err) {
      this.logger.warn({ err, destination: hit.destination }, 'could not record a sender block');
      return;
    }
    const { pause } = outcome;
    if (!pause) return;
    // Ended pauses go (the shared store has them too while they stand).
    for (const [destination, sources] of this.own) {
      for (const [sourceIp, until] of sources) if (until <= now) sources.delete(sourceIp);
      if (sources.size === 0) this.own.delete(destination);
    }
    addPause(this.own, pause.destination, pause.sourceIp, pause.pausedUntil);
    if (outcome.newlyPaused) {
      this.logger.warn(
        {
          destination: pause.destination,
          sourceIp: pause.sourceIp || null,
          accounts: pause.accounts,
          pausedUntil: new Date(pause.pausedUntil).toISOString(),
          reply: pause.reply,
        },
        'destination paused for a source address: it refused several accounts, or several messages, as sender blocks',
      );
    }
  }
}

const EMPTY: ReadonlyMap<string, number> = new Map();

function addPause(pauses: Pauses, destination: string, sourceIp: string, until: number): void {
  let sources = pauses.get(destination);
  if (!sources) pauses.set(destination, (sources = new Map()));
  sources.set(sourceIp, Math.max(until, sources.get(sourceIp) ?? 0));
}

/** The settings of TXMAIL_DESTINATION_BLOCKS and the field each sets (minutes for the times). */
const SETTINGS = {
  accounts: 'accounts',
  replies: 'replies',
  window_minutes: 'windowMs',
  pause_minutes: 'pauseMs',
} as const satisfies Record<string, keyof DestinationBlockSettings>;

/**
 * Parses TXMAIL_DESTINATION_BLOCKS: `accounts=2,replies=3,window_minutes=60,pause_minutes=60`, whole numbers
 * ≥ 1; any setting left out keeps its default. Throws a message naming what is wrong.
 */
export function parseDestinationBlocks(text: string): DestinationBlockSettings {
  const s: DestinationBlockSettings = { ...DEFAULT_DESTINATION_BLOCKS };
  for (const part of text.split(',').map((p) => p.trim())) {
    if (part === '') continue;
    const m = /^([a-z_]+)\s*=\s*(\d+)$/.exec(part);
    const field = m ? SETTINGS[m[1] as keyof typeof SETTINGS] : undefined;
    if (!m || !field) {
      throw new Error(`"${part}" is not one of ${Object.keys(SETTINGS).join(', ')} with =whole number`);
    }
    const value = Number(m[2]);
    if (value < 1) throw new Error(`${m[1]} must be at least 1`);
    const count = field === 'accounts' || field === 'replies';
    if (!count && value > 7 * 24 * 60) throw new Error(`${m[1]} must be at most 10080 (a week)`);
    s[field] = count ? value : value * 60_000;
  }
  return s;
}

/** TXMAIL_DESTINATION_BLOCKS's text for `s`: every setting, the times in minutes. */
export function destinationBlocksText(s: DestinationBlockSettings): string {
  return Object.entries(SETTINGS)
    .map(([name, field]) => `${name}=${numberText(name.endsWith('_minutes') ? s[field] / 60_000 : s[field])}`)
    .join(',');
}
