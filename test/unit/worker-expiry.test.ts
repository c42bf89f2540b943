// The worker's side of expiry (ARCHITECTURE.md, "Expiry"), with a fake queue and deliverer and the
// clock passed in: a message claimed at or past its deadline is never handed to the deliverer, and a
// pause of its destination that would outlast the deadline is cut at it. The end-to-end path on both
// databases is test/domain-expiry.test.ts.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import type { MessageRow } from '../../src/db/schema.js';
import type { DeliveryOutcome } from '../../src/delivery/deliver-message.js';
import { messageRow } from '../helpers/message-row.js';
import { runOneClaim } from '../helpers/one-claim-worker.js';

const CREATED = Date.UTC(2026, 10, 22, 9, 0, 0);

const message = (over: Partial<MessageRow> = {}): MessageRow =>
  messageRow('00000000-0000-4000-8000-0000000000aa', {
    created_at: CREATED,
    updated_at: CREATED,
    next_attempt_at: CREATED,
    lease_owner: 'w',
    lease_expires_at: CREATED + 600_000,
    ...over,
  });

/** Runs one claimed message through a worker; answers what it recorded and whether it was delivered. */
const runOne = (
  m: MessageRow,
  clock: ManualClock,
  expireAfter: number | null,
  outcome: () => DeliveryOutcome,
) => runOneClaim(m, clock, { expireAfter, outcome });

describe('the worker and a message’s deadline', () => {
  it('fails a message claimed at its deadline without handing it to the deliverer or counting an attempt', async () => {
    const clock = new ManualClock(CREATED + 600_000);
    const m = message({ status: 'deferred', attempts: 1, category: 'network_error' });
    const { record, delivered } = await runOne(m, clock, 600, () => {
      throw new Error('not to be called');
    });
    expect(delivered).toBe(0);
    expect(record).toMatchObject({
      status: 'failed',
      nextAttemptAt: null,
      counted: false,
      attempt: undefined,
    });
    expect(record.events).toEqual([
      expect.objectContaining({
        type: 'email.failed',
        data: expect.objectContaining({
          reason: 'expired',
          category: 'expired',
          last_category: 'network_error',
          attempts: 1,
        }) as unknown,
      }),
    ]);
  });

  it('delivers a message claimed a moment before its deadline', async () => {
    const clock = new ManualClock(CREATED + 599_999);
    const { record, delivered } = await runOne(message(), clock, 600, () => ({
      kind: 'attempted',
      result: {
        outcome: 'delivered',
        smtpCode: 250,
        enhanced: '2.0.0',
        reply: '250 2.0.0 Ok: queued',
        remoteHost: 'mx.dest.example',
        remoteIp: '127.0.0.1',
        tls: false,
        throttled: false,
        greylisted: false,
        category: null,
        reason: '',
      },
    }));
    expect(delivered).toBe(1);
    expect(record).toMatchObject({ status: 'delivered' });
  });

  it('cuts a pause that would outlast the deadline at the deadline, and keeps a shorter one', async () => {
    const clock = new ManualClock(CREATED + 30_000);
    const long = await runOne(message(), clock, 60, () => ({
      kind: 'paused',
      until: CREATED + 30_000 + 60_000,
    }));
    expect(long.record).toMatchObject({ status: 'queued', nextAttemptAt: CREATED + 60_000, counted: false });
    const short = await runOne(message(), clock, 600, () => ({ kind: 'paused', until: CREATED + 90_000 }));
    expect(short.record).toMatchObject({ nextAttemptAt: CREATED + 90_000 });
  });

  it('applies the default two days when the domain sets none', async () => {
    const clock = new ManualClock(CREATED + 2 * 24 * 3600_000);
    const { record, delivered } = await runOne(message(), clock, null, () => {
      throw new Error('not to be called');
    });
    expect(delivered).toBe(0);
    expect(record.events[0]!.data).toMatchObject({
      reason: 'expired',
      detail: 'not delivered within 48 hours; not tried again',
    });
  });
});
