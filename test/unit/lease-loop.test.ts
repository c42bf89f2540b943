// The shared claim loop (src/lease-loop.ts) with fake claims and hand-driven timers: no wake-up is lost
// whatever order wakes and claim completions come in, claims never overlap, slots are never
// over-filled, and stop() waits for the work in flight before giving the leases back.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LeaseLoop, type ClaimPool, type Timers } from '../../src/lease-loop.js';
import { Signal, WakeSignals } from '../../src/wake-signals.js';

const flush = async () => {
  for (let i = 0; i < 20; i++) await Promise.resolve();
};

/** Timers that fire only when the test says so. */
function manualTimers() {
  const pending = new Map<number, () => void>();
  let next = 0;
  const timers: Timers = {
    setTimeout(fn) {
      const id = next++;
      pending.set(id, fn);
      return id;
    },
    clearTimeout(id) {
      pending.delete(id as number);
    },
  };
  return {
    timers,
    sleeping: () => pending.size,
    fireAll() {
      const fns = [...pending.values()];
      pending.clear();
      for (const fn of fns) fn();
    },
  };
}

/** A loop whose claims and items settle only when the test says so, with a log of what happened. */
function harness(concurrency = 4) {
  const t = manualTimers();
  let seq = 0;
  let claiming = 0;
  let overlaps = 0;
  let overfilled = 0;
  const claims: { started: number; resolve: (n: number) => void }[] = [];
  const items: (() => void)[] = [];
  let running = 0;
  let released = 0;
  let nextId = 0;
  let lastStart = 0;
  const wakes: number[] = [];
  const loop = new LeaseLoop<string>({
    concurrency,
    pollMs: 1000,
    timers: t.timers,
    claim(slots) {
      claiming++;
      if (claiming > 1) overlaps++;
      if (slots + running > concurrency || slots < 1) overfilled++;
      lastStart = ++seq;
      return new Promise((resolve) => {
        claims.push({
          started: lastStart,
          resolve: (n) => {
            claiming--;
            resolve(Array.from({ length: Math.min(n, slots) }, () => `item-${nextId++}`));
          },
        });
      });
    },
    run: () =>
      new Promise<void>((resolve) => {
        running++;
        items.push(() => {
          running--;
          resolve();
        });
      }),
    key: (item) => item,
    release: async () => {
      released++;
    },
  });
  return {
    loop,
    t,
    claims,
    items,
    wakes,
    stats: () => ({ overlaps, overfilled, running, released }),
    wake() {
      wakes.push(++seq);
      loop.wake();
    },
    /** Answers the pending claim, if any. */
    answer(n: number) {
      claims.shift()?.resolve(n);
    },
    /** When the latest claim began (in the same sequence as the wakes). */
    lastStart: () => lastStart,
  };
}

describe('the lease loop', () => {
  it('claims again after a claim during which it was woken', async () => {
    const h = harness();
    const starts: number[] = [];
    h.loop.start();
    await flush();
    expect(h.claims).toHaveLength(1);
    starts.push(h.claims[0]!.started);
    h.wake(); // arrives while the claim is out
    h.answer(0);
    await flush();
    expect(h.claims).toHaveLength(1); // a second claim, without any timer firing
    expect(h.claims[0]!.started).toBeGreaterThan(h.wakes[0]!);
    h.answer(0);
    await flush();
    expect(h.t.sleeping()).toBe(1); // nothing woke it since: it sleeps
    const stopping = h.loop.stop();
    await stopping;
    expect(h.stats().released).toBe(1);
  });

  it('claims again when woken while it asks when the next item is due', async () => {
    const t = manualTimers();
    const held: ((ms: number) => void)[] = [];
    let claims = 0;
    const loop = new LeaseLoop<string>({
      concurrency: 2,
      pollMs: 1000,
      timers: t.timers,
      claim: async () => {
        claims++;
        return [];
      },
      nextWaitMs: () => new Promise((resolve) => held.push(resolve)),
      run: async () => undefined,
      key: (x) => x,
    });
    loop.start();
    await flush();
    expect([claims, held.length]).toEqual([1, 1]);
    loop.wake(); // during the query
    held.shift()!(1000);
    await flush();
    expect(claims).toBe(2); // without a timer firing
    const stopping = loop.stop();
    held.shift()?.(1000);
    await stopping;
  });

  it('wakes coalesce: many wakes during one claim cost one more claim, not one each', async () => {
    const h = harness();
    h.loop.start();
    await flush();
    for (let i = 0; i < 10; i++) h.wake();
    h.answer(0);
    await flush();
    h.answer(0);
    await flush();
    expect(h.claims).toHaveLength(0);
    expect(h.t.sleeping()).toBe(1);
    await h.loop.stop();
  });

  it('claims when a quarter of the slots is free, and stop() waits for the items in flight', async () => {
    const h = harness(8);
    h.loop.start();
    await flush();
    h.answer(8);
    await flush();
    expect(h.stats().running).toBe(8);
    expect(h.claims).toHaveLength(0); // full: no claim
    h.items.shift()!();
    await flush();
    expect(h.claims).toHaveLength(0); // one free of eight: not yet
    h.items.shift()!();
    await flush();
    expect(h.claims).toHaveLength(1); // two of eight free: claim
    h.answer(0);
    await flush();
    let stopped = false;
    const stopping = h.loop.stop().then(() => (stopped = true));
    await flush();
    expect(stopped).toBe(false);
    expect(h.stats().released).toBe(0);
    while (h.items.length > 0) h.items.shift()!();
    await stopping;
    expect(h.stats().released).toBe(1);
  });

  /**
   * A loop of two slots whose items run until finished by hand, each able to step aside; `asked` logs each
   * claim's slots, and " reserve" or " lane" after those of a claim for those places. `found` says how
   * many items a claim finds (by default as many as it asks for).
   */
  const asideLoop = (
    options: { asideLimit: number; reserve?: number; lane?: number; laneAsideLimit?: number },
    found: (pool: ClaimPool, slots: number) => number = (_pool, slots) => slots,
  ) => {
    const t = manualTimers();
    const asked: (number | string)[] = [];
    const running = new Map<string, { stepAside: () => boolean; finish: () => void }>();
    let nextId = 0;
    const loop = new LeaseLoop<string>({
      concurrency: 2,
      refillAt: 1,
      ...options,
      pollMs: 1000,
      timers: t.timers,
      claim: async (slots, pool) => {
        asked.push(pool === 'slots' ? slots : `${slots} ${pool}`);
        return Array.from({ length: found(pool, slots) }, () => `item-${nextId++}`);
      },
      run: (item, stepAside) =>
        new Promise<void>((resolve) => running.set(item, { stepAside, finish: resolve })),
      key: (item) => item,
    });
    return { t, asked, running, loop };
  };

  it('gives the slot of an item that steps aside to another, up to the aside limit, and keeps its lease', async () => {
    const { asked, running, loop } = asideLoop({ asideLimit: 2 });
    loop.start();
    await flush();
    expect(asked).toEqual([2]);
    // Both slots taken: the first item steps aside, and the loop claims one more in its place.
    expect(running.get('item-0')!.stepAside()).toBe(true);
    expect(running.get('item-0')!.stepAside()).toBe(true); // once is enough
    await flush();
    expect(asked).toEqual([2, 1]);
    expect(loop.held().sort()).toEqual(['item-0', 'item-1', 'item-2']);
    expect(running.get('item-1')!.stepAside()).toBe(true);
    await flush();
    expect(asked).toEqual([2, 1, 1]);
    // Two stand aside: a third keeps its slot, and nothing more is claimed.
    expect(running.get('item-2')!.stepAside()).toBe(false);
    await flush();
    expect(asked).toEqual([2, 1, 1]);
    expect(loop.held()).toHaveLength(4);
    // An item standing aside that finishes frees no slot, but makes room aside.
    running.get('item-0')!.finish();
    await flush();
    expect(asked).toEqual([2, 1, 1]);
    expect(running.get('item-2')!.stepAside()).toBe(true);
    await flush();
    expect(asked).toEqual([2, 1, 1, 1]);
    for (const r of running.values()) r.finish();
    await loop.stop();
  });

  it('claims for the reserve only while every slot holds an item that could not step aside, and no more than the reserve', async () => {
    const { t, asked, running, loop } = asideLoop({ asideLimit: 1, reserve: 1 });
    loop.start();
    await flush();
    expect(asked).toEqual([2]);
    expect(running.get('item-0')!.stepAside()).toBe(true);
    await flush();
    expect(asked).toEqual([2, 1]);
    // The place aside is taken: item-1 keeps its slot; item-2's slot may still free soon.
    expect(running.get('item-1')!.stepAside()).toBe(false);
    await flush();
    expect(asked).toEqual([2, 1]);
    // Both slots now hold items that could not step aside: one claim for the reserve.
    expect(running.get('item-2')!.stepAside()).toBe(false);
    await flush();
    expect(asked).toEqual([2, 1, '1 reserve']);
    expect(loop.held()).toHaveLength(4);
    // The reserve is full: its item stuck too claims nothing more.
    expect(running.get('item-3')!.stepAside()).toBe(false);
    await flush();
    t.fireAll();
    await flush();
    expect(asked).toEqual([2, 1, '1 reserve']);
    // The reserve's item ends: another reserve claim; a slot's item ends: a usual claim.
    running.get('item-3')!.finish();
    await flush();
    expect(asked).toEqual([2, 1, '1 reserve', '1 reserve']);
    running.get('item-1')!.finish();
    await flush();
    expect(asked).toEqual([2, 1, '1 reserve', '1 reserve', 1]);
    for (const r of running.values()) r.finish();
    await loop.stop();
  });

  it("claims for the lane apart from the reserve, neither taking the other's places; an item that leaves the lane fills nothing", async () => {
    let idleGroups = 0;
    const { t, asked, running, loop } = asideLoop(
      { asideLimit: 0, reserve: 1, lane: 1, laneAsideLimit: 1 },
      (pool, slots) => (pool === 'reserve' ? Math.min(slots, idleGroups) : slots),
    );
    loop.start();
    await flush();
    expect(asked).toEqual([2]);
    // Both slots hold items that could not step aside: the reserve finds nothing, the lane an item.
    expect(running.get('item-0')!.stepAside()).toBe(false);
    expect(running.get('item-1')!.stepAside()).toBe(false);
    await flush();
    expect(asked).toEqual([2, '1 reserve', '1 lane']);
    expect(loop.held()).toEqual(['item-0', 'item-1', 'item-2']);
    // The lane's item took none of the reserve's place: a group with nothing in flight still gets it.
    idleGroups = 1;
    t.fireAll();
    await flush();
    expect(asked).toEqual([2, '1 reserve', '1 lane', '1 reserve']);
    expect(loop.held()).toEqual(['item-0', 'item-1', 'item-2', 'item-3']);
    t.fireAll();
    await flush();
    expect(asked).toHaveLength(4);
    // The lane's item leaves its place (its deadline passed) and runs on: the place is claimed again,
    // and no slot counts it.
    loop.leaveLane('item-2');
    loop.leaveLane('item-2'); // once is enough
    await flush();
    expect(asked).toEqual([2, '1 reserve', '1 lane', '1 reserve', '1 lane']);
    expect(loop.held()).toHaveLength(5);
    expect(running.get('item-2')!.stepAside()).toBe(true);
    running.get('item-2')!.finish();
    await flush();
    t.fireAll();
    await flush();
    expect(asked).toHaveLength(5);
    // A slot's item ends: a usual claim.
    running.get('item-0')!.finish();
    await flush();
    expect(asked).toEqual([2, '1 reserve', '1 lane', '1 reserve', '1 lane', 1]);
    for (const r of running.values()) r.finish();
    await loop.stop();
  });

  it("lets a lane item stand aside in the lane's own room, up to its limit, while the slots' room is full", async () => {
    const { t, asked, running, loop } = asideLoop(
      { asideLimit: 0, reserve: 1, lane: 1, laneAsideLimit: 1 },
      (pool, slots) => (pool === 'reserve' ? 0 : slots),
    );
    loop.start();
    await flush();
    expect(running.get('item-0')!.stepAside()).toBe(false);
    expect(running.get('item-1')!.stepAside()).toBe(false);
    await flush();
    expect(asked).toEqual([2, '1 reserve', '1 lane']);
    // The lane's item stands aside: its place is claimed again.
    expect(running.get('item-2')!.stepAside()).toBe(true);
    await flush();
    expect(asked).toEqual([2, '1 reserve', '1 lane', '1 reserve', '1 lane']);
    // The lane's room is full: the next keeps its place.
    expect(running.get('item-3')!.stepAside()).toBe(false);
    // It leaves the lane at its deadline: its place is free, but the room holds more than its limit
    // (both still run), so the lane claims nothing until one of them ends.
    loop.leaveLane('item-3');
    await flush();
    t.fireAll();
    await flush();
    expect(asked.filter((a) => a === '1 lane')).toHaveLength(2);
    running.get('item-2')!.finish();
    await flush();
    expect(asked.filter((a) => a === '1 lane')).toHaveLength(3);
    expect(loop.held()).toHaveLength(4);
    for (const r of running.values()) r.finish();
    await loop.stop();
  });

  it('claims nothing while the gate is closed, and claims once it opens', async () => {
    const t = manualTimers();
    let open = false;
    let claims = 0;
    const loop = new LeaseLoop<string>({
      concurrency: 2,
      pollMs: 50,
      timers: t.timers,
      canClaim: () => open,
      claim: async () => {
        claims++;
        return [];
      },
      run: async () => undefined,
      key: (x) => x,
    });
    loop.start();
    await flush();
    loop.wake();
    await flush();
    t.fireAll();
    await flush();
    expect(claims).toBe(0);
    open = true;
    t.fireAll();
    await flush();
    expect(claims).toBe(1);
    await loop.stop();
  });

  it('for any interleaving of wakes, claim answers, finished items and timers: no wake is lost, no two claims overlap, no slot is over-filled', async () => {
    const step = fc.oneof(
      fc.constant({ kind: 'wake' as const }),
      fc.record({ kind: fc.constant('answer' as const), n: fc.integer({ min: 0, max: 5 }) }),
      fc.constant({ kind: 'finish' as const }),
      fc.constant({ kind: 'timer' as const }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 5 }),
        fc.array(step, { maxLength: 40 }),
        async (conc, steps) => {
          const h = harness(conc);
          h.loop.start();
          await flush();
          for (const s of steps) {
            if (s.kind === 'wake') h.wake();
            else if (s.kind === 'answer') h.answer(s.n);
            else if (s.kind === 'finish') h.items.shift()?.();
            else h.t.fireAll();
            await flush();
          }
          // Settle: answer every claim with nothing, without firing a timer. A wake is lost if the loop
          // ends asleep without a claim begun after the last wake.
          for (let i = 0; i < 50 && h.claims.length > 0; i++) {
            h.answer(0);
            await flush();
          }
          const lastWake = h.wakes.at(-1) ?? 0;
          expect(h.claims).toHaveLength(0);
          expect(h.t.sleeping()).toBe(1);
          const s = h.stats();
          expect(s.overlaps).toBe(0);
          expect(s.overfilled).toBe(0);
          if (lastWake > 0 && s.running < conc) expect(h.lastStart()).toBeGreaterThan(lastWake);
          const stopping = h.loop.stop();
          while (h.items.length > 0) h.items.shift()!();
          await stopping;
          expect(h.stats().released).toBe(1);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('wake signals', () => {
  it('tells every listener of a signal, until it unsubscribes, and only that signal', () => {
    const s = new WakeSignals();
    let a = 0;
    let b = 0;
    const offA = s.messagesQueued.on(() => a++);
    s.messagesQueued.on(() => {
      throw new Error('a listener that throws');
    });
    s.webhookPushesQueued.on(() => b++);
    s.messagesQueued.emit();
    expect([a, b]).toEqual([1, 0]);
    offA();
    s.messagesQueued.emit();
    s.webhookPushesQueued.emit();
    expect([a, b]).toEqual([1, 1]);
    expect(new Signal()).toBeInstanceOf(Signal);
  });
});
