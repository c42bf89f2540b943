// What each state change adds to the reputation counts (reputation/counts.ts), for every transition the
// worker and the receiver record: first attempts and final decisions are `sent` once, final states count
// in the window, bad-address bounces and spam complaints against it; a bounce or complaint after the
// message was counted final adds no second final message; an unsubscribe counts as no complaint.
import { describe, expect, it } from 'vitest';
import {
  deliveryCounts,
  deliveryDelta,
  inboundCounts,
  NO_COUNTS,
  sumDeltas,
  type Counts,
} from '../../src/reputation/counts.js';
import { utcDay } from '../../src/clock.js';
import type { MessageStatus } from '../../src/db/schema.js';
import { Metrics } from '../../src/metrics.js';

const counts = (c: Partial<Counts>): Counts => ({ ...NO_COUNTS, ...c });

describe("the worker's records", () => {
  const record = (status: MessageStatus, counted = true) => ({ status, counted });

  it('counts a first attempt as sent, and the final states', () => {
    expect(deliveryCounts({ attempts: 0 }, record('delivered'), null)).toEqual(
      counts({ sent: 1, delivered: 1, final: 1 }),
    );
    expect(deliveryCounts({ attempts: 0 }, record('deferred'), 'mailbox_full')).toEqual(counts({ sent: 1 }));
    expect(deliveryCounts({ attempts: 0 }, record('bounced'), 'unknown_recipient')).toEqual(
      counts({ sent: 1, bounced: 1, final: 1, badBounces: 1 }),
    );
    expect(deliveryCounts({ attempts: 0 }, record('failed'), null)).toEqual(counts({ sent: 1, final: 1 }));
  });

  it('counts a later attempt only when it ends the message', () => {
    expect(deliveryCounts({ attempts: 2 }, record('deferred'), null)).toBeUndefined();
    expect(deliveryCounts({ attempts: 2 }, record('delivered'), null)).toEqual(
      counts({ delivered: 1, final: 1 }),
    );
    expect(deliveryCounts({ attempts: 3 }, record('failed'), 'expired')).toEqual(counts({ final: 1 }));
  });

  it('counts only bounces whose category says the address is bad against the list', () => {
    for (const category of ['unknown_recipient', 'unknown_domain', 'mailbox_disabled']) {
      expect(deliveryCounts({ attempts: 1 }, record('bounced'), category)).toEqual(
        counts({ bounced: 1, final: 1, badBounces: 1 }),
      );
    }
    for (const category of ['policy_rejected', 'mailbox_full', 'content_rejected', null]) {
      expect(deliveryCounts({ attempts: 1 }, record('bounced'), category)).toEqual(
        counts({ bounced: 1, final: 1 }),
      );
    }
  });

  it('counts a final decision without an attempt as sent, an expiry without one as final only, a pause as nothing', () => {
    // Unsendable before any attempt: txmail decided, it left the queue.
    expect(deliveryCounts({ attempts: 0 }, record('failed', false), null)).toEqual(
      counts({ sent: 1, final: 1 }),
    );
    // Expired before any attempt (held by a paused account, say): final, but never sent.
    expect(deliveryCounts({ attempts: 0 }, record('failed', false), 'expired')).toEqual(counts({ final: 1 }));
    // A paused destination: only the schedule moved.
    expect(deliveryCounts({ attempts: 0 }, record('queued', false), null)).toBeUndefined();
    expect(deliveryCounts({ attempts: 1 }, record('deferred', false), null)).toBeUndefined();
  });

  it("places the delta on the message's account, from_domain and the record's UTC day", () => {
    const now = Date.parse('2026-11-24T23:59:59.999Z');
    const m = { account_id: 'acc', from_domain: 'acme.example', attempts: 0 };
    expect(
      deliveryDelta(m, {
        status: 'bounced',
        counted: true,
        now,
        events: [{ data: { category: 'unknown_recipient' } }],
      }),
    ).toEqual({
      accountId: 'acc',
      domain: 'acme.example',
      day: '2026-11-24',
      ...counts({ sent: 1, bounced: 1, final: 1, badBounces: 1 }),
    });
    expect(deliveryDelta({ ...m, attempts: 1 }, { status: 'deferred', counted: true, now, events: [] })).toBe(
      undefined,
    );
    expect(utcDay(now + 1)).toBe('2026-11-25');
  });
});

describe("the receiver's bounces and complaints", () => {
  const bounce = (badAddress: boolean) => ({ kind: 'bounce' as const, badAddress });
  const complaint = (spam: boolean) => ({ kind: 'complaint' as const, spam });

  it('a bounce of a message still in the queue makes it final', () => {
    expect(inboundCounts(bounce(true), { status: 'deferred', attempts: 2, category: null })).toEqual(
      counts({ bounced: 1, final: 1, badBounces: 1 }),
    );
    // Superseding the worker's first attempt (the relay bounced it before the record): sent here.
    expect(inboundCounts(bounce(false), { status: 'queued', attempts: 0, category: null })).toEqual(
      counts({ sent: 1, bounced: 1, final: 1 }),
    );
  });

  it('a bounce after delivery adds a bounce, no final message (counted when delivered)', () => {
    expect(inboundCounts(bounce(true), { status: 'delivered', attempts: 1, category: null })).toEqual(
      counts({ bounced: 1, badBounces: 1 }),
    );
    expect(inboundCounts(bounce(false), { status: 'failed', attempts: 1, category: null })).toEqual(
      counts({ bounced: 1 }),
    );
    expect(inboundCounts(bounce(true), { status: 'complained', attempts: 1, category: null })).toEqual(
      counts({ bounced: 1, badBounces: 1 }),
    );
  });

  it('a complaint after delivery adds a spam complaint; an unsubscribe adds nothing', () => {
    expect(inboundCounts(complaint(true), { status: 'delivered', attempts: 1, category: null })).toEqual(
      counts({ complained: 1, spamComplaints: 1 }),
    );
    expect(
      inboundCounts(complaint(false), { status: 'delivered', attempts: 1, category: null }),
    ).toBeUndefined();
    // Still in the queue: it ends there either way.
    expect(inboundCounts(complaint(false), { status: 'deferred', attempts: 1, category: null })).toEqual(
      counts({ final: 1 }),
    );
    expect(inboundCounts(complaint(true), { status: 'queued', attempts: 0, category: null })).toEqual(
      counts({ sent: 1, final: 1, complained: 1, spamComplaints: 1 }),
    );
  });

  it('a spam complaint after an unsubscribe counts: the first spam complaint of the message', () => {
    expect(
      inboundCounts(complaint(true), { status: 'complained', attempts: 1, category: 'unsubscribe' }),
    ).toEqual(counts({ complained: 1, spamComplaints: 1 }));
  });

  it('nothing for a repeat or a test message', () => {
    expect(inboundCounts(bounce(true), { status: 'bounced', attempts: 1, category: null })).toBeUndefined();
    expect(
      inboundCounts(complaint(true), { status: 'complained', attempts: 1, category: 'complaint' }),
    ).toBeUndefined();
    expect(
      inboundCounts(complaint(false), { status: 'complained', attempts: 1, category: 'unsubscribe' }),
    ).toBeUndefined();
    expect(inboundCounts(bounce(true), { status: 'test', attempts: 0, category: null })).toBeUndefined();
  });
});

describe('a batch of deltas', () => {
  it('is summed per account, day and domain, in key order', () => {
    const d = (accountId: string, day: string, domain: string, c: Partial<Counts>) => ({
      accountId,
      day,
      domain,
      ...counts(c),
    });
    expect(
      sumDeltas([
        d('b', '2026-11-24', 'x.example', { sent: 1 }),
        d('a', '2026-11-24', 'y.example', { final: 1, delivered: 1 }),
        d('b', '2026-11-24', 'x.example', { sent: 1, final: 1, badBounces: 1 }),
        d('a', '2026-11-23', 'y.example', { complained: 1 }),
      ]),
    ).toEqual([
      d('a', '2026-11-23', 'y.example', { complained: 1 }),
      d('a', '2026-11-24', 'y.example', { final: 1, delivered: 1 }),
      d('b', '2026-11-24', 'x.example', { sent: 2, final: 1, badBounces: 1 }),
    ]);
    expect(sumDeltas([])).toEqual([]);
  });
});

describe('the reputation gauges', () => {
  it('read the windows once per scrape, for all three gauges', async () => {
    const metrics = new Metrics(
      async () => ({ waiting: 0, oldestCreatedAt: undefined }),
      () => 0,
    );
    let reads = 0;
    metrics.addReputationGauges(async () => {
      reads++;
      return [{ accountId: 'acc', messages: 8, bounced: 1, complained: 0 }];
    });
    const first = await metrics.registry.metrics();
    expect(reads).toBe(1);
    expect(first).toContain('txmail_reputation_bounce_rate{account_id="acc"} 0.125');
    expect(first).toContain('txmail_reputation_complaint_rate{account_id="acc"} 0');
    expect(first).toContain('txmail_reputation_window_messages{account_id="acc"} 8');
    await metrics.registry.metrics();
    expect(reads).toBe(2);
  });
});
