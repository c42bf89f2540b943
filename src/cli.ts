// The `txmail` command: service roles and operator commands (docs/design.md §1).
import { parseArgs } from 'node:util';
import { isPlan, PLAN_NAMES } from './accounts/plans.js';
import { ConfigError, describeConfig, loadConfig } from './config.js';
import { migrate, openDatabase } from './db/database.js';
import { Audit } from './audit/audit.js';
import { AppError } from './errors.js';
import { hostnameVerdict } from './hostname-check.js';
import { createLogger } from './log.js';
import { serviceRecords, zoneLine } from './domains/service-records.js';
import { rotateCommand } from './dkim/rotate-command.js';
import { createCore, type Core } from './roles/core.js';
import { coreSections, formatStatus, statusJson, type StatusSection } from './operator-status.js';
import { accountReport } from './reputation/account-report.js';
import { blocklistSection } from './blocklists/status-section.js';
import { blocklistPlanNow } from './blocklists/targets.js';
import { destinationBlocksSection } from './delivery/destination-blocks-status.js';
import { reputationSection } from './reputation/status-section.js';
import { tlsSection } from './tls-reports/status-section.js';

const USAGE = `usage: txmail <command> [options]

Service roles:
  serve                      the API, the delivery worker, domain checks and the bounce receiver in one process
    --trial                  a trial on this machine (npm start): a host name that is not fully
                             qualified is a warning instead of a refusal
  api                        the HTTP API and dashboard only
  worker                     the delivery worker, domain checks, blocklist checks and the retention sweeper
  inbound                    the bounce and complaint receiver (SMTP) only; with TXMAIL_INBOUND_HEALTH_PORT
                             also /healthz, /readyz and /metrics on that port
                             (worker likewise with TXMAIL_WORKER_HEALTH_PORT)
  migrate                    apply database migrations and exit

Operator commands (add --json for machine-readable output):
  account create --email E [--password P] [--plan free|pro|scale]
  key create --account E [--name N]
  key list --account E
  key revoke --account E --id KEY_ID
  plan set --account E --plan free|pro|scale
  account suspend|resume --account E
                             resume also lifts a reputation pause (a fresh window starts)
  account show --account E   reputation: status, rates against thresholds, per sending domain, and
                             activity per day over the last 30 days
  status                     the queue, the live processes and anything that needs the operator's
                             attention (exits 1 when something does)
  dns                        print the DNS records to publish for the service's own domains
  dkim rotate --domain D [--account E]
                             start a DKIM key rotation of a customer's domain (--account) or of the
                             test domain, printing the new record; run again to look it up: the new
                             key takes over once its record is found
  suppression list --account E [--address A]
  suppression add --account E --address A [--reason R]
  suppression remove --account E --address A
  config                     print the effective configuration (secrets masked)
`;

type Args = Record<string, string | boolean | undefined>;

/** Runs one command; resolves to the process exit code (long-running roles resolve when stopped). */
export async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      plan: { type: 'string' },
      account: { type: 'string' },
      domain: { type: 'string' },
      name: { type: 'string' },
      id: { type: 'string' },
      address: { type: 'string' },
      reason: { type: 'string' },
      json: { type: 'boolean' },
      trial: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const command = positionals.join(' ');
  if (values.help || command === '' || command === 'help') {
    process.stdout.write(USAGE);
    return command === '' && !values.help ? 2 : 0;
  }
  try {
    return await run(command, values);
  } catch (err) {
    if (err instanceof ConfigError || err instanceof AppError || err instanceof UsageError) {
      process.stderr.write(`txmail: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
}

class UsageError extends Error {}

async function run(command: string, args: Args): Promise<number> {
  const config = loadConfig();
  switch (command) {
    case 'serve':
    case 'api':
    case 'worker':
    case 'inbound': {
      // The roles that send mail or name it (EHLO, Message-ID) need a real host name; checked before
      // anything opens (docs: README, TXMAIL_HOSTNAME).
      if (args.trial && command !== 'serve') throw new UsageError('--trial is an option of serve only');
      const allowance = config.allowPrivateNetworks
        ? 'TXMAIL_ALLOW_PRIVATE_NETWORKS'
        : args.trial
          ? '--trial'
          : undefined;
      const verdict = command === 'inbound' ? undefined : hostnameVerdict(config.hostname, allowance);
      if (verdict?.ok === false) throw new ConfigError('TXMAIL_HOSTNAME', verdict.message);
      const core = await createCore(config, { acceptOnly: command === 'api' });
      // ehlo_name, not hostname: every log line's base `hostname` already names the machine.
      if (verdict?.ok === 'warn') core.logger.warn({ ehlo_name: config.hostname }, verdict.message);
      return runRoles(core, command);
    }
    case 'migrate': {
      const db = openDatabase(config.databaseUrl);
      try {
        const applied = await migrate(db);
        print(
          args,
          { applied },
          applied.length ? `applied: ${applied.join(', ')}` : 'the schema is up to date',
        );
      } finally {
        await db.close();
      }
      return 0;
    }
    case 'config':
      print(args, describeConfig(config), JSON.stringify(describeConfig(config), null, 2));
      return 0;
  }
  // The operator commands need the core alone: no role of theirs runs.
  const core = await createCore(config, { logger: quietLogger(config.logLevel) });
  try {
    return await operatorCommand(core, command, args);
  } finally {
    await core.close();
  }
}

async function operatorCommand(s: Core, command: string, args: Args): Promise<number> {
  switch (command) {
    case 'account create': {
      const plan = planArg(args, 'free');
      const account = await s.accounts.create({
        email: required(args, 'email'),
        plan,
        ...(typeof args.password === 'string' ? { password: args.password } : {}),
      });
      print(
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
      await operatorAudit(s, account.id, 'api_key.created', created.record.id);
      print(args, { id: created.record.id, key: created.key, account_id: account.id }, created.key);
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
      await operatorAudit(s, account.id, 'api_key.revoked', id);
      print(args, { id, revoked: true }, `revoked ${id}; running servers stop accepting it within a second`);
      return 0;
    }
    case 'plan set': {
      const account = await accountArg(s, args);
      const plan = planArg(args);
      await s.repos.accounts.setPlan(account.id, plan);
      await operatorAudit(s, account.id, 'account.plan_changed', plan);
      print(args, { id: account.id, plan }, `${account.email} is now on the ${plan} plan`);
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
      print(args, shown.json, shown.text);
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
      print(args, statusJson(sections), formatStatus(sections));
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
      print(args, { records }, records.map((r) => `; ${r.purpose}\n${zoneLine(r)}`).join('\n\n'));
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
      print(args, result.json, result.text);
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
      print(args, { address, removed: true }, `${address} is no longer suppressed`);
      return 0;
    }
    default:
      throw new UsageError(`unknown command "${command}"\n\n${USAGE}`);
  }
}

/**
 * Runs the roles of a command until SIGINT/SIGTERM, then shuts down gracefully: serve is api, worker
 * and inbound in one process; worker and inbound alone add a health listener when its port is set.
 */
async function runRoles(core: Core, command: 'serve' | 'api' | 'worker' | 'inbound'): Promise<number> {
  const { config, logger } = core;
  // The roles' modules (Fastify, the SMTP client and server, the parsers…) are loaded by the commands
  // that run them only: an operator command loads the core alone, and starts in about half the time.
  const worker =
    command === 'serve' || command === 'worker'
      ? (await import('./roles/worker.js')).createWorkerRole(core)
      : undefined;
  const inbound =
    command === 'serve' || command === 'inbound'
      ? (await import('./roles/inbound.js')).createInboundRole(core)
      : undefined;
  const api =
    command === 'serve' || command === 'api'
      ? (await import('./roles/api.js')).createApiRole(core)
      : undefined;
  // The inbound and worker roles have no API listener: their own small one for probes and scrapes,
  // when asked for.
  const healthPort =
    command === 'inbound'
      ? config.inboundHealthPort
      : command === 'worker'
        ? config.workerHealthPort
        : undefined;
  const health =
    healthPort !== undefined
      ? (await import('./roles/health.js')).createHealthRole(core, healthPort)
      : undefined;
  await worker?.start();
  const receiver = await inbound?.start();
  // The HTTP port last: once /healthz answers, every part of this process is running.
  await api?.start();
  const healthUrl = await health?.start();
  logger.info(
    {
      role: command,
      url: api ? config.publicUrl : undefined,
      inbound: receiver ? `${config.inboundHost}:${receiver.port}` : undefined,
      health: healthUrl,
      database: core.db.dialect,
    },
    'txmail is running',
  );
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      logger.info({ signal }, 'shutting down: finishing requests in flight');
      process.removeAllListeners('SIGINT');
      process.removeAllListeners('SIGTERM');
      // A second signal means "now".
      process.once('SIGINT', () => process.exit(130));
      process.once('SIGTERM', () => process.exit(143));
      resolve();
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
  // The listeners first (requests in flight finish), then intake, then the work in flight: the worker
  // lets deliveries finish and gives back leases, and may still queue mail through the core's writer.
  await api?.stop();
  await health?.stop();
  await inbound?.stop();
  await worker?.stop();
  await core.close();
  logger.info('stopped');
  return 0;
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

/** The audit entry of an operator command that changed an account (docs/design.md §2, "Audit log"). */
function operatorAudit(s: Core, accountId: string, action: string, target: string | null): Promise<void> {
  return new Audit(s.repos.audit, s.clock).record({
    accountId,
    actor: { type: 'operator' },
    action,
    target,
    ip: null,
  });
}

async function accountArg(s: Core, args: Args) {
  const email = required(args, 'account');
  const account = await s.repos.accounts.findByEmail(email);
  if (!account) throw new UsageError(`no account with the email ${email}`);
  return account;
}

function print(args: Args, json: unknown, text: string): void {
  process.stdout.write((args.json ? JSON.stringify(json) : text) + '\n');
}

function quietLogger(level: string) {
  // Operator commands print their result on stdout; logs only for warnings and worse.
  return createLogger(level === 'info' || level === 'debug' || level === 'trace' ? 'warn' : level);
}
