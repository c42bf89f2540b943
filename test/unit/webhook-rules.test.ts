// The pure rules of webhooks: signing (the Standard Webhooks test vector and the reference library),
// the retry schedule, what an answer means, and which addresses and URLs are refused.
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { decidePush } from '../../src/webhooks/decide-push.js';
import {
  classifyWebhookResponse,
  nextWebhookAttemptAt,
  parseRetryAfter,
  WEBHOOK_RETRY_SCHEDULE_MS,
} from '../../src/webhooks/retry-policy.js';
import { generateWebhookSecret, signWebhook, webhookHeaders } from '../../src/webhooks/signature.js';
import { webhookUrlProblem } from '../../src/webhooks/webhook-url.js';
import { eventTypePattern } from '../../src/db/webhook-enqueue.js';

describe('webhook signatures', () => {
  it('matches the Standard Webhooks published test vector', () => {
    expect(
      signWebhook(
        'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        'msg_p5jXN8AQM9LWM0D4loKWxJek',
        1614265330,
        '{"test": 2432232314}',
      ),
    ).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('generates whsec_ secrets of 32 random bytes that the standardwebhooks library accepts', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(generateWebhookSecret()).not.toBe(secret);
    const body = JSON.stringify({ type: 'email.delivered', data: { email_id: 'x' } });
    const now = Math.floor(Date.now() / 1000);
    expect(new Webhook(secret).verify(body, webhookHeaders([secret], 'evt-1', now, body))).toEqual(
      JSON.parse(body),
    );
  });

  it('signs with several secrets at once, and the library accepts either secret', () => {
    const [fresh, old, stranger] = [
      generateWebhookSecret(),
      generateWebhookSecret(),
      generateWebhookSecret(),
    ];
    const body = '{"a":1}';
    const headers = webhookHeaders([fresh, old], 'evt-2', Math.floor(Date.now() / 1000), body);
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(() => new Webhook(fresh).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(old).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(stranger).verify(body, headers)).toThrow();
    expect(() => new Webhook(fresh).verify(body + ' ', headers)).toThrow();
  });
});

describe('webhook retries', () => {
  const now = 1_000_000;
  it.each([
    // attempts made, Retry-After ms, expected delay (null: give up)
    [1, undefined, 5_000],
    [2, undefined, 5 * 60_000],
    [3, undefined, 30 * 60_000],
    [4, undefined, 2 * 3600_000],
    [5, undefined, 5 * 3600_000],
    [6, undefined, 10 * 3600_000],
    [7, undefined, 10 * 3600_000],
    [8, undefined, null],
    [1, 60_000, 60_000], // the endpoint asks for more time than the schedule: honoured
    [3, 60_000, 30 * 60_000], // it asks for less: the schedule wins
    [1, 7 * 24 * 3600_000, 24 * 3600_000], // capped at a day
  ] as const)('after %i failed attempts with Retry-After %s waits %s ms', (made, retryAfter, delay) => {
    const next = nextWebhookAttemptAt(made, now, retryAfter, WEBHOOK_RETRY_SCHEDULE_MS);
    expect(next === null ? null : next - now).toBe(delay);
  });

  it('makes eight attempts in all, the first at once', () => {
    expect(WEBHOOK_RETRY_SCHEDULE_MS).toHaveLength(8);
    expect(WEBHOOK_RETRY_SCHEDULE_MS[0]).toBe(0);
  });

  it.each([
    [200, 'success'],
    [204, 'success'],
    [299, 'success'],
    [301, 'retry'],
    [302, 'retry'],
    [400, 'retry'],
    [404, 'retry'],
    [410, 'gone'],
    [429, 'retry'],
    [500, 'retry'],
    [503, 'retry'],
    [null, 'retry'],
  ] as const)('treats HTTP %s as %s', (status, verdict) => {
    expect(classifyWebhookResponse(status)).toBe(verdict);
  });

  it.each([
    ['120', 120_000],
    [' 0 ', 0],
    [new Date(now + 90_000).toUTCString(), 90_000],
    ['soon', undefined],
    [undefined, undefined],
  ] as const)('reads Retry-After %j as %s ms', (value, ms) => {
    // HTTP dates have whole seconds.
    const got = parseRetryAfter(value, now);
    expect(got === undefined ? undefined : Math.round(got / 1000) * 1000).toBe(ms);
  });

  it.each([
    [{ statusCode: 200, retryAfter: undefined }, 1, { status: 'delivered', nextAttemptAt: null }],
    [{ statusCode: 500, retryAfter: undefined }, 1, { status: 'pending', nextAttemptAt: now + 5000 }],
    [{ statusCode: 503, retryAfter: '30' }, 1, { status: 'pending', nextAttemptAt: now + 30_000 }],
    [
      { statusCode: 410, retryAfter: undefined },
      1,
      { status: 'failed', nextAttemptAt: null, disable: 'it answered 410 Gone' },
    ],
    [
      { statusCode: null, retryAfter: undefined },
      8,
      {
        status: 'failed',
        nextAttemptAt: null,
        disable: '8 attempts to deliver an event failed (last: no response)',
      },
    ],
  ] as const)('decides %j after attempt %i', (result, attempts, decision) => {
    expect(decidePush(result, attempts, now, WEBHOOK_RETRY_SCHEDULE_MS)).toEqual(decision);
  });
});

describe('webhook destinations', () => {
  it.each([
    ['https://hooks.example.com/txmail', false, undefined],
    ['https://hooks.example.com:8443/a?b=c', false, undefined],
    ['http://hooks.example.com/txmail', false, 'must start with https://'],
    ['http://127.0.0.1:3000/hook', true, undefined],
    ['ftp://hooks.example.com/', true, 'must start with https://'],
    ['https://user:pw@hooks.example.com/', false, 'must not contain a user name or password'],
    ['hooks.example.com/path', false, 'is not an absolute URL'],
    [`https://h.example/${'a'.repeat(2100)}`, false, 'must be at most 2048 characters'],
    ['https://93.184.216.34/\r\nX: y', false, 'must not contain spaces or control characters'],
    ['https://hooks.example.com/a\u0000b', false, 'must not contain spaces or control characters'],
    ['https://hooks.example.com/a b', false, 'must not contain spaces or control characters'],
    ['https://hooks.example.com/a\tb', false, 'must not contain spaces or control characters'],
  ] as const)('%s (private networks allowed: %s) → %s', (url, allowPrivate, problem) => {
    expect(webhookUrlProblem(url, allowPrivate)).toBe(problem);
  });

  it('escapes LIKE wildcards in subscribed types', () => {
    expect(eventTypePattern('email.delivery_delayed')).toBe('%,email.delivery\\_delayed,%');
  });
});
