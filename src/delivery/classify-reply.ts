// What an SMTP reply means for the message (RFC 5321 §4.2.1 reply classes, RFC 3463 enhanced codes).
export type ReplyOutcome = 'delivered' | 'deferred' | 'bounced';

export interface ReplyClass {
  outcome: ReplyOutcome;
  /** The enhanced status code, from the reply or inferred from the basic code. */
  enhanced: string;
  /** The destination asked us to slow down: close the connection, lower concurrency, pause. */
  throttled: boolean;
}

const ENHANCED = /^\s*(?:\d{3}[\s-]+)?([245])\.(\d{1,3})\.(\d{1,3})\b/;
const THROTTLE_TEXT =
  /rate.?limit|too many|throttl|slow down|try (again )?later|temporarily deferred|exceeded/i;

/** Classifies one reply. `code` is the basic three-digit code; `text` the reply text. */
export function classifyReply(code: number, text: string): ReplyClass {
  const m = ENHANCED.exec(text);
  const cls = Math.floor(code / 100);
  // The basic code decides permanence (RFC 3463 §2: the enhanced class must agree; when a server
  // disagrees with itself we trust the code every client acts on).
  const outcome: ReplyOutcome = cls === 2 ? 'delivered' : cls === 5 ? 'bounced' : 'deferred';
  const enhanced = m && Number(m[1]) === cls ? `${m[1]}.${m[2]}.${m[3]}` : inferEnhanced(code);
  const throttled =
    code === 421 || (outcome === 'deferred' && (/^4\.7\.(0|28)$/.test(enhanced) || THROTTLE_TEXT.test(text)));
  return { outcome, enhanced, throttled };
}

function inferEnhanced(code: number): string {
  switch (code) {
    case 421:
      return '4.4.2';
    case 450:
    case 451:
    case 452:
      return code === 452 ? '4.3.1' : '4.0.0';
    case 550:
      return '5.0.0';
    case 551:
    case 553:
      return '5.1.0';
    case 552:
      return '5.3.4';
    case 554:
      return '5.0.0';
    default:
      return `${Math.floor(code / 100)}.0.0`;
  }
}
