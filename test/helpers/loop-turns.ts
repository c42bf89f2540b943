// The turns of the event loop while some work runs: an immediate queued by an immediate runs in the
// next turn, so a chain of them counts the turns the work left the loop (a long synchronous step
// shows as few turns).

/** Runs `work` and counts the turns of the loop it took. */
export async function turnsDuring<T>(work: () => Promise<T>): Promise<{ result: T; turns: number }> {
  let turns = 0;
  let on = true;
  const tick = () => {
    turns++;
    if (on) setImmediate(tick);
  };
  setImmediate(tick);
  try {
    return { result: await work(), turns };
  } finally {
    on = false;
  }
}
