// How long the event loop went without a turn while some work ran: a timer ticking every `intervalMs`
// stands for everyone else the process serves (requests, the receiver), and its gaps are the waits
// they would see. Used by bench/log-reads and test/sqlite-reader.test.ts.

/** Runs `work` while the timer ticks; returns the longest gap and the 99th percentile gap, in ms. */
export async function loopGaps(work, intervalMs = 1) {
  const gaps = [];
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    gaps.push(now - last);
    last = now;
  }, intervalMs);
  try {
    await work();
    // One more tick: a stall at the end of the work shows as the gap before it.
    await new Promise((resolve) => setTimeout(resolve, intervalMs + 4));
  } finally {
    clearInterval(timer);
  }
  gaps.sort((a, b) => a - b);
  return { longestMs: gaps.at(-1) ?? 0, p99Ms: gaps[Math.floor(gaps.length * 0.99)] ?? 0 };
}
