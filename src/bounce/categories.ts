// The categories of everything that can come back for a message: every SMTP reply that is not a
// success, every bounce, delay warning, complaint and automatic reply is given exactly one. They are
// part of the API (events, webhooks, the log's filter, metrics), so they are stable: add, never rename.
// Close to what users of Amazon SES and Postmark know (SES bounce sub-types, Postmark bounce types).

export const BOUNCE_CATEGORIES = [
  'unknown_recipient',
  'unknown_domain',
  'mailbox_full',
  'mailbox_disabled',
  'message_too_large',
  'content_rejected',
  'policy_rejected',
  'rate_limited',
  'expired',
  'network_error',
  'system_error',
  'auto_reply',
  'complaint',
  'unsubscribe',
  'undetermined',
] as const;

export type BounceCategory = (typeof BOUNCE_CATEGORIES)[number];

export function isBounceCategory(value: string): value is BounceCategory {
  return (BOUNCE_CATEGORIES as readonly string[]).includes(value);
}

/** What each category means, in the words docs/API.md uses. */
export const CATEGORY_MEANING: Record<BounceCategory, string> = {
  unknown_recipient: 'the mailbox does not exist, or has moved and left no forwarding address (5.1.1, 5.1.6)',
  unknown_domain: "the recipient's domain does not exist or accepts no mail (5.1.2, null MX 5.1.10)",
  mailbox_full: 'the mailbox is over its quota (x.2.2)',
  mailbox_disabled: 'the mailbox exists but is disabled or does not accept mail (x.2.1)',
  message_too_large: 'the message is larger than the recipient accepts (x.2.3, x.3.4)',
  content_rejected: 'the content was refused: spam, a virus, a filter (x.7.1 with such words, x.6.x)',
  policy_rejected:
    'the sender was refused: a blocklist, reputation, missing reverse DNS, SPF/DKIM/DMARC, relaying denied, greylisting (x.7.x)',
  rate_limited: 'the receiving server asks to slow down: too many messages or connections (4.7.28, 421)',
  expired:
    "a server on the way gave up after retrying (x.4.7), or txmail did; a delay notice's x.4.7 is a `network_error`, since its server is still trying",
  network_error: 'the receiving server could not be reached or routed to (x.4.x)',
  system_error:
    "the receiving server's own trouble: out of disk, misconfigured, a protocol error (x.3.x, x.5.x)",
  auto_reply: 'an out-of-office or other automatic reply (RFC 3834): the message was delivered',
  complaint: 'the recipient reported the message as spam (an ARF abuse, fraud, virus or other report)',
  unsubscribe: 'the recipient asked not to get such mail any more (an ARF opt-out report)',
  undetermined: 'something came back that txmail cannot read a reason from; it is kept in the log as it came',
};

/**
 * How far back an earlier disabled-mailbox bounce to the same address makes a new one "repeated"
 * (docs/API.md, Suppressions: a second time within 30 days), whether either came during the SMTP
 * session or in a report.
 */
export const DISABLED_REPEAT_WINDOW_MS = 30 * 24 * 3600_000;

/**
 * The category an event records: a refusal of the sending address (a blocklist, its reputation, Yahoo's
 * TSS04) is policy_rejected whatever else its words say ("unexpected volume" reads as rate_limited), in
 * the SMTP session (delivery/outcome.ts) and in a report alike (inbound/decide-effects.ts): the same
 * words, the same category (docs/API.md). But for Gmail's rate limit of the sending address (its
 * enhanced code 4.7.28, "… unusual rate of unsolicited mail … temporarily rate limited"), which stays
 * rate_limited, flagged sender_block; the same words under 4.7.0 are a refusal.
 */
export function recordedCategory<C extends BounceCategory | null>(
  category: C,
  senderBlock: boolean,
  enhanced: string | null | undefined,
): C | 'policy_rejected' {
  if (!senderBlock) return category;
  return category === 'rate_limited' && enhanced === RATE_LIMIT_CODE ? category : 'policy_rejected';
}

// Gmail's code for its rate limit of a sending address (its SMTP error reference).
const RATE_LIMIT_CODE = '4.7.28';

/**
 * Whether a category puts the recipient on the account's suppression list (docs/design.md §7): only what
 * says the address itself is dead or unwanted. A policy or content refusal, a full mailbox, a rate
 * limit, an expiry or a system error says nothing about the address, and suppressing it would lose mail
 * the recipient wants. A disabled mailbox is often temporary at large providers: it counts only when
 * it happens again (`repeated`).
 */
export function suppresses(
  category: BounceCategory,
  type: 'permanent' | 'transient' | 'undetermined',
  repeated: boolean,
): boolean {
  switch (category) {
    case 'complaint':
    case 'unsubscribe':
      return true;
    case 'unknown_recipient':
    case 'unknown_domain':
      return type === 'permanent';
    case 'mailbox_disabled':
      return type === 'permanent' && repeated;
    default:
      return false;
  }
}

/**
 * Whether a permanent bounce of this category counts in the account's bounce rate (ARCHITECTURE.md,
 * "Reputation guardrails"): only what says the address itself is bad, the sign of a dirty list that
 * mailbox providers judge a sender by. A refusal of the sender or the content, a full mailbox or an
 * expiry says nothing about the list (and a sender block is handled per destination instead).
 */
export function countsAgainstReputation(category: string | null): boolean {
  return category === 'unknown_recipient' || category === 'unknown_domain' || category === 'mailbox_disabled';
}
