// Identifiers: UUIDv7, so ids sort by creation time (the log pages by id, newest first).
import { v7 } from 'uuid';

export function newId(): string {
  return v7();
}
