// Sends one signed push to one endpoint: resolve and check the address, sign with the current secret
// (and the previous one during its grace period after a rotation), POST, time it. Used by the
// dispatcher and by the test route; knows nothing about the outbox.
import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { SecretBox } from '../crypto/secret-box.js';
import type { WebhookRow } from '../db/schema.js';
import type { DnsResolver } from '../dns/resolver.js';
import { postWebhook } from './post-webhook.js';
import { webhookHeaders } from './signature.js';
import { resolveWebhookTarget } from './webhook-url.js';
import { urlForLog } from '../log.js';

/** A webhook endpoint has this long to answer (docs/design.md §8). */
export const WEBHOOK_TIMEOUT_MS = 15_000;

export interface SendSettings {
  allowPrivateNetworks: boolean;
  timeoutMs: number;
}

export interface SendResult {
  startedAt: number;
  durationMs: number;
  statusCode: number | null;
  response: string;
  retryAfter: string | undefined;
  error: string | undefined;
}

export class WebhookSender {
  constructor(
    private readonly settings: SendSettings,
    private readonly deps: {
      dns: DnsResolver;
      secrets: SecretBox;
      clock: Clock;
      /** Each push at level debug, its endpoint as origin and path (the query may hold a secret). */
      log?: Logger;
      /** Told about every push's result (metrics). */
      sent?: (result: SendResult) => void;
    },
  ) {}

  /** The secrets that sign a push now, newest first. */
  signingSecrets(webhook: WebhookRow, now: number): string[] {
    const { secrets } = this.deps;
    const current = [secrets.open(webhook.secret)];
    if (webhook.previous_secret && (webhook.previous_secret_until ?? 0) > now) {
      current.push(secrets.open(webhook.previous_secret));
    }
    return current;
  }

  async send(webhook: WebhookRow, messageId: string, body: string): Promise<SendResult> {
    const result = await this.push(webhook, messageId, body);
    this.deps.log?.debug(
      {
        webhookId: webhook.id,
        url: urlForLog(webhook.url),
        statusCode: result.statusCode,
        durationMs: result.durationMs,
        error: result.error,
      },
      'webhook push',
    );
    this.deps.sent?.(result);
    return result;
  }

  private async push(webhook: WebhookRow, messageId: string, body: string): Promise<SendResult> {
    const { clock, dns } = this.deps;
    const startedAt = clock.now();
    const t0 = performance.now();
    const elapsed = () => Math.round(performance.now() - t0);
    // Checked before every push, not only at creation: DNS answers change.
    const target = await resolveWebhookTarget(webhook.url, dns, this.settings.allowPrivateNetworks);
    if (!target.ok) {
      return {
        startedAt,
        durationMs: elapsed(),
        statusCode: null,
        response: '',
        retryAfter: undefined,
        error: `refused: ${target.reason}`,
      };
    }
    const timestamp = Math.floor(startedAt / 1000);
    const headers = webhookHeaders(this.signingSecrets(webhook, startedAt), messageId, timestamp, body);
    const result = await postWebhook(target, headers, body, this.settings.timeoutMs);
    return { startedAt, durationMs: elapsed(), ...result };
  }
}
