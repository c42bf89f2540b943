// The mark a test run puts on the PostgreSQL schemas its processes make (helpers/databases.ts), so that
// what is left of them is dropped when the run ends (test/postgres-schemas-setup.ts).
import pg from 'pg';

export const SCHEMA_RUN_VARIABLE = 'TXMAIL_TEST_SCHEMA_RUN';

/** A test schema's name: `t_<run>_<pid>_<random>`, or `t_x_…` outside a run. */
const SCHEMA_NAME = /^t_[0-9a-z]+_(\d+)_[0-9a-z]+$/;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Drops the test schemas on the server at `url` that `run` made, and those whose process is gone (a run
 * killed before its end, a restore that committed after it); a server that cannot be reached has none.
 * Whether a process is gone is asked of this host: the test server is the local one (helpers/databases.ts).
 */
export async function dropRunSchemas(url: string, run: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
  } catch {
    return;
  }
  try {
    const { rows } = await client.query<{ nspname: string }>(
      "select nspname from pg_namespace where nspname like 't\\_%'",
    );
    for (const { nspname } of rows) {
      const pid = SCHEMA_NAME.exec(nspname)?.[1];
      if (pid === undefined) continue;
      if (!nspname.startsWith(`t_${run}_`) && alive(Number(pid))) continue;
      // One that cannot be dropped now (a lock, a server going away) is left to a later run's sweep:
      // it fails no run.
      await client.query(`drop schema if exists "${nspname}" cascade`).catch((err: unknown) => {
        console.warn(`could not drop the test schema ${nspname}: ${String(err)}`);
      });
    }
  } finally {
    await client.end();
  }
}
