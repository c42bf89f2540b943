// Postfix's smtp-sink as the destination of every benchmark message, counting what it received.
import { spawn } from 'node:child_process';
import { freePort } from './harness.mjs';

export async function startSink() {
  const port = await freePort();
  const child = spawn('smtp-sink', ['-u', 'postfix', '-c', `127.0.0.1:${port}`, '1024'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const sink = {
    port,
    pid: child.pid,
    count: 0,
    /** Resolves with the time the sink has received `n` messages in all. */
    async reaches(n, timeoutMs = 600_000) {
      const deadline = Date.now() + timeoutMs;
      while (sink.count < n) {
        if (Date.now() > deadline) throw new Error(`sink stuck at ${sink.count}/${n}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return Date.now();
    },
    stop: () => child.kill('SIGTERM'),
  };
  child.stdout.on('data', (d) => {
    const m = /mesg=(\d+)[^=]*$/.exec(d.toString());
    if (m) sink.count = Number(m[1]);
  });
  await new Promise((r) => setTimeout(r, 300));
  return sink;
}
