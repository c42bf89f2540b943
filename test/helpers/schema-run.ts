// The mark a test run puts on the PostgreSQL schemas its processes make (helpers/databases.ts), so that
// what is left of them is dropped when the run ends (test/postgres-schemas-setup.ts).
import pg from 'pg';

export const SCHEMA_RUN_VARIABLE = 'TXMAIL_TEST_SCHEMA_RUN';

/** Drops every schema of `run` on the server at `url`; a server that cannot be reached has none. */
export async function dropRunSchemas(url: string, run: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
  } catch {
    return;
  }
  try {
    const { rows } = await client.query<{ nspname: string }>(
      'select nspname from pg_namespace where starts_with(nspname, $1)',
      [`t_${run}_`],
    );
    for (const { nspname } of rows) await client.query(`drop schema if exists "${nspname}" cascade`);
  } finally {
    await client.end();
  }
}
