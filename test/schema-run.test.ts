// What is left of the test runs' PostgreSQL schemas is dropped (test/helpers/schema-run.ts): the run's
// own at its end, and those whose process is gone; another run's, still running, stays.
import { describe, expect, it } from 'vitest';
import { adminQuery, databaseKinds } from './helpers/databases.js';
import { dropRunSchemas, restoringApplication } from './helpers/schema-run.js';
import { until } from './helpers/wait.js';

const schemas = async (): Promise<string[]> => {
  const result = await adminQuery("select nspname from pg_namespace where nspname like 't\\_%' order by 1");
  return (Array.isArray(result) ? result[0]! : result).rows.map((r) => String(r.nspname));
};

describe.runIf(databaseKinds.some((k) => k.name === 'postgres'))('the test runs’ schemas', () => {
  it('drops the run’s own and those of processes gone, and keeps a live run’s', async () => {
    const run = `r${Math.random().toString(36).slice(2, 9)}`;
    const other = `o${Math.random().toString(36).slice(2, 9)}`;
    // A pid no process has: past Linux's largest (2^22).
    const gone = 4_194_305;
    const names = [`t_${run}_${process.pid}_a`, `t_${other}_${gone}_b`, `t_${other}_${process.pid}_c`];
    for (const name of names) await adminQuery(`create schema ${name}`);
    try {
      await dropRunSchemas(run);
      const left = await schemas();
      expect(names.filter((n) => left.includes(n))).toEqual([`t_${other}_${process.pid}_c`]);
    } finally {
      for (const name of names) await adminQuery(`drop schema if exists ${name} cascade`);
    }
  });

  it('waits for a restore of the run still underway, and drops what it made', async () => {
    const run = `r${Math.random().toString(36).slice(2, 9)}`;
    const late = `t_${run}_${process.pid}_late`;
    // A restore that commits after the sweep began: its schema appears only at its commit.
    const restoring = adminQuery(
      `begin; create schema ${late}; select pg_sleep(0.5); commit;`,
      restoringApplication(run),
    );
    try {
      await until('the restore underway', async () => {
        const r = await adminQuery(
          `select 1 from pg_stat_activity where application_name = '${restoringApplication(run)}' and state = 'active'`,
        );
        return (Array.isArray(r) ? r[0]! : r).rowCount ? true : undefined;
      });
      await dropRunSchemas(run);
      await restoring;
      expect(await schemas()).not.toContain(late);
    } finally {
      await restoring.catch(() => {});
      await adminQuery(`drop schema if exists ${late} cascade`);
    }
  });
});
