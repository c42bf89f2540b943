// Which bounces put the recipient on the account's suppression list (DESIGN.md §7). Only failures
// that say the address itself is dead: a policy block (5.7.x), a full mailbox (x.2.2) or a system
// error says nothing about the address, and suppressing it would lose mail the recipient wants.

/** RFC 3463 §3.2: bad mailbox (5.1.1), moved with no forwarding (5.1.6), null MX (5.1.10, RFC 7505). */
const DEAD_ADDRESS = new Set(['5.1.1', '5.1.6', '5.1.10']);

/**
 * Whether a permanent bounce with this code suppresses the address. A disabled mailbox (5.2.1) is
 * often temporary at large providers, so it counts only when it is not the first (`repeated`).
 */
export function suppressesAddress(enhanced: string, repeated: boolean): boolean {
  if (DEAD_ADDRESS.has(enhanced)) return true;
  return enhanced === '5.2.1' && repeated;
}
