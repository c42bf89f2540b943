// The audit log (docs/design.md §2, "Audit log"): one seam, `record`, for every change made to an account
// (keys, domains, DKIM keys, webhooks and their secrets, suppressions, members and roles, security
// settings), with who made it (a member or an API key), when, and from which address. The HTTP layer
// records every audited route of http/permissions.ts after it succeeded (http/audit-hook.ts); the
// services that change things outside a route (accepting an invitation) call it themselves, the
// operator's commands record the operator (cli.ts), and the reputation guard's moves the system.
import type { Clock } from '../clock.js';
import type { AuditRepo, AuditTargetFacts } from '../db/audit-repo.js';
import type { AuditLogRow } from '../db/schema.js';
import { newId } from '../ids.js';
import { targetLabel, type TargetKind } from './target-label.js';

/**
 * The parts of txmail that change an account by themselves, at nobody's request: recorded as the
 * actor `system` with the part's name as its id.
 */
export type SystemActor = 'reputation_guard';

export type AuditActor =
  | { type: 'member'; id: string; email: string }
  | { type: 'api_key'; id: string; label: string }
  | { type: 'operator' }
  | { type: 'system'; id: SystemActor };

export interface AuditEntry {
  accountId: string;
  actor: AuditActor;
  action: string;
  /** What was changed: an id, an address; null when the action names it (account settings). */
  target: string | null;
  /** What the target was called then (target-label.ts); absent or null when the target says it all. */
  targetLabel?: string | null;
  ip: string | null;
}

export class Audit {
  constructor(
    private readonly repo: AuditRepo,
    private readonly clock: Clock,
  ) {}

  async record(entry: AuditEntry): Promise<void> {
    await this.repo.insert(auditRow(entry, newId(), this.clock.now()));
  }

  list(accountId: string, limit: number, cursor?: string): Promise<AuditLogRow[]> {
    return this.repo.list(accountId, limit, cursor);
  }

  /**
   * What the account's target `id` of `kind` is called now, before a change that may remove it; undefined
   * when there is none such, or the look-up failed (the entry is then written without it).
   */
  async labelOf(accountId: string, kind: TargetKind, id: string): Promise<string | undefined> {
    const facts = await this.factsOf(accountId, kind, id);
    return facts && targetLabel(kind, facts);
  }

  /** What the account's target `id` of `kind` is now (its name, address, role…); as labelOf. */
  factsOf(accountId: string, kind: TargetKind, id: string): Promise<AuditTargetFacts | undefined> {
    return this.repo.targetFacts(accountId, kind, id).catch(() => undefined);
  }
}

/**
 * The row of an entry made at `now`. For a change whose own transaction writes its entry (the
 * reputation guard's moves, db/account-reputation-repo.ts), so that of several processes making it at
 * once exactly the one that made it records it.
 */
export function auditRow(entry: AuditEntry, id: string, now: number): AuditLogRow {
  const { actor } = entry;
  return {
    id,
    account_id: entry.accountId,
    created_at: now,
    actor_type: actor.type,
    actor_id: actor.type === 'operator' ? null : actor.id,
    actor_label: actor.type === 'member' ? actor.email : actor.type === 'api_key' ? actor.label : null,
    action: entry.action,
    target: entry.target,
    target_label: entry.targetLabel ?? null,
    ip: entry.ip,
  };
}

/** An entry as GET /api/audit shows it. */
export function auditJson(row: AuditLogRow) {
  return {
    id: row.id,
    created_at: new Date(row.created_at).toISOString(),
    actor: { type: row.actor_type, id: row.actor_id, label: row.actor_label },
    action: row.action,
    target: row.target,
    target_label: row.target_label,
    ip: row.ip,
  };
}
