// A real Postfix as a recipient's MX, for end-to-end tests of what txmail makes of a real MTA's replies.
// A private instance: its own configuration, queue and log in a temporary directory, smtpd on a free
// loopback port (txmail's tests point every MX at one port: TXMAIL_MX_PORT), nothing of the system's
// Postfix touched. Recipients are virtual mailboxes of one domain: a listed one is delivered to a
// maildir under the directory, an unlisted one gets Postfix's own "550 5.1.1 … User unknown in virtual
// mailbox table", and an access map (check_recipient_access, access(5)) gives chosen recipients the
// replies a site configures: "450 4.7.1 Greylisted, please try again later", "REJECT Access denied"…
//
// Postfix must be installed (Debian's `postfix` package; .ci/run installs it) and started as root
// (`postfix start` refuses otherwise). `postfixUnavailable()` says why it cannot run here; a test that
// needs it fails under CI and is skipped with that reason elsewhere (as PostgreSQL is: databases.ts).
import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { until } from './wait.js';

const POSTFIX = '/usr/sbin/postfix';
const POSTMAP = '/usr/sbin/postmap';

/** Why a private Postfix cannot be started here, or undefined when it can. */
export function postfixUnavailable(): string | undefined {
  if (!existsSync(POSTFIX) || !existsSync(POSTMAP))
    return 'Postfix is not installed (apt-get install postfix)';
  if (process.getuid?.() !== 0) return 'starting Postfix needs root';
  try {
    execFileSync('id', ['-u', 'postfix'], { stdio: 'pipe' });
  } catch {
    return 'there is no postfix user (the postfix package creates it)';
  }
  return undefined;
}

/**
 * Whether tests that need Postfix run: under CI a missing Postfix is a failure (thrown here, when the
 * test file loads), elsewhere the tests are skipped with a notice saying why.
 */
export function postfixTestsRun(): boolean {
  const why = postfixUnavailable();
  if (why === undefined) return true;
  if (process.env.CI) throw new Error(`the Postfix end-to-end tests cannot run under CI: ${why}`);
  console.warn(`Postfix end-to-end tests are skipped: ${why}`);
  return false;
}

export interface PostfixMxOptions {
  /** The domain whose mail it takes (virtual_mailbox_domains). */
  domain: string;
  /** Local parts with a mailbox; every other one is unknown (550 5.1.1). */
  mailboxes: string[];
  /**
   * Access map entries by local part: the action as access(5) writes it, e.g. `450 4.7.1 Greylisted,
   * please try again later` or `REJECT Access denied`. Postfix puts "<address>: Recipient address
   * rejected: " before the text, as it does for every site.
   */
  access?: Record<string, string>;
  /**
   * The loopback address smtpd listens on (default 127.0.0.1; all of 127/8 is loopback on Linux), and
   * its port (default: a free one). Instances on distinct addresses can share one port, so one txmail
   * (one TXMAIL_MX_PORT) reaches each of them by the address its MX name resolves to.
   */
  host?: string;
  port?: number;
  /**
   * STARTTLS with this certificate (smtpd_tls_security_level = may; test-ca.ts issues one); absent: no
   * STARTTLS. The session's TLS is logged (smtpd_tls_loglevel 1) and written into each message's
   * Received header ("using TLSv1.3 with cipher …").
   */
  tls?: {
    certFile: string;
    keyFile: string;
    /**
     * Only TLS 1.0: Postfix still offers STARTTLS, and every handshake of a current client (Node's
     * TLS 1.2 minimum) fails, as with an old server that was never updated.
     */
    tls10Only?: boolean;
  };
}

export class PostfixMx {
  port = 0;
  private dir = '';
  private started = false;

  /** The address smtpd listens on. */
  readonly host: string;

  constructor(private readonly options: PostfixMxOptions) {
    this.host = options.host ?? '127.0.0.1';
  }

  async start(): Promise<this> {
    const why = postfixUnavailable();
    if (why) throw new Error(`cannot start Postfix: ${why}`);
    const { domain, mailboxes, access = {} } = this.options;
    const uid = Number(execFileSync('id', ['-u', 'postfix']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postfix']).toString().trim());
    this.dir = mkdtempSync(join(tmpdir(), 'txmail-postfix-'));
    // The postfix user walks into data/ and mail/; the queue's subdirectories are made by `postfix
    // start` (postfix-files) with their owners.
    chmodSync(this.dir, 0o755);
    const etc = join(this.dir, 'etc');
    mkdirSync(etc);
    for (const d of ['data', 'mail']) {
      mkdirSync(join(this.dir, d));
      chownSync(join(this.dir, d), uid, gid);
    }
    mkdirSync(join(this.dir, 'queue'));
    this.port = this.options.port ?? (await freePort(this.host));

    writeFileSync(
      join(etc, 'main.cf'),
      [
        'compatibility_level = 3.6',
        `queue_directory = ${this.dir}/queue`,
        `data_directory = ${this.dir}/data`,
        'mail_owner = postfix',
        `myhostname = mx.${domain}`,
        `mydomain = ${domain}`,
        'mydestination =',
        // Its own address must be an interface's (127.0.0.1, loopback's: Postfix finds no interface for
        // the rest of 127/8). smtpd listens where master.cf says, which may be any loopback address.
        'inet_interfaces = 127.0.0.1',
        'inet_protocols = ipv4',
        `mynetworks = ${this.host}/32`,
        'smtpd_relay_restrictions = reject_unauth_destination',
        `smtpd_recipient_restrictions = check_recipient_access hash:${etc}/access`,
        `virtual_mailbox_domains = ${domain}`,
        `virtual_mailbox_base = ${this.dir}/mail`,
        `virtual_mailbox_maps = hash:${etc}/vmailbox`,
        `virtual_uid_maps = static:${uid}`,
        `virtual_gid_maps = static:${gid}`,
        'alias_maps =',
        'alias_database =',
        'local_recipient_maps =',
        `maillog_file_prefixes = ${this.dir}`,
        `maillog_file = ${this.dir}/maillog`,
        'smtpd_banner = $myhostname ESMTP',
        'biff = no',
        ...tlsSettings(this.options.tls),
        '',
      ].join('\n'),
    );
    // No chroot: the instance has no chroot tree, and it needs none on loopback in a test.
    writeFileSync(
      join(etc, 'master.cf'),
      [
        `${this.host}:${this.port} inet n - n - - smtpd`,
        'cleanup unix n - n - 0 cleanup',
        'qmgr unix n - n 300 1 qmgr',
        'rewrite unix - - n - - trivial-rewrite',
        'bounce unix - - n - 0 bounce',
        'defer unix - - n - 0 bounce',
        'trace unix - - n - 0 bounce',
        'verify unix - - n - 1 verify',
        'proxymap unix - - n - - proxymap',
        'showq unix n - n - - showq',
        'error unix - - n - - error',
        'retry unix - - n - - error',
        'discard unix - - n - - discard',
        'virtual unix - n n - - virtual',
        'anvil unix - - n - 1 anvil',
        'scache unix - - n - 1 scache',
        'postlog unix-dgram n - n - 1 postlogd',
        // Its TLS session cache and entropy: without it smtpd disables STARTTLS.
        ...(this.options.tls ? ['tlsmgr unix - - n 1000? 1 tlsmgr'] : []),
        '',
      ].join('\n'),
    );
    const entries = (map: Record<string, string>) =>
      Object.entries(map)
        .map(([local, value]) => `${local}@${domain} ${value}\n`)
        .join('');
    writeFileSync(join(etc, 'access'), entries(access));
    writeFileSync(join(etc, 'vmailbox'), entries(Object.fromEntries(mailboxes.map((m) => [m, `${m}/`]))));
    // Not execFileSync: `postfix start` takes seconds (postfix-script checks the whole instance), and
    // tests start several instances at once; a blocked event loop let every other instance's wait for
    // its greeting time out before the greeting could be read.
    await run(POSTMAP, ['-c', etc, join(etc, 'access')]);
    await run(POSTMAP, ['-c', etc, join(etc, 'vmailbox')]);
    await run(POSTFIX, ['-c', etc, 'start']);
    this.started = true;
    await until('Postfix to listen', () => accepts(this.host, this.port), 15_000);
    return this;
  }

  /** Stops the instance, waits for its master to exit, and removes the directory. */
  async stop(): Promise<void> {
    if (this.started) {
      const pidFile = join(this.dir, 'queue', 'pid', 'master.pid');
      const pid = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8').trim()) : undefined;
      await run(POSTFIX, ['-c', join(this.dir, 'etc'), 'stop']);
      this.started = false;
      if (pid) await until('the Postfix master to exit', async () => (alive(pid) ? undefined : true), 15_000);
    }
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
  }

  /** What Postfix logged so far (maillog_file, written by postlogd). */
  log(): string {
    const file = join(this.dir, 'maillog');
    return existsSync(file) ? readFileSync(file, 'utf8') : '';
  }

  /** Waits until the log has a line matching `pattern`, and returns the lines that match. */
  waitForLog(what: string, pattern: RegExp, timeoutMs = 10_000): Promise<string[]> {
    return until(
      what,
      async () => {
        const lines = this.log()
          .split('\n')
          .filter((l) => pattern.test(l));
        return lines.length > 0 ? lines : undefined;
      },
      timeoutMs,
    );
  }

  /** The messages delivered to a mailbox (its maildir's new/ files). */
  delivered(localPart: string): Buffer[] {
    const dir = join(this.dir, 'mail', localPart, 'new');
    if (!existsSync(dir)) return [];
    return readdirSync(dir).map((f) => readFileSync(join(dir, f)));
  }
}

/** main.cf lines for the instance's STARTTLS (PostfixMxOptions.tls). */
function tlsSettings(tls: PostfixMxOptions['tls']): string[] {
  if (!tls) return ['smtpd_tls_security_level = none'];
  return [
    'smtpd_tls_security_level = may',
    `smtpd_tls_cert_file = ${tls.certFile}`,
    `smtpd_tls_key_file = ${tls.keyFile}`,
    'smtpd_tls_loglevel = 1',
    'smtpd_tls_received_header = yes',
    ...(tls.tls10Only
      ? [
          // TLS 1.0 and nothing else: STARTTLS is still offered, and a client that offers TLS 1.2 at
          // least gets "unsupported protocol" (Postfix logs an SSL_accept error).
          'smtpd_tls_protocols = TLSv1, !SSLv2, !SSLv3, !TLSv1.1, !TLSv1.2, !TLSv1.3',
        ]
      : []),
  ];
}

const run = promisify(execFile);

function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function accepts(host: string, port: number): Promise<true | undefined> {
  return new Promise((resolve) => {
    const socket = net.connect(port, host);
    socket.setTimeout(2000, () => {
      socket.destroy();
      resolve(undefined);
    });
    socket.once('connect', () => {
      // A greeting is read and the session quit, so smtpd logs nothing worse than a short session.
      socket.once('data', () => {
        socket.setTimeout(0);
        socket.end('QUIT\r\n');
        resolve(true);
      });
    });
    socket.once('error', () => resolve(undefined));
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
