// The one "commit together, else one by one" rule of the write batchers: group commit (group-commit.ts)
// and the SQLite accept thread (accept/sqlite-thread.ts), which merges the batches waiting for it.

/**
 * Writes the units in one transaction (`write` returns one result per unit, in order). If that fails
 * and there were several, each is written on its own, so one unit that cannot be written fails alone
 * and does not fail the others it was merged with. `committed` hears each commit with its units and
 * their results, as it happens; `failed` each unit that could not be written.
 */
export async function writeTogetherOrEach<U, R>(
  units: U[],
  write: (units: U[]) => R[] | Promise<R[]>,
  committed: (units: U[], results: R[]) => void,
  failed: (unit: U, err: unknown) => void,
): Promise<void> {
  let results: R[];
  try {
    results = await write(units);
  } catch (err) {
    if (units.length === 1) return failed(units[0]!, err);
    for (const unit of units) await writeTogetherOrEach([unit], write, committed, failed);
    return;
  }
  committed(units, results);
}
