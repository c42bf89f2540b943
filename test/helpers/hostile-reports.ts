// Reports with an attacker's text in one place: each builder writes a message in one mail system's
// style (RFC 3464 DSN, RFC 5965 ARF, Exim, qmail, a Postfix notice, an RFC 3834 auto-reply) with `x`
// where a sender chooses what goes. Written from the RFCs and the systems' documented formats.

const VERP = `b+${'0'.repeat(32)}${'a'.repeat(16)}@send.acme.example`;
const MESSAGE_ID = '019ab000-0000-7000-8000-000000000001@mta.txmail.test';
const TO = 'jane@recipient.example';

const crlf = (lines: string[]) => lines.join('\r\n');

/** The returned original's headers, as our worker sent them. */
function original(extra: { messageId?: string; to?: string; body?: string } = {}): string {
  return crlf([
    `Return-Path: <${VERP}>`,
    `Message-ID: <${extra.messageId ?? MESSAGE_ID}>`,
    'From: Acme <noreply@acme.example>',
    `To: ${extra.to ?? TO}`,
    'Subject: Reset your password',
    '',
    extra.body ?? 'Click here to reset.',
  ]);
}

export interface DsnSlots {
  text?: string;
  reportingMta?: string;
  finalRecipient?: string;
  action?: string;
  status?: string;
  remoteMta?: string;
  diagnostic?: string;
  /** The whole message/delivery-status body. */
  statusBody?: string;
  /** The whole message/rfc822 part. */
  originalPart?: string;
  originalMessageId?: string;
}

/** RFC 3464 / RFC 6522: multipart/report with a notice, the delivery status and the original. */
export function dsn(s: DsnSlots = {}): string {
  const statusBody =
    s.statusBody ??
    crlf([
      `Reporting-MTA: dns; ${s.reportingMta ?? 'mx.relay.example'}`,
      '',
      `Final-Recipient: rfc822; ${s.finalRecipient ?? TO}`,
      `Action: ${s.action ?? 'failed'}`,
      `Status: ${s.status ?? '5.1.1'}`,
      `Remote-MTA: dns; ${s.remoteMta ?? 'mx.recipient.example'}`,
      `Diagnostic-Code: smtp; ${s.diagnostic ?? '550 5.1.1 user unknown'}`,
    ]);
  return crlf([
    'From: Mail Delivery System <MAILER-DAEMON@mx.relay.example>',
    `To: ${VERP}`,
    'Subject: Undelivered Mail Returned to Sender',
    'MIME-Version: 1.0',
    'Content-Type: multipart/report; report-type=delivery-status; boundary="B0"',
    '',
    '--B0',
    'Content-Type: text/plain; charset=us-ascii',
    '',
    s.text ?? 'Your message could not be delivered.',
    '',
    '--B0',
    'Content-Type: message/delivery-status',
    '',
    statusBody,
    '',
    '--B0',
    'Content-Type: message/rfc822',
    '',
    s.originalPart ?? original({ messageId: s.originalMessageId }),
    '',
    '--B0--',
    '',
  ]);
}

export interface ArfSlots {
  feedbackType?: string;
  userAgent?: string;
  originalMailFrom?: string;
  originalRcptTo?: string;
  /** The whole message/feedback-report body. */
  reportBody?: string;
  originalPart?: string;
  originalTo?: string;
}

/** RFC 5965 §2: an abuse report sent to fbl@. */
export function arf(s: ArfSlots = {}): string {
  const reportBody =
    s.reportBody ??
    crlf([
      `Feedback-Type: ${s.feedbackType ?? 'abuse'}`,
      `User-Agent: ${s.userAgent ?? 'SomeGenerator/1.0'}`,
      'Version: 1',
      `Original-Mail-From: <${s.originalMailFrom ?? VERP}>`,
      `Original-Rcpt-To: <${s.originalRcptTo ?? TO}>`,
      'Source-IP: 192.0.2.1',
    ]);
  return crlf([
    'From: <abusedesk@isp.example>',
    'To: <fbl@send.acme.example>',
    'Subject: FW: abuse report',
    'MIME-Version: 1.0',
    'Content-Type: multipart/report; report-type=feedback-report; boundary="A1"',
    '',
    '--A1',
    'Content-Type: text/plain',
    '',
    'This is an email abuse report.',
    '',
    '--A1',
    'Content-Type: message/feedback-report',
    '',
    reportBody,
    '',
    '--A1',
    'Content-Type: message/rfc822',
    'Content-Disposition: inline',
    '',
    s.originalPart ?? original({ to: s.originalTo }),
    '--A1--',
    '',
  ]);
}

/** Exim's notice: X-Failed-Recipients, the failed addresses, then a copy of the message. */
export function eximBounce(s: { failedRecipients?: string; from?: string; text?: string } = {}): string {
  return crlf([
    `From: ${s.from ?? 'Mail Delivery System <Mailer-Daemon@mx.exim.example>'}`,
    `To: ${VERP}`,
    'Subject: Mail delivery failed: returning message to sender',
    `X-Failed-Recipients: ${s.failedRecipients ?? TO}`,
    'Auto-Submitted: auto-replied',
    '',
    'This message was created automatically by mail delivery software.',
    '',
    'A message that you sent could not be delivered to one or more of its',
    'recipients. This is a permanent error. The following address(es) failed:',
    '',
    `  ${TO}`,
    '    SMTP error from remote mail server after RCPT TO:<jane@recipient.example>:',
    `    ${s.text ?? '550 5.1.1 user unknown'}`,
    '',
    '------ This is a copy of the message, including all the headers. ------',
    '',
    original(),
    '',
  ]);
}

/** qmail-send's notice: the addresses in angle brackets, then "Below this line is a copy". */
export function qmailBounce(s: { text?: string; subject?: string } = {}): string {
  return crlf([
    'From: MAILER-DAEMON@mx.qmail.example',
    `To: ${VERP}`,
    `Subject: ${s.subject ?? 'failure notice'}`,
    '',
    'Hi. This is the qmail-send program at mx.qmail.example.',
    "I'm afraid I wasn't able to deliver your message to the following addresses.",
    "This is a permanent error; I've given up. Sorry it didn't work out.",
    '',
    `<${TO}>:`,
    s.text ?? '192.0.2.25 does not like recipient.\r\nRemote host said: 550 5.1.1 no such user',
    '',
    '--- Below this line is a copy of the message.',
    '',
    original(),
    '',
  ]);
}

/** Postfix's human-readable notice, sent as plain text (no report part). */
export function postfixNotice(s: { text?: string } = {}): string {
  return crlf([
    'From: MAILER-DAEMON@mx.postfix.example (Mail Delivery System)',
    `To: ${VERP}`,
    'Subject: Undelivered Mail Returned to Sender',
    '',
    'This is the mail system at host mx.postfix.example.',
    '',
    "I'm sorry to have to inform you that your message could not",
    'be delivered to one or more recipients.',
    '',
    s.text ??
      `<${TO}>: host mx.recipient.example[192.0.2.25] said: 550 5.1.1 user unknown (in reply to RCPT TO command)`,
    '',
  ]);
}

/** RFC 3834: an out-of-office reply. */
export function autoReply(s: { subject?: string; autoSubmitted?: string; text?: string } = {}): string {
  return crlf([
    `From: ${TO}`,
    `To: ${VERP}`,
    `Subject: ${s.subject ?? 'Out of office'}`,
    `Auto-Submitted: ${s.autoSubmitted ?? 'auto-replied'}`,
    '',
    s.text ?? 'I am away until Monday.',
    '',
  ]);
}

/** A report whose text part sits `depth` multiparts deep (each level opens a part of the next). */
export function nestedMultiparts(depth: number): string {
  const open: string[] = [];
  const close: string[] = [];
  for (let i = 0; i < depth; i++) {
    open.push(`Content-Type: multipart/mixed; boundary="n${i}"`, '', `--n${i}`);
    close.unshift(`--n${i}--`);
  }
  return crlf(['From: MAILER-DAEMON@mx.example', 'Subject: Undeliverable', ...open, '', 'x', ...close, '']);
}

/** The first attack of issue 15: a run of letters in X-Failed-Recipients, `size` characters long. */
export function failedRecipientsAttack(size: number): string {
  return eximBounce({ failedRecipients: 'a'.repeat(size) });
}

/**
 * The second: a message/rfc822 part whose header line is a field name, spaces, then bare CRs around
 * one character (the old field pattern tried every split of the spaces).
 */
export function originalPartAttack(size: number): string {
  return dsn({ originalPart: `Message-ID:${' '.repeat(size)}\rx\r` });
}

/** RFC 6533: a global DSN whose utf-8 Final-Recipient is `x`. */
export function globalDsn(s: { finalRecipient?: string } = {}): string {
  return dsn({
    statusBody: crlf([
      'Reporting-MTA: dns; mx.relay.example',
      '',
      `Final-Recipient: utf-8; ${s.finalRecipient ?? TO}`,
      'Action: failed',
      'Status: 5.1.1',
    ]),
  }).replace('Content-Type: message/delivery-status', 'Content-Type: message/global-delivery-status');
}

/** A notice in Domino's style: the reason after "because:", the recipient on a line of its own. */
export function dominoNotice(s: { recipientLine?: string; reason?: string } = {}): string {
  return crlf([
    'From: Postmaster@notes.example',
    `To: ${VERP}`,
    'Subject: DELIVERY FAILURE: User not listed in Domino Directory',
    '',
    'Your message',
    '',
    '  Subject: Reset your password',
    '',
    'was not delivered to:',
    '',
    `  ${s.recipientLine ?? TO}`,
    '',
    'because:',
    '',
    `  ${s.reason ?? 'User jane (jane@recipient.example) not listed in Domino Directory'}`,
    '',
  ]);
}

/** A feedback loop's forward without ARF: its own words, then the original attached. */
export function forwardedComplaint(s: { subject?: string; intro?: string } = {}): string {
  return crlf([
    'From: staff@hotmail.example',
    'To: fbl@send.acme.example',
    `Subject: ${s.subject ?? 'complaint about message from 198.51.100.7'}`,
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="F1"',
    '',
    '--F1',
    'Content-Type: text/plain',
    '',
    s.intro ?? 'This is an email abuse report for an email message received from IP 198.51.100.7.',
    '',
    '--F1',
    'Content-Type: message/rfc822',
    'Content-Disposition: inline',
    '',
    original(),
    '--F1--',
    '',
  ]);
}

/** Feedback-report fields written into a text part (a feedback loop labelling its part wrongly). */
export function arfInTextPart(s: { fields?: string } = {}): string {
  return arf({ reportBody: s.fields ?? 'Feedback-Type: abuse' }).replace(
    'Content-Type: message/feedback-report',
    'Content-Type: text/plain',
  );
}

/** An Amazon SES notification as an SNS email subscription mails it: JSON, then SNS's footer. */
export function sesNotification(s: { diagnostic?: string; body?: string } = {}): string {
  const json = JSON.stringify({
    notificationType: 'Bounce',
    bounce: {
      bounceType: 'Permanent',
      bounceSubType: 'General',
      bouncedRecipients: [
        {
          emailAddress: TO,
          action: 'failed',
          status: '5.1.1',
          diagnosticCode: s.diagnostic ?? '550 5.1.1 x',
        },
      ],
      reportingMTA: 'dsn; a1.smtp-out.amazonses.example',
    },
    mail: { source: VERP, destination: [TO] },
  });
  return crlf([
    'From: AWS Notifications <no-reply@sns.amazonaws.example>',
    'To: fbl@send.acme.example',
    'Subject: AWS Notification Message',
    'Content-Type: text/plain; charset=UTF-8',
    '',
    s.body ?? json,
    '',
    '--',
    'If you wish to stop receiving notifications from this topic, please click or visit the link below.',
    '',
  ]);
}
