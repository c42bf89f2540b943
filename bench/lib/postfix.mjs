// The reference stack a self-hosting user would otherwise run: a private Postfix instance (a temporary
// directory, loopback only) relaying everything to the sink, with Debian's OpenDKIM as its milter
// (RSA-2048, relaxed/relaxed) or without. Both stop with stop(); their processes are measured through
// Postfix's `masterPid` (its tree holds every Postfix process) and OpenDKIM's `pid`.
import { spawn } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, run } from './harness.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function until(what, check, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

function accepts(port) {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
  });
}

/**
 * OpenDKIM as a milter on loopback, signing mail From `domain` with a new RSA-2048 key, relaxed/relaxed,
 * rsa-sha256 (Debian's package defaults otherwise). Runs in the foreground as our child, as the
 * opendkim user.
 */
export async function startOpenDkim(domain) {
  const dir = mkdtempSync(join(tmpdir(), 'txmail-bench-opendkim-'));
  chmodSync(dir, 0o755);
  const keyFile = join(dir, 'bench.private');
  await run('openssl', ['genrsa', '-out', keyFile, '2048']);
  const uid = Number((await run('id', ['-u', 'opendkim'])).stdout.trim());
  chownSync(keyFile, uid, 0);
  const port = await freePort();
  const conf = join(dir, 'opendkim.conf');
  writeFileSync(
    conf,
    [
      'Syslog no',
      'Mode s',
      `Domain ${domain}`,
      'Selector bench',
      `KeyFile ${keyFile}`,
      'Canonicalization relaxed/relaxed',
      'SignatureAlgorithm rsa-sha256',
      `Socket inet:${port}@127.0.0.1`,
      'UserID opendkim',
      'RequireSafeKeys false',
      '',
    ].join('\n'),
  );
  const child = spawn('opendkim', ['-f', '-x', conf], { stdio: ['ignore', 'inherit', 'inherit'] });
  const exited = new Promise((r) => child.on('exit', r));
  await until('OpenDKIM to listen', () => accepts(port));
  return {
    port,
    pid: child.pid,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Postfix relaying everything to 127.0.0.1:`relayPort` (TLS off: the sink offers none), `milterPort`:
 * OpenDKIM's, signing on the way in. `transports`: extra transport_maps lines (domain → nexthop).
 */
export async function startPostfix({ relayPort, milterPort, transports = {} }) {
  const uid = Number((await run('id', ['-u', 'postfix'])).stdout.trim());
  const gid = Number((await run('id', ['-g', 'postfix'])).stdout.trim());
  const dir = mkdtempSync(join(tmpdir(), 'txmail-bench-postfix-'));
  chmodSync(dir, 0o755);
  const etc = join(dir, 'etc');
  mkdirSync(etc);
  mkdirSync(join(dir, 'queue'));
  mkdirSync(join(dir, 'data'));
  chownSync(join(dir, 'data'), uid, gid);
  const port = await freePort();
  const maps = Object.entries(transports).map(([d, nexthop]) => `${d} ${nexthop}`);
  writeFileSync(join(etc, 'transport'), maps.join('\n') + '\n');
  writeFileSync(
    join(etc, 'main.cf'),
    [
      'compatibility_level = 3.6',
      `queue_directory = ${dir}/queue`,
      `data_directory = ${dir}/data`,
      'mail_owner = postfix',
      'myhostname = bench.localdomain',
      'inet_interfaces = 127.0.0.1',
      'inet_protocols = ipv4',
      'mydestination =',
      'mynetworks = 127.0.0.0/8',
      `relayhost = [127.0.0.1]:${relayPort}`,
      `transport_maps = texthash:${etc}/transport`,
      'smtpd_relay_restrictions = permit_mynetworks, reject',
      'smtp_tls_security_level = none',
      'alias_maps =',
      'alias_database =',
      'local_recipient_maps =',
      `maillog_file_prefixes = ${dir}`,
      `maillog_file = ${dir}/maillog`,
      'biff = no',
      ...(milterPort
        ? [
            `smtpd_milters = inet:127.0.0.1:${milterPort}`,
            'non_smtpd_milters = $smtpd_milters',
            // A milter that fails must not let mail through unsigned: the run would measure less work.
            'milter_default_action = tempfail',
          ]
        : []),
      '',
    ].join('\n'),
  );
  // Debian's master.cf services, without chroot (the instance has no chroot tree) and without pickup
  // (nothing is posted locally).
  writeFileSync(
    join(etc, 'master.cf'),
    [
      `127.0.0.1:${port} inet n - n - - smtpd`,
      'cleanup unix n - n - 0 cleanup',
      'qmgr unix n - n 300 1 qmgr',
      'tlsmgr unix - - n 1000? 1 tlsmgr',
      'rewrite unix - - n - - trivial-rewrite',
      'bounce unix - - n - 0 bounce',
      'defer unix - - n - 0 bounce',
      'trace unix - - n - 0 bounce',
      'verify unix - - n - 1 verify',
      'flush unix n - n 1000? 0 flush',
      'proxymap unix - - n - - proxymap',
      'smtp unix - - n - - smtp',
      'relay unix - - n - - smtp',
      'showq unix n - n - - showq',
      'error unix - - n - - error',
      'retry unix - - n - - error',
      'discard unix - - n - - discard',
      'anvil unix - - n - 1 anvil',
      'scache unix - - n - 1 scache',
      'postlog unix-dgram n - n - 1 postlogd',
      '',
    ].join('\n'),
  );
  await run('postfix', ['-c', etc, 'start']);
  await until('Postfix to listen', () => accepts(port));
  const pidFile = join(dir, 'queue', 'pid', 'master.pid');
  const masterPid = Number(readFileSync(pidFile, 'utf8').trim());
  return {
    port,
    masterPid,
    log: () => (existsSync(join(dir, 'maillog')) ? readFileSync(join(dir, 'maillog'), 'utf8') : ''),
    async stop() {
      await run('postfix', ['-c', etc, 'stop']).catch(() => undefined);
      await until('the Postfix master to exit', () => {
        try {
          process.kill(masterPid, 0);
          return false;
        } catch {
          return true;
        }
      });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
