// One DKIM key as the API (GET /api/domains/:id, docs/API.md) and `txmail dkim rotate --json` show it.
import type { DkimKeyRow } from '../db/schema.js';
import { dkimKeyRecord } from '../domains/domain-records.js';
import { removableAfter } from './rotation.js';

export function dkimKeyJson(k: DkimKeyRow) {
  return {
    selector: k.selector,
    algorithm: k.algorithm,
    status: k.status,
    ...dkimKeyRecord(k),
    created_at: iso(k.created_at),
    activated_at: iso(k.activated_at),
    retired_at: iso(k.retired_at),
    // When the retired key's record may be removed from DNS (rotation.ts RETIRED_RECORD_KEEP_MS).
    removable_after: iso(removableAfter(k)),
    // What the last look-up of this key's own record found (a pending key's; null: never looked up on
    // its own: the active RSA key's record is the domain's `dkim` record).
    record_status: k.record_status,
    record_checked_at: iso(k.record_checked_at),
    record_problem: k.record_problem,
  };
}

function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}
