// The category a recorded event gives its message (messages.category): read from the event's data as
// its writer put it there. The writers (delivery/outcome.ts, inbound/decide-effects.ts) choose it from
// BOUNCE_CATEGORIES; db/ imports nothing from them, so a value that is not a string counts as none.

/** The `data.category` of the last of `events` that carries one, or null. */
export function eventCategory(events: readonly { data: Record<string, unknown> }[]): string | null {
  for (let i = events.length - 1; i >= 0; i--) {
    const category = events[i]!.data.category;
    if (typeof category === 'string' && category !== '') return category;
  }
  return null;
}

/**
 * The statuses whose category a delay (an event that leaves the status as it is) does not replace: the
 * category of a bounce, a failure or a complaint says why the message ended.
 */
export const FINAL_FAILURE_STATUSES = ['bounced', 'failed', 'complained'] as const;
