// Feedback reports (RFC 5965 ARF) of every type, and what each type means for the message it reports:
// a complaint (abuse, fraud, virus, other), a request to unsubscribe (opt-out), or a report that is
// recorded and changes nothing (RFC 6591 auth-failure, RFC 6650 not-spam, a type txmail does not know).
import type { FeedbackFacts, InboundReport, OriginalRefs } from './inbound-report.js';
import { verpAddressesIn } from './original-refs.js';
import { addressField, field, fieldValues, parseFieldGroups } from './report-fields.js';

// RFC 5965 §7.3's registered types that report a recipient's complaint.
const COMPLAINT_TYPES = new Set(['abuse', 'fraud', 'virus', 'other']);
// The recipient asked to be taken off: `opt-out` and `opt-out-list` of the ARF drafts (still sent by
// some feedback loops), `unsubscribe` by others.
const UNSUBSCRIBE_TYPES = new Set(['opt-out', 'opt-out-list', 'unsubscribe']);

export type FeedbackReport = Extract<InboundReport, { kind: 'complaint' | 'feedback' }>;

/** What a report of this Feedback-Type is: a complaint, an unsubscribe, or a report recorded as it came. */
function feedbackKind(
  feedbackType: string,
): { kind: 'complaint'; category: 'complaint' | 'unsubscribe' } | { kind: 'feedback' } {
  if (COMPLAINT_TYPES.has(feedbackType)) return { kind: 'complaint', category: 'complaint' };
  if (UNSUBSCRIBE_TYPES.has(feedbackType)) return { kind: 'complaint', category: 'unsubscribe' };
  // Suppressing an address on a report txmail cannot read would lose mail its recipient wants.
  return { kind: 'feedback' };
}

/** A report of this kind with these facts. */
export function feedbackReport(facts: FeedbackFacts, authFailure?: string): FeedbackReport {
  const kind = feedbackKind(facts.feedbackType);
  return kind.kind === 'complaint' ? { ...kind, ...facts } : { kind: 'feedback', authFailure, ...facts };
}

/**
 * RFC 5965 §3.1: the machine-readable part of a feedback report (its first field group), or the same
 * fields written into a text part by a feedback loop that labels the part wrongly.
 */
export function readFeedbackReport(
  fields: string,
  original: OriginalRefs,
  reportedBy: string | undefined,
): FeedbackReport {
  const g = parseFieldGroups(fields).find((group) => group.has('feedback-type')) ?? new Map();
  // The original envelope sender is our VERP address when the reporter kept it.
  const mailFrom = field(g, 'original-mail-from') ?? '';
  return feedbackReport(
    {
      feedbackType: field(g, 'feedback-type')?.toLowerCase() ?? '',
      format: 'arf',
      userAgent: field(g, 'user-agent'),
      reportedBy,
      sourceIp: field(g, 'source-ip'),
      arrivalDate: field(g, 'arrival-date') ?? field(g, 'received-date'),
      // An opt-out report names the address to take off in Removal-Recipient.
      originalRcptTo: addressField(
        field(g, 'original-rcpt-to') ?? field(g, 'removal-recipient'),
      )?.toLowerCase(),
      originalRcptTos: fieldValues(g, 'original-rcpt-to').flatMap((v) => {
        const a = addressField(v)?.toLowerCase();
        return a ? [a] : [];
      }),
      original: {
        ...original,
        verpAddresses: [...new Set([...original.verpAddresses, ...verpAddressesIn(mailFrom)])],
      },
    },
    // RFC 6591 §3.1.
    field(g, 'auth-failure')?.toLowerCase(),
  );
}
