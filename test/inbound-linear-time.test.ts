// Parsing what arrives at the return path costs time linear in its size, wherever a sender puts its
// text: fast-check's adversarial shapes (runs of one character, spaces, bare CR and LF, U+2028,
// brackets and quotes) up to 1 MiB in each place a sender controls, in DSNs (RFC 3464), ARF reports
// (RFC 5965), plain-text bounces and automatic replies, and thousands of nested multiparts. Each check
// compares a size's cost per byte with the same run's smaller sizes (test/helpers/linear-time.ts).
import fc from 'fast-check';
import { describe, it } from 'vitest';
import type { HeaderLookup } from '../src/bounce/auto-reply.js';
import { parseReport } from '../src/bounce/parse-report.js';
import { parsePlainBounce } from '../src/bounce/plain-bounce.js';
import { parseFieldGroups } from '../src/bounce/report-fields.js';
import { classifyReport, classifySmtpReply } from '../src/bounce/reply-intelligence.js';
import { NOT_SENDER_BLOCK_WORDS, REPLY_RULES, SENDER_BLOCK_WORDS } from '../src/bounce/reply-rules.js';
import { dsnAddress } from '../src/bounce/delivery-status.js';
import { noticeDiagnostic } from '../src/bounce/notice-diagnostic.js';
import { noticeRecipients } from '../src/bounce/notice-recipients.js';
import { jsonObjectIn } from '../src/bounce/ses-notification.js';
import { readForwardedComplaint } from '../src/bounce/forwarded-complaint.js';
import { cappedLines } from '../src/bounce/text-limits.js';
import {
  arf,
  arfInTextPart,
  autoReply,
  dominoNotice,
  dsn,
  eximBounce,
  failedRecipientsAttack,
  forwardedComplaint,
  globalDsn,
  nestedMultiparts,
  originalPartAttack,
  postfixNotice,
  qmailBounce,
  sesNotification,
} from './helpers/hostile-reports.js';
import { adversarialShape, fill, measureGrowth, processCpuMs, type Growth } from './helpers/linear-time.js';

const parse = (raw: Buffer) => parseReport(raw, { mailFrom: '' });

/**
 * measureGrowth on messages of growing size (built outside the timing), in CPU time, and measured
 * again when it finds growth: a parse of 1 MiB allocates several MiB and takes some ten milliseconds,
 * so a collection can slow every repeat of one size. A cost that really grows faster than the input
 * grows again on the second measurement; noise does not come back on cue.
 */
async function linear(build: (size: number) => string): Promise<Growth[]> {
  const options = { repeats: 3, clock: processCpuMs };
  try {
    return await measureGrowth(parse, (size) => Buffer.from(build(size)), options);
  } catch {
    return measureGrowth(parse, (size) => Buffer.from(build(size)), options);
  }
}

/** The property: for every shape fast-check generates, the message with it in that place parses in linear time. */
async function linearForShapes(wrap: (x: string) => string): Promise<void> {
  await fc.assert(
    fc.asyncProperty(adversarialShape, async (shape) => {
      await linear((size) => wrap(fill(shape, size)));
    }),
    // Two shapes per place, new ones on every run; the places share the pieces.
    { numRuns: 2, endOnFailure: true },
  );
}

/** A message of one part in a multipart/mixed with a line of words: HTML, JSON, an attached message. */
function onePart(type: string, body: string): string {
  return [
    'From: Mail Delivery System <mailer-daemon@relay.example>',
    'Subject: FYI',
    'Content-Type: multipart/mixed; boundary="w"',
    '',
    '--w',
    'Content-Type: text/plain',
    '',
    'See the attached message.',
    '--w',
    `Content-Type: ${type}`,
    '',
    body,
    '--w--',
    '',
  ].join('\r\n');
}

/** A notice whose only text is HTML inside a multipart/alternative (Outlook.com's). */
function htmlOnlyNotice(html: string): string {
  return [
    'From: postmaster@outlook.example',
    'Subject: Undeliverable: Your parcel',
    'Content-Type: multipart/alternative; boundary="a"',
    '',
    '--a',
    'Content-Type: text/html; charset=utf-8',
    '',
    `<p>Your message couldn't be delivered.</p><div>${html}</div>`,
    '--a--',
    '',
  ].join('\r\n');
}

const places: [string, (x: string) => string][] = [
  ['X-Failed-Recipients', (x) => eximBounce({ failedRecipients: x })],
  ['the From header of a notice', (x) => eximBounce({ from: x })],
  ['the Subject of a notice', (x) => qmailBounce({ subject: x })],
  ['the Exim notice text', (x) => eximBounce({ text: x })],
  ['the qmail notice text', (x) => qmailBounce({ text: x })],
  ['the Postfix notice text', (x) => postfixNotice({ text: x })],
  ['the DSN human-readable part', (x) => dsn({ text: x })],
  ['Final-Recipient', (x) => dsn({ finalRecipient: x })],
  ['Action and Status', (x) => dsn({ action: x, status: x })],
  ['Diagnostic-Code', (x) => dsn({ diagnostic: x })],
  ['Reporting-MTA and Remote-MTA', (x) => dsn({ reportingMta: x, remoteMta: x })],
  ['the whole delivery-status part', (x) => dsn({ statusBody: x })],
  ['the returned original (message/rfc822)', (x) => dsn({ originalPart: x })],
  ["the original's Message-ID", (x) => dsn({ originalMessageId: x })],
  ['Feedback-Type and User-Agent', (x) => arf({ feedbackType: 'abuse', userAgent: x })],
  ['Original-Mail-From and Original-Rcpt-To', (x) => arf({ originalMailFrom: x, originalRcptTo: x })],
  ['the whole feedback-report part', (x) => arf({ reportBody: x })],
  ["the complaint original's To", (x) => arf({ originalTo: x })],
  ['the Subject of an automatic reply', (x) => autoReply({ subject: x })],
  ['Auto-Submitted', (x) => autoReply({ autoSubmitted: x })],
  ['a utf-8 Final-Recipient (RFC 6533)', (x) => globalDsn({ finalRecipient: x })],
  ['the recipient line of a Domino notice', (x) => dominoNotice({ recipientLine: x })],
  ['the reason of a Domino notice', (x) => dominoNotice({ reason: x })],
  ['the Subject of a forwarded complaint', (x) => forwardedComplaint({ subject: x })],
  ['the words of a forwarded complaint', (x) => forwardedComplaint({ intro: x })],
  ['feedback fields in a text part', (x) => arfInTextPart({ fields: `Feedback-Type: abuse\r\n${x}` })],
  ["an SES notification's diagnostic", (x) => sesNotification({ diagnostic: x })],
  ['the body of an SES notification', (x) => sesNotification({ body: `{"notificationType":"Bounce",${x}` })],
  [
    'an SES notification in a JSON part',
    (x) => onePart('application/json', `{"notificationType":"Bounce",${x}`),
  ],
  ['the HTML of a notice with no text part', (x) => htmlOnlyNotice(x)],
  ['the HTML of a notice, in nested elements', (x) => htmlOnlyNotice(`<div><b>${x}</b></div>`.repeat(3))],
  ['a bounce forwarded whole as an attachment', (x) => onePart('message/rfc822', eximBounce({ text: x }))],
];

describe('parsing a received report takes time linear in its size', () => {
  it.each(places)('with adversarial text in %s', async (_, wrap) => {
    await linearForShapes(wrap);
  });

  it('with thousands of nested multiparts', async () => {
    // About 60 bytes a level: 1 MiB is some 17,000 levels.
    await linear((size) => nestedMultiparts(Math.floor(size / 60)));
  });

  it('with 80 KB and more of letters in X-Failed-Recipients (issue 15)', async () => {
    await linear(failedRecipientsAttack);
  });

  it('with spaces and bare CRs in the returned original (issue 15)', async () => {
    await linear(originalPartAttack);
  });

  it('with runs of bare CRs in a header block (mailparser read them in quadratic time)', async () => {
    await linear((size) => qmailBounce({ subject: `${'\r\r\n'.repeat(size / 3)}s` }));
  });

  it('with spaces then line separators in a delivery-status field', async () => {
    // The shape of the second attack where no CR is left to replace: `.` stops at U+2028 too.
    await linear((size) => dsn({ statusBody: `Diagnostic-Code:${' '.repeat(size)}\u2028x\u2028` }));
  });

  it('with a JSON object that never closes in an SES notification', async () => {
    await linear((size) =>
      sesNotification({ body: `{"a":${'['.repeat(size / 2)}"${'\\"'.repeat(size / 4)}` }),
    );
  });

  it('with every line of a notice cut by bare CRs and U+2028', async () => {
    const unit = 'jane@recipient.example \r550 5.1.1\u2028 ';
    await linear((size) => postfixNotice({ text: unit.repeat(size / unit.length) }));
  });
});

// The same for the two scanners that read what mailparser hands over, called directly: without the
// cuts parseReport makes before calling them, and ten times cheaper, so more shapes per run.
describe('the report scanners on their own take time linear in their input', () => {
  const scanner = async (run: (x: string) => unknown) => {
    await fc.assert(
      fc.asyncProperty(adversarialShape, async (shape) => {
        const options = { clock: processCpuMs };
        await measureGrowth(run, (size) => fill(shape, size), options).catch(() =>
          measureGrowth(run, (size) => fill(shape, size), options),
        );
      }),
      { numRuns: 8, endOnFailure: true },
    );
  };
  const headers =
    (values: Record<string, string>): HeaderLookup =>
    (name) =>
      values[name];
  const NOTICE = 'This is the mail system at host mx.example.\n\nThe mail system\n\n';

  it.each<[string, (x: string) => unknown]>([
    ['field groups', (x) => parseFieldGroups(x)],
    ['a field value', (x) => parseFieldGroups(`Diagnostic-Code:${x}`)],
    ['a folded field value', (x) => parseFieldGroups(`Diagnostic-Code: smtp;\n ${x}`)],
    [
      'X-Failed-Recipients',
      (x) => parsePlainBounce(headers({ 'x-failed-recipients': x }), 'Mail delivery failed', NOTICE, ''),
    ],
    ['the From of a notice', (x) => parsePlainBounce(headers({ from: x }), 'Undeliverable', NOTICE, 'a@b')],
    ['the Subject of a notice', (x) => parsePlainBounce(headers({}), x, NOTICE, '')],
    ['the text of a notice', (x) => parsePlainBounce(headers({}), 'Undeliverable', NOTICE + x, '')],
    ["a notice's recipient lines", (x) => noticeRecipients(cappedLines(x))],
    ["a notice's diagnostic", (x) => noticeDiagnostic(cappedLines(x), x.slice(0, 998))],
    ['a JSON object', (x) => jsonObjectIn(`{${x}`)],
    [
      'a forwarded complaint',
      (x) =>
        readForwardedComplaint({
          subject: x.slice(0, 998),
          text: x,
          from: undefined,
          original: { messageId: 'a@b', verpAddresses: [], to: undefined, headers: '' },
          mailFrom: 'person@x.example',
          automatic: false,
        }),
    ],
  ])('in %s', async (_, run) => {
    await scanner(run);
  });

  it('with the issue 15 shapes', async () => {
    const options = { clock: processCpuMs };
    const letters = (size: number) => 'a'.repeat(size);
    await measureGrowth(
      (x: string) => parsePlainBounce(headers({ 'x-failed-recipients': x }), '', '', ''),
      letters,
      options,
    );
    await measureGrowth(
      (x: string) => parseFieldGroups(x),
      (size) => `Message-ID:${' '.repeat(size)}\rx\r`,
      options,
    );
  });

  it('with runs of \\x{ in a utf-8 address (RFC 6533), none closed', async () => {
    await measureGrowth(
      (x: string) => dsnAddress(x),
      (size) => `utf-8; a${'\\x{'.repeat(size / 3)}@b.example`,
      { clock: processCpuMs },
    );
  });
});

// Reply intelligence (bounce/reply-intelligence.ts): both entry points with 1 MiB of adversarial text in
// every field they read, and every rule's patterns on the whole text, without the cut to
// MAX_NOTICE_TEXT the entry points make first (the patterns themselves must be linear).
describe('reply intelligence takes time linear in its input', () => {
  // Pieces of the rules' own wordings: runs of them make a pattern try, and fail, at every position.
  const ruleWords = REPLY_RULES.flatMap((r) => r.examples.map((e) => e.reply));
  const rulePiece = fc
    .tuple(fc.constantFrom(...ruleWords), fc.nat(), fc.integer({ min: 1, max: 24 }))
    .map(([text, at, length]) => text.slice(at % text.length, (at % text.length) + length) || text);
  const shapes = fc.oneof(
    adversarialShape,
    fc.record({
      prefix: fc.oneof(fc.constant(''), rulePiece),
      unit: rulePiece,
      suffix: fc.oneof(fc.constant(''), rulePiece),
    }),
  );
  const linearFor = async (run: (x: string) => unknown, numRuns = 6) => {
    await fc.assert(
      fc.asyncProperty(shapes, async (shape) => {
        const options = { clock: processCpuMs };
        await measureGrowth(run, (size) => fill(shape, size), options).catch(() =>
          measureGrowth(run, (size) => fill(shape, size), options),
        );
      }),
      { numRuns, endOnFailure: true },
    );
  };
  const patterns = [
    ...REPLY_RULES.flatMap((r) => [r.words, r.unless].filter((p) => p !== undefined)),
    // The sender-block predicate's (reply-intelligence.ts isSenderBlock).
    SENDER_BLOCK_WORDS,
    NOT_SENDER_BLOCK_WORDS,
  ];

  it.each<[string, (x: string) => unknown]>([
    ['an SMTP reply (classifySmtpReply)', (x) => classifySmtpReply(550, x)],
    ['a 4xx SMTP reply (classifySmtpReply)', (x) => classifySmtpReply(451, `451 ${x}`)],
    ['a diagnostic (classifyReport)', (x) => classifyReport({ action: 'failed', diagnostic: x })],
    [
      'a Status, a notice text and a reported type (classifyReport)',
      (x) => classifyReport({ action: x, status: x, diagnostic: '', text: x, reportedType: x }),
    ],
    ['every rule pattern, uncut', (x) => patterns.map((p) => p.test(x))],
  ])('in %s', async (_, run) => {
    await linearFor(run);
  });
});
