// Identifiers: UUIDv7, so ids sort by creation time (the log pages by id, newest first).
import { v7 } from 'uuid';

export function newId(): string {
  return v7();
}

/**
 * The least id made at `ms` (UUIDv7 begins with its time in milliseconds, 48 bits of hex): every id
 * made before `ms` sorts below it, as text too.
 */
export function firstIdAt(ms: number): string {
  const hex = ms.toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8)}-0000-0000-000000000000`;
}

/** The text of an id as newId makes it (a UUID, lower-case hex), to build larger patterns from. */
export const ID_PATTERN = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const ID = new RegExp(`^${ID_PATTERN}$`);

/**
 * Whether `value` has an id's form: every id that comes from outside (a path, a cursor, a bounce's
 * VERP tag) is checked before it is looked up, so a malformed one is "not found" without a query
 * (PostgreSQL would refuse it as a uuid).
 */
export function isId(value: string): boolean {
  return ID.test(value);
}
