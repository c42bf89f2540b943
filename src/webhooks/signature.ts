// Standard Webhooks v1 (https://www.standardwebhooks.com): the secret is `whsec_` + base64 of random
// bytes; the signature is base64 HMAC-SHA256, keyed with those bytes, over `<id>.<timestamp>.<body>`,
// sent as `v1,<signature>`. Several signatures are separated by spaces (a rotated secret signs beside
// the new one), and a receiver accepts the request when any of them verifies.
import { createHmac, randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';

/** A new signing secret: `whsec_` + base64 of 32 random bytes. */
export function generateWebhookSecret(): string {
  return PREFIX + randomBytes(32).toString('base64');
}

/** `v1,<base64 HMAC-SHA256>` of one message under one secret. */
export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
  const mac = createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** The three headers of a signed request; every secret given signs (the newest first). */
export function webhookHeaders(
  secrets: string[],
  id: string,
  timestampSeconds: number,
  body: string,
): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': secrets.map((s) => signWebhook(s, id, timestampSeconds, body)).join(' '),
  };
}
