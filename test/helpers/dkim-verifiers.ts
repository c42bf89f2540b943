// Independent DKIM verifiers for tests: dkimpy (Debian python3-dkim) and OpenDKIM (Debian opendkim),
// each given the key records directly (a name → TXT value table) instead of DNS, and mailauth in process.
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { dkimVerify } from 'mailauth/lib/dkim/verify.js';

/** Key records by name, e.g. `txm202611._domainkey.acme.example` → `v=DKIM1; k=rsa; p=…`. */
export type KeyRecords = Record<string, string>;

export interface Verdict {
  selector: string;
  algorithm: string;
  result: string;
}

// dkimpy verifies one signature per call (idx): every DKIM-Signature of the message in turn, its DNS
// answers from the table.
const DKIMPY = `
import dkim, json, re, sys
records = json.loads(sys.argv[1])
msg = sys.stdin.buffer.read()
def dnsfunc(name, timeout=5):
    return records.get(name.decode().rstrip('.'), '').encode()
d = dkim.DKIM(msg)
headers = [v for (k, v) in dkim.rfc822_parse(msg)[0] if k.lower() == b'dkim-signature']
out = []
for i, h in enumerate(headers):
    tags = dkim.util.parse_tag_value(re.sub(rb'\\s+', b'', h))
    try:
        ok = d.verify(idx=i, dnsfunc=dnsfunc)
    except dkim.ValidationError:
        ok = False  # e.g. "body hash mismatch", which some versions raise instead of answering False
    out.append({'selector': tags[b's'].decode(), 'algorithm': tags[b'a'].decode(), 'result': 'pass' if ok else 'fail'})
print(json.dumps(out))
`;

export async function dkimpyVerify(raw: Buffer, records: KeyRecords): Promise<Verdict[]> {
  // Debian's python3, for which python3-dkim is installed (another python3 may come first on PATH).
  const child = spawn('/usr/bin/python3', ['-c', DKIMPY, JSON.stringify(records)], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdin.end(raw);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`dkimpy exited ${code}: ${stderr}`);
  return JSON.parse(stdout) as Verdict[];
}

/**
 * OpenDKIM's test mode (`opendkim -t`) with its keys from a TestPublicKeys file: each signature's
 * verdict as its Authentication-Results would say. OpenDKIM refuses files in directories others can
 * write: the directory is private to this user.
 */
export async function opendkimVerify(raw: Buffer, records: KeyRecords): Promise<Verdict[]> {
  const dir = mkdtempSync(join(tmpdir(), 'txmail-opendkim-'));
  try {
    writeFileSync(
      join(dir, 'keys'),
      Object.entries(records)
        .map(([name, value]) => `${name} ${value}\n`)
        .join(''),
    );
    writeFileSync(join(dir, 'opendkim.conf'), `Mode v\nSyslog no\nTestPublicKeys ${join(dir, 'keys')}\n`);
    writeFileSync(join(dir, 'message.eml'), raw);
    const { stdout, stderr } = await promisify(execFile)('opendkim', [
      '-x',
      join(dir, 'opendkim.conf'),
      '-vv',
      '-t',
      join(dir, 'message.eml'),
    ]);
    const verdicts = [...(stdout + stderr).matchAll(/dkim=(\w+)[^\n]*?header\.a=(\S+) header\.s=(\S+)/g)].map(
      (m) => ({ result: m[1]!, algorithm: m[2]!, selector: m[3]! }),
    );
    if (verdicts.length === 0) throw new Error(`no verdict from opendkim: ${stdout}${stderr}`);
    return verdicts;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function mailauthVerify(raw: Buffer, records: KeyRecords): Promise<Verdict[]> {
  const result = await dkimVerify(raw, {
    resolver: async (name: string, type: string) => {
      const value = records[name.replace(/\.$/, '')];
      if (type === 'TXT' && value !== undefined) return [[value]];
      throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    },
  } as Parameters<typeof dkimVerify>[1]);
  return (result.results as unknown as { selector: string; algo: string; status: { result: string } }[]).map(
    (r) => ({ selector: r.selector, algorithm: r.algo, result: r.status.result }),
  );
}
