// What the event loop and the SQLite accept thread say to each other (accept-writer-thread.ts,
// accept-thread.ts), and how the thread commits the batches it finds waiting.
import type { AcceptItem, AcceptOutcome } from './accept-repo.js';

export interface AcceptThreadData {
  path: string;
}
export interface AcceptThreadRequest {
  id: number;
  items: AcceptItem[];
}
export type AcceptThreadReply =
  | { id: number; outcomes: AcceptOutcome[] }
  | { id: number; error: { message: string; code: string | undefined } };

/**
 * Commits the requests in one transaction (one fsync) and answers each. If that fails, each request is
 * tried on its own, so one batch that cannot be written does not fail the others it was merged with.
 */
export function commitRequests(
  run: (items: AcceptItem[]) => AcceptOutcome[],
  requests: AcceptThreadRequest[],
): AcceptThreadReply[] {
  try {
    const outcomes = run(requests.flatMap((r) => r.items));
    let from = 0;
    return requests.map((r) => ({ id: r.id, outcomes: outcomes.slice(from, (from += r.items.length)) }));
  } catch (err) {
    if (requests.length > 1) return requests.flatMap((r) => commitRequests(run, [r]));
    const e = err as { message?: unknown; code?: unknown };
    const error = {
      message: String(e.message ?? err),
      code: typeof e.code === 'string' ? e.code : undefined,
    };
    return [{ id: requests[0]!.id, error }];
  }
}
