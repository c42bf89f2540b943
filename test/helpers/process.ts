// Runs the real `txmail` program (bin/txmail, compiled dist/) as a child process.
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';

export const BIN = join(import.meta.dirname, '..', '..', 'bin', 'txmail');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export async function runCli(
  args: string[],
  env: Record<string, string>,
): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(BIN, args, { env: { ...process.env, ...env } });
    return { stdout, stderr, code: 0 };
  } catch (err) {
    const e = err as { stdout: string; stderr: string; code: number };
    return { stdout: e.stdout, stderr: e.stderr, code: e.code };
  }
}

export interface RunningServer {
  child: ChildProcess;
  url: string;
  output(): string;
  /** Resolves with the exit code (or signal name) when the process ends. */
  exited: Promise<number | string>;
}

/** Starts `txmail <role>` and waits until its HTTP port answers (on `port` when given). */
export async function startServer(
  role: string,
  env: Record<string, string>,
  port?: number,
): Promise<RunningServer> {
  port ??= await freePort();
  let output = '';
  const child = spawn(BIN, role.split(' '), {
    env: {
      ...process.env,
      TXMAIL_HTTP_PORT: String(port),
      TXMAIL_HTTP_HOST: '127.0.0.1',
      // serve also runs the bounce receiver: any free port, so parallel tests never collide.
      TXMAIL_INBOUND_HOST: '127.0.0.1',
      TXMAIL_INBOUND_PORT: '0',
      // serve, api and worker refuse a host name that is not a FQDN (the machine's may be a bare label).
      TXMAIL_HOSTNAME: 'mta.txmail.test',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | string>((resolve) =>
    child.on('exit', (code, signal) => resolve(code ?? signal ?? -1)),
  );
  const url = `http://127.0.0.1:${port}`;
  // Generous: a process loads a few hundred modules and opens its database, and on a loaded machine (the
  // suite's three workers and their children on two cores) that once took past 20 s. A process that
  // fails says so at once (it exits), so only a hang waits this long.
  const deadline = Date.now() + 45_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`txmail ${role} exited early:\n${output}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`txmail ${role} did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { child, url, output: () => output, exited };
}
