// The operator commands of the txmail command (account, key, plan, status, dns, dkim rotate,
// suppression): each runs on the core alone, no role. cli.ts loads this module only for them, so that
// --help, config and the service roles load none of it.
import { Audit } from './audit/audit.js';
import { keyLabel } from './audit/target-label.js';
import { blocklistSection } from './blocklists/status-section.js';
import { blocklistPlanNow } from './blocklists/targets.js';
import { isPlan, PLAN_NAMES } from './accounts/plans.js';
import { print, USAGE, UsageError, type Args, type Output } from './cli-args.js';
import { destinationBlocksSection } from './delivery/destination-blocks-status.js';
import { rotateCommand } from './dkim/rotate-command.js';
import { serviceRecords, zoneLine } from './domains/service-records.js';
import { coreSections, formatStatus, statusJson, type StatusSection } from './operator-status.js';
import { accountReport } from './reputation/account-report.js';
import { reputationSection } from './reputation/status-section.js';
import type { Core } from './roles/core.js';
import { tlsSection } from './tls-reports/status-section.js';

/** Runs one operator command on the core; resolves to the exit code. */
export async function operatorCommand(s: Core, command: string, args: Args, out: Output): Promise<number> {
  switch (command) {
    case 'account create': {
      const plan = planArg(args, 'free');
      const account = await s.accounts.create({
        email: required(args, 'email'),
        plan,
        ...(typeof args.password === 'string' ? { password: args.password } : {}),
      });
      print(
        out,
        args,
        { id: account.id, email: account.email, plan: account.plan, state: account.state },
        account.id,
      );
      return 0;
    }
    case 'key create': {
      const account = await accountArg(s, args);
      const created = await s.accounts.createApiKey(
        account.id,
        typeof args.name === 'string' ? args.name : 'default',
      );
      await operatorAudit(s, account.id, 'api_key.created', created.record.id, keyLabel(created.record));
      print(out, args, { id: created.record.id, key: created.key, account_id: account.id }, created.key);
      return 0;
    }
    case 'key list': {
      const account = await accountArg(s, args);
      const keys = (await s.repos.accounts.listApiKeys(account.id)).map((k) => ({
        id: k.id,
        name: k.name,
        prefix: k.prefix,
        created_at: new Date(k.created_at).toISOString(),
        last_used_at: k.last_used_at === null ? null : new Date(k.last_used_at).toISOString(),
        revoked: k.revoked_at !== null,
      }));
      print(
        out,
        args,
        keys,
        keys.map((k) => `${k.id}  ${k.prefix}…  ${k.name}${k.revoked ? '  (revoked)' : ''}`).join('\n'),
      );
      return 0;
    }
    case 'key revoke': {
      const account = await accountArg(s, args);
      const id = required(args, 'id');
      if (!(await s.repos.accounts.revokeApiKey(account.id, id, s.clock.now()))) {
        throw new UsageError(`${account.email} has no live key with the id ${id}`);
      }
      // A revoked key keeps its row: named from it, as the API's revocation is.
      const label = await new Audit(s.repos.audit, s.clock).labelOf(account.id, 'api_key', id);
      await operatorAudit(s, account.id, 'api_key.revoked', id, label);
      print(
        out,
        args,
        { id, revoked: true },
        `revoked ${id}; running servers stop accepting it within a second`,
      );
      return 0;
    }
    case 'plan set': {
      const account = await accountArg(s, args);
      const plan = planArg(args);
      await s.repos.accounts.setPlan(account.id, plan);
      await operatorAudit(s, account.id, 'account.plan_changed', plan);
      print(out, args, { id: account.id, plan }, `${account.email} is now on the ${plan} plan`);
      return 0;
    }
    case 'account suspend':
    case 'account resume': {
      const account = await accountArg(s, args);
      const suspend = command === 'account suspend';
      await s.repos.accounts.setSuspended(account.id, suspend ? s.clock.now() : null);
      // Only the operator lifts a reputation pause (ARCHITECTURE.md, "Reputation guardrails").
      const unpaused = !suspend && (await s.reputation.resume(account.id));
      await operatorAudit(s, account.id, suspend ? 'account.suspended' : 'account.resumed', null);
      print(
        out,
        args,
        { id: account.id, suspended: suspend, ...(suspend ? {} : { reputation_resumed: unpaused }) },
        `${account.email} is ${suspend ? 'suspended' : 'active'}` +
          (unpaused ? '; its reputation pause is lifted and a fresh window starts' : ''),
      );
      return 0;
    }
    case 'account show': {
      const account = await accountArg(s, args);
      const shown = await accountReport(s, account);
      print(out, args, shown.json, shown.text);
      return 0;
    }
    case 'status': {
      const sections: StatusSection[] = [
        ...(await coreSections({
          queueDepth: () => s.repos.queue.depth(),
          processes: () => s.repos.processes.all(),
          now: () => s.clock.now(),
        })),
        await blocklistSection(
          s.repos.blocklists,
          await blocklistPlanNow(s.config, s.repos.domains),
          s.clock.now(),
        ),
        await destinationBlocksSection(() => s.repos.destinationBlocks.active(s.clock.now()), s.clock.now()),
        await reputationSection(s.repos.accountReputation),
        await tlsSection(s.repos, s.config, s.clock.now()),
      ];
      print(out, args, statusJson(sections), formatStatus(sections));
      return sections.some((x) => x.alert) ? 1 : 0;
    }
    case 'dns': {
      const c = s.config;
      const key = await s.dkim.ensureServiceKey(c.testDomain);
      // A rotation's new key is published beside the current one, and the old one stays a while
      // (txmail dkim rotate).
      const records = serviceRecords(c, key, {
        keys: await s.repos.dkimKeys.all(c.testDomain, null),
        now: s.clock.now(),
      });
      print(out, args, { records }, records.map((r) => `; ${r.purpose}\n${zoneLine(r)}`).join('\n\n'));
      return 0;
    }
    case 'dkim rotate': {
      const domain = required(args, 'domain').toLowerCase();
      let accountId: string | null = null;
      if (args.account !== undefined) {
        const account = await accountArg(s, args);
        const found = (await s.domains.list(account.id)).find((d) => d.name === domain);
        if (!found) throw new UsageError(`${account.email} has no domain ${domain}`);
        accountId = account.id;
      } else if (domain === s.config.testDomain) {
        await s.dkim.ensureServiceKey(domain);
      } else {
        throw new UsageError(
          `--account is required for a customer's domain (the test domain is ${s.config.testDomain})`,
        );
      }
      const result = await rotateCommand(
        { keys: s.repos.dkimKeys, rotation: s.domains.rotation },
        domain,
        accountId,
      );
      // The service's own domain belongs to no account: only a customer's rotation has a log to go in.
      if (accountId !== null) await operatorAudit(s, accountId, 'dkim_key.rotated', domain);
      print(out, args, result.json, result.text);
      return 0;
    }
    case 'suppression list': {
      const account = await accountArg(s, args);
      const all = [];
      let cursor: string | undefined;
      do {
        const page = await s.suppressions.list(account.id, {
          address: typeof args.address === 'string' ? args.address : undefined,
          cursor,
          limit: 100,
        });
        all.push(...page.data);
        cursor = page.next_cursor ?? undefined;
      } while (cursor);
      print(
        out,
        args,
        all,
        all.length
          ? all.map((e) => `${e.address}  ${e.created_at}  ${e.origin}: ${e.reason}`).join('\n')
          : `${account.email} has no suppressed addresses`,
      );
      return 0;
    }
    case 'suppression add': {
      const account = await accountArg(s, args);
      const { suppression, created } = await s.suppressions.add(account.id, {
        address: required(args, 'address'),
        reason: typeof args.reason === 'string' ? args.reason : undefined,
      });
      if (created) await operatorAudit(s, account.id, 'suppression.added', suppression.address);
      print(
        out,
        args,
        { ...suppression, created },
        created
          ? `${suppression.address} is suppressed`
          : `${suppression.address} was already suppressed since ${suppression.created_at}: ${suppression.reason}`,
      );
      return 0;
    }
    case 'suppression remove': {
      const account = await accountArg(s, args);
      const address = required(args, 'address');
      await s.suppressions.remove(account.id, address);
      await operatorAudit(s, account.id, 'suppression.removed', address);
      print(out, args, { address, removed: true }, `${address} is no longer suppressed`);
      return 0;
    }
    default:
      throw new UsageError(`unknown command "${command}"\n\n${USAGE}`);
  }
}

/** The audit entry of an operator command that changed an account (docs/design.md §2, "Audit log"). */
function operatorAudit(
  s: Core,
  accountId: string,
  action: string,
  target: string | null,
  targetLabel?: string,
): Promise<void> {
  return new Audit(s.repos.audit, s.clock).record({
    accountId,
    actor: { type: 'operator' },
    action,
    target,
    targetLabel: targetLabel ?? null,
    ip: null,
  });
}

async function accountArg(s: Core, args: Args) {
  const email = required(args, 'account');
  const account = await s.repos.accounts.findByEmail(email);
  if (!account) throw new UsageError(`no account with the email ${email}`);
  return account;
}

function required(args: Args, name: string): string {
  const v = args[name];
  if (typeof v !== 'string' || v === '') throw new UsageError(`--${name} is required`);
  return v;
}

function planArg(args: Args, fallback?: 'free') {
  const plan = typeof args.plan === 'string' ? args.plan : fallback;
  if (plan === undefined) throw new UsageError('--plan is required');
  if (!isPlan(plan)) throw new UsageError(`--plan must be one of ${PLAN_NAMES.join(', ')}`);
  return plan;
}
