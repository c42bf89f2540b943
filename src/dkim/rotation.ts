// Key rotation and the Ed25519 key (ARCHITECTURE.md, "DKIM"). A rotation makes a pending key with a new
// selector beside each active one; the active keys keep signing until the pending key's record is found
// in DNS (a check of the domain looks, settle()), then the pending key becomes active and the old one
// is retired: its record may be removed RETIRED_RECORD_KEEP_MS later. An Ed25519 key starts pending the
// same way: it signs only once receivers can find its record.
import type { Clock } from '../clock.js';
import type { DkimKeysRepo } from '../db/dkim-keys-repo.js';
import type { DkimAlgorithmName, DkimKeyRow } from '../db/schema.js';
import type { DnsResolver } from '../dns/resolver.js';
import { lookUpDkimKey } from '../domains/dkim-record-check.js';
import type { DkimKeys } from './dkim-keys.js';
import { dkimRecordName, dkimSelectorFor } from './keys.js';

/**
 * How long a retired key's record should stay published: mail signed with it just before the switch
 * (by any process, whose cached key lives a minute) may be verified late, by a forwarder or a
 * receiver's queue.
 */
export const RETIRED_RECORD_KEEP_MS = 7 * 24 * 3600_000;

/** When a retired key's record may be removed from DNS; null for a key not retired. */
export function removableAfter(k: Pick<DkimKeyRow, 'retired_at'>): number | null {
  return k.retired_at === null ? null : k.retired_at + RETIRED_RECORD_KEEP_MS;
}

export class DkimRotation {
  constructor(
    private readonly repo: DkimKeysRepo,
    private readonly dkim: DkimKeys,
    private readonly dns: DnsResolver,
    private readonly clock: Clock,
  ) {}

  /**
   * Starts a rotation of the domain's active keys: a pending key for each algorithm that signs now
   * and has none pending yet. A second rotation while keys are pending changes nothing. Answers the
   * pending keys (empty when the domain has no active key).
   */
  async rotate(domain: string, accountId: string | null): Promise<DkimKeyRow[]> {
    const keys = await this.repo.all(domain, accountId);
    const pending = keys.filter((k) => k.status === 'pending');
    const algorithms = new Set(keys.filter((k) => k.status === 'active').map((k) => k.algorithm));
    for (const algorithm of algorithms) {
      if (!pending.some((k) => k.algorithm === algorithm)) {
        const added = await this.addPending(domain, accountId, algorithm);
        if (added) pending.push(added);
      }
    }
    return pending;
  }

  /**
   * Turns the Ed25519 signature on (a pending key, unless one is active or pending already) or off
   * (every Ed25519 key retired at once: it stops signing within a minute). Answers whether an Ed25519
   * key now waits for its record.
   */
  async setEd25519(domain: string, accountId: string | null, on: boolean): Promise<boolean> {
    if (!on) {
      if ((await this.repo.retireAlgorithm(domain, accountId, 'ed25519-sha256', this.clock.now())) > 0)
        this.dkim.forget(domain, accountId);
      return false;
    }
    const keys = await this.repo.all(domain, accountId);
    const existing = keys.find((k) => k.algorithm === 'ed25519-sha256' && k.status !== 'retired');
    if (existing) return existing.status === 'pending';
    return (await this.addPending(domain, accountId, 'ed25519-sha256')) !== undefined;
  }

  /**
   * Looks up each pending key's record and promotes the keys found (the old key of that algorithm
   * retired); notes what each look-up found. Answers whether a key was promoted and how many still wait.
   */
  async settle(domain: string, accountId: string | null): Promise<{ promoted: boolean; pending: number }> {
    const pending = await this.pending(domain, accountId);
    let promoted = false;
    let waiting = 0;
    for (const key of pending) {
      const found = await lookUpDkimKey(
        this.dns,
        dkimRecordName(key.selector, domain),
        key.public_key,
        key.algorithm,
      );
      const now = this.clock.now();
      await this.repo.recordLookup(key.id, now, found.status, found.problem);
      if (found.status !== 'found') waiting++;
      else if (await this.repo.promote(key, now)) promoted = true;
    }
    if (promoted) this.dkim.forget(domain, accountId);
    return { promoted, pending: waiting };
  }

  private async pending(domain: string, accountId: string | null): Promise<DkimKeyRow[]> {
    return (await this.repo.all(domain, accountId)).filter((k) => k.status === 'pending');
  }

  /** Adds a pending key of the algorithm; answers it, or the one a concurrent rotation added first. */
  private async addPending(
    domain: string,
    accountId: string | null,
    algorithm: DkimAlgorithmName,
  ): Promise<DkimKeyRow | undefined> {
    const row = await this.dkim.generate(
      domain,
      accountId,
      await freeDkimSelector(this.repo, domain, algorithm, this.clock.now()),
      {
        algorithm,
        status: 'pending',
      },
    );
    try {
      await this.repo.insert(row);
      return row;
    } catch (err) {
      // A concurrent rotation made this algorithm's pending key first (one pending key per algorithm:
      // migration 025), or took the selector: theirs stands.
      const raced = (await this.pending(domain, accountId)).find((k) => k.algorithm === algorithm);
      if (!raced) throw err;
      return raced;
    }
  }
}

/**
 * This month's dated selector for the algorithm, or, when it is taken for this name (an earlier key of
 * this month, another account's key: each account proves the name with its own), the same with a
 * random suffix.
 */
export async function freeDkimSelector(
  repo: Pick<DkimKeysRepo, 'selectorTaken'>,
  domain: string,
  algorithm: DkimAlgorithmName,
  now: number,
): Promise<string> {
  const selector = dkimSelectorFor(algorithm, now);
  for (let i = 0; i < 5; i++) {
    const candidate = i === 0 ? selector : selector + Math.random().toString(36).slice(2, 6);
    if (!(await repo.selectorTaken(domain, candidate))) return candidate;
  }
  return selector + Math.random().toString(36).slice(2, 10);
}
