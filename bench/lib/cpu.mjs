// CPU time from /proc, for "server CPU per delivered message": the machine's busy time, and the time of
// a process (all its threads) or of a process tree (its live members plus what their exited children
// left in their cutime/cstime once reaped: Postfix's master reaps every smtpd, cleanup and smtp).
import { readdirSync, readFileSync } from 'node:fs';

/** Linux reports process times in clock ticks of 1/100 s on every architecture Node runs on here. */
const TICK_MS = 10;

/** Busy CPU of the whole machine so far, in ms (every core: idle and iowait left out). */
export function machineBusyMs() {
  const f = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0].trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal (guest time is already in user)
  const busy = f[0] + f[1] + f[2] + f[5] + f[6] + f[7];
  return busy * TICK_MS;
}

/** { utime, stime, cutime, cstime, ppid } in ms, or undefined when the process is gone. */
function stat(pid) {
  let text;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name may hold spaces and parentheses: the fields start after the last ')'.
  const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return {
    ppid: Number(f[1]),
    utime: Number(f[11]) * TICK_MS,
    stime: Number(f[12]) * TICK_MS,
    cutime: Number(f[13]) * TICK_MS,
    cstime: Number(f[14]) * TICK_MS,
  };
}

/** CPU of one process, all its threads, in ms; `children`: with its reaped children's too. */
export function processMs(pid, { children = false } = {}) {
  const s = stat(pid);
  if (!s) return 0;
  return s.utime + s.stime + (children ? s.cutime + s.cstime : 0);
}

/** CPU of `pid` and every live descendant, with what each has reaped from exited children, in ms. */
export function treeMs(pid) {
  const byParent = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const s = stat(name);
    if (!s) continue;
    const list = byParent.get(s.ppid) ?? [];
    list.push([Number(name), s]);
    byParent.set(s.ppid, list);
  }
  const root = stat(pid);
  if (!root) return 0;
  let total = 0;
  const stack = [[pid, root]];
  while (stack.length > 0) {
    const [p, s] = stack.pop();
    total += s.utime + s.stime + s.cutime + s.cstime;
    stack.push(...(byParent.get(p) ?? []));
  }
  return total;
}

/**
 * Samples taken at the start and end of a timed window. `server`, `injector`, `sink`: functions
 * returning cumulative ms. Returns per-message figures: the server's own processes, and the machine's
 * busy time less the injector's and the sink's (which also counts anything else running).
 */
export function cpuWindow({ server, injector, sink }) {
  const start = { machine: machineBusyMs(), server: server(), injector: injector(), sink: sink() };
  return {
    end(messages) {
      const d = {
        machine: machineBusyMs() - start.machine,
        server: server() - start.server,
        injector: injector() - start.injector,
        sink: sink() - start.sink,
      };
      return {
        ...d,
        /** ms of the server's own processes per message. */
        serverPerMessage: d.server / messages,
        /** ms of the machine's busy time, less the injector and the sink, per message. */
        machinePerMessage: (d.machine - d.injector - d.sink) / messages,
      };
    },
  };
}

export function describeCpu(c) {
  return (
    `server CPU ${c.serverPerMessage.toFixed(3)} ms/msg (its processes), ` +
    `${c.machinePerMessage.toFixed(3)} ms/msg (machine busy − injector − sink; ` +
    `injector ${(c.injector / 1000).toFixed(1)} s, sink ${(c.sink / 1000).toFixed(1)} s)`
  );
}
