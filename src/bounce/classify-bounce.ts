// Permanent, transient or undetermined: what one bounced recipient means (RFC 3463 codes, RFC 3464
// actions, and the words of servers that send neither).
import { findEnhancedCode, findReplyCode, impliedEnhancedCode } from './enhanced-code.js';
import { describeStatus } from './status-reason.js';
import { statusFromText } from './text-rules.js';

export type BounceType = 'permanent' | 'transient' | 'undetermined';

export interface BounceEvidence {
  /** RFC 3464 §2.3.3 Action: failed, delayed, delivered, relayed, expanded (plain bounces: none). */
  action?: string | undefined;
  /** RFC 3464 §2.3.4 Status, e.g. 5.1.1. */
  status?: string | undefined;
  /** RFC 3464 §2.3.6 Diagnostic-Code text, or the reply a plain-text bounce quotes. */
  diagnostic?: string | undefined;
  /** What a plain-text bounce says about itself: a failure or a delay warning. */
  hint?: 'failed' | 'delayed' | undefined;
  /** Where the facts were read: an RFC 3464 report, a human-readable notice, an Amazon SES notification. */
  source?: 'dsn' | 'plain' | 'ses' | undefined;
  /** RFC 3464 §2.3.5 Remote-MTA (or the address SES names), when the report gives one. */
  remoteMta?: string | undefined;
  /**
   * The notice's human-readable text (without the returned original, at most MAX_NOTICE_TEXT
   * characters): a plain notice's, or a DSN's when its recipient has no Diagnostic-Code.
   */
  text?: string | undefined;
  /** The reporting system's own verdict: Amazon SES `bounceType/bounceSubType`, e.g. `Permanent/NoEmail`. */
  reportedType?: string | undefined;
}

export interface BounceClass {
  type: BounceType;
  /** RFC 3463 enhanced status code; null when nothing said one. */
  enhanced: string | null;
  /** A short plain-language reason. */
  reason: string;
}

const STATUS = /^\s*([245])\.(\d{1,3})\.(\d{1,3})\s*(?:\(|$)/;

export function classifyBounce(e: BounceEvidence): BounceClass {
  const action = e.action?.trim().toLowerCase();
  const diagnostic = e.diagnostic ?? '';
  const delayed = action === 'delayed' || (action === undefined && e.hint === 'delayed');
  const failed = action === 'failed' || (action === undefined && e.hint === 'failed');

  const status = statusField(e.status);
  const quoted = findEnhancedCode(diagnostic);
  // A generic Status (x.0.0) with a specific code of the same class in the remote server's own reply:
  // the reply says more (reporting MTAs often summarise as 5.0.0).
  let enhanced =
    status && quoted && /^\d\.0\.0$/.test(status) && quoted[0] === status[0] ? quoted : (status ?? quoted);
  if (!enhanced) {
    const reply = findReplyCode(diagnostic);
    if (reply !== undefined && reply >= 400) enhanced = impliedEnhancedCode(reply);
  }
  const fromText = statusFromText(diagnostic);
  if (fromText && (!enhanced || /^\d\.0\.0$/.test(enhanced))) {
    // A generic code (or none) made specific by the server's words; the class stays the server's.
    const cls = enhanced ? enhanced[0] : delayed ? '4' : failed ? '5' : undefined;
    if (cls) enhanced = `${cls}.${fromText}`;
  }

  let type: BounceType;
  if (delayed) type = 'transient';
  else if (action === 'failed') type = 'permanent';
  else if (enhanced?.startsWith('5')) type = 'permanent';
  else if (enhanced?.startsWith('4')) type = 'transient';
  else type = 'undetermined';

  const reason = enhanced
    ? `${describeStatus(enhanced)} (${enhanced})`
    : type === 'transient'
      ? 'delivery is delayed; the receiving server keeps trying'
      : 'the bounce gives no reason txmail recognises';
  return { type, enhanced: enhanced ?? null, reason };
}

function statusField(status: string | undefined): string | undefined {
  const m = status ? STATUS.exec(status) : null;
  return m ? `${m[1]}.${Number(m[2])}.${Number(m[3])}` : undefined;
}
