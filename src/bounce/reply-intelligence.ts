// Reply intelligence: what a failure means, whoever reports it. One module for the SMTP session's own
// replies (classifySmtpReply) and for each recipient of a bounce report (classifyReport), so the same
// failure text gives the same type, category and enhanced code in both (ARCHITECTURE.md, "Reply
// intelligence"). A leaf of pure functions: both entry points bring their evidence to the same facts
// (the class, the basic reply code, the enhanced code, the words) and run the same rules
// (reply-rules.ts, data, first match wins). The suppression of an address follows from the category
// (categories.ts `suppresses`), never from a rule: a rule can name a category, not suppress.
import { suppresses, type BounceCategory } from './categories.js';
import { findEnhancedCode, findReplyCode, impliedEnhancedCode } from './enhanced-code.js';
import {
  NOT_SENDER_BLOCK_WORDS,
  REPLY_RULES,
  REPORTED_TYPES,
  SENDER_BLOCK_CODES,
  SENDER_BLOCK_WORDS,
  SUBJECT_CATEGORY,
  type ReplyRule,
} from './reply-rules.js';
import { describeStatus } from './status-reason.js';
import { cap, MAX_NOTICE_TEXT } from './text-limits.js';
import { joinedReply } from './reply-lines.js';
import { wrappedReply } from './wrapped-reply.js';

export type BounceType = 'permanent' | 'transient' | 'undetermined';

export interface ReplyVerdict {
  type: BounceType;
  category: BounceCategory;
  /** RFC 3463 enhanced status code, e.g. `5.1.1`; null when nothing said or implied one. */
  enhanced: string | null;
  /** Plain words, e.g. "the mailbox does not exist (5.1.1)". */
  reason: string;
  /** A 4xx saying greylisted / try again later (not a rate limit): retry after the greylist's delay. */
  greylisted: boolean;
  /** The remote asks to slow down (421, 4.7.28, "too many", a rate limit): category rate_limited. */
  throttled: boolean;
  /**
   * The refusal is of the sending address (a blocklist, its reputation, complaints about its mail), not
   * of the recipient or this message (isSenderBlock): the message is kept and tried again later, and
   * the destination may be paused for that address (ARCHITECTURE.md, "Destination blocks").
   */
  senderBlock: boolean;
}

/** One recipient of a report, as the report's reader found it. */
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
   * characters): a plain notice's, or a DSN's when its recipient has no Diagnostic-Code. Read when
   * the diagnostic says nothing the rules know.
   */
  text?: string | undefined;
  /** The reporting system's own verdict: Amazon SES `bounceType/bounceSubType`, e.g. `Permanent/NoEmail`. */
  reportedType?: string | undefined;
  /**
   * The SMTP command the remote server's reply answered, as the report's notice names it for its one
   * recipient (Postfix's "(in reply to MAIL FROM command)"): `MAIL FROM`, `RCPT TO`, `end of DATA`….
   */
  stage?: string | undefined;
}

/** What both entry points bring their evidence to. */
interface Facts {
  type: BounceType;
  /** The basic reply code (RFC 5321 §4.2), when there is one. */
  reply: number | undefined;
  /** The enhanced code the server or the report gave (not one implied by `reply`). */
  code: string | undefined;
  /** The server's words. */
  text: string;
  /** Other words to read when `text` says nothing the rules know (a notice's own text). */
  notice: string | undefined;
  /** The reporting system's own verdict, lower case (`permanent/noemail`). */
  reported: string | undefined;
  /** The SMTP command the reply answered, when a report names it apart from the reply (BounceEvidence.stage). */
  stage?: string | undefined;
}

/** A verdict, and the rule that gave it (none: the code alone, or nothing). */
export interface Explained {
  verdict: ReplyVerdict;
  rule: string | undefined;
}

/**
 * A reply during the SMTP session: `code` the basic code, `text` the reply as the server sent it,
 * `stage` the command it answered (`MAIL FROM`, `RCPT TO`, `DATA`, `INITIAL CONNECTION` for the
 * greeting), when known: a refusal before the recipient was named is never about the recipient.
 */
export function classifySmtpReply(code: number, text: string, stage?: string): ReplyVerdict {
  return explainSmtpReply(code, text, stage).verdict;
}

/** One recipient of a bounce report (RFC 3464 DSN, a plain notice, an SES notification). */
export function classifyReport(e: BounceEvidence): ReplyVerdict {
  return explainReport(e).verdict;
}

/** Whether the verdict puts the recipient on the suppression list (categories.ts `suppresses`; ARCHITECTURE.md, "Reply intelligence"). */
export function suppressesRecipient(v: ReplyVerdict, repeated: boolean): boolean {
  return suppresses(v.category, v.type, repeated);
}

export function explainSmtpReply(code: number, text: string, stage?: string): Explained {
  const words = joinedReply(cap(text, MAX_NOTICE_TEXT));
  const cls = Math.floor(code / 100);
  const type: BounceType = cls === 5 ? 'permanent' : cls === 4 ? 'transient' : 'undetermined';
  return decide({
    type,
    reply: code,
    code: quotedCode(words, code),
    text: words,
    notice: undefined,
    reported: undefined,
    stage,
  });
}

export function explainReport(e: BounceEvidence): Explained {
  const diagnostic = cap(e.diagnostic ?? '', MAX_NOTICE_TEXT);
  // IronPort's summary around the server's reply: the reply is the evidence (wrapped-reply.ts).
  // Its words as one line whatever its line breaks (reply-lines.ts).
  const text = joinedReply(wrappedReply(diagnostic) ?? diagnostic);
  const reply = findReplyCode(text);
  const status = statusField(e.status);
  const quoted = quotedCode(text, reply);
  // A generic Status (x.0.0) only summarises the remote server's reply (reporting MTAs often write
  // 5.0.0): a specific code of its class quoted in the reply says more. A specific Status is the
  // reporting MTA's reading of the reply, and wins, except where the reply opens with a code of the
  // same class that disagrees ("550 5.7.1 Message rejected as spam" under a Status of 5.1.1, which
  // would suppress an address the server did not refuse): the reply is the evidence then. Not under a
  // Status of x.y.0, which Sendmail makes from the basic code alone (550 -> 5.2.0), nor with a code
  // found further in, which may be another server's answer the reply quotes (a sender check's 5.1.1
  // about our own address). Without a quoted code, Exchange's notice may give one under a generic
  // Status (noticeCode).
  const notice = e.text === undefined ? undefined : cap(e.text, MAX_NOTICE_TEXT);
  const opening = openingCode(text);
  const replied =
    status && opening && !/\.0$/.test(status) && !isGeneric(opening) && opening[0] === status[0]
      ? opening
      : undefined;
  const code =
    status && isGeneric(status)
      ? ((quoted?.[0] === status[0] ? quoted : undefined) ?? noticeCode(notice, status) ?? status)
      : (replied ?? status ?? quoted);
  const action = (e.action?.trim().toLowerCase() || undefined) ?? e.hint;
  let type: BounceType;
  if (action === 'failed') type = 'permanent';
  else if (action === 'delayed') type = 'transient';
  else if (action !== undefined) type = 'undetermined';
  else type = typeOfClass(code?.[0] ?? (reply === undefined ? undefined : String(reply)[0]));
  return decide({
    type,
    reply,
    code,
    text,
    notice: notice === text ? undefined : notice,
    reported: e.reportedType?.trim().toLowerCase(),
    stage: e.stage,
  });
}

// Categories a report's failure keeps when the remote gave up after transient failures (`Action:
// failed` with a 4.x.x status): what the words say of the message. Anything else, the address's
// included, becomes `expired`: a run of 4xx replies never says the address is dead.
const KEPT_WHEN_GIVEN_UP = new Set<BounceCategory>([
  'mailbox_full',
  'message_too_large',
  'content_rejected',
  'policy_rejected',
  'expired',
]);

function decide(f: Facts): Explained {
  const codeForRules = f.code ?? '';
  let rule = firstRule(codeForRules, f.reply, f.text, f.type);
  if (!rule && f.notice) rule = firstRule(codeForRules, f.reply, f.notice, f.type);

  const cls = f.code?.[0] ?? (f.reply === undefined ? undefined : String(f.reply)[0]);
  const implied = f.reply !== undefined && f.reply >= 400 ? impliedEnhancedCode(f.reply) : undefined;
  // What the code alone says: the server's own when it says more than x.0.0, else the one its basic
  // reply code implies.
  const plainCode = f.code && !isGeneric(f.code) ? f.code : (implied ?? f.code);

  let category: BounceCategory;
  let detail: string | undefined;
  if (rule) {
    category = rule.category;
    detail = rule.detail;
  } else {
    category = plainCode ? codeCategory(plainCode) : 'undetermined';
  }
  const reported = f.reported === undefined ? undefined : REPORTED_TYPES[f.reported];
  if (reported) {
    category = reported.category;
    detail = reported.detail;
  }
  // A refusal before any recipient was named (at MAIL FROM, HELO, the greeting) cannot be about the
  // recipient, whatever its words and code say (a check of our return path's DNS answered "mailbox
  // unavailable"): the sender's refusal, or the server's storage or the declared size.
  // Only the recipient's own words and the stage its report names: a notice's other text may be about
  // another attempt (a journal copy refused at MAIL FROM beside our RCPT TO).
  const beforeRecipient =
    NAMES_RECIPIENT.has(category) && BEFORE_RECIPIENT.has(f.stage ?? stageOf(f.text) ?? '');
  if (beforeRecipient) [category, detail] = beforeRecipientCategory(category, f.reply);
  if (f.type === 'permanent' && cls === '4' && !KEPT_WHEN_GIVEN_UP.has(category)) category = 'expired';
  // A delay is the queue still trying: nothing has expired yet, whatever the code (Exchange's delay
  // notices say 4.4.7, "delivery time expired", of the warning's own timer). What is left is the code's
  // subject: a network or routing trouble (RFC 3463 §3.5).
  if (f.type === 'transient' && category === 'expired') category = 'network_error';
  // A report of failure that quotes no code, only a connection that failed (Sendmail's "Deferred:
  // Connection refused by …" under "Cannot send message for 5 days"): a connection refused or timed out
  // is a transient trouble, so a failure after it is the end of the retries.
  if (f.type === 'permanent' && cls === undefined && category === 'network_error') category = 'expired';

  let enhanced = f.code && !isGeneric(f.code) && !rule?.ownCode && !beforeRecipient ? f.code : undefined;
  const detailClass = cls ?? (f.type === 'permanent' ? '5' : f.type === 'transient' ? '4' : undefined);
  if (!enhanced && detail && detailClass) enhanced = `${detailClass}.${detail}`;
  enhanced ??= implied ?? f.code;

  const greylisted = f.type === 'transient' && rule?.greylisted === true;
  const throttled = f.type === 'transient' && category === 'rate_limited';
  const senderBlock =
    !greylisted &&
    (isSenderBlock(category, enhanced, f.text) ||
      (f.notice !== undefined && isSenderBlock(category, enhanced, f.notice)));
  return {
    verdict: {
      type: f.type,
      category,
      enhanced: enhanced ?? null,
      reason: senderBlock
        ? withCode(SENDER_BLOCK_PHRASE, enhanced)
        : reasonFor(category, f.type, enhanced, greylisted),
      greylisted,
      throttled,
      senderBlock,
    },
    rule: rule?.name ?? (reported ? `reported ${f.reported}` : undefined),
  };
}

// The categories that say something of the recipient's address or mailbox.
const NAMES_RECIPIENT = new Set<BounceCategory>([
  'unknown_recipient',
  'unknown_domain',
  'mailbox_full',
  'mailbox_disabled',
]);

// The command a reply answered, as reports name it: Postfix's "(in reply to MAIL FROM command)" (folded
// anywhere) and "refused to talk to me" (the greeting), Exim's "SMTP error from remote mail server
// after MAIL FROM:<…>" ("after initial connection"), qmail's "Connected to … but sender was rejected"
// ("but my name was rejected": HELO), hMailServer's "sent: MAIL FROM:… / Remote server replied: 550",
// and a transcript (Sendmail's and Courier's ">>> MAIL From:<…>" answered on the next line by "<<< 550
// …", MDaemon's "-->" and "<--" after a time stamp): its last exchange, since Sendmail keeps the
// transcript of earlier attempts above the last. Sendmail, pipelining, writes only the last command it
// sent (">>> DATA") above the first refusal; two "503" refusals after it (RCPT and DATA refused for
// want of a MAIL FROM), or a "Need MAIL" one, say the refusal was MAIL FROM's.
const STAGES: [RegExp, (m: RegExpExecArray) => string][] = [
  [/\(in\s+reply\s+to\s+([a-z]{2,8}(?:\s+[a-z]{2,8}){0,2})\s+command\)/i, (m) => m[1]!],
  [/refused\s+to\s+talk\s+to\s+me/i, () => 'INITIAL CONNECTION'],
  [
    /smtp error from remote (?:mail )?server (?:after|for) (initial connection|helo|ehlo|lhlo|starttls|auth|(?:pipelined )?mail from|rcpt to|end of data|data)\b/i,
    (m) => m[1]!,
  ],
  [/connected to \S{1,255} but sender was rejected/i, () => 'MAIL FROM'],
  [/connected to \S{1,255} but my name was rejected/i, () => 'HELO'],
  [
    /\bsent: (mail from|rcpt to|helo|ehlo|data)\b[^\n]*\n[ \t]*remote server replied: [45]\d\d/i,
    (m) => m[1]!,
  ],
];

// Sendmail pipelining: a refusal, then RCPT and DATA refused with 503 for want of a MAIL FROM; or a
// "503 … Need MAIL" alone.
const REFUSED_MAIL_FROM =
  /^(?:>>>|-->|[^\n]{1,40}?: -->) [^\n]*\n(?:<<<|[^\n]{1,40}?: <--) [45]\d\d[^\n]*\n(?:(?!<<<)[^\n]*\n){0,2}<<< 503[^\n]*\n(?:(?!<<<)[^\n]*\n){0,2}<<< 503/gim;
const NEED_MAIL = /^<<< 503[ -](?:[\d.]+ )?(?:error: )?need mail\b/gim;

// A transcript's exchanges: a command, and on the next line the reply to it.
const EXCHANGE =
  /^(?:[^\n]{1,40}?: )?(?:>>>|-->) (mail from|rcpt to|helo|ehlo|lhlo|data)\b[^\n]*\n(?:[^\n]{1,40}?: )?(?:<<<|<--) [45]\d\d/gim;

/** The SMTP command a report says the reply answered, upper case (`MAIL FROM`, `RCPT TO`), if it says. */
export function stageOf(text: string): string | undefined {
  for (const [pattern, name] of STAGES) {
    const m = pattern.exec(text);
    if (m) return normalStage(name(m));
  }
  // A transcript: its last exchange, or the last refusal that Sendmail's pipelining shows was MAIL
  // FROM's, whichever comes later (an earlier attempt's is above the last one's).
  let last: { at: number; stage: string } | undefined;
  for (const m of text.matchAll(EXCHANGE)) last = { at: m.index, stage: m[1]! };
  for (const pattern of [REFUSED_MAIL_FROM, NEED_MAIL]) {
    for (const m of text.matchAll(pattern)) {
      if (last === undefined || m.index >= last.at) last = { at: m.index, stage: 'MAIL FROM' };
    }
  }
  return last === undefined ? undefined : normalStage(last.stage);
}

function normalStage(name: string): string {
  return name
    .replace(/\s+/g, ' ')
    .replace(/^pipelined /i, '')
    .toUpperCase();
}

// The commands before the recipient is named: a reply to one cannot be about the recipient.
const BEFORE_RECIPIENT = new Set([
  'MAIL FROM',
  'HELO',
  'EHLO',
  'LHLO',
  'STARTTLS',
  'AUTH',
  'INITIAL CONNECTION',
]);

// What a category that names the address means when the refusal came before any recipient: the
// server's storage (a 452 to MAIL FROM), the declared size (a 552 to MAIL FROM), else the sender's
// refusal.
function beforeRecipientCategory(
  category: BounceCategory,
  reply: number | undefined,
): [BounceCategory, string] {
  if (category === 'mailbox_full')
    return reply === 552 ? ['message_too_large', '3.4'] : ['system_error', '3.1'];
  return ['policy_rejected', '7.1'];
}

// The categories that name the recipient, the message's size or its content: a reply that says so is
// about the recipient or this tenant's message, whatever else its words mention (a 5.1.1 is never a
// block of the sender; a refusal of the content must not pause a destination for every tenant).
const NOT_SENDER_CATEGORIES = new Set<BounceCategory>([
  'content_rejected',
  'unknown_recipient',
  'unknown_domain',
  'mailbox_full',
  'mailbox_disabled',
  'message_too_large',
  'auto_reply',
  'complaint',
  'unsubscribe',
]);

const SENDER_BLOCK_PHRASE =
  'the receiving server refused mail from the sending address (a blocklist or its reputation), not the recipient';

/**
 * Whether a failure refuses the sending address rather than the recipient or the message: a blocklist
 * named, the address's or sender's reputation, complaints about its mail, or a provider's code for
 * such a block (reply-rules.ts SENDER_BLOCK_WORDS, SENDER_BLOCK_CODES); never when the category names
 * the recipient or the content, nor when the words are about a recipient's own blocked-senders list,
 * the message's authentication, or the tenant's own domain or content (NOT_SENDER_BLOCK_WORDS). Pure.
 */
export function isSenderBlock(category: BounceCategory, enhanced: string | undefined, text: string): boolean {
  if (NOT_SENDER_CATEGORIES.has(category)) return false;
  if (NOT_SENDER_BLOCK_WORDS.test(text)) return false;
  return (enhanced !== undefined && SENDER_BLOCK_CODES.test(enhanced)) || SENDER_BLOCK_WORDS.test(text);
}

function firstRule(
  code: string,
  reply: number | undefined,
  text: string,
  type: BounceType,
): ReplyRule | undefined {
  return REPLY_RULES.find(
    (r) =>
      (r.codes === undefined || r.codes.test(code)) &&
      (r.replies === undefined || (reply !== undefined && r.replies.includes(reply))) &&
      (!r.transientOnly || type === 'transient') &&
      (r.words === undefined || r.words.test(text)) &&
      (r.unless === undefined || !r.unless.test(text)),
  );
}

// The rules that look at the code alone, for a code no rule placed.
const CODE_RULES = REPLY_RULES.filter((r) => r.words === undefined && r.replies === undefined && r.codes);

/** What a code says alone: the code-only rules, else its subject (RFC 3463 §3). */
function codeCategory(code: string): BounceCategory {
  const rule = CODE_RULES.find((r) => r.codes!.test(code));
  if (rule) return rule.category;
  return SUBJECT_CATEGORY[code.split('.')[1] ?? ''] ?? 'undetermined';
}

/**
 * A generic Status (x.0.0) with no reply of the server's to refine it: the code Exchange's notice
 * writes under the recipient, "<host #5.2.3>" (Exchange 2000-2007 put 5.0.0 in the report). Only when
 * the notice holds exactly one such code, more specific and of the same class: a second one (a
 * forwarded copy's, another recipient's) may be the one that matters, and a code elsewhere in the text
 * (a help sentence, a sender check quoted) is about something else.
 */
function noticeCode(notice: string | undefined, status: string): string | undefined {
  if (notice === undefined) return undefined;
  const codes = [...notice.matchAll(EXCHANGE_NOTICE_CODE)].map(
    (m) => `${m[1]}.${Number(m[2])}.${Number(m[3])}`,
  );
  const code = codes.length === 1 ? codes[0]! : undefined;
  return code !== undefined && code[0] === status[0] && !isGeneric(code) ? code : undefined;
}

const EXCHANGE_NOTICE_CODE = /<[^<>\s]{1,255} #([245])\.(\d{1,3})\.(\d{1,3})>/g;

/** x.0.0, and the other codes of subject 0 ("other or undefined", RFC 3463 §3.1), say nothing more than the class. */
function isGeneric(code: string): boolean {
  return /^\d\.0\.\d{1,3}$/.test(code);
}

function typeOfClass(cls: string | undefined): BounceType {
  return cls === '5' ? 'permanent' : cls === '4' ? 'transient' : 'undetermined';
}

/**
 * The first enhanced code in `text`, when its class agrees with the basic reply code (RFC 3463 §2:
 * they must; when a server disagrees with itself, the code every client acts on wins).
 */
function quotedCode(text: string, reply: number | undefined): string | undefined {
  const code = findEnhancedCode(text);
  if (code === undefined) return undefined;
  return reply === undefined || code[0] === String(reply)[0] ? code : undefined;
}

const STATUS = /^\s*([245])\.(\d{1,3})\.(\d{1,3})\s*(?:\(|$)/;

// A reply that opens with its basic and enhanced codes, "550 5.7.1 …" or "550-5.7.1 …", in agreement.
const OPENING = /^\s*([245])\d\d[ -]([245])\.(\d{1,3})\.(\d{1,3})(?![\d.]*\d)/;

/** The enhanced code a reply opens with, beside its basic code of the same class. */
function openingCode(text: string): string | undefined {
  const m = OPENING.exec(text);
  return m && m[1] === m[2] ? `${m[2]}.${Number(m[3])}.${Number(m[4])}` : undefined;
}

/** A Status field that is an enhanced code (with, at most, a comment after it). */
function statusField(status: string | undefined): string | undefined {
  const m = status ? STATUS.exec(status) : null;
  return m ? `${m[1]}.${Number(m[2])}.${Number(m[3])}` : undefined;
}

/** Each category in plain words, for a reason the code's own description does not give. */
const PHRASES: Record<BounceCategory, string> = {
  unknown_recipient: 'the mailbox does not exist',
  unknown_domain: "the recipient's domain does not exist or accepts no mail",
  mailbox_full: 'the mailbox is full',
  mailbox_disabled: 'the mailbox is disabled',
  message_too_large: 'the message is larger than the recipient accepts',
  content_rejected: 'the receiving server refused the content (spam, a virus or a filter)',
  policy_rejected: "the receiving server's policy refused the message",
  rate_limited: 'the receiving server asks to slow down',
  expired: 'a server on the way gave up after retrying',
  network_error: 'the receiving server could not be reached',
  system_error: 'the receiving server had trouble of its own',
  auto_reply: 'an automatic reply',
  complaint: 'the recipient reported the message as spam',
  unsubscribe: 'the recipient asked to unsubscribe',
  undetermined: 'the receiving server gave no reason txmail recognises',
};

function reasonFor(
  category: BounceCategory,
  type: BounceType,
  enhanced: string | undefined,
  greylisted: boolean,
): string {
  let words: string;
  if (greylisted) words = 'greylisted: the receiving server asks to try again later';
  else if (enhanced && codeCategory(enhanced) === category) words = describeStatus(enhanced);
  else if (category === 'undetermined' && type === 'transient' && !enhanced)
    words = 'delivery is delayed; the receiving server keeps trying';
  else if (category === 'undetermined' && !enhanced) words = 'the bounce gives no reason txmail recognises';
  else words = PHRASES[category];
  return withCode(words, enhanced);
}

function withCode(words: string, enhanced: string | undefined): string {
  return enhanced ? `${words} (${enhanced})` : words;
}
