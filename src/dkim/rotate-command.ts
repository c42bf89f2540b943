// `txmail dkim rotate --domain D [--account E]`: the operator's DKIM key rotation, of a customer's
// domain or of the service's test domain (which no scheduled check looks after: running the command
// again looks the pending record up and lets the new key take over once it is found).
import type { DkimKeysRepo } from '../db/dkim-keys-repo.js';
import type { DkimKeyRow } from '../db/schema.js';
import { dkimKeyRecord } from '../domains/domain-records.js';
import { zoneLine } from '../domains/service-records.js';
import { dkimKeyJson } from './dkim-key-json.js';
import { removableAfter, type DkimRotation } from './rotation.js';

export interface RotateResult {
  /** started: new pending keys; waiting: still not found in DNS; completed: the new keys sign now. */
  outcome: 'started' | 'waiting' | 'completed';
  json: unknown;
  text: string;
}

/**
 * One run: without pending keys, starts a rotation; with them, looks their records up (settle) and
 * reports whether the new keys took over.
 */
export async function rotateCommand(
  deps: { keys: DkimKeysRepo; rotation: DkimRotation },
  domain: string,
  accountId: string | null,
): Promise<RotateResult> {
  const before = await deps.keys.all(domain, accountId);
  let outcome: RotateResult['outcome'];
  if (before.some((k) => k.status === 'pending')) {
    const { promoted, pending } = await deps.rotation.settle(domain, accountId);
    outcome = pending === 0 && promoted ? 'completed' : 'waiting';
  } else {
    await deps.rotation.rotate(domain, accountId);
    outcome = 'started';
  }
  const after = await deps.keys.all(domain, accountId);
  const pending = after.filter((k) => k.status === 'pending');
  const retiredNow = after.filter(
    (k) => k.status === 'retired' && !before.some((b) => b.id === k.id && b.status === 'retired'),
  );
  const lines: string[] = [];
  if (outcome === 'started') {
    lines.push(
      `A rotation of ${domain}'s DKIM keys started. Publish:`,
      ...pending.map(zoneText),
      `The current key signs until this record is found; then the new key takes over.`,
      accountId === null
        ? `Run this command again once it is published (txmail dns lists it too).`
        : `txmail checks the domain at least every 15 minutes meanwhile (or POST /api/domains/:id/verify).`,
    );
  } else if (outcome === 'waiting') {
    lines.push(`${domain}: the new DKIM key is not found in DNS yet; the current key still signs. Publish:`);
    for (const k of pending) {
      lines.push(
        zoneText(k),
        `  (looked up: ${k.record_status}${k.record_problem ? `: ${k.record_problem}` : ''})`,
      );
    }
  } else {
    lines.push(`${domain}: the new DKIM key signs now.`);
  }
  for (const k of retiredNow) {
    lines.push(
      `The old key ${k.selector} is retired; its record ${dkimKeyRecord(k).name} may be removed after ${new Date(
        removableAfter(k)!,
      ).toISOString()}.`,
    );
  }
  return {
    outcome,
    json: {
      domain,
      outcome,
      keys: after.filter((k) => k.status !== 'retired' || retiredNow.includes(k)).map(dkimKeyJson),
    },
    text: lines.join('\n'),
  };
}

/** The key's record in zone-file form (service-records.ts zoneLine). */
function zoneText(k: DkimKeyRow): string {
  return zoneLine(dkimKeyRecord(k));
}
