// The `txmail` command: service roles and operator commands (docs/design.md §1). What a command needs is
// loaded when it runs: --help and config load no database code, the roles their own modules.
import { parseArgs } from 'node:util';
import { USAGE, UsageError, print, processIo, type Args, type CommandIo } from './cli-args.js';
import { ConfigError, configLines, configWarnings, describeConfig, loadConfig } from './config.js';
import { AppError } from './errors.js';
import { hostnameVerdict } from './hostname-check.js';
import { createLogger } from './log.js';
import type { Core } from './roles/core.js';
import type { InboundReceiver } from './inbound/receiver.js';

/**
 * Runs one command; resolves to the process exit code (long-running roles resolve when stopped). `io`:
 * the environment it reads and the streams it writes, the process's own unless a test hands its own.
 */
export async function main(argv: string[], io: CommandIo = processIo()): Promise<number> {
  let parsed;
  try {
    parsed = readArgs(argv);
  } catch (err) {
    // An unknown option, or one without its value: a usage error like any other (exit 2).
    io.stderr.write(`txmail: ${(err as Error).message}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  const command = positionals.join(' ');
  if (values.help || command === '' || command === 'help') {
    io.stdout.write(USAGE);
    return command === '' && !values.help ? 2 : 0;
  }
  try {
    return await run(command, values, io);
  } catch (err) {
    if (err instanceof ConfigError || err instanceof AppError || err instanceof UsageError) {
      io.stderr.write(`txmail: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
}

function readArgs(argv: string[]) {
  return parseArgs({
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
}

async function run(command: string, args: Args, io: CommandIo): Promise<number> {
  const config = loadConfig(io.env);
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
      const { createCore } = await import('./roles/core.js');
      const core = await createCore(config, { acceptOnly: command === 'api' });
      // ehlo_name, not hostname: every log line's base `hostname` already names the machine.
      if (verdict?.ok === 'warn') core.logger.warn({ ehlo_name: config.hostname }, verdict.message);
      // Each role is told of the settings it uses: the API of the HTTP ones, the receiver of the inbound.
      const uses = (variable: string) =>
        variable.startsWith('TXMAIL_HTTP_')
          ? command === 'serve' || command === 'api'
          : variable.startsWith('TXMAIL_INBOUND_')
            ? command === 'serve' || command === 'inbound'
            : true;
      for (const w of configWarnings(config).filter((w) => uses(w.variable)))
        core.logger.warn({ variable: w.variable }, `${w.variable}: ${w.message}`);
      return runRoles(core, command);
    }
    case 'migrate': {
      const { migrate, openDatabase } = await import('./db/database.js');
      const db = openDatabase(config.databaseUrl);
      try {
        const applied = await migrate(db);
        print(
          io.stdout,
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
      print(io.stdout, args, describeConfig(config), configLines(config));
      for (const w of configWarnings(config))
        io.stderr.write(`txmail: warning: ${w.variable}: ${w.message}\n`);
      return 0;
  }
  // The operator commands need the core alone: no role of theirs runs.
  const [{ createCore }, { operatorCommand }] = await Promise.all([
    import('./roles/core.js'),
    import('./operator-commands.js'),
  ]);
  const core = await createCore(config, { logger: quietLogger(config.logLevel) });
  try {
    return await operatorCommand(core, command, args, io.stdout);
  } finally {
    await core.close();
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
  const healthListener =
    command === 'inbound'
      ? { port: config.inboundHealthPort, setting: 'TXMAIL_INBOUND_HEALTH_PORT' }
      : command === 'worker'
        ? { port: config.workerHealthPort, setting: 'TXMAIL_WORKER_HEALTH_PORT' }
        : undefined;
  const health =
    healthListener?.port !== undefined
      ? (await import('./roles/health.js')).createHealthRole(core, healthListener.port)
      : undefined;
  // The listeners first (requests in flight finish), then intake, then the work in flight: the worker
  // lets deliveries finish and gives back leases, and may still queue mail through the core's writer.
  const stopRoles = async () => {
    await api?.stop();
    await health?.stop();
    await inbound?.stop();
    await worker?.stop();
    await core.close();
  };
  let receiver: InboundReceiver | undefined;
  let healthUrl: string | undefined;
  try {
    await worker?.start();
    receiver = await inbound?.start().catch(naming('TXMAIL_INBOUND_PORT'));
    // The HTTP port last: once /healthz answers, every part of this process is running.
    await api?.start().catch(naming('TXMAIL_HTTP_PORT'));
    healthUrl = await health?.start().catch(naming(healthListener!.setting));
  } catch (err) {
    // A role that cannot start (its port taken, say): what did start stops, and the command fails.
    // Left running, the worker would deliver and push with no API and no bounce receiver, and a
    // supervisor would never see the failure to restart it.
    logger.error({ err }, 'txmail could not start; stopping what had started');
    await stopRoles();
    throw err;
  }
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
  await stopRoles();
  logger.info('stopped');
  return 0;
}

// What a listener's failure to start says of its address: taken, not allowed, not this machine's.
// ENOTFOUND: a host name that resolves to nothing.
const ADDRESS_ERRORS = new Set(['EADDRINUSE', 'EACCES', 'EADDRNOTAVAIL', 'ENOTFOUND']);

/** A listener that cannot have its address is said with the setting that chose it. */
function naming(variable: string): (err: unknown) => never {
  return (err) => {
    const code = (err as NodeJS.ErrnoException | undefined)?.code;
    if (err instanceof Error && code !== undefined && ADDRESS_ERRORS.has(code))
      throw new Error(`${err.message} (${variable})`, { cause: err });
    throw err;
  };
}

function quietLogger(level: string) {
  // Operator commands print their result on stdout; logs only for warnings and worse.
  return createLogger(level === 'info' || level === 'debug' || level === 'trace' ? 'warn' : level);
}
