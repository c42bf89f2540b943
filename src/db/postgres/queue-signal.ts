// The queue signal seam on PostgreSQL: wakes delivery workers in other processes when mail is queued, so
// that a message accepted by a `txmail api` process starts delivery within milliseconds in a `txmail
// worker` process instead of at its next poll. NOTIFY after each accept commit, and one dedicated LISTEN
// connection per worker process. The signal is only a hint: a lost one costs at most one poll interval,
// never a message (the queue itself is the truth).
import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import type { Database } from '../schema.js';
import type { QueueSignal } from '../seams.js';

const CHANNEL = 'txmail_queue';
/** PostgreSQL's longest identifier, in bytes (NAMEDATALEN − 1): a longer channel name is cut. */
const MAX_CHANNEL_BYTES = 63;

/**
 * The channel of the installation at `url`: `txmail_queue`, or one per schema when the URL names its
 * schema (`?options=-c search_path=…`, docs/deploy.md), since a NOTIFY reaches every listener of the
 * database: installations sharing one database in schemas of their own (and the tests, one schema
 * each) would otherwise wake each other's workers for nothing.
 */
export function queueChannel(url: string): string {
  let options: string | null = null;
  try {
    options = new URL(url).searchParams.get('options');
  } catch {
    return CHANNEL;
  }
  const schema = /(?:^|\s)(?:-c\s*|--)search_path=([^\s,]+)/.exec(options ?? '')?.[1]?.replaceAll('"', '');
  if (!schema) return CHANNEL;
  const channel = `${CHANNEL}:${schema}`;
  return Buffer.byteLength(channel) <= MAX_CHANNEL_BYTES
    ? channel
    : `${CHANNEL}:${createHash('sha256').update(schema).digest('hex').slice(0, 40)}`;
}

export class PostgresQueueSignal implements QueueSignal {
  private sending = false;
  private again = false;
  private pid: number | undefined;
  private readonly channel: string;

  listenerPid(): number | undefined {
    return this.pid;
  }

  constructor(
    private readonly kysely: Kysely<Database>,
    private readonly url: string,
    private readonly reconnectMs = 1000,
  ) {
    this.channel = queueChannel(url);
  }

  queued(): void {
    // One NOTIFY in flight at a time; commits meanwhile fold into one more (listeners only need to wake).
    if (this.sending) {
      this.again = true;
      return;
    }
    this.sending = true;
    void sql`select pg_notify(${this.channel}, '')`
      .execute(this.kysely)
      .catch(() => undefined)
      .finally(() => {
        this.sending = false;
        if (this.again) {
          this.again = false;
          this.queued();
        }
      });
  }

  async listen(onQueued: () => void, onError: (err: Error) => void): Promise<() => Promise<void>> {
    let stopped = false;
    let client: pg.Client | undefined;
    let retry: NodeJS.Timeout | undefined;
    const connect = async (): Promise<void> => {
      const c = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: 5000 });
      const lost = (err?: Error) => {
        if (client !== c) return;
        client = undefined;
        void c.end().catch(() => undefined);
        if (stopped) return;
        if (err) onError(err);
        // Mail queued while we were away is found by the worker's poll; reconnect for what comes next.
        retry = setTimeout(() => void connect(), this.reconnectMs);
        retry.unref();
      };
      c.on('notification', () => onQueued());
      c.on('error', lost);
      c.on('end', () => lost());
      client = c;
      try {
        await c.connect();
        await c.query(`LISTEN ${c.escapeIdentifier(this.channel)}`);
        this.pid = (c as unknown as { processID: number | undefined }).processID;
      } catch (err) {
        // Start anyway: the poll covers until the reconnect succeeds.
        lost(err as Error);
        return;
      }
      // Anything queued while the connection was being made.
      onQueued();
    };
    await connect();
    return async () => {
      stopped = true;
      clearTimeout(retry);
      const c = client;
      client = undefined;
      // end() can wait forever on a connection the server already dropped: give it a second.
      await Promise.race([
        c?.end().catch(() => undefined),
        new Promise((resolve) => setTimeout(resolve, 1000).unref()),
      ]);
    };
  }
}
