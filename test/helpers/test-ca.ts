// A throw-away certificate authority for TLS tests: a CA certificate and server certificates for named
// hosts, made with openssl into a private directory. Node trusts the CA when a process starts with
// NODE_EXTRA_CA_CERTS=<caFile> (read at start, so only for processes spawned after), or when the CA's
// PEM is passed as `ca` to a TLS client in the test's own process.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface IssuedCertificate {
  /** PEM files, readable by other users (Postfix reads its key as root, then drops privileges). */
  certFile: string;
  keyFile: string;
  cert: string;
  key: string;
}

export interface IssueOptions {
  /** Valid from now for this many days; 0 or negative: expired |days| + 1 days ago. */
  days?: number;
  /** Signed by this CA (default) or self-signed: a certificate no client trusts. */
  selfSigned?: boolean;
}

export class TestCa {
  readonly dir: string;
  readonly caFile: string;
  readonly caKeyFile: string;
  private serial = 1;

  constructor(name = 'txmail test CA') {
    this.dir = mkdtempSync(join(tmpdir(), 'txmail-ca-'));
    this.caFile = join(this.dir, 'ca.pem');
    this.caKeyFile = join(this.dir, 'ca.key');
    openssl([
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-sha256',
      '-days',
      '30',
      '-subj',
      `/CN=${name}`,
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
      '-keyout',
      this.caKeyFile,
      '-out',
      this.caFile,
    ]);
  }

  /** The CA certificate (PEM), for a client's `ca` option. */
  get ca(): string {
    return readFileSync(this.caFile, 'utf8');
  }

  /** A server certificate for `hosts` (subjectAltName DNS names; an IP address as IP:…). */
  issue(hosts: string[], options: IssueOptions = {}): IssuedCertificate {
    const n = this.serial++;
    const keyFile = join(this.dir, `server-${n}.key`);
    const csrFile = join(this.dir, `server-${n}.csr`);
    const certFile = join(this.dir, `server-${n}.pem`);
    const extFile = join(this.dir, `server-${n}.ext`);
    const san = hosts.map((h) => (/^[\d.]+$|:/.test(h) ? `IP:${h}` : `DNS:${h}`)).join(',');
    writeFileSync(
      extFile,
      [
        'basicConstraints=CA:FALSE',
        'keyUsage=critical,digitalSignature,keyEncipherment',
        'extendedKeyUsage=serverAuth',
        `subjectAltName=${san}`,
        '',
      ].join('\n'),
    );
    openssl([
      'req',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-subj',
      `/CN=${hosts[0]}`,
      '-keyout',
      keyFile,
      '-out',
      csrFile,
    ]);
    const days = options.days ?? 30;
    if (days <= 0 && options.selfSigned) throw new Error('an expired certificate is signed by the CA');
    if (days <= 0 && !options.selfSigned) {
      // `openssl x509` of OpenSSL 3.0 cannot date a certificate in the past; `openssl ca` can.
      this.signInThePast(csrFile, extFile, certFile, days);
    } else {
      const signer = options.selfSigned
        ? ['-signkey', keyFile]
        : ['-CA', this.caFile, '-CAkey', this.caKeyFile, '-set_serial', String(1000 + n)];
      openssl([
        'x509',
        '-req',
        '-in',
        csrFile,
        ...signer,
        '-days',
        String(Math.max(days, 1)),
        '-sha256',
        '-extfile',
        extFile,
        '-out',
        certFile,
      ]);
    }
    return { certFile, keyFile, cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8') };
  }

  /** Valid from 2|days| + 1 days ago until |days| + 1 days ago (an expired certificate). */
  private signInThePast(csrFile: string, extFile: string, certFile: string, days: number): void {
    const db = join(this.dir, 'ca-db');
    mkdirSync(db, { recursive: true });
    writeFileSync(join(db, 'index.txt'), '');
    writeFileSync(join(db, 'serial'), `${(0x1000 + this.serial).toString(16)}\n`);
    const conf = join(db, 'ca.cnf');
    writeFileSync(
      conf,
      [
        '[ca]',
        'default_ca = test_ca',
        '[test_ca]',
        `database = ${join(db, 'index.txt')}`,
        `new_certs_dir = ${db}`,
        `serial = ${join(db, 'serial')}`,
        'default_md = sha256',
        'policy = any',
        'unique_subject = no',
        '[any]',
        'commonName = supplied',
        '',
      ].join('\n'),
    );
    openssl([
      'ca',
      '-batch',
      '-notext',
      '-config',
      conf,
      '-cert',
      this.caFile,
      '-keyfile',
      this.caKeyFile,
      '-startdate',
      stamp(2 * days - 1),
      '-enddate',
      stamp(days - 1),
      '-extfile',
      extFile,
      '-in',
      csrFile,
      '-out',
      certFile,
    ]);
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

function openssl(args: string[]): void {
  execFileSync('openssl', args, { stdio: 'pipe' });
}

/** An openssl date (YYYYMMDDHHMMSSZ) `days` days from now. */
function stamp(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().replace(/[-:T]/g, '').slice(0, 14) + 'Z';
}
