// The mark a test run puts on the PostgreSQL schemas its processes make (helpers/databases.ts), so that
// what is left of them is dropped when the run ends (test/postgres-schemas-setup.ts).
import pg from 'pg';

/** The test server (TXMAIL_TEST_POSTGRES_URL); here, apart from databases.ts, for the run's set-up. */
export const POSTGRES_URL = process.env.TXMAIL_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export const SCHEMA_RUN_VARIABLE = 'TXMAIL_TEST_SCHEMA_RUN';

/** A new test schema's name, `t_<run>_<pid>_<random>` (`t_x_…` outside a run): what the sweep reads. */
export const newSchemaName = (run: string | undefined) =>
  `t_${run ?? 'x'}_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;

/** The application name of the run's connections that restore a schema (helpers/databases.ts). */
export const restoringApplication = (run: string) => `txmail-test-restore-${run}`;

/** newSchemaName's form, with its pid. */
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
 * Drops the test schemas on the test server that `run` made, and those whose process is gone (a run
 * killed before its end, a restore that committed after it); a server that cannot be reached has none.
 * Whether a process is gone is asked of this host: the test server is the local one (helpers/databases.ts).
 */
export async function dropRunSchemas(run: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  try {
    await client.connect();
  } catch {
    return;
  }
  try {
    // A restore the run's processes began (a schema made ahead) may still be committing: the run's end
    // comes before its processes stop. Its schema would be left to a later run's sweep.
    for (let waited = 0; waited < 10_000; waited += 100) {
      const { rows } = await client.query<{ n: string }>(
        'select count(*) as n from pg_stat_activity where application_name = $1',
        [restoringApplication(run)],
      );
      if (Number(rows[0]!.n) === 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
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
