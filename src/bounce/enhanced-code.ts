// Finding status codes in free text (diagnostic codes, human-readable bounce bodies).

// RFC 3463 §2: class.subject.detail, subject and detail 1–3 digits. The look-behind keeps version
// numbers and IP addresses (1.2.3.4) out.
const ENHANCED = /(?<![\d.])([245])\.(\d{1,3})\.(\d{1,3})(?![\d.]*\d)/;
// RFC 5321 §4.2: a reply code is three digits from 2xx–5xx, at the start or after a space or the
// punctuation a notice puts before one (`#`, `;`, `:`, `(`, `<`, and their full-width forms in CJK text:
// Coremail's "服务器返回信息：550 …").
const BASIC = /(?:^|[\s#;:(<：；（【「])([245][0-5]\d)(?=[\s-]|$)/m;

/** The first enhanced status code in `text`, e.g. `5.1.1`. */
export function findEnhancedCode(text: string): string | undefined {
  const m = ENHANCED.exec(text);
  return m ? `${m[1]}.${Number(m[2])}.${Number(m[3])}` : undefined;
}

/** The first three-digit SMTP reply code in `text`, e.g. 550. */
export function findReplyCode(text: string): number | undefined {
  const m = BASIC.exec(text);
  return m ? Number(m[1]) : undefined;
}

/** The enhanced code a basic reply code implies when the server gave none (RFC 3463 §3.1 defaults). */
export function impliedEnhancedCode(code: number): string {
  switch (code) {
    case 421:
      return '4.4.2';
    case 452:
      // RFC 5321 §4.2.2: "insufficient system storage" (RFC 3463 X.3.1, mail system full).
      return '4.3.1';
    case 552:
      return '5.3.4';
    case 551:
    case 553:
      return '5.1.0';
    default: {
      // A code outside RFC 5321's classes ("600", "999": a fault probe's server) says only that the
      // protocol went wrong: 4.5.0 (RFC 3463 X.5.0, other protocol status), retried, never "9.0.0".
      const cls = Math.floor(code / 100);
      return cls === 2 || cls === 4 || cls === 5 ? `${cls}.0.0` : '4.5.0';
    }
  }
}
