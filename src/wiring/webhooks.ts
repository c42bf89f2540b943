// Webhooks as the API and the worker share them: the endpoints customers manage and the signing sender.
import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import { deriveKey } from '../crypto/derive-key.js';
import { SecretBox } from '../crypto/secret-box.js';
import type { DnsResolver } from '../dns/resolver.js';
import type { Metrics } from '../metrics.js';
import { WebhookEndpoints } from '../webhooks/webhook-endpoints.js';
import { WEBHOOK_TIMEOUT_MS, WebhookSender } from '../webhooks/webhook-sender.js';
import type { Repos } from './repos.js';

export function createWebhooks(
  config: Config,
  deps: { repos: Repos; secretKey: string; dns: DnsResolver; metrics: Metrics; clock: Clock; logger: Logger },
): { endpoints: WebhookEndpoints; sender: WebhookSender } {
  const { repos, dns, metrics, clock } = deps;
  // Webhook signing secrets, sealed at rest: one key for the endpoints that store them and the sender.
  const secrets = new SecretBox(deriveKey(deps.secretKey, 'webhook-secret-encryption'));
  const sender = new WebhookSender(
    { allowPrivateNetworks: config.allowPrivateNetworks, timeoutMs: WEBHOOK_TIMEOUT_MS },
    {
      dns,
      secrets,
      clock,
      log: deps.logger.child({ role: 'webhooks' }),
      sent: (r) =>
        metrics.webhookAttempts.inc({
          outcome: r.statusCode !== null && r.statusCode >= 200 && r.statusCode < 300 ? 'success' : 'failure',
        }),
    },
  );
  const endpoints = new WebhookEndpoints(
    {
      allowPrivateNetworks: config.allowPrivateNetworks,
      maxPendingReplays: config.webhookMaxPendingReplays,
      testsAtOnce: { endpoint: config.webhookEndpointConcurrency, account: config.webhookAccountConcurrency },
    },
    { repo: repos.webhooks, outbox: repos.webhookOutbox, secrets, sender, dns, clock },
  );
  return { endpoints, sender };
}
