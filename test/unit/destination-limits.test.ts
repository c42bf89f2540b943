import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  DestinationLimits,
  nextWaiter,
  parseDestinationRules,
  resolveRule,
  sharePart,
  type Admission,
  type DestinationLimitsOptions,
} from '../../src/delivery/destination-limits.js';

/** Limits on a hand-driven clock whose recalls are recorded, each as its list of message ids. */
function recordingLimits(options: Partial<DestinationLimitsOptions>) {
  const clock = { now: 0 };
  const recalled: string[][] = [];
  const limits = new DestinationLimits(
    options,
    () => clock.now,
    (parked) => recalled.push(parked.map((m) => m.id)),
  );
  return { limits, recalled, clock };
}

function released(a: Admission): () => void {
  if (!('release' in a)) throw new Error(`expected a slot, got a retry at ${a.retryAt}`);
  return a.release;
}

describe('destination limits', () => {
  afterEach(() => vi.useRealTimers());
  const rules = {
    default: { connections: 8 },
    relay: { connections: 20 },
    'google.com': { connections: 10, rate: 50 },
  };

  it('halves concurrency and pauses a destination that throttles, and earns it back with successes', () => {
    const limits = new DestinationLimits({ rules, pauseMs: 60_000, recoverAfter: 3 });
    limits.throttled('mx:a', 1000);
    expect(limits.concurrency('mx:a')).toBe(4);
    expect(limits.pausedUntil('mx:a', 1000)).toBe(61_000);
    expect(limits.pausedUntil('mx:a', 61_000)).toBeUndefined();
    limits.throttled('mx:a', 2000);
    limits.throttled('mx:a', 3000);
    limits.throttled('mx:a', 4000);
    expect(limits.concurrency('mx:a')).toBe(1);
    for (let i = 0; i < 3; i++) limits.delivered('mx:a');
    expect(limits.concurrency('mx:a')).toBe(2);
    expect(limits.concurrency('mx:b')).toBe(8); // other destinations are untouched
    expect(limits.concurrency('relay:smtp.example')).toBe(20);
    expect(limits.concurrency('mx:gmail-smtp-in.l.google.com')).toBe(10);
  });

  it('makes deliveries past the limit wait for a free slot, and reschedules them when the line is long', async () => {
    let now = 5000;
    const limits = new DestinationLimits({ rules: { default: { connections: 2 } } }, () => now);
    const first = released(await limits.acquire('mx:a'));
    released(await limits.acquire('mx:a'));
    let third = false;
    const waiting = limits.acquire('mx:a').then((a) => {
      third = true;
      return a;
    });
    const fourth = limits.acquire('mx:a');
    // Two running, two waiting: the fifth would only hold a worker slot, so it comes back later.
    expect(await limits.acquire('mx:a')).toEqual({ retryAt: 6000 });
    await new Promise((r) => setImmediate(r));
    expect(third).toBe(false);
    first();
    released(await waiting);
    expect(third).toBe(true);
    now = 7000;
    void fourth;
  });

  it("ends a wait in the line at the message's deadline, answered with it, and the line goes on without it", async () => {
    vi.useFakeTimers();
    let now = 5000;
    const limits = new DestinationLimits({ rules: { default: { connections: 2 } } }, () => now);
    const first = released(await limits.acquire('mx:a'));
    released(await limits.acquire('mx:a'));
    let answered: Admission | undefined;
    void limits.acquire('mx:a', 'acct', 'code', 5500).then((a) => (answered = a));
    const later = limits.acquire('mx:a', 'other', 'receipt', 60_000);
    await vi.advanceTimersByTimeAsync(499);
    expect(answered).toBeUndefined();
    now = 5500;
    await vi.advanceTimersByTimeAsync(1);
    expect(answered).toEqual({ retryAt: 5500 });
    // The slot that frees goes to the one still waiting, whose own deadline is far.
    first();
    released(await later)();
    // A deadline beyond what a timer can wait is no deadline: the wait is not ended at once.
    released(await limits.acquire('mx:a'));
    let far: Admission | undefined;
    void limits.acquire('mx:a', 'acct', 'far', now + 40 * 86_400_000).then((a) => (far = a));
    await vi.advanceTimersByTimeAsync(10);
    expect(far).toBeUndefined();
  });

  it('sends the line back to the queue when the worker stops, and lets nobody in after', async () => {
    const now = 5000;
    const limits = new DestinationLimits({ rules: { default: { connections: 1 } } }, () => now);
    released(await limits.acquire('mx:a'));
    const waiting = limits.acquire('mx:a', 'acct', 'code');
    limits.stopWaiting();
    expect(await waiting).toHaveProperty('retryAt');
    expect(await limits.acquire('mx:b')).toEqual({ retryAt: now + 5000 });
  });

  it("serves the line by turns: another account's delivery takes the next slot and is not turned away by a burst's", async () => {
    const limits = new DestinationLimits({ rules: { default: { connections: 2 } } }, () => 5000);
    const order: string[] = [];
    const track = (tenant: string, name: string) =>
      limits.acquire('mx:a', tenant).then((a) => {
        order.push(name);
        return a;
      });
    const burst1 = released(await limits.acquire('mx:a', 'burst'));
    released(await limits.acquire('mx:a', 'burst'));
    const burst3 = track('burst', 'burst3');
    const burst4 = track('burst', 'burst4');
    // The line is full of the burst's; the burst's next goes away, as before.
    expect(await limits.acquire('mx:a', 'burst')).toEqual({ retryAt: 6000 });
    // Another account's delivery is not turned away: the burst's newest waiter is, in its place (the
    // deliveries in progress have held their slots for no time yet: no spacing).
    const other = track('other', 'other');
    expect(await burst4).toEqual({ retryAt: 6000 });
    // And it takes the next free slot, before the burst's waiter that came first.
    burst1();
    released(await other);
    expect(order).toEqual(['burst4', 'other']);
    void burst3;
  });

  it('does not turn away a waiter for a newcomer of an account holding one fewer (that would only swap them)', async () => {
    const limits = new DestinationLimits({ rules: { default: { connections: 1 } } }, () => 0);
    released(await limits.acquire('mx:a', 'a'));
    void limits.acquire('mx:a', 'b');
    // a holds one, b one: c (none) may not displace either, as neither holds two more.
    expect(await limits.acquire('mx:a', 'c')).toEqual({ retryAt: 1000 });
  });

  it('says before the build whom a full line would send away, without changing the line', async () => {
    const limits = new DestinationLimits(
      { rules: { default: { connections: 1 } }, maxWaitMs: 1000 },
      () => 0,
    );
    expect(limits.turnsAway('mx:a', 'burst', 5)).toBeUndefined();
    released(await limits.acquire('mx:a', 'burst'));
    expect(limits.turnsAway('mx:a', 'burst', 5)).toBeUndefined(); // it would wait
    const waiting = limits.acquire('mx:a', 'burst');
    // Full of the burst's: its next is sent away; another account's would displace one, so it is not.
    expect(limits.turnsAway('mx:a', 'burst', 5)).toBe(1005);
    expect(limits.turnsAway('mx:a', 'other', 5)).toBeUndefined();
    // Asking changed nothing: the burst's waiter still waits.
    let settled = false;
    void waiting.then(() => (settled = true));
    await new Promise((r) => setImmediate(r));
    expect(settled).toBe(false);
  });

  it("spaces a full line's turned-away deliveries by how fast its slots free, per account, so a backlog is not all claimed again every second", async () => {
    let now = 0;
    const limits = new DestinationLimits(
      { rules: { default: { connections: 2 } }, maxWaitMs: 1000, maxParkMs: 60_000 },
      () => now,
    );
    // Two deliveries held 400 ms each: a slot frees every 200 ms on average.
    for (let i = 0; i < 2; i++) {
      const release = released(await limits.acquire('mx:a', 'burst'));
      now += 400;
      release();
    }
    // Full again: two running, two waiting.
    released(await limits.acquire('mx:a', 'burst'));
    released(await limits.acquire('mx:a', 'burst'));
    void limits.acquire('mx:a', 'burst');
    const newest = limits.acquire('mx:a', 'burst');
    // The burst's next ones come back a second later, then every 100 ms (twice the rate slots free).
    const back = [];
    for (let i = 0; i < 5; i++) back.push(limits.turnsAway('mx:a', 'burst', now));
    expect(back).toEqual([1800, 1900, 2000, 2100, 2200]);
    // Another account's are not put behind the burst's: it displaces the burst's newest waiter, which
    // is parked after the burst's others…
    expect(limits.turnsAway('mx:a', 'other', now)).toBeUndefined();
    void limits.acquire('mx:a', 'other');
    expect(await newest).toEqual({ retryAt: 2300 });
    // …and once the line is full of both, the other account's first turned-away one is a second away.
    void limits.acquire('mx:a', 'other');
    expect(limits.turnsAway('mx:a', 'other', now)).toBe(1800);
    // A moment later the burst's spacing goes on where it was; once it has passed, it starts afresh.
    expect(limits.turnsAway('mx:a', 'burst', now + 50)).toBe(2400);
    expect(limits.turnsAway('mx:a', 'burst', 5000)).toBe(6000);
  });

  it('parks no further than maxParkMs, and spaces a rate-limited destination by its rate', async () => {
    let now = 0;
    const capped = new DestinationLimits(
      { rules: { default: { connections: 1 } }, maxWaitMs: 1000, maxParkMs: 3000 },
      () => now,
    );
    released(await capped.acquire('mx:a', 't'));
    void capped.acquire('mx:a', 't');
    // Nothing has ended yet, and the one in progress has held its slot for a second: a slot is taken
    // to last that long, so the spacing is half a second.
    now = 1000;
    const back = [];
    for (let i = 0; i < 7; i++) back.push(capped.turnsAway('mx:a', 't', now));
    expect(back).toEqual([2000, 2500, 3000, 3500, 4000, 4000, 4000]);

    const rated = new DestinationLimits(
      { rules: { default: { connections: 1, rate: 2 } }, maxWaitMs: 1000, maxParkMs: 60_000 },
      () => now,
    );
    // A delivery that held its slot for no time at all, then the bucket's second token…
    released(await rated.acquire('mx:b', 't'))();
    released(await rated.acquire('mx:b', 't'));
    // …and one that waits half a second for its token (a timer, driven here), then in the line.
    vi.useFakeTimers();
    void rated.acquire('mx:b', 't');
    await vi.advanceTimersByTimeAsync(500);
    // Two a second at most: spaced by half of that interval, not by the slot's hold time.
    expect([rated.turnsAway('mx:b', 't', now), rated.turnsAway('mx:b', 't', now)]).toEqual([2000, 2250]);
  });

  it('calls parked messages back when a connection frees with nobody waiting, twice the free connections, earliest first', async () => {
    const { limits, recalled, clock } = recordingLimits({
      rules: { default: { connections: 2 } },
      maxWaitMs: 1000,
      maxParkMs: 60_000,
    });
    const a = released(await limits.acquire('mx:a', 't', 'a'));
    const b = released(await limits.acquire('mx:a', 't', 'b'));
    const c = limits.acquire('mx:a', 't', 'c');
    const d = limits.acquire('mx:a', 't', 'd');
    clock.now = 1000;
    const parked = ['p1', 'p2', 'p3', 'p4', 'p5', 'p6'].map((id) =>
      limits.turnsAway('mx:a', 't', clock.now, id),
    );
    // Spaced by half a slot's time: a second (nothing has ended, the oldest has held its slot that
    // long) over two connections, halved.
    expect(parked).toEqual([2000, 2250, 2500, 2750, 3000, 3250]);
    // A connection frees: a waiter takes it; the line is not empty yet, nobody is called back.
    clock.now = 1100;
    a();
    const cRelease = released(await c);
    expect(recalled).toEqual([]);
    b();
    const dRelease = released(await d);
    expect(recalled).toEqual([]);
    // One connection frees with nobody waiting: two called back, the earliest parked.
    cRelease();
    expect(recalled).toEqual([['p1', 'p2']]);
    // Both connections free: up to four, of those whose time has not come (p3's has: it is due
    // already, the worker takes it anyway).
    clock.now = 2600;
    dRelease();
    expect(recalled).toEqual([
      ['p1', 'p2'],
      ['p4', 'p5', 'p6'],
    ]);
    // The spacing starts afresh: the next one turned away comes back a second from now.
    released(await limits.acquire('mx:a', 't', 'x'));
    released(await limits.acquire('mx:a', 't', 'y'));
    void limits.acquire('mx:a', 't', 'z1');
    void limits.acquire('mx:a', 't', 'z2');
    expect(limits.turnsAway('mx:a', 't', clock.now, 'q')).toBe(3600);
  });

  it('forgets a parked message once it is back, so a recall never brings it twice', async () => {
    const { limits, recalled, clock } = recordingLimits({ rules: { default: { connections: 1 } } });
    const a = released(await limits.acquire('mx:a', 't', 'a'));
    const b = limits.acquire('mx:a', 't', 'b');
    clock.now = 1000;
    expect(limits.turnsAway('mx:a', 't', clock.now, 'p')).toBe(2000);
    expect(limits.turnsAway('mx:a', 't', clock.now, 'q')).toBe(2500);
    // b takes the connection: nothing called back, nobody waits but b holds the only connection.
    a();
    const bRelease = released(await b);
    // p is back early (another way than a recall: the operator resumed it, say) and waits in line.
    clock.now = 1500;
    const p = limits.acquire('mx:a', 't', 'p');
    bRelease();
    const pRelease = released(await p);
    expect(recalled).toEqual([]);
    // When p ends, only q is called back, with its time.
    pRelease();
    expect(recalled).toEqual([['q']]);
  });

  it('calls nothing back while the destination is paused after pushing back', async () => {
    const { limits, recalled, clock } = recordingLimits({
      rules: { default: { connections: 2 } },
      pauseMs: 60_000,
    });
    const a = released(await limits.acquire('mx:a', 't', 'a'));
    const b = released(await limits.acquire('mx:a', 't', 'b'));
    const c = limits.acquire('mx:a', 't', 'c');
    const d = limits.acquire('mx:a', 't', 'd');
    expect(limits.turnsAway('mx:a', 't', clock.now, 'p')).toBe(1000);
    // A 421: halved and paused for a minute. Every delivery in progress ends; those waiting start
    // none, and come back when the pause ends…
    limits.throttled('mx:a', clock.now);
    clock.now = 100;
    a();
    b();
    expect(await c).toEqual({ retryAt: 60_000 });
    expect(await d).toEqual({ retryAt: 60_000 });
    // …as does a delivery that comes now, though a slot is free…
    expect(await limits.acquire('mx:a', 't', 'e')).toEqual({ retryAt: 60_000 });
    // …and p keeps its time: the destination is paused.
    expect(recalled).toEqual([]);
    expect(limits.pausedUntil('mx:a', clock.now)).toBe(60_000);
    clock.now = 60_000;
    released(await limits.acquire('mx:a', 't', 'f'))();
  });

  it('parks a backlog whose rate tokens are too far off, spaced by the rate', async () => {
    const now = 0;
    const limits = new DestinationLimits(
      { rules: { default: { connections: 100, rate: 1 } }, maxWaitMs: 1000, maxParkMs: 60_000 },
      () => now,
    );
    released(await limits.acquire('mx:a', 't', 'a'));
    // The next token is a second away: within maxWaitMs, so the next one waits for it (in debt)…
    void limits.acquire('mx:a', 't', 'b');
    // …and those after are parked, no earlier than their token could be, then half a second apart
    // (before, each came back when its wait said: all at once, a second later).
    const parked = [];
    for (const id of ['c', 'd', 'e']) parked.push(await limits.acquire('mx:a', 't', id));
    expect(parked).toEqual([{ retryAt: 2000 }, { retryAt: 2500 }, { retryAt: 3000 }]);
  });

  it('picks the waiter whose account has the fewest deliveries in progress, the earliest of those', () => {
    const active = new Map([
      ['a', 3],
      ['b', 1],
    ]);
    expect(nextWaiter([{ tenant: 'a' }, { tenant: 'b' }, { tenant: 'b' }], active)).toBe(1);
    expect(nextWaiter([{ tenant: 'a' }, { tenant: 'b' }, { tenant: 'c' }], active)).toBe(2);
    expect(nextWaiter([{ tenant: 'a' }, { tenant: 'a' }], active)).toBe(0);
  });

  it('spaces deliveries to a rate, and reschedules those that would wait too long', async () => {
    let now = 0;
    const limits = new DestinationLimits(
      { rules: { default: { connections: 100, rate: 2 } }, maxWaitMs: 1000 },
      () => now,
    );
    // A full bucket: two at once.
    released(await limits.acquire('mx:a'));
    released(await limits.acquire('mx:a'));
    // The third waits half a second for its token (real time: the wait is a timer).
    const started = Date.now();
    released(await limits.acquire('mx:a'));
    expect(Date.now() - started).toBeGreaterThanOrEqual(450);
    // The fourth's token is a full second away, the fifth's further: rescheduled, taking no token.
    const fourth = limits.acquire('mx:a');
    const fifth = await limits.acquire('mx:a');
    expect(fifth).toEqual({ retryAt: 1500 });
    now = 2000;
    released(await fourth);
  });

  it('takes its part of the limits when worker processes share them, and the whole again when alone', async () => {
    let workers = 3;
    const limits = new DestinationLimits(
      {
        rules: { default: { connections: 8, rate: 6 } },
        maxWaitMs: 0,
        recoverAfter: 1,
        share: () => workers,
      },
      () => 0,
    );
    // ceil(8 / 3): three processes open at most 9 between them.
    expect(limits.concurrency('mx:a')).toBe(3);
    // A third of the rate: two tokens a second, the bucket never below one.
    released(await limits.acquire('mx:a'));
    released(await limits.acquire('mx:a'));
    expect(await limits.acquire('mx:a')).toEqual({ retryAt: expect.any(Number) as number });
    // Pushed back: halved within its part, and earning back only to its part.
    limits.throttled('mx:b', 0);
    expect(limits.concurrency('mx:b')).toBe(1);
    limits.delivered('mx:b');
    limits.delivered('mx:b');
    limits.delivered('mx:b');
    expect(limits.concurrency('mx:b')).toBe(3);
    // One process left: the whole rule, the throttled destination scaled alike (3 of 3 → 8 of 8).
    workers = 1;
    expect(limits.concurrency('mx:a')).toBe(8);
    expect(limits.concurrency('mx:b')).toBe(8);
    expect(sharePart({ connections: 5, messagesPerConnection: 100, rate: 0 }, 2)).toEqual({
      connections: 3,
      rate: 0,
    });
    expect(sharePart({ connections: 1, messagesPerConnection: 100, rate: 1 }, 4)).toEqual({
      connections: 1,
      rate: 0.25,
    });
  });

  it('resolves rules: relay, the most specific domain, and field-by-field overrides', () => {
    const r = {
      default: { connections: 3, rate: 10 },
      'google.com': { connections: 10 },
      'l.google.com': { rate: 40 },
    };
    expect(resolveRule(r, 'mx:mx.other.example')).toEqual({
      connections: 3,
      messagesPerConnection: 100,
      rate: 10,
    });
    expect(resolveRule(r, 'mx:aspmx.l.google.com')).toEqual({
      connections: 3,
      messagesPerConnection: 100,
      rate: 40,
    });
    expect(resolveRule(r, 'mx:smtp.google.com')).toEqual({
      connections: 10,
      messagesPerConnection: 100,
      rate: 10,
    });
    expect(resolveRule(r, 'mx:notgoogle.com')).toMatchObject({ connections: 3 });
    expect(resolveRule({}, 'relay:smtp.example')).toEqual({
      connections: 20,
      messagesPerConnection: 1000,
      rate: 0,
    });
  });

  it('parses TXMAIL_DESTINATION_LIMITS and names what is wrong', () => {
    expect(
      parseDestinationRules('default:connections=4; Google.com:connections=10,rate=50;relay:messages=500'),
    ).toEqual({
      default: { connections: 4 },
      'google.com': { connections: 10, rate: 50 },
      relay: { messagesPerConnection: 500 },
    });
    expect(parseDestinationRules('')).toEqual({});
    expect(() => parseDestinationRules('connections=4')).toThrow(/does not start with/);
    expect(() => parseDestinationRules('default:conns=4')).toThrow(/"conns=4"/);
    expect(() => parseDestinationRules('default:connections=0')).toThrow(/at least 1/);
    expect(() => parseDestinationRules('bad_domain!:rate=1')).toThrow(/does not start with/);
  });
});
