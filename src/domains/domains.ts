// Sending domains: adding one (with its DKIM key and the records to publish), reading, deleting, and
// checking its DNS records, which moves its status and, through it, the account's state.
import { PLAN_NAMES, PLANS } from '../accounts/plans.js';
import type { Clock } from '../clock.js';
import type { DkimKeysRepo } from '../db/dkim-keys-repo.js';
import type { DomainsRepo } from '../db/domains-repo.js';
import {
  DOMAIN_TLS_VALUES,
  type Account,
  type AccountState,
  type DkimKeyRow,
  type DomainRow,
  type DomainTls,
  type Plan,
} from '../db/schema.js';
import type { DkimKeys } from '../dkim/dkim-keys.js';
import { DkimRotation, freeDkimSelector } from '../dkim/rotation.js';
import type { DnsResolver } from '../dns/resolver.js';
import { AppError } from '../errors.js';
import { DEFAULT_RETRY } from '../delivery/retry-schedule.js';
import { isId, newId } from '../ids.js';
import { checkDomain, type DomainCheck, type SpfProbe } from './domain-check.js';
import { isWithin, parseDomainName } from './domain-name.js';
import { domainRecords, type ExpectedRecord, type ServiceDns } from './domain-records.js';
import { nextCheckAt, nextDomainState } from './domain-status.js';

export interface DomainsSettings extends ServiceDns, SpfProbe {
  /** Names customers may not add: the service's own domains. */
  reserved: string[];
}

export interface DomainDetail {
  row: DomainRow;
  records: ExpectedRecord[];
  check: DomainCheck | undefined;
  /** The domain's DKIM keys, newest first: active, pending (a rotation, an Ed25519 key), retired. */
  dkimKeys: DkimKeyRow[];
}

/** The first check of a new domain: soon, but not at once (its records cannot be published yet). */
const FIRST_CHECK_DELAY_MS = 60_000;
/** While a DKIM key waits for its record (ARCHITECTURE.md, "DKIM"), the domain is checked at least this often. */
export const PENDING_KEY_CHECK_MS = 15 * 60_000;

export class Domains {
  /** Key rotation and the Ed25519 key (dkim/rotation.ts). */
  readonly rotation: DkimRotation;

  constructor(
    private readonly repo: DomainsRepo,
    private readonly keys: DkimKeysRepo,
    private readonly dkim: DkimKeys,
    private readonly dns: DnsResolver,
    private readonly clock: Clock,
    private readonly settings: DomainsSettings,
    /**
     * Told after a domain's status may have changed (to drop cached verified domains), with whether
     * the account's state changed too (to drop cached accounts).
     */
    private readonly onChange: (accountId: string, accountStateChanged: boolean) => void,
  ) {
    this.rotation = new DkimRotation(keys, dkim, dns, clock);
  }

  /**
   * `settings.tls`: the domain's TLS setting (tlsProblem), opportunistic when not given;
   * `settings.ed25519`: an Ed25519 key too, signing beside the RSA key once its record is found.
   */
  async create(
    account: Account,
    input: string,
    settings: { tls?: unknown; ed25519?: unknown } = {},
  ): Promise<DomainDetail> {
    const parsed = parseDomainName(input);
    if (!parsed.ok) throw new AppError('validation_error', `"name" ${parsed.reason}`);
    const tls = settings.tls === undefined ? 'opportunistic' : checkedTls(settings.tls);
    const ed25519 = settings.ed25519 === undefined ? false : checkedEd25519(settings.ed25519);
    const name = parsed.ascii;
    if (this.settings.reserved.some((r) => isWithin(name, r))) {
      throw new AppError('validation_error', `"name" ${name} is reserved for this service`);
    }
    const existing = await this.repo.list(account.id);
    if (existing.some((d) => d.name === name)) throw exists(name);
    const limit = PLANS[account.plan].domains;
    if (existing.length >= limit) throw planLimit(account.plan);

    const now = this.clock.now();
    const key = await this.dkim.generate(
      name,
      account.id,
      await freeDkimSelector(this.keys, name, 'rsa-sha256', this.clock.now()),
    );
    const row: DomainRow = {
      id: newId(),
      account_id: account.id,
      name,
      status: 'pending',
      created_at: now,
      verified_at: null,
      verification_started_at: now,
      failing_since: null,
      last_checked_at: null,
      findings: null,
      next_check_at: now + FIRST_CHECK_DELAY_MS,
      check_lease_owner: null,
      check_lease_until: null,
      expire_after: null,
      tls,
    };
    let result;
    try {
      result = await this.repo.create(row, key, limit);
    } catch (err) {
      // Another account took the same selector for this name between the look-up and the insert.
      if (!(await this.keys.selectorTaken(name, key.selector))) throw err;
      key.selector = await freeDkimSelector(this.keys, name, 'rsa-sha256', this.clock.now());
      result = await this.repo.create(row, key, limit);
    }
    if (result === 'exists') throw exists(name);
    if (result === 'plan_limit') throw planLimit(account.plan);
    if (ed25519) await this.rotation.setEd25519(name, account.id, true);
    return this.detail(row);
  }

  list(accountId: string): Promise<DomainRow[]> {
    return this.repo.list(accountId);
  }

  async get(accountId: string, id: string): Promise<DomainDetail> {
    return this.detail(await this.find(accountId, id));
  }

  async delete(accountId: string, id: string): Promise<void> {
    const row = await this.find(accountId, id);
    const r = await this.repo.delete(accountId, id);
    if (!r.deleted) throw notFound(id);
    this.dkim.forget(row.name, accountId);
    this.changed(accountId, r.accountStateChanged);
  }

  /**
   * Changes the settings given. expire_after: how long txmail tries the domain's mail (docs/API.md,
   * Domains: expire_after), whole seconds from EXPIRE_AFTER_MIN_S to EXPIRE_AFTER_MAX_S (the default
   * retry period), or null for the default. tls: tlsProblem; ARCHITECTURE.md, "TLS policy". Both apply
   * to mail already queued (tls read at each attempt, through the verified domains' cache; the waiting
   * mail's deadlines written again with the setting: DomainsRepo.setSettings). dkim_ed25519
   * (docs/API.md, Domains: dkim_ed25519): on, a new key that signs beside the RSA key once a check
   * finds its record; off, it stops signing at once. Every value is checked before any is written.
   */
  async update(
    accountId: string,
    id: string,
    changes: { expire_after?: unknown; tls?: unknown; dkim_ed25519?: unknown },
  ): Promise<DomainDetail> {
    if (!('expire_after' in changes) && !('tls' in changes) && !('dkim_ed25519' in changes)) {
      throw new AppError(
        'validation_error',
        '"expire_after", "tls" or "dkim_ed25519" is required: the settings to change',
      );
    }
    const set: { expire_after?: number | null; tls?: DomainTls } = {};
    if ('expire_after' in changes) {
      const problem = expireAfterProblem(changes.expire_after);
      if (problem !== undefined) throw new AppError('validation_error', `"expire_after" ${problem}`);
      set.expire_after = changes.expire_after as number | null;
    }
    if ('tls' in changes) set.tls = checkedTls(changes.tls);
    const ed25519 = 'dkim_ed25519' in changes ? checkedEd25519(changes.dkim_ed25519) : undefined;
    const row = await this.find(accountId, id);
    if (Object.keys(set).length > 0 && !(await this.repo.setSettings(accountId, id, set))) throw notFound(id);
    if (ed25519 !== undefined && (await this.rotation.setEd25519(row.name, accountId, ed25519))) {
      await this.checkPendingSoon(row);
    }
    this.changed(accountId, undefined);
    return this.detail(await this.find(accountId, id));
  }

  /**
   * Starts a DKIM key rotation (docs/API.md, Domains: rotate): a pending key with a new selector for
   * each active key; the old keys sign until a check finds the new record, then the new key takes
   * over. While keys are pending, another rotation changes nothing.
   */
  async rotateDkim(accountId: string, id: string): Promise<DomainDetail> {
    const row = await this.find(accountId, id);
    // A domain from before verification existed gets its first key instead: there is none to rotate.
    if (await this.keys.current(row.name, accountId)) {
      if ((await this.rotation.rotate(row.name, accountId)).length > 0) await this.checkPendingSoon(row);
    } else {
      await this.ensureKey(row);
    }
    return this.detail(await this.find(accountId, id));
  }

  /**
   * While a key waits for its record the domain is checked every PENDING_KEY_CHECK_MS at least; a key
   * just added should not wait for a check scheduled later (a verified domain's, an hour away) or for
   * none (a failed domain's). Called when a key waits.
   */
  private async checkPendingSoon(row: DomainRow): Promise<void> {
    await this.repo.checkBy(row.account_id, row.id, this.clock.now() + PENDING_KEY_CHECK_MS);
  }

  /**
   * Checks a domain's records now and records the result. A failed domain starts a new verification
   * window: its owner says the records are published now.
   */
  async verify(accountId: string, id: string): Promise<DomainDetail> {
    let row = await this.find(accountId, id);
    if (row.status === 'failed') row = { ...row, verification_started_at: this.clock.now() };
    await this.ensureKey(row);
    const recorded = await this.checkAndRecord(row, null);
    return this.detail(recorded ?? (await this.find(accountId, id)));
  }

  /**
   * Runs one check of `row` and writes its outcome (new status, findings, next check). `owner` is the
   * scheduler's lease owner, null for a manual check. Answers the row as written, or undefined when it
   * had changed meanwhile (nothing written).
   */
  async checkAndRecord(row: DomainRow, owner: string | null): Promise<DomainRow | undefined> {
    // Pending keys first: one found takes over now, and the check below looks for the new active key.
    const { pending } = await this.rotation.settle(row.name, row.account_id);
    const key = await this.keys.current(row.name, row.account_id);
    if (!key) return undefined; // deleted meanwhile
    const check = await checkDomain(
      row.name,
      this.records(row.name, key.selector, key.public_key),
      key.public_key,
      this.dns,
      this.clock.now(),
      this.settings,
    );
    const now = this.clock.now();
    const state = nextDomainState(
      // A manual verify of a failed domain restarts the window: judge it as pending.
      row.status === 'failed' && owner === null ? { ...row, status: 'pending' } : row,
      check.outcome,
      now,
    );
    const update = {
      status: state.status,
      verified_at: state.verified_at,
      verification_started_at: state.verification_started_at,
      failing_since: state.failing_since,
      last_checked_at: now,
      findings: JSON.stringify(check),
      next_check_at: withPendingKeys(nextCheckAt(state, check.outcome, now), pending, now),
    };
    const r = await this.repo.recordCheck(row, owner, update);
    if (!r.applied) return undefined;
    this.changed(row.account_id, r.accountStateChanged);
    return { ...row, ...update, check_lease_owner: null, check_lease_until: null };
  }

  /** The records of a domain: what to publish, with the last check's findings. */
  private async detail(row: DomainRow): Promise<DomainDetail> {
    const dkimKeys = await this.keys.all(row.name, row.account_id);
    // The current key (DkimKeysRepo.current): the newest active RSA key; `all` is newest first.
    const key = dkimKeys.find((k) => k.status === 'active' && k.algorithm === 'rsa-sha256');
    // A domain from before verification existed (set verified by hand) may have no key yet: it gets one
    // when its owner verifies it; until then there is no DKIM record to show.
    const records = key
      ? this.records(row.name, key.selector, key.public_key)
      : domainRecords(row.name, { selector: '', publicKey: '' }, this.settings).filter(
          (r) => r.record !== 'dkim',
        );
    return {
      row,
      records,
      check: row.findings === null ? undefined : (JSON.parse(row.findings) as DomainCheck),
      dkimKeys,
    };
  }

  /** Gives a domain without a DKIM key (one from before verification existed) its key. */
  private async ensureKey(row: DomainRow): Promise<void> {
    if (await this.keys.current(row.name, row.account_id)) return;
    try {
      await this.keys.insert(
        await this.dkim.generate(
          row.name,
          row.account_id,
          await freeDkimSelector(this.keys, row.name, 'rsa-sha256', this.clock.now()),
        ),
      );
    } catch (err) {
      // A concurrent verify of the same domain created it.
      if (!(await this.keys.current(row.name, row.account_id))) throw err;
    }
    this.dkim.forget(row.name, row.account_id);
  }

  private records(name: string, selector: string, publicKey: string): ExpectedRecord[] {
    return domainRecords(name, { selector, publicKey }, this.settings);
  }

  private async find(accountId: string, id: string): Promise<DomainRow> {
    const row = isId(id) ? await this.repo.get(accountId, id) : undefined;
    if (!row) throw notFound(id);
    return row;
  }

  private changed(accountId: string, state: AccountState | undefined): void {
    this.onChange(accountId, state !== undefined);
  }
}

/** A scheduled check comes within PENDING_KEY_CHECK_MS while keys wait; never for a domain not checked. */
function withPendingKeys(next: number | null, pending: number, now: number): number | null {
  return next === null || pending === 0 ? next : Math.min(next, now + PENDING_KEY_CHECK_MS);
}

/** The shortest expiry a domain may set: a minute (a code that must arrive within seconds still needs a retry). */
export const EXPIRE_AFTER_MIN_S = 60;
/** The longest: the default retry period, two days. */
export const EXPIRE_AFTER_MAX_S = DEFAULT_RETRY.maxAgeMs / 1000;

/** Why `value` is no expire_after, or undefined when it is one (whole seconds in range, or null). */
export function expireAfterProblem(value: unknown): string | undefined {
  if (value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    return `must be a whole number of seconds (${EXPIRE_AFTER_MIN_S}–${EXPIRE_AFTER_MAX_S}) or null for the default of 2 days`;
  }
  if (value < EXPIRE_AFTER_MIN_S || value > EXPIRE_AFTER_MAX_S) {
    return `must be between ${EXPIRE_AFTER_MIN_S} and ${EXPIRE_AFTER_MAX_S} seconds (2 days), or null for the default`;
  }
  return undefined;
}

function checkedEd25519(value: unknown): boolean {
  if (typeof value !== 'boolean')
    throw new AppError('validation_error', '"dkim_ed25519" must be true or false');
  return value;
}

/** Why `value` is no TLS setting, or undefined when it is one (docs/API.md, Domains: tls). */
function tlsProblem(value: unknown): string | undefined {
  return typeof value === 'string' && (DOMAIN_TLS_VALUES as readonly string[]).includes(value)
    ? undefined
    : 'must be "opportunistic" (TLS when the receiving server offers it, else cleartext) or "required" (only over TLS with a valid certificate)';
}

function checkedTls(value: unknown): DomainTls {
  const problem = tlsProblem(value);
  if (problem !== undefined) throw new AppError('validation_error', `"tls" ${problem}`);
  return value as DomainTls;
}

function notFound(id: string): AppError {
  return new AppError('not_found', `no domain with id "${id}" in this account`);
}

function exists(name: string): AppError {
  return new AppError('domain_exists', `${name} is already a domain of this account`);
}

function planLimit(plan: Plan): AppError {
  const allowed = PLANS[plan].domains;
  const bigger = PLAN_NAMES.find((p) => PLANS[p].domains > allowed);
  return new AppError(
    'plan_limit',
    `the ${plan} plan allows ${allowed} domain${allowed === 1 ? '' : 's'}` +
      (bigger ? `; the ${bigger} plan allows ${PLANS[bigger].domains}` : '; delete one to add another'),
  );
}
