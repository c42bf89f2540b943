// "What happens next" for a queued or deferred email (docs/API.md, `next`), in the reader's time.
import { formatTime } from './format.js';

export interface NextStepJson {
  at: string;
  reason: 'delivering' | 'due' | 'destination_paused' | 'throttled' | 'retry' | 'account_paused';
  why: string;
  attempt: number;
  expires_at: string;
}

export function nextWords(n: NextStepJson): string {
  const at = formatTime(n.at);
  switch (n.reason) {
    case 'delivering':
      return `Attempt ${n.attempt} is under way`;
    case 'due':
      return `Attempt ${n.attempt} is due now`;
    case 'destination_paused':
      return `Waiting for its destination (paused or at its limits): first attempt at ${at}`;
    case 'throttled':
      return `Throttled by the receiving server: attempt ${n.attempt} at ${at}`;
    case 'retry':
      return `Retry: attempt ${n.attempt} at ${at}`;
    case 'account_paused':
      return "Held while this account's sending is paused";
  }
}

/** The next step and the expiry, for the log's rows and an email's timeline. */
export function NextStep({ next }: { next: NextStepJson }) {
  return (
    <span className="next-step" title={next.why}>
      {nextWords(next)}; expires {formatTime(next.expires_at)}
    </span>
  );
}
