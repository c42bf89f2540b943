// Vitest global set-up: marks the PostgreSQL schemas this run's test processes make, and drops those
// left when it ends (with those of processes gone since other runs): helpers/databases.ts makes one ahead
// in each process that uses PostgreSQL, which no test may come to take, and a test stopped by its time
// limit leaves its own.
import { randomBytes } from 'node:crypto';
import { dropRunSchemas, SCHEMA_RUN_VARIABLE } from './helpers/schema-run.js';

export default function setup(): () => Promise<void> {
  const run = randomBytes(4).toString('hex');
  process.env[SCHEMA_RUN_VARIABLE] = run;
  return () => dropRunSchemas(run);
}
