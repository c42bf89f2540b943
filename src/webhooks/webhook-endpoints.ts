// Managing an account's webhook endpoints (the API's webhooks resource): validation, plan limits,
// secrets (generated, sealed at rest, rotated with a grace period), test pushes and replays.
import { PLANS, PLAN_NAMES } from '../accounts/plans.js';
import type { Clock } from '../clock.js';
import type { SecretBox } from '../crypto/secret-box.js';
import type { Account, WebhookAttemptRow, WebhookEventType, WebhookRow } from '../db/schema.js';
import type { WebhookOutboxRepo } from '../db/webhook-outbox-repo.js';
import type { WebhookChange, WebhooksRepo } from '../db/webhooks-repo.js';
import type { DnsResolver } from '../dns/resolver.js';
import { AppError, rateLimited } from '../errors.js';
import { newId } from '../ids.js';
import { testPayload } from './payload.js';
import { generateWebhookSecret } from './signature.js';
import { WEBHOOK_TIMEOUT_MS, type WebhookSender } from './webhook-sender.js';
import { resolveWebhookTarget, webhookUrlProblem } from './webhook-url.js';

/** What an endpoint receives when it names no types: delivery, bounce and complaint (docs/design.md §8). */
export const DEFAULT_EVENT_TYPES: WebhookEventType[] = [
  'email.delivered',
  'email.bounced',
  'email.complained',
];

/** How long a rotated-out secret keeps signing beside the new one. */
export const SECRET_GRACE_MS = 24 * 3600_000;

export interface WebhookInput {
  url?: string;
  events?: WebhookEventType[];
  enabled?: boolean;
  description?: string;
}

export class WebhookEndpoints {
  constructor(
    private readonly settings: {
      allowPrivateNetworks: boolean;
      /** Replays one endpoint may have pending (queued, not yet final) before the next is refused. */
      maxPendingReplays: number;
      /**
       * Test pushes in flight at once, per endpoint and per account, in this process: the pushes' own
       * limits (TXMAIL_WEBHOOK_ENDPOINT_CONCURRENCY, TXMAIL_WEBHOOK_ACCOUNT_CONCURRENCY). Without them a
       * key's test requests held 200 connections to one hanging URL at once, each for the 15 s timeout.
       */
      testsAtOnce: { endpoint: number; account: number };
    },
    private readonly deps: {
      repo: WebhooksRepo;
      outbox: WebhookOutboxRepo;
      secrets: SecretBox;
      sender: WebhookSender;
      dns: DnsResolver;
      clock: Clock;
    },
  ) {
    this.testing = new TestsInFlight(settings.testsAtOnce);
  }

  private readonly testing: TestsInFlight;

  /** Creates an endpoint; returns it with its secret, which is shown now (and by `secret`). */
  async create(
    account: Account,
    input: WebhookInput & { url: string },
  ): Promise<{ webhook: WebhookRow; secret: string }> {
    const limit = PLANS[account.plan].webhooks;
    if (limit === 0) throw planLimit(account);
    await this.checkUrl(input.url);
    const now = this.deps.clock.now();
    const secret = generateWebhookSecret();
    const row: WebhookRow = {
      id: newId(),
      account_id: account.id,
      url: input.url,
      description: input.description ?? '',
      event_types: encodeTypes(input.events ?? DEFAULT_EVENT_TYPES),
      enabled: input.enabled === false ? 0 : 1,
      disabled_reason: input.enabled === false ? 'disabled by the account' : null,
      secret: this.deps.secrets.seal(secret),
      previous_secret: null,
      previous_secret_until: null,
      created_at: now,
      updated_at: now,
    };
    if (!(await this.deps.repo.insertWithinLimit(row, limit))) throw planLimit(account);
    return { webhook: row, secret };
  }

  list(account: Account): Promise<WebhookRow[]> {
    return this.deps.repo.list(account.id);
  }

  async get(account: Account, id: string): Promise<WebhookRow> {
    const found = await this.deps.repo.get(account.id, id);
    if (!found) throw notFound(id);
    return found;
  }

  async update(account: Account, id: string, input: WebhookInput): Promise<WebhookRow> {
    await this.get(account, id);
    if (input.url !== undefined) await this.checkUrl(input.url);
    const change: WebhookChange = { updated_at: this.deps.clock.now() };
    if (input.url !== undefined) change.url = input.url;
    if (input.description !== undefined) change.description = input.description;
    if (input.events !== undefined) change.event_types = encodeTypes(input.events);
    if (input.enabled !== undefined) {
      change.enabled = input.enabled ? 1 : 0;
      change.disabled_reason = input.enabled ? null : 'disabled by the account';
    }
    const updated = await this.deps.repo.update(account.id, id, change);
    if (!updated) throw notFound(id);
    return updated;
  }

  async delete(account: Account, id: string): Promise<void> {
    if (!(await this.deps.repo.delete(account.id, id))) throw notFound(id);
  }

  /** The current secret (and until when the previous one still signs). */
  async secret(account: Account, id: string): Promise<{ secret: string; previousUntil: number | null }> {
    const w = await this.get(account, id);
    return { secret: this.deps.secrets.open(w.secret), previousUntil: this.previousUntil(w) };
  }

  /** A new secret; the current one keeps signing beside it for SECRET_GRACE_MS. */
  async rotateSecret(account: Account, id: string): Promise<{ secret: string; previousUntil: number }> {
    const w = await this.get(account, id);
    const now = this.deps.clock.now();
    const secret = generateWebhookSecret();
    const previousUntil = now + SECRET_GRACE_MS;
    const updated = await this.deps.repo.update(account.id, id, {
      secret: this.deps.secrets.seal(secret),
      previous_secret: w.secret,
      previous_secret_until: previousUntil,
      updated_at: now,
    });
    if (!updated) throw notFound(id);
    return { secret, previousUntil };
  }

  /** Sends a signed `webhook.test` event now (enabled or not) and records the attempt. */
  async test(account: Account, id: string): Promise<WebhookAttemptRow> {
    const w = await this.get(account, id);
    const eventId = newId();
    const body = JSON.stringify(testPayload(w.id, this.deps.clock.now()));
    const result = await this.testing.run(w.id, account.id, () => this.deps.sender.send(w, eventId, body));
    const success = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
    const attempt: WebhookAttemptRow = {
      id: newId(),
      webhook_id: w.id,
      account_id: account.id,
      event_id: eventId,
      event_type: 'webhook.test',
      attempt: 1,
      started_at: result.startedAt,
      duration_ms: result.durationMs,
      success: success ? 1 : 0,
      status_code: result.statusCode,
      response: result.response,
      error: result.error ?? null,
    };
    await this.deps.outbox.insertAttempt(attempt);
    return attempt;
  }

  /**
   * Queues an event of this account again for one endpoint, with a fresh retry schedule; refused (429)
   * while the endpoint has its cap of replays pending, so replays cannot grow the outbox without bound.
   */
  async replay(account: Account, id: string, eventId: string): Promise<void> {
    const w = await this.get(account, id);
    if (w.enabled !== 1) {
      throw new AppError(
        'validation_error',
        'this webhook is disabled; enable it (PATCH "enabled": true) before replaying',
      );
    }
    const event = await this.deps.outbox.findEvent(account.id, eventId);
    if (!event) throw new AppError('not_found', `no event with id "${eventId}" in this account`);
    // Never an email.report_received: it is pushed to no webhook, and its text may quote the message,
    // a sealed one's sign-in link included (the log withholds it; a replay would have sent it).
    if (event.type === 'email.report_received') {
      throw new AppError(
        'validation_error',
        'email.report_received events are never sent to webhooks; read them in the log',
      );
    }
    await this.queueReplays([w.id], account.id, event.id);
  }

  /**
   * Queues an event again for every enabled endpoint subscribed to its type; their ids. All or none: when
   * one of them has its cap of replays pending, none is queued (429).
   */
  async replayEvent(account: Account, eventId: string): Promise<string[]> {
    const event = await this.deps.outbox.findEvent(account.id, eventId);
    if (!event) throw new AppError('not_found', `no event with id "${eventId}" in this account`);
    const targets = (await this.deps.repo.list(account.id)).filter(
      (w) => w.enabled === 1 && decodeTypes(w.event_types).includes(event.type as WebhookEventType),
    );
    await this.queueReplays(
      targets.map((w) => w.id),
      account.id,
      event.id,
    );
    return targets.map((w) => w.id);
  }

  private async queueReplays(webhookIds: string[], accountId: string, eventId: string): Promise<void> {
    if (webhookIds.length === 0) return;
    const limit = this.settings.maxPendingReplays;
    const full = await this.deps.outbox.replay(
      webhookIds.map((webhookId) => ({ webhookId, accountId, eventId, replayId: newId() })),
      this.deps.clock.now(),
      limit,
    );
    if (full !== undefined) {
      throw new AppError(
        'replay_limit_exceeded',
        `webhook ${full} already has ${limit.toLocaleString('en-US')} replays waiting to be sent, the most ` +
          'one endpoint may have; replay more once some of them have been delivered',
      );
    }
  }

  deliveries(account: Account, id: string, beforeId: string | undefined, limit: number) {
    return this.deps.outbox.attempts(account.id, id, beforeId, limit);
  }

  previousUntil(w: WebhookRow): number | null {
    return w.previous_secret && (w.previous_secret_until ?? 0) > this.deps.clock.now()
      ? w.previous_secret_until
      : null;
  }

  private async checkUrl(url: string): Promise<void> {
    const problem = webhookUrlProblem(url, this.settings.allowPrivateNetworks);
    if (problem) throw new AppError('validation_error', `"url" ${problem}`);
    const target = await resolveWebhookTarget(url, this.deps.dns, this.settings.allowPrivateNetworks);
    // A DNS hiccup does not refuse the endpoint: every push checks the address again anyway.
    if (!target.ok && !target.temporary)
      throw new AppError('validation_error', `"url" is refused: ${target.reason}`);
  }
}

export function encodeTypes(types: readonly string[]): string {
  return `,${[...new Set(types)].join(',')},`;
}

export function decodeTypes(encoded: string): WebhookEventType[] {
  return encoded.split(',').filter(Boolean) as WebhookEventType[];
}

function notFound(id: string): AppError {
  return new AppError('not_found', `no webhook with id "${id}" in this account`);
}

function planLimit(account: Account): AppError {
  const allowed = PLANS[account.plan].webhooks;
  const better = PLAN_NAMES.find((p) => PLANS[p].webhooks > allowed);
  const advice = better ? `the ${better} plan allows ${PLANS[better].webhooks}` : 'delete one to add another';
  return new AppError(
    'plan_limit',
    `the ${account.plan} plan allows ${allowed} webhook${allowed === 1 ? '' : 's'}; ${advice}`,
  );
}

/** The test pushes under way in this process, by endpoint and by account, each kind within its limit. */
class TestsInFlight {
  private readonly byEndpoint = new Map<string, number>();
  private readonly byAccount = new Map<string, number>();

  constructor(private readonly limits: { endpoint: number; account: number }) {}

  /** Runs `push` when both counts have room; refuses it (429) otherwise, with the push timeout to wait. */
  async run<T>(endpointId: string, accountId: string, push: () => Promise<T>): Promise<T> {
    if ((this.byEndpoint.get(endpointId) ?? 0) >= this.limits.endpoint) {
      throw rateLimited(
        `${this.limits.endpoint} test pushes to this endpoint are under way already: try again when one has answered`,
        WEBHOOK_TIMEOUT_MS / 1000,
      );
    }
    if ((this.byAccount.get(accountId) ?? 0) >= this.limits.account) {
      throw rateLimited(
        `${this.limits.account} test pushes of this account are under way already: try again when one has answered`,
        WEBHOOK_TIMEOUT_MS / 1000,
      );
    }
    add(this.byEndpoint, endpointId, 1);
    add(this.byAccount, accountId, 1);
    try {
      return await push();
    } finally {
      add(this.byEndpoint, endpointId, -1);
      add(this.byAccount, accountId, -1);
    }
  }
}

function add(counts: Map<string, number>, key: string, n: number): void {
  const next = (counts.get(key) ?? 0) + n;
  if (next > 0) counts.set(key, next);
  else counts.delete(key);
}
