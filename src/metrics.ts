// Prometheus metrics (GET /metrics). One registry per service instance (no global state): counters move
// where the thing happens, gauges of the queue are read from the database when scraped.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { isBounceCategory } from './bounce/categories.js';
import type { DeliveryAttemptRow } from './db/schema.js';
import { rate, type ReputationWindow } from './reputation/judge.js';

export interface QueueDepth {
  waiting: number;
  oldestCreatedAt: number | undefined;
}

/**
 * `read` shared by the gauges of one scrape: a scrape calls every gauge's collect in one synchronous
 * turn (prom-client's Registry.metrics), so the read the first one starts is shared until that turn
 * ends, and any later scrape, however soon, reads afresh (a value changed in between is never missed).
 */
function oncePerScrape<T>(read: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => {
    if (!pending) {
      pending = read();
      queueMicrotask(() => (pending = undefined));
    }
    return pending;
  };
}

/**
 * The process's own metrics (CPU, memory, event loop delay, collections): one set per process, however
 * many service instances it runs (the tests run hundreds in one process), because prom-client's
 * collectors start a GC observer and an event-loop monitor that nothing stops.
 */
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry, prefix: 'txmail_process_' });
  }
  return processRegistry;
}

export class Metrics {
  /** This instance's metrics; `exposition` adds the process's. */
  readonly registry = new Registry();
  readonly accepted: Counter<'route'>;
  readonly attempts: Counter<'outcome'>;
  readonly events: Counter<'type' | 'category'>;
  readonly deliveryLatency: Histogram;
  readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  readonly webhookAttempts: Counter<'outcome'>;
  readonly inboundMessages: Counter<'kind'>;
  readonly inboundLimited: Counter<'limit'>;
  readonly senderBlocks: Counter;
  readonly deliveryTls: Counter<'policy' | 'result'>;
  readonly httpBodyBytes: Gauge;

  constructor(queueDepth: () => Promise<QueueDepth>, now: () => number) {
    const registers = [this.registry];
    this.accepted = new Counter({
      name: 'txmail_emails_accepted_total',
      help: 'Emails accepted by the API, by route (send, test)',
      labelNames: ['route'],
      registers,
    });
    this.attempts = new Counter({
      name: 'txmail_delivery_attempts_total',
      help: 'Delivery attempts by outcome (delivered, deferred, bounced, failed)',
      labelNames: ['outcome'],
      registers,
    });
    this.events = new Counter({
      name: 'txmail_email_events_total',
      help: 'Email events recorded, by type (email.delivered, email.bounced, email.complained, …) and, for the events that carry one (bounces, delays, complaints, failures), category (unknown_recipient, mailbox_full, …)',
      labelNames: ['type', 'category'],
      registers,
    });
    this.deliveryLatency = new Histogram({
      name: 'txmail_delivery_latency_seconds',
      help: 'From acceptance to delivered, for delivered emails',
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600, 14400],
      registers,
    });
    this.httpDuration = new Histogram({
      name: 'txmail_http_request_duration_seconds',
      help: 'HTTP request durations by method, route pattern and status code',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers,
    });
    this.webhookAttempts = new Counter({
      name: 'txmail_webhook_attempts_total',
      help: 'Webhook delivery attempts by outcome (success, failure)',
      labelNames: ['outcome'],
      registers,
    });
    this.inboundMessages = new Counter({
      name: 'txmail_inbound_messages_total',
      help: 'Messages the bounce receiver processed, by what they were (bounce, complaint, feedback: a feedback report that is no complaint, undetermined: an unreadable notice from the null sender kept in the log, auto_reply, ignored); error: processing failed, retried later; failed: given up (its parse ran past TXMAIL_INBOUND_PARSE_TIMEOUT_MS or killed its thread, or its attempts ran out)',
      labelNames: ['kind'],
      registers,
    });
    this.inboundLimited = new Counter({
      name: 'txmail_inbound_limited_total',
      help: 'Sessions and messages the bounce receiver refused, or sessions it cut, by per-client limit (connection_rate, sessions, lifetime, hourly_messages, hourly_bytes) or the memory budget (memory)',
      labelNames: ['limit'],
      registers,
    });
    this.senderBlocks = new Counter({
      name: 'txmail_sender_block_replies_total',
      help: 'Replies that refused the sending address (a blocklist, its reputation, complaints), not the recipient: the message was deferred, never bounced (ARCHITECTURE.md, Destination blocks)',
      registers,
    });
    this.deliveryTls = new Counter({
      name: 'txmail_delivery_tls_total',
      help: 'Delivery attempts whose session reached TLS or its absence, by TLS policy (opportunistic, required, mta-sts, mta-sts-testing) and result (tls_valid, tls_invalid: TLS with a certificate that did not verify; cleartext: no STARTTLS offered; cleartext_fallback: cleartext after a failed handshake; refused: not sent, the policy asked for more)',
      labelNames: ['policy', 'result'],
      registers,
    });
    this.httpBodyBytes = new Gauge({
      name: 'txmail_http_body_bytes_held',
      help: 'Bytes of request bodies (declared over 64 KiB, or chunked) the API listener holds in memory now, counted against TXMAIL_HTTP_BODY_MEMORY (past it: 429 server_busy)',
      registers,
    });
    // Both queue gauges come from one query per scrape.
    const read = oncePerScrape(queueDepth);
    new Gauge({
      name: 'txmail_queue_depth',
      help: 'Emails waiting for delivery (queued or deferred)',
      registers,
      async collect() {
        this.set((await read()).waiting);
      },
    });
    new Gauge({
      name: 'txmail_queue_oldest_age_seconds',
      help: 'Age of the oldest email waiting for delivery (0 when none)',
      registers,
      async collect() {
        const oldest = (await read()).oldestCreatedAt;
        this.set(oldest === undefined ? 0 : Math.max(0, (now() - oldest) / 1000));
      },
    });
  }

  /** What GET /metrics answers: this instance's metrics and the process's, in the text format. */
  exposition(): Promise<string> {
    return Registry.merge([processMetrics(), this.registry]).metrics();
  }

  /** The exposition's media type. */
  get contentType(): string {
    return this.registry.contentType;
  }

  /**
   * txmail_reputation_accounts{status}: how many accounts are healthy, in warning, paused
   * (ARCHITECTURE.md, "Reputation guardrails"), from one query per scrape.
   */
  watchReputationStates(read: () => Promise<Record<string, number>>): void {
    new Gauge({
      name: 'txmail_reputation_accounts',
      help: 'Accounts by reputation status (healthy, warning, paused: sends refused until the operator resumes them)',
      labelNames: ['status'],
      registers: [this.registry],
      async collect() {
        for (const [status, n] of Object.entries(await read())) this.set({ status }, n);
      },
    });
  }

  /**
   * txmail_blocklist_listed{target,zone}: 1 while a list holds the target, else 0, read from the shared
   * verdicts at each scrape (blocklists/), so every process's /metrics tells the same.
   */
  observeBlocklists(read: () => Promise<{ target: string; zone: string; listed: boolean }[]>): void {
    new Gauge({
      name: 'txmail_blocklist_listed',
      help: 'Whether a DNS blocklist (zone) lists a sending address or a name of the service (target): 1 listed, 0 not; from the last check (TXMAIL_DNSBL_ZONES)',
      labelNames: ['target', 'zone'],
      registers: [this.registry],
      async collect() {
        const listings = await read();
        // A target or zone no longer configured leaves no stale series behind.
        this.reset();
        for (const l of listings) this.set({ target: l.target, zone: l.zone }, l.listed ? 1 : 0);
      },
    });
  }

  /**
   * The gauge of destinations paused for a source address after sender blocks (destination-blocks.ts):
   * 1 per pair while the pause stands, read from the shared database at each scrape, so every process's
   * /metrics shows every worker's pauses. `source_ip` "system": the system's choice of address.
   */
  watchDestinationBlocks(read: () => Promise<{ destination: string; sourceIp: string }[]>): void {
    new Gauge({
      name: 'txmail_destination_blocks',
      help: 'Destinations paused for a source address because several accounts, or several replies, were refused as sender blocks (TXMAIL_DESTINATION_BLOCKS; 1 while paused)',
      labelNames: ['destination', 'source_ip'],
      registers: [this.registry],
      async collect() {
        const blocks = await read();
        this.reset();
        for (const b of blocks)
          this.set({ destination: b.destination, source_ip: b.sourceIp || 'system' }, 1);
      },
    });
  }

  /**
   * Each account's rolling reputation window, as gauges labelled by account: bounce rate, complaint
   * rate (fractions) and the messages they divide by, for the accounts with anything in their window.
   * `windows` is one grouped query (db/reputation-repo.ts windows), run once per scrape for all three.
   */
  addReputationGauges(windows: () => Promise<(ReputationWindow & { accountId: string })[]>): void {
    this.windowGauges('txmail_reputation', 'Per account', ['account_id'], windows, (w) => ({
      account_id: w.accountId,
    }));
  }

  /**
   * The same three gauges per account and sending domain (`txmail_reputation_domain_*{account_id,
   * domain}`), from one grouped query per scrape (db/reputation-repo.ts domainWindows).
   */
  addDomainReputationGauges(
    windows: () => Promise<(ReputationWindow & { accountId: string; domain: string })[]>,
  ): void {
    this.windowGauges(
      'txmail_reputation_domain',
      'Per account and sending domain',
      ['account_id', 'domain'],
      windows,
      (w) => ({
        account_id: w.accountId,
        domain: w.domain,
      }),
    );
  }

  /** A bounce-rate, a complaint-rate and a messages gauge over the windows `windows` reads. */
  private windowGauges<W extends ReputationWindow, L extends string>(
    prefix: string,
    per: string,
    labelNames: readonly L[],
    windows: () => Promise<W[]>,
    labels: (w: W) => Record<L, string>,
  ): void {
    const registers = [this.registry];
    // The three gauges come from one query per scrape.
    const read = oncePerScrape(windows);
    const gauge = (name: string, help: string, value: (w: W) => number) =>
      new Gauge({
        name: `${prefix}_${name}`,
        help: `${per}: ${help}`,
        labelNames: [...labelNames],
        registers,
        async collect() {
          const all = await read();
          // A window that emptied (or was reset) disappears instead of keeping its last value.
          this.reset();
          for (const w of all) this.set(labels(w), value(w));
        },
      });
    gauge(
      'bounce_rate',
      'bounces that say the address is bad, over the messages that reached a final state in the rolling window (TXMAIL_REPUTATION window_days), as a fraction',
      (w) => rate(w.bounced, w.messages),
    );
    gauge(
      'complaint_rate',
      'spam complaints over the messages that reached a final state in the rolling window, as a fraction',
      (w) => rate(w.complained, w.messages),
    );
    gauge(
      'window_messages',
      'messages that reached a final state in the rolling window (what the rates divide by)',
      (w) => w.messages,
    );
  }

  /** txmail_delivery_tls_total for one recorded attempt (nothing when no session answered it). */
  countTls(attempt: DeliveryAttemptRow): void {
    const result = tlsResult(attempt);
    if (result !== undefined) this.deliveryTls.inc({ policy: attempt.tls_policy!, result });
  }

  /**
   * Counts a recorded event: by type, and by the category it carries in `data.category`. Only the
   * categories of BOUNCE_CATEGORIES become label values (the set is bounded whatever an event holds);
   * an event without one has no category label.
   */
  countEvent(event: { type: string; data: Record<string, unknown> }): void {
    const category = event.data.category;
    this.events.inc(
      typeof category === 'string' && isBounceCategory(category)
        ? { type: event.type, category }
        : { type: event.type },
    );
  }
}

/**
 * What an attempt's session came to, for txmail_delivery_tls_total. A policy that requires a valid
 * certificate never sends without one: such an attempt without TLS, or with an invalid certificate, was
 * refused (ARCHITECTURE.md, "TLS policy").
 */
function tlsResult(
  a: Pick<DeliveryAttemptRow, 'tls' | 'tls_policy' | 'tls_certificate' | 'tls_fallback'>,
): 'tls_valid' | 'tls_invalid' | 'cleartext' | 'cleartext_fallback' | 'refused' | undefined {
  if (a.tls_policy === null) return undefined;
  const verified = a.tls_policy === 'required' || a.tls_policy === 'mta-sts';
  const encrypted = Number(a.tls) === 1;
  if (verified && (!encrypted || a.tls_certificate !== 'valid')) return 'refused';
  if (encrypted) return a.tls_certificate === 'valid' ? 'tls_valid' : 'tls_invalid';
  return Number(a.tls_fallback) === 1 ? 'cleartext_fallback' : 'cleartext';
}
