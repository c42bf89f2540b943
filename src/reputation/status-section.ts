// The reputation section of `txmail status` (operator-status.ts): the accounts in warning and the paused
// ones, which wait for the operator (`txmail account resume`), so a paused account is an alert.
import type { AccountReputationRepo } from '../db/account-reputation-repo.js';
import type { StatusSection } from '../operator-status.js';

export async function reputationSection(
  states: Pick<AccountReputationRepo, 'unhealthyAccounts'>,
): Promise<StatusSection> {
  const accounts = await states.unhealthyAccounts();
  const paused = accounts.filter((a) => a.status === 'paused').length;
  return {
    name: 'reputation',
    title: 'Account reputation',
    json: accounts.map((a) => ({
      account_id: a.id,
      email: a.email,
      status: a.status,
      reason: a.reason,
      changed_at: a.changedAt === null ? null : new Date(a.changedAt).toISOString(),
    })),
    lines: accounts.map(
      (a) =>
        `${a.email}: ${a.status}${a.changedAt === null ? '' : ` since ${new Date(a.changedAt).toISOString()}`}` +
        `${a.reason ? `: ${a.reason}` : ''}${a.status === 'paused' ? ' (txmail account show / resume)' : ''}`,
    ),
    alert: paused > 0,
  };
}
