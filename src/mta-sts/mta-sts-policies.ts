// The TLS requirement a recipient domain's MTA-STS policy sets (RFC 8461 §5): the `_mta-sts` TXT record
// looked up, the policy fetched when its id is new or the stored one has expired, stored in the database
// for every process (mta_sts_policies), and answered from memory for a minute. A stored policy that has
// not expired keeps applying when its refresh fails or the TXT record is gone (§5.1); a policy that
// could not be had and was never stored is answered as opportunistic with the failure, for TLS
// reporting. Concurrent deliveries to one domain share one discovery. ARCHITECTURE.md, "TLS policy".
//
// A fetch may take the minute RFC 8461 §3.3 suggests, but a delivery waits for it only FETCH_WAIT_MS:
// a password reset is not held a minute by a slow policy host. A delivery that stops waiting goes on as
// opportunistic with the failure reported, and the fetch goes on; when it brings a policy, it is
// stored and applies from then on. A fetch that failed is not tried again for the same policy id for
// FAILED_FETCH_RETRY_MS (§3.3: five minutes or longer per id), so a host that is down is not asked by
// every delivery.
import type { Logger } from 'pino';
import { TtlCache } from '../cache.js';
import type { Clock } from '../clock.js';
import type { CachedStsPolicy, MtaStsRepo } from '../db/mta-sts-repo.js';
import { requirementUnder, type TlsFailureType, type TlsRequirement } from '../delivery/tls-policy.js';
import { DnsError, type DnsResolver } from '../dns/resolver.js';
import { fetchStsPolicy, type FetchResult } from './fetch-policy.js';
import { parseStsPolicy, parseStsRecord } from './policy.js';

/** How long a delivery waits for a policy being fetched before it goes on without it. */
export const FETCH_WAIT_MS = 10_000;
/** Policy fetches running at once at most, waited for or not. */
export const MAX_FETCHES = 50;
/** A failed fetch is not tried again for the same policy id before this (RFC 8461 §3.3). */
export const FAILED_FETCH_RETRY_MS = 5 * 60_000;

export interface MtaStsOptions {
  /** TXMAIL_ALLOW_PRIVATE_NETWORKS: a policy host on a private address may be fetched (tests). */
  allowPrivate: boolean;
  /** Trusted roots for the policy host (tests in one process); absent: Node's and NODE_EXTRA_CA_CERTS. */
  ca?: string | string[];
  /** The fetch's own time limit (default: fetch-policy.ts's minute). */
  fetchTimeoutMs?: number;
  /** How long a discovery waits for a fetch before answering without the policy (FETCH_WAIT_MS). */
  fetchWaitMs?: number;
  /** How long this process reuses an answer before it looks at the TXT record (and the table) again. */
  recheckMs?: number;
  /** Domains whose answers are kept in memory at most. */
  maxEntries?: number;
  /** Policy fetches running at once at most (MAX_FETCHES). */
  maxFetches?: number;
}

type FetchFailure = { type: TlsFailureType; detail: string };
/** A fetch's result: the policy stored, or why there is none (a failure, or none to tell). */
type FetchOutcome = { policy: CachedStsPolicy } | { failure?: FetchFailure };

/** A fetch under way; `late` once the discovery that started it stopped waiting for it. */
interface RunningFetch {
  id: string;
  done: Promise<FetchOutcome>;
  outcome?: FetchOutcome;
  late?: boolean;
}

/** What the TXT record says: a policy with this id exists, none does, or the look-up failed. */
export type StsRecord = { kind: 'record'; id: string } | { kind: 'none' } | { kind: 'temporary' };

/**
 * What to do with a domain's TXT record and its stored policy (unexpired, else undefined): use the
 * stored one, fetch (the id is new, or nothing valid is stored), or apply no policy. Pure.
 */
export function nextStep(txt: StsRecord, stored: CachedStsPolicy | undefined): 'stored' | 'fetch' | 'none' {
  if (txt.kind === 'record') return stored && stored.id === txt.id ? 'stored' : 'fetch';
  // No record, or no answer: a stored policy applies until it expires (RFC 8461 §5.1).
  return stored ? 'stored' : 'none';
}

/** A policy's lines (RFC 8460 policy-string) from its stored text; none when it no longer parses. */
export function policyLines(text: string): string[] {
  const parsed = parseStsPolicy(text);
  return 'error' in parsed ? [] : parsed.lines;
}

/**
 * The requirement of a policy (undefined: none applies), or of a failure to get one. `lines`: the
 * policy's lines when already known (else its text is parsed for them).
 */
export function requirementOf(
  domain: string,
  policy: CachedStsPolicy | undefined,
  failure?: { type: TlsFailureType; detail: string },
  lines?: string[],
): TlsRequirement | undefined {
  if (policy && policy.mode !== 'none') {
    return requirementUnder(policy.mode === 'enforce' ? 'mta-sts' : 'mta-sts-testing', {
      sts: policy.mode,
      mxPatterns: policy.mx,
      policyDomain: domain,
      policyStrings: lines ?? policyLines(policy.text),
    });
  }
  if (failure) return requirementUnder('opportunistic', { policyFailure: failure, policyDomain: domain });
  return undefined;
}

export class MtaStsPolicies {
  /** Policy files fetched by this process (tests). */
  fetches = 0;
  /** Stored policy texts parsed by this process (tests). */
  parses = 0;
  /** Each domain's requirement, kept until the recheck or the policy's expiry, whichever is first. */
  private readonly answers: TtlCache<TlsRequirement | undefined>;
  /**
   * The lines of each domain's policy, by the fetch they came from: a stored text is parsed once per
   * process, not at every discovery (a minute apart, for as long as it is stored; up to 64 KiB).
   */
  private readonly lines = new Map<string, { id: string; fetchedAt: number; lines: string[] }>();
  private readonly running = new Map<string, Promise<TlsRequirement | undefined>>();
  /** Fetches under way, by domain and policy id: a discovery that stopped waiting leaves its fetch here. */
  private readonly fetching = new Map<string, RunningFetch>();
  /** The last failed fetch of each domain's policy id, not tried again until `until`. */
  private readonly failed = new Map<string, { id: string; until: number; failure: FetchFailure }>();
  /**
   * The policy id each domain's TXT record named at its latest look-up: a fetch of an older id that
   * lands late (its delivery stopped waiting) is dropped, never stored over the newer one's.
   */
  private readonly latestId = new Map<string, string>();
  /**
   * The policy each domain's latest fetch brought: a delivery that read the table just before that
   * fetch stored it takes it from here rather than fetching again (and, were the host slow again,
   * answering opportunistic over it).
   */
  private readonly fetched = new Map<string, CachedStsPolicy>();
  /** Fetches running now, waited for or not; at most `maxFetches`. */
  private underway = 0;
  private readonly maxFetches: number;
  /** Aborted by close(): fetches under way end, and nothing more is stored. */
  private readonly stopping = new AbortController();
  private readonly recheckMs: number;
  private readonly maxEntries: number;

  constructor(
    private readonly dns: Pick<DnsResolver, 'txt' | 'a' | 'aaaa'>,
    private readonly repo: Pick<MtaStsRepo, 'get' | 'put'>,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly options: MtaStsOptions,
  ) {
    this.recheckMs = options.recheckMs ?? 60_000;
    this.maxEntries = options.maxEntries ?? 10_000;
    this.maxFetches = options.maxFetches ?? MAX_FETCHES;
    this.answers = new TtlCache(this.recheckMs, this.maxEntries);
  }

  /** Policy fetches running now, stores included (tests: a late fetch has ended). */
  get fetchesUnderway(): number {
    return this.underway;
  }

  /** Ends the fetches under way (a delivery that stopped waiting leaves its fetch running). */
  close(): void {
    this.stopping.abort();
  }

  /** The requirement for mail to `domain`; undefined when it has no MTA-STS policy. Never throws. */
  requirement(recipientDomain: string): Promise<TlsRequirement | undefined> {
    const domain = recipientDomain.toLowerCase().replace(/\.$/, '');
    const hit = this.answers.fresh(domain, this.clock.now());
    if (hit) return Promise.resolve(hit.value);
    let pending = this.running.get(domain);
    if (!pending) {
      pending = this.discover(domain)
        .catch((err: unknown) => {
          // A policy we cannot even look for is no policy (as a missing TXT record would be).
          this.logger.warn({ err, domain }, 'MTA-STS discovery failed');
          return undefined;
        })
        .finally(() => this.running.delete(domain));
      this.running.set(domain, pending);
    }
    return pending;
  }

  private async discover(domain: string): Promise<TlsRequirement | undefined> {
    const txt = await this.record(domain);
    if (txt.kind === 'record') bounded(this.latestId, this.maxEntries).set(domain, txt.id);
    const now = this.clock.now();
    let stored: CachedStsPolicy | undefined;
    try {
      stored = await this.repo.get(domain);
    } catch (err) {
      this.logger.warn({ err, domain }, 'could not read the stored MTA-STS policy');
    }
    let policy = stored && stored.expiresAt > now ? stored : undefined;
    let failure: FetchFailure | undefined;
    const step = nextStep(txt, policy);
    if (step === 'none') policy = undefined;
    if (step === 'fetch' && txt.kind === 'record') {
      const outcome = await this.fetchWithin(domain, txt.id);
      if ('policy' in outcome) policy = outcome.policy;
      else if (outcome.failure) failure = outcome.failure;
    }
    // A policy that still applies wins over the failure to refresh it.
    return this.answer(domain, policy, failure);
  }

  /** The requirement of `policy` or of `failure`, kept in memory until the recheck or its expiry. */
  private answer(
    domain: string,
    policy: CachedStsPolicy | undefined,
    failure: FetchFailure | undefined,
  ): TlsRequirement | undefined {
    const value = policy
      ? requirementOf(domain, policy, undefined, this.linesOf(policy))
      : requirementOf(domain, undefined, failure);
    const until = Math.min(this.clock.now() + this.recheckMs, policy?.expiresAt ?? Infinity);
    this.answers.set(domain, value, until);
    return value;
  }

  /**
   * The policy `id` of `domain` fetched and stored, or why not, within the wait: past it, the failure
   * says the fetch is still under way, and the fetch, when it brings the policy, stores it and answers
   * the domain's next deliveries with it.
   */
  private async fetchWithin(domain: string, id: string): Promise<FetchOutcome> {
    const failed = this.failed.get(domain);
    if (failed && failed.id === id && failed.until > this.clock.now()) return { failure: failed.failure };
    const known = this.fetched.get(domain);
    if (known && known.id === id && known.expiresAt > this.clock.now()) return { policy: known };
    let running = this.fetching.get(domain);
    if (!running || running.id !== id) {
      // Slow policy hosts hold their fetches up to a minute each: a bound on how many run at once, so
      // that many such domains cannot hold sockets without end. Past it, mail goes on without the
      // policy, and the domain's next discovery (a minute on) tries again.
      if (this.underway >= this.maxFetches) {
        return {
          failure: {
            type: 'sts-policy-fetch-error',
            detail: `not fetched: ${this.maxFetches} policy fetches were under way already`,
          },
        };
      }
      this.underway++;
      const mine: RunningFetch = { id, done: this.fetchAndStore(domain, id) };
      running = mine;
      this.fetching.set(domain, mine);
      const finished = () => {
        this.underway--;
        if (this.fetching.get(domain) === mine) this.fetching.delete(domain);
      };
      void mine.done.then(
        (outcome) => {
          finished();
          mine.outcome = outcome;
          // Finished after its discovery stopped waiting: its policy applies from now on (over a stored
          // one of an older id too).
          if (mine.late && 'policy' in outcome) this.answer(domain, outcome.policy, undefined);
        },
        // A failure reaches the discovery that waits for it (requirement() answers no policy).
        finished,
      );
    }
    const waited = running;
    const waitMs = this.options.fetchWaitMs ?? FETCH_WAIT_MS;
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<'waited'>((resolve) => {
      timer = setTimeout(() => resolve('waited'), waitMs);
      timer.unref();
    });
    const first = await Promise.race([waited.done, gaveUp]);
    clearTimeout(timer);
    if (first !== 'waited') return first;
    // Settled in the same moment as the wait ran out: as good as in time.
    if (waited.outcome) return waited.outcome;
    waited.late = true;
    return {
      failure: {
        type: 'sts-policy-fetch-error',
        detail: `mta-sts.${domain} did not answer within ${waitMs < 1000 ? `${waitMs} ms` : `${Math.round(waitMs / 1000)} s`}; still fetching`,
      },
    };
  }

  /** Fetches the policy `id` of `domain` and stores it; a failure is remembered for the retry wait. */
  private async fetchAndStore(domain: string, id: string): Promise<FetchOutcome> {
    const fetched = await this.fetch(domain);
    // Stopping, or the record names another id by now: this fetch's result is no one's.
    if (this.stopping.signal.aborted || this.latestId.get(domain) !== id) return {};
    if (!fetched.ok) {
      const failure = fetched.failure;
      bounded(this.failed, this.maxEntries).set(domain, {
        id,
        until: this.clock.now() + FAILED_FETCH_RETRY_MS,
        failure,
      });
      this.logger.warn(
        { domain, failure: failure.type, detail: failure.detail },
        'MTA-STS policy could not be fetched',
      );
      return { failure };
    }
    if (this.failed.get(domain)?.id === id) this.failed.delete(domain);
    const at = this.clock.now();
    const policy: CachedStsPolicy = {
      domain,
      id,
      mode: fetched.policy.mode,
      mx: fetched.policy.mx,
      maxAge: fetched.policy.maxAge,
      fetchedAt: at,
      expiresAt: at + fetched.policy.maxAge * 1000,
      text: fetched.text,
    };
    this.remember(policy, fetched.policy.lines);
    bounded(this.fetched, this.maxEntries).set(domain, policy);
    await this.repo.put(policy).catch((err: unknown) => {
      this.logger.warn({ err, domain }, 'could not store the MTA-STS policy');
    });
    this.logger.info({ domain, id, mode: policy.mode }, 'MTA-STS policy fetched');
    return { policy };
  }

  /** The policy's lines: from the fetch that stored it, or parsed once from its stored text. */
  private linesOf(policy: CachedStsPolicy): string[] {
    const known = this.lines.get(policy.domain);
    if (known && known.id === policy.id && known.fetchedAt === policy.fetchedAt) return known.lines;
    this.parses++;
    return this.remember(policy, policyLines(policy.text));
  }

  private remember(policy: CachedStsPolicy, lines: string[]): string[] {
    bounded(this.lines, this.maxEntries).set(policy.domain, {
      id: policy.id,
      fetchedAt: policy.fetchedAt,
      lines,
    });
    return lines;
  }

  private async record(domain: string): Promise<StsRecord> {
    let records: string[];
    try {
      records = await this.dns.txt(`_mta-sts.${domain}`);
    } catch (err) {
      if (err instanceof DnsError && err.failure !== 'temporary') return { kind: 'none' };
      return { kind: 'temporary' };
    }
    const parsed = parseStsRecord(records);
    // An invalid record is no record (RFC 8461 §3.1).
    return 'id' in parsed ? { kind: 'record', id: parsed.id } : { kind: 'none' };
  }

  private fetch(domain: string): Promise<FetchResult> {
    this.fetches++;
    return fetchStsPolicy(domain, {
      dns: this.dns,
      allowPrivate: this.options.allowPrivate,
      ca: this.options.ca,
      timeoutMs: this.options.fetchTimeoutMs,
      signal: this.stopping.signal,
    });
  }
}

/** `map`, emptied first when it has reached `max` entries (a domain's entry is made again at its next delivery). */
function bounded<K, V>(map: Map<K, V>, max: number): Map<K, V> {
  if (map.size >= max) map.clear();
  return map;
}
