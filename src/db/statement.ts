// A statement as the hot write paths hold it: the text, fixed, with `?` placeholders, and its values in
// order. Its text is written once (queue-record.ts, the webhook enqueue seam), so SQLite prepares it
// once and finds it again by text; building one costs no query builder (Kysely's builders and compiler
// took longer per record than the SQLite writes themselves).
import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';

export interface Statement {
  /** Ours and constant; `?` appears in it only as a placeholder. */
  readonly sql: string;
  readonly parameters: readonly unknown[];
}

/** `count` placeholders separated by commas: `?, ?, ?`. */
export function placeholders(count: number): string {
  return Array.from({ length: count }, () => '?').join(', ');
}

const templates = new Map<string, TemplateStringsArray>();

/**
 * The statement as a Kysely `sql` template: the text between the placeholders as its fragments, so
 * Kysely writes the placeholders its database takes (`?` on SQLite, `$1`… on PostgreSQL).
 */
function template(s: Statement) {
  let parts = templates.get(s.sql);
  if (!parts) {
    const cooked = s.sql.split('?');
    parts = Object.assign(cooked, { raw: cooked }) as unknown as TemplateStringsArray;
    templates.set(s.sql, parts);
  }
  return sql(parts, ...s.parameters);
}

/** Runs the statement through Kysely (inside the caller's transaction if `db` is one): the rows it changed. */
export async function executeStatement(db: Kysely<Database>, s: Statement): Promise<number> {
  return Number((await template(s).execute(db)).numAffectedRows ?? 0n);
}

/** The rows a query statement answers, through Kysely. */
export async function queryStatement<Row>(db: Kysely<Database>, s: Statement): Promise<Row[]> {
  return (await template(s).execute(db)).rows as Row[];
}
