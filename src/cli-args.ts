// What cli.ts and operator-commands.ts share: the usage text and error, the parsed options, and
// printing a result as text or, with --json, as JSON.

/** The usage text: printed by --help, and with an unknown command. */
export const USAGE = `usage: txmail <command> [options]

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

export type Args = Record<string, string | boolean | undefined>;

/** A command used wrongly: the message is printed and the command exits 2. */
export class UsageError extends Error {}

/** Where a command writes: the process's streams, or a test's buffers (test/helpers/process.ts). */
export interface Output {
  write(text: string): unknown;
}

/** What a command reads and writes besides its arguments; the process's own unless told. */
export interface CommandIo {
  env: NodeJS.ProcessEnv;
  stdout: Output;
  stderr: Output;
}

export const processIo = (): CommandIo => ({
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
});

export function print(out: Output, args: Args, json: unknown, text: string): void {
  out.write((args.json ? JSON.stringify(json) : text) + '\n');
}
