// Shared pieces of the benchmarks: free ports, child processes, waiting for readiness, wrk.
import { execFile, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { cpus, totalmem } from 'node:os';
import { promisify } from 'node:util';

export const run = promisify(execFile);

export function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

export function start(command, args, env = {}) {
  const child = spawn(command, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  running.add(child);
  const exited = new Promise((resolve) =>
    child.on('exit', (code, signal) => {
      running.delete(child);
      resolve(code ?? signal);
    }),
  );
  return { child, exited };
}

/**
 * The servers start() began that are still running. A bench that fails, or is stopped with Ctrl-C or
 * SIGTERM, leaves none behind: they would take the cores from whatever is measured next (seen: four
 * txmail processes left by a failed bench/scale).
 */
const running = new Set();
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => process.exit(128 + (signal === 'SIGINT' ? 2 : 15)));
}

export async function waitForHttp(url, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`${url} did not answer`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/** Runs wrk with the POST script and returns its RESULT line as numbers. */
export async function wrk(url, { connections, seconds, threads = 1, key = '' }) {
  const { stdout } = await run(
    'wrk',
    [
      `-t${threads}`,
      `-c${connections}`,
      `-d${seconds}s`,
      '--timeout',
      '10s',
      '-s',
      new URL('./wrk-post.lua', import.meta.url).pathname,
      url,
    ],
    { env: { ...process.env, TXMAIL_BENCH_KEY: key } },
  );
  const line = stdout.split('\n').find((l) => l.startsWith('RESULT'));
  if (!line) throw new Error(`wrk printed no result:\n${stdout}`);
  return Object.fromEntries(
    line
      .slice(7)
      .split(' ')
      .map((kv) => kv.split('='))
      .map(([k, v]) => [k, Number(v)]),
  );
}

export function machine() {
  return `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
}
