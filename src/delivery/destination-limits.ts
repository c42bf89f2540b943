// Traffic shaping per destination (an MX host, or the relay): at most N concurrent deliveries, at most
// R messages per second, M messages per connection. A throttling reply halves N and pauses the
// destination; successes slowly earn the concurrency back. Limits come from rules matched against the
// destination's host name (TXMAIL_DESTINATION_LIMITS), so every domain hosted on one provider's MX
// hosts shares that provider's limits. The worker processes share each limit (`share`): with N of them,
// each takes a connection count of ceil(N-th) and an N-th of the rate.

import { numberText } from '../number-text.js';

export interface DestinationRule {
  /** Concurrent connections (deliveries in progress). */
  connections: number;
  /** Messages sent over one connection before it is closed. */
  messagesPerConnection: number;
  /** Messages per second; 0: no limit. */
  rate: number;
}

export interface DestinationLimitsOptions {
  /** Rules by pattern: `default`, `relay`, or a domain matching the MX host and its subdomains. */
  rules: Record<string, Partial<DestinationRule>>;
  pauseMs: number;
  /** Successful deliveries needed to raise the concurrency by one after a throttle. */
  recoverAfter: number;
  /** A delivery that would wait longer than this for its turn is rescheduled instead of holding a worker slot. */
  maxWaitMs: number;
  /** The furthest a full line reschedules a delivery (see park). */
  maxParkMs: number;
  /**
   * Among how many processes the limits are shared (process-registry.ts deliveryWorkers), asked at each
   * use: this process takes ceil(connections / share) and rate / share. Absent: 1, all of them.
   */
  share?: () => number;
}

export const DEFAULT_RULES: Record<string, DestinationRule> = {
  default: { connections: 5, messagesPerConnection: 100, rate: 0 },
  relay: { connections: 20, messagesPerConnection: 1000, rate: 0 },
};

export const DEFAULT_DESTINATION_LIMITS: DestinationLimitsOptions = {
  rules: DEFAULT_RULES,
  pauseMs: 60_000,
  recoverAfter: 20,
  maxWaitMs: 1000,
  maxParkMs: 60_000,
};

/** A message a full line turned away, and the time it was told to come back. */
export interface ParkedMessage {
  id: string;
  at: number;
}

/** A slot to deliver now, or the time to try again (the destination is saturated or paused). */
export type Admission = { release: () => void } | { retryAt: number };

/** When a delivery turned away by a stopping worker is due again. */
const STOPPING_RETRY_MS = 5_000;

/** The longest delay setTimeout takes (2^31 - 1 ms); a longer one fires at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** A delivery waiting for one of its destination's connections. */
interface Waiter {
  /** Whose message (the account): the line is served by turns between them. */
  tenant: string;
  /** Hands it a slot (already counted as active) or sends it away to try again later. */
  settle: (admitted: boolean) => void;
}

interface Destination {
  rule: DestinationRule;
  /** The processes the rule is shared among, as last fitted (fit), and this process's part of it. */
  share: number;
  /** This process's part of the rule's connections, ceil(connections / share): what `limit` recovers to. */
  cap: number;
  /** This process's part of the rule's rate (messages per second; 0: no limit). */
  rate: number;
  limit: number;
  active: number;
  /** Deliveries in progress by tenant (only tenants with some). */
  activeBy: Map<string, number>;
  /** In arrival order; the next slot goes by turns (nextWaiter), not to the first. */
  waiting: Waiter[];
  pausedUntil: number;
  successes: number;
  /** Token bucket for the rate: tokens now, and when they were counted. */
  tokens: number;
  tokensAt: number;
  /** How long a delivery holds its slot, on average (moving); undefined until one has ended. */
  holdMs: number | undefined;
  /** When each delivery in progress took its slot. */
  starts: number[];
  /** Per tenant, when the next of its deliveries a full line turns away is to come back (park). */
  horizons: Map<string, number>;
  /** The messages parked here, in the order parked, and when each comes back (recall). */
  parkedIds: Map<string, number>;
}

/** The weight of the newest delivery in a destination's average hold time. */
const HOLD_WEIGHT = 0.2;
/** Tenants' horizons kept per destination before the stale ones are swept. */
const PARKED_SWEEP_AT = 1000;
/** Parked messages remembered per destination for recall; past this, the rest come back at their time. */
const MAX_PARKED_IDS = 10_000;

export class DestinationLimits {
  private readonly destinations = new Map<string, Destination>();
  private readonly options: DestinationLimitsOptions;

  constructor(
    options: Partial<DestinationLimitsOptions> = {},
    private readonly now: () => number = Date.now,
    /**
     * Called with parked messages to bring back early: their destination has free connections and
     * nobody waiting (the worker makes them due now and wakes). Absent: they come back at their time.
     */
    private readonly recall?: (parked: ParkedMessage[]) => void,
  ) {
    this.options = { ...DEFAULT_DESTINATION_LIMITS, ...options };
  }

  private stopping = false;

  /**
   * The worker is stopping: the deliveries waiting in a line go back to the queue instead of starting
   * their attempts after the stop began (each may take 5 minutes, past a supervisor's stop timeout and
   * its SIGKILL), and none joins a line from now on.
   */
  stopWaiting(): void {
    this.stopping = true;
    for (const d of this.destinations.values())
      for (const waiter of d.waiting.splice(0)) waiter.settle(false);
  }

  /** The rule for a destination key (`mx:<host>` or `relay:<host>`). */
  rule(key: string): DestinationRule {
    return this.get(key).rule;
  }

  /** When the destination may be tried again, or undefined when it is not paused. */
  pausedUntil(key: string, now: number): number | undefined {
    const d = this.destinations.get(key);
    return d && d.pausedUntil > now ? d.pausedUntil : undefined;
  }

  /**
   * Waits for a delivery slot and a rate token. When the wait would be long (as many waiting as there
   * are slots, or no token within maxWaitMs), answers when to try again instead: a worker slot blocked
   * on one slow destination is a slot that every other destination loses.
   *
   * `tenant` (the account) makes the line fair (ARCHITECTURE.md, "Fair delivery claim"): a free slot
   * goes to the waiting tenant with the fewest deliveries in progress here, and a full line turns away
   * the newest waiter of the tenant holding the most rather than a newcomer holding far fewer. Without
   * it, one account's burst filling the line sent every other account's message away for a second.
   *
   * `until`: the message's deadline (its expire_after): a wait in the line ends there, answered with
   * that time, so the message fails as expired then instead of starting late (a one-time code that
   * waited behind a stalled server's connections was delivered two minutes past its deadline).
   */
  async acquire(key: string, tenant = '', messageId?: string, until?: number): Promise<Admission> {
    const d = this.get(key);
    const now = this.now();
    // Stopping: no attempt starts now; the message is tried again in a moment (by this process's
    // successor, or another worker).
    if (this.stopping) return { retryAt: now + STOPPING_RETRY_MS };
    // Back (at its time or recalled): no longer parked.
    if (messageId !== undefined) d.parkedIds.delete(messageId);
    // Paused (it pushed back): nothing starts before the pause ends, not even a delivery that passed
    // the worker's look at the pause before its message was built (a fault probe saw 4-5 connections
    // opened within 50 ms of the 421s that paused the destination).
    if (d.pausedUntil > now) return { retryAt: d.pausedUntil };
    if (this.full(d)) {
      const displaced = this.displaceable(d, tenant);
      if (displaced === undefined) return { retryAt: this.park(d, tenant, now, messageId) };
      d.waiting.splice(displaced, 1)[0]!.settle(false);
    }
    if (d.rate > 0) {
      const wait = this.takeToken(d, now);
      // Its token is too far off: parked too, no earlier than the token could be there.
      if (wait > this.options.maxWaitMs) return { retryAt: this.park(d, tenant, now, messageId, now + wait) };
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
    if (d.active < d.limit && d.waiting.length === 0) {
      this.start(d, tenant);
    } else {
      let expired = false;
      const admitted = await new Promise<boolean>((settle) => {
        // A deadline past what a timer can wait (about 24.8 days) is none: Node would fire it at once.
        if (until === undefined || until - now > MAX_TIMER_MS) return d.waiting.push({ tenant, settle });
        const timer = setTimeout(() => {
          const i = d.waiting.indexOf(waiter);
          if (i < 0) return;
          d.waiting.splice(i, 1);
          expired = true;
          settle(false);
        }, until - now);
        const waiter: Waiter = {
          tenant,
          settle: (ok) => {
            clearTimeout(timer);
            settle(ok);
          },
        };
        d.waiting.push(waiter);
      });
      if (expired) return { retryAt: until! };
      if (!admitted) {
        const at = this.now();
        return { retryAt: d.pausedUntil > at ? d.pausedUntil : this.park(d, tenant, at, messageId) };
      }
    }
    const started = this.now();
    d.starts.push(started);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        d.starts.splice(d.starts.indexOf(started), 1);
        const held = this.now() - started;
        d.holdMs = d.holdMs === undefined ? held : d.holdMs + (held - d.holdMs) * HOLD_WEIGHT;
        d.active--;
        const left = (d.activeBy.get(tenant) ?? 1) - 1;
        if (left > 0) d.activeBy.set(tenant, left);
        else d.activeBy.delete(tenant);
        this.admit(d);
        this.recallParked(d);
      },
    };
  }

  /**
   * When a delivery of `tenant` would be sent away at once (the line is full and it could displace
   * nobody): the time to try again; undefined when it would wait or start. Asked
   * before the message is built, so a saturated destination costs no signing.
   */
  turnsAway(key: string, tenant: string, now: number, messageId?: string): number | undefined {
    const d = this.get(key);
    if (!this.full(d) || this.displaceable(d, tenant) !== undefined) return undefined;
    return this.park(d, tenant, now, messageId);
  }

  /** The destination pushed back (421, rate limit): halve its concurrency and pause it. */
  throttled(key: string, now: number): void {
    const d = this.get(key);
    d.limit = Math.max(1, Math.floor(d.limit / 2));
    d.pausedUntil = now + this.options.pauseMs;
    d.successes = 0;
  }

  delivered(key: string): void {
    const d = this.get(key);
    if (d.limit >= d.cap) return;
    if (++d.successes >= this.options.recoverAfter) {
      d.limit++;
      d.successes = 0;
      this.admit(d);
    }
  }

  concurrency(key: string): number {
    return this.get(key).limit;
  }

  /**
   * When a delivery of `tenant` that a full line turns away comes back. Not all a second later: a
   * backlog for a saturated destination would then be claimed and rescheduled in full every second,
   * however few of it the destination can take (ARCHITECTURE.md, "A saturated destination's backlog"). A tenant's
   * turned-away deliveries come back spaced by half the time a slot takes to free (the slots' average
   * hold over the current concurrency, or the rate's interval if longer), so twice what the destination
   * can take returns each second and its line stays full; the first comes back after maxWaitMs, none
   * later than maxParkMs. Until a delivery there has ended, the hold is taken to be as long as the
   * oldest delivery in progress has held its slot so far: a destination just started spaces by next to
   * nothing (as before), one whose first deliveries hang spaces more the longer they hang. Each tenant
   * has its own spacing, so one account's parked backlog never pushes another account's mail further
   * out.
   */
  private park(
    d: Destination,
    tenant: string,
    now: number,
    messageId?: string,
    earliest = now + this.options.maxWaitMs,
  ): number {
    const { maxParkMs } = this.options;
    const holdMs = d.holdMs ?? (d.starts.length > 0 ? now - Math.min(...d.starts) : 0);
    const perSlotMs = holdMs / d.limit;
    const step = Math.max(perSlotMs, d.rate > 0 ? 1000 / d.rate : 0) / 2;
    if (d.horizons.size > PARKED_SWEEP_AT) {
      for (const [t, at] of d.horizons) if (at <= now) d.horizons.delete(t);
    }
    const horizon = Math.max(earliest, d.horizons.get(tenant) ?? 0);
    const at = Math.ceil(Math.min(horizon, Math.max(earliest, now + maxParkMs)));
    d.horizons.set(tenant, at + step);
    if (messageId !== undefined) this.remember(d, messageId, at, now);
    return at;
  }

  /** Keeps a parked message for recall (last in the order), within MAX_PARKED_IDS. */
  private remember(d: Destination, id: string, at: number, now: number): void {
    d.parkedIds.delete(id);
    if (d.parkedIds.size >= MAX_PARKED_IDS) {
      // Those whose time has passed came back (or left by another way): no longer worth keeping.
      for (const [old, oldAt] of d.parkedIds) if (oldAt <= now) d.parkedIds.delete(old);
      if (d.parkedIds.size >= MAX_PARKED_IDS) return;
    }
    d.parkedIds.set(id, at);
  }

  /**
   * A connection came free and nobody waits for it: the parked messages whose time has not come are
   * called back, twice as many as there are free connections, earliest parked first (a parked
   * message does not sit out its time while its destination idles). Their spacing starts afresh.
   */
  private recallParked(d: Destination): void {
    const room = d.limit - d.active;
    if (this.recall === undefined || d.parkedIds.size === 0 || room <= 0 || d.waiting.length > 0) return;
    const now = this.now();
    // Paused (it pushed back): the parked wait for the pause like everyone else.
    if (d.pausedUntil > now) return;
    const called: ParkedMessage[] = [];
    for (const [id, at] of d.parkedIds) {
      if (called.length >= 2 * room) break;
      d.parkedIds.delete(id);
      // Its time has come: it is due already, or back.
      if (at > now) called.push({ id, at });
    }
    d.horizons.clear();
    if (called.length > 0) this.recall(called);
  }

  private full(d: Destination): boolean {
    return d.active >= d.limit && d.waiting.length >= d.limit;
  }

  /** Hands free slots to waiters, by turns. */
  private admit(d: Destination): void {
    // Paused: those waiting come back when the pause ends (acquire), rather than start now.
    if (d.pausedUntil > this.now()) {
      for (const waiter of d.waiting.splice(0)) waiter.settle(false);
      return;
    }
    while (d.active < d.limit && d.waiting.length > 0) {
      const waiter = d.waiting.splice(nextWaiter(d.waiting, d.activeBy), 1)[0]!;
      this.start(d, waiter.tenant);
      waiter.settle(true);
    }
  }

  private start(d: Destination, tenant: string): void {
    d.active++;
    d.activeBy.set(tenant, (d.activeBy.get(tenant) ?? 0) + 1);
  }

  /**
   * In a full line, the waiter to turn away for a newcomer of `tenant`: the newest of the tenant holding
   * the most here (in progress and waiting), when that is at least two more than the newcomer's (one
   * more would only swap the two). Undefined: the newcomer is the one to go.
   */
  private displaceable(d: Destination, tenant: string): number | undefined {
    const held = new Map(d.activeBy);
    for (const w of d.waiting) held.set(w.tenant, (held.get(w.tenant) ?? 0) + 1);
    let heaviest: string | undefined;
    for (const [t, n] of held) if (heaviest === undefined || n > held.get(heaviest)!) heaviest = t;
    if (heaviest === undefined || held.get(heaviest)! < (held.get(tenant) ?? 0) + 2) return undefined;
    for (let i = d.waiting.length - 1; i >= 0; i--) if (d.waiting[i]!.tenant === heaviest) return i;
    return undefined;
  }

  /**
   * Takes one token, going into debt when none is left: the answer is how long until the token taken
   * is really there (0: now). Debt is what keeps concurrent callers from all taking the same token.
   */
  private takeToken(d: Destination, now: number): number {
    const rate = d.rate;
    // At least one token held: a part of the rate below one a second still lets one message go.
    d.tokens = Math.min(Math.max(1, rate), d.tokens + ((now - d.tokensAt) * rate) / 1000);
    d.tokensAt = now;
    if (d.tokens >= 1) {
      d.tokens -= 1;
      return 0;
    }
    const wait = Math.ceil(((1 - d.tokens) * 1000) / rate);
    // A caller that will be rescheduled takes nothing.
    if (wait <= this.options.maxWaitMs) d.tokens -= 1;
    return wait;
  }

  private get(key: string): Destination {
    let d = this.destinations.get(key);
    if (!d) {
      const rule = resolveRule(this.options.rules, key);
      d = {
        rule,
        share: 1,
        cap: rule.connections,
        rate: rule.rate,
        limit: rule.connections,
        active: 0,
        activeBy: new Map(),
        waiting: [],
        pausedUntil: 0,
        successes: 0,
        tokens: Math.max(1, rule.rate),
        tokensAt: this.now(),
        holdMs: undefined,
        starts: [],
        horizons: new Map(),
        parkedIds: new Map(),
      };
      this.destinations.set(key, d);
    }
    this.fit(d);
    return d;
  }

  /**
   * Takes this process's part of the destination's rule when the number of processes sharing it has
   * changed: the cap and the rate by the share (sharePart), the current limit scaled alike, so that a
   * destination that pushed back stays as far below its cap as it was.
   */
  private fit(d: Destination): void {
    const share = Math.max(1, Math.floor(this.options.share?.() ?? 1));
    if (share === d.share) return;
    const part = sharePart(d.rule, share);
    d.limit = Math.max(1, Math.min(part.connections, Math.round((d.limit * d.share) / share)));
    d.cap = part.connections;
    d.rate = part.rate;
    d.share = share;
    // A larger limit is taken up as slots are released and asked for (admit runs then), never here:
    // this runs inside throttled() too, where admitting would start deliveries just before the pause.
  }
}

/**
 * One process's part of a destination's rule shared among `share` processes: the connections rounded
 * up (at least one each, so the processes together may open share − 1 more than the rule when it does
 * not divide), the rate divided.
 */
export function sharePart(rule: DestinationRule, share: number): { connections: number; rate: number } {
  return { connections: Math.max(1, Math.ceil(rule.connections / share)), rate: rule.rate / share };
}

/**
 * The waiter whose tenant has the fewest deliveries in progress at the destination; the earliest of
 * those. The line is never longer than the destination's connections, so a scan costs nothing.
 */
export function nextWaiter(
  waiting: readonly { tenant: string }[],
  activeBy: ReadonlyMap<string, number>,
): number {
  let best = 0;
  for (let i = 1; i < waiting.length; i++) {
    if ((activeBy.get(waiting[i]!.tenant) ?? 0) < (activeBy.get(waiting[best]!.tenant) ?? 0)) best = i;
  }
  return best;
}

/**
 * The rule for a destination: `default` (or `relay` for the relay), overridden field by field by the
 * most specific domain rule matching the host (`google.com` matches `gmail-smtp-in.l.google.com`).
 */
export function resolveRule(rules: Record<string, Partial<DestinationRule>>, key: string): DestinationRule {
  const [kind, host = ''] = splitKey(key);
  const base = { ...DEFAULT_RULES.default!, ...rules.default };
  if (kind === 'relay') return { ...base, ...DEFAULT_RULES.relay, ...rules.relay };
  const labels = host.toLowerCase().replace(/\.$/, '').split('.');
  for (let i = 0; i < labels.length; i++) {
    const rule = rules[labels.slice(i).join('.')];
    if (rule) return { ...base, ...rule };
  }
  return base;
}

function splitKey(key: string): [string, string] {
  const i = key.indexOf(':');
  return [key.slice(0, i), key.slice(i + 1)];
}

/** TXMAIL_DESTINATION_LIMITS's text for `rules` (what parseDestinationRules reads). */
export function destinationRulesText(rules: Record<string, Partial<DestinationRule>>): string {
  return Object.entries(rules)
    .map(([pattern, rule]) => {
      const settings = [
        rule.connections !== undefined && `connections=${numberText(rule.connections)}`,
        rule.messagesPerConnection !== undefined && `messages=${numberText(rule.messagesPerConnection)}`,
        rule.rate !== undefined && `rate=${numberText(rule.rate)}`,
      ].filter((x) => x !== false);
      return `${pattern}:${settings.join(',')}`;
    })
    .join(';');
}

/**
 * Parses TXMAIL_DESTINATION_LIMITS: `pattern:key=value,…;…` with keys `connections`, `messages` (per
 * connection) and `rate` (per second), e.g. `default:connections=5;google.com:connections=10,rate=50`.
 * Throws a message naming what is wrong.
 */
export function parseDestinationRules(text: string): Record<string, Partial<DestinationRule>> {
  const rules: Record<string, Partial<DestinationRule>> = {};
  for (const part of text.split(';').map((p) => p.trim())) {
    if (part === '') continue;
    const colon = part.indexOf(':');
    const pattern = colon < 0 ? '' : part.slice(0, colon).trim().toLowerCase();
    if (!/^(default|relay|[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*)$/.test(pattern)) {
      throw new Error(`"${part}" does not start with default:, relay: or a domain name and a colon`);
    }
    const rule: Partial<DestinationRule> = {};
    for (const setting of part.slice(colon + 1).split(',')) {
      const m = /^\s*(connections|messages|rate)\s*=\s*(\d+)\s*$/.exec(setting);
      if (!m) throw new Error(`"${setting.trim()}" in "${part}" is not connections=N, messages=N or rate=N`);
      const value = Number(m[2]);
      if (m[1] === 'rate') rule.rate = value;
      else if (value < 1) throw new Error(`${m[1]} in "${part}" must be at least 1`);
      else if (m[1] === 'connections') rule.connections = value;
      else rule.messagesPerConnection = value;
    }
    rules[pattern] = { ...rules[pattern], ...rule };
  }
  return rules;
}
