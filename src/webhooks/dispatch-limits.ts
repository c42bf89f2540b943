// How many webhook pushes may be in flight, and waiting as replays, unless configured otherwise. The
// dispatcher and the configuration read these; the outbox repository is given the values.
//
// The account cap is below a dispatcher's slots, so one account never holds all of them: with only one
// busy account, another account's push finds a free slot at once. Several busy accounts can together
// fill a dispatcher; then the claim gives the next slot that frees to the account with the fewest pushes
// in flight (db/fair-claim.ts), so another account waits for at most the end of one push already running.

/** Pushes one dispatcher (one worker process) has in flight at once. */
export const PUSHES_PER_DISPATCHER = 20;

/** Pushes of one endpoint in flight at once, across every dispatcher. */
export const PUSHES_PER_ENDPOINT = 4;

/** Pushes of one account in flight at once, across every dispatcher: half of one dispatcher's slots. */
export const PUSHES_PER_ACCOUNT = 10;

/** Replays one endpoint may have pending (queued, in flight or waiting for a retry). */
export const PENDING_REPLAYS_PER_ENDPOINT = 1000;
