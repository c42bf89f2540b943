import { describe, expect, it } from 'vitest';
import { parseReport } from '../../src/bounce/parse-report.js';
import {
  classifyReport,
  classifySmtpReply,
  suppressesRecipient,
} from '../../src/bounce/reply-intelligence.js';
import { chooseRecipient } from '../../src/inbound/decide-effects.js';
import { fixture } from '../helpers/inbound-fixtures.js';

const values = {
  verp: `b+${'0'.repeat(32)}${'a'.repeat(16)}@send.acme.example`,
  messageId: '019ab000-0000-7000-8000-000000000001@mta.txmail.test',
  to: 'jane@recipient.example',
  returnPathDomain: 'send.acme.example',
};

const parse = (name: string, to = values.to, mailFrom = '') =>
  parseReport(fixture(name, { ...values, to }), { mailFrom });

describe('parsing what comes back to the return path', () => {
  it.each([
    // fixture, recipient, format, type, enhanced code, suppresses
    // "426 connection timed out", then Action: failed: the words give the code, the remote gave up.
    ['rfc3464-simple.eml', values.to, 'dsn', 'permanent', '4.4.1', false],
    ['rfc3464-multi-recipient.eml', 'wsnell@sdcc13.ucsd.edu', 'dsn', 'permanent', '5.1.1', true],
    // "550 'arathib@vnet.IBM.COM' is not a registered gateway user": the mailbox does not exist.
    ['rfc3464-multi-recipient.eml', 'arathib@vnet.ibm.com', 'dsn', 'permanent', '5.1.1', true],
    ['rfc3464-multi-recipient.eml', 'johnh@hpnjld.njd.hp.com', 'dsn', 'transient', '4.0.0', false],
    ['rfc3464-delayed.eml', values.to, 'dsn', 'transient', '4.0.0', false],
    ['postfix-user-unknown.eml', values.to, 'dsn', 'permanent', '5.1.1', true],
    ['gmail-user-unknown.eml', values.to, 'dsn', 'permanent', '5.1.1', true],
    ['microsoft-recipient-not-found.eml', values.to, 'dsn', 'permanent', '5.1.10', true],
    ['postfix-delayed.eml', values.to, 'dsn', 'transient', '4.4.1', false],
    ['dsn-mailbox-full.eml', values.to, 'dsn', 'permanent', '5.2.2', false],
    ['dsn-policy-block.eml', values.to, 'dsn', 'permanent', '5.7.1', false],
    ['exim-failed.eml', values.to, 'plain', 'permanent', '5.1.1', true],
    ['exim-delayed.eml', values.to, 'plain', 'transient', '4.2.0', false],
    ['qmail-failed.eml', values.to, 'plain', 'permanent', '5.1.1', true],
    ['exchange-failed.eml', values.to, 'plain', 'permanent', '5.1.1', true],
    ['yahoo-failed.eml', values.to, 'plain', 'permanent', '5.1.1', true],
  ] as const)('reads %s for %s as %s, %s %s', async (name, to, format, type, enhanced, suppresses) => {
    const report = await parse(name, to);
    expect(report.kind).toBe('bounce');
    if (report.kind !== 'bounce') return;
    expect(report.format).toBe(format);
    const r = chooseRecipient(report.recipients, to);
    expect(r).toBeDefined();
    expect(r!.classification).toMatchObject({ type, enhanced });
    expect(r!.classification.reason).toContain(enhanced);
    expect(suppressesRecipient(r!.classification, false)).toBe(suppresses);
  });

  it('reads the per-recipient fields of a DSN', async () => {
    const report = await parse('postfix-user-unknown.eml');
    if (report.kind !== 'bounce') throw new Error(report.kind);
    expect(report.reportingMta).toBe('relay.example.net');
    expect(report.recipients).toEqual([
      expect.objectContaining({
        recipient: values.to,
        action: 'failed',
        status: '5.1.1',
        remoteMta: 'mx.recipient.example',
        diagnostic: expect.stringContaining('550 5.1.1') as string,
      }),
    ]);
    expect(report.original.messageId).toBe(values.messageId);
    expect(report.original.verpAddresses).toEqual([values.verp]);
  });

  it('finds the returned original in plain-text bounces', async () => {
    for (const name of ['exim-failed.eml', 'qmail-failed.eml']) {
      const report = await parse(name);
      if (report.kind !== 'bounce') throw new Error(report.kind);
      expect(report.original.messageId).toBe(values.messageId);
      expect(report.original.verpAddresses).toEqual([values.verp]);
    }
  });

  it.each([
    ['autoreply-auto-submitted.eml', 'Auto-Submitted'],
    ['autoreply-x-autoreply.eml', 'X-Autoreply'],
    ['autoreply-out-of-office.eml', 'subject'],
    ['autoreply-precedence.eml', 'Precedence'],
  ])('recognises %s as an automatic reply, not a bounce', async (name, reason) => {
    const report = await parse(name, values.to, 'jane@recipient.example');
    expect(report).toMatchObject({ kind: 'auto_reply', reason: expect.stringContaining(reason) as string });
  });

  it('ignores a person answering the return path', async () => {
    expect((await parse('human-reply.eml', values.to, values.to)).kind).toBe('ignored');
  });

  it('reads an RFC 5965 abuse report with the original envelope sender', async () => {
    const report = await parse('rfc5965-abuse.eml', values.to, 'abusedesk@example.com');
    expect(report).toMatchObject({
      kind: 'complaint',
      feedbackType: 'abuse',
      userAgent: 'SomeGenerator/1.0',
      sourceIp: '192.0.2.1',
      originalRcptTo: values.to,
      original: { messageId: values.messageId, to: values.to, verpAddresses: [values.verp] },
    });
  });

  it('reads a redacted feedback report by its Message-ID', async () => {
    const report = await parse('arf-message-id-only.eml', values.to, 'feedback@isp.example');
    expect(report).toMatchObject({
      kind: 'complaint',
      originalRcptTo: 'redacted@recipient.example',
      original: { messageId: values.messageId, verpAddresses: [] },
    });
  });

  it('reads original headers sent base64-encoded', async () => {
    const headers = Buffer.from(`Return-Path: <${values.verp}>\r\nMessage-ID: <${values.messageId}>\r\n`);
    const raw = [
      'From: feedback@isp.example',
      'Content-Type: multipart/report; report-type=feedback-report; boundary="b"',
      '',
      '--b',
      'Content-Type: message/feedback-report',
      '',
      'Feedback-Type: abuse',
      '',
      '--b',
      'Content-Type: text/rfc822-headers',
      'Content-Transfer-Encoding: base64',
      '',
      headers.toString('base64'),
      '--b--',
      '',
    ].join('\r\n');
    expect(await parseReport(Buffer.from(raw), { mailFrom: 'feedback@isp.example' })).toMatchObject({
      kind: 'complaint',
      original: { messageId: values.messageId, verpAddresses: [values.verp] },
    });
  });

  it('reads a not-spam report as feedback to record, not a complaint', async () => {
    expect(await parse('arf-not-spam.eml', values.to, 'feedback@isp.example')).toMatchObject({
      kind: 'feedback',
      feedbackType: 'not-spam',
      original: { messageId: values.messageId },
    });
  });

  // Our own message, as a forward would attach it: its words are the customer's and may say anything.
  const ours = (body: string) =>
    [
      `Return-Path: <${values.verp}>`,
      `Message-ID: <${values.messageId}>`,
      'From: Acme <noreply@acme.example>',
      `To: ${values.to}`,
      'Subject: Your parcel',
      '',
      body,
    ].join('\r\n');
  const forward = (attached: string) =>
    Buffer.from(
      [
        'From: Mail Delivery System <mailer-daemon@relay.example>',
        'Subject: FYI',
        'Content-Type: multipart/mixed; boundary="f"',
        '',
        '--f',
        'Content-Type: text/plain',
        '',
        'See the attached message.',
        '--f',
        'Content-Type: message/rfc822',
        '',
        attached,
        '--f--',
        '',
      ].join('\r\n'),
    );

  it('reads a bounce forwarded whole as an attachment', async () => {
    const bounce = [
      'Return-Path: <>',
      'From: MAILER-DAEMON@mx.relay.example',
      'Subject: Undelivered Mail Returned to Sender',
      '',
      'This is the mail system at host mx.relay.example.',
      '',
      `<${values.to}>: host mx.recipient.example[192.0.2.9] said: 550 5.1.1 User unknown (in reply to RCPT TO command)`,
    ].join('\r\n');
    const report = await parseReport(forward(bounce), { mailFrom: '' });
    expect(report).toMatchObject({ kind: 'bounce', format: 'plain' });
    if (report.kind !== 'bounce') return;
    expect(report.recipients[0]).toMatchObject({
      recipient: values.to,
      classification: { category: 'unknown_recipient' },
    });
  });

  it('never reads our own attached message as a report, whatever it says', async () => {
    const text = ours('Your parcel could not be delivered: permanent error, 550 5.1.1 user unknown.');
    const report = await parseReport(forward(text), { mailFrom: '' });
    expect(report.kind).toBe('undetermined');
  });

  it('reads a notice whose only text is HTML inside a multipart', async () => {
    const raw = [
      'From: postmaster@outlook.example',
      'Subject: Undeliverable: Your parcel',
      'Content-Type: multipart/alternative; boundary="a"',
      '',
      '--a',
      'Content-Type: text/html; charset=utf-8',
      '',
      `<p>Your message to <b>${values.to}</b> couldn't be delivered.</p><p>Remote Server returned '550 5.1.1 User unknown'</p>`,
      '--a--',
      '',
    ].join('\r\n');
    const report = await parseReport(Buffer.from(raw), { mailFrom: '' });
    expect(report).toMatchObject({ kind: 'bounce', format: 'plain' });
    if (report.kind !== 'bounce') return;
    expect(report.recipients[0]).toMatchObject({
      recipient: values.to,
      classification: { category: 'unknown_recipient' },
    });
  });

  it("takes a challenge-response request for no bounce, though it borrows a notice's words", async () => {
    const raw = [
      'From: Jane <jane-confirm-123@recipient.example>',
      'Subject: Please confirm your message',
      'Auto-Submitted: auto-replied',
      '',
      'This message was created automatically by mail delivery software.',
      `Your message is being held because the address <${values.verp}> has not been verified.`,
    ].join('\r\n');
    expect((await parseReport(Buffer.from(raw), { mailFrom: '' })).kind).toBe('auto_reply');
  });

  it.each([
    // subject, text: notices in the languages mail systems write them in, and one whose words no rule
    // knows but which quotes a reply code with an enhanced status code
    [
      'Недоставленное сообщение',
      'Ваше письмо не удалось доставить одному или нескольким получателям:\r\n\r\n<jane@recipient.example>: host mx.recipient.example said: 550 5.1.1 User unknown',
    ],
    [
      'Niedostarczona wiadomość',
      'Wiadomość nie mogła zostać dostarczona.\r\n\r\n550 5.1.1 Użytkownik nie istnieje',
    ],
    [
      'Nedoručitelné: Reset your password',
      'Zprávu nelze doručit příjemci.\r\n\r\n550 5.1.1 Uživatel neexistuje',
    ],
    ['Mensagem não entregue', 'A sua mensagem não pôde ser entregue.\r\n\r\n550 5.1.1 Usuário desconhecido'],
    [
      'Teslim Edilemeyen: Reset your password',
      'Mesajınız teslim edilemedi.\r\n\r\n550 5.1.1 Kullanıcı bulunamadı',
    ],
    [
      '배달 못함: Reset your password',
      '다음 수신자에게 메시지를 배달하지 못했습니다.\r\n\r\n550 5.1.1 User unknown',
    ],
    ['Mitteilung', 'Ergebnis der Zustellung an jane@recipient.example:\r\n\r\n  550-5.1.1 No such user'],
  ])('reads a notice from the null sender titled %j', async (subject, text) => {
    const raw = [
      'From: mailer-daemon@mx.example',
      `Subject: ${subject}`,
      'Content-Type: text/plain; charset=utf-8',
      'Content-Transfer-Encoding: 8bit',
      '',
      text,
    ].join('\r\n');
    const report = await parseReport(Buffer.from(raw), { mailFrom: '' });
    expect(report.kind).toBe('bounce');
    if (report.kind !== 'bounce') return;
    expect(report.recipients[0]!.classification).toMatchObject({
      type: 'permanent',
      category: 'unknown_recipient',
    });
  });

  it('takes a person quoting a reply code for no bounce', async () => {
    const raw = [
      'From: Jane <jane@recipient.example>',
      'Subject: Re: Reset your password',
      '',
      'Your reset link gave me "550 5.1.1 user unknown" when I replied to it.',
    ].join('\r\n');
    const report = await parseReport(Buffer.from(raw), { mailFrom: 'jane@recipient.example' });
    expect(report.kind).not.toBe('bounce');
  });

  it('never throws on garbage', async () => {
    const samples = [
      Buffer.alloc(0),
      Buffer.from('\0\0\0\xff\xfe'),
      Buffer.from(
        'Content-Type: multipart/report; boundary="x"\r\n\r\n--x\r\nContent-Type: message/delivery-status\r\n\r\nAction: failed\r\n',
      ),
      Buffer.from('Content-Type: multipart/report; report-type=feedback-report; boundary=\r\n\r\n--\r\n--'),
      Buffer.from('From: MAILER-DAEMON@x\r\nSubject: Undeliverable\r\n\r\n' + '<a@b>:\r\n'.repeat(1000)),
    ];
    for (let i = 0; i < 200; i++)
      samples.push(Buffer.from(Array.from({ length: 300 }, () => Math.floor(Math.random() * 256))));
    for (const s of samples) await expect(parseReport(s, { mailFrom: '' })).resolves.toBeDefined();
  });
});

describe('classifying a bounced recipient', () => {
  it.each([
    [{ action: 'failed', status: '5.1.1' }, 'permanent', '5.1.1', 'unknown_recipient'],
    [{ action: 'failed', status: '5.1.10' }, 'permanent', '5.1.10', 'unknown_domain'],
    // A delay is not an expiry: the queue is still trying (Exchange's delay notices say 4.4.7).
    [{ action: 'delayed', status: '4.4.7' }, 'transient', '4.4.7', 'network_error'],
    [{ action: 'failed', status: '4.4.7' }, 'permanent', '4.4.7', 'expired'],
    // A DNS failure is the network's (x.4.x), not the receiving server's own: only Postfix's local
    // "Temporary lookup failure" is a system error.
    [
      { action: 'delayed', diagnostic: '451 4.4.0 DNS lookup failure' },
      'transient',
      '4.4.0',
      'network_error',
    ],
    [
      { action: 'delayed', diagnostic: '451 4.3.0 <jane@x.example>: Temporary lookup failure' },
      'transient',
      '4.3.0',
      'system_error',
    ],
    [
      { action: 'failed', status: '5.0.0', diagnostic: '550 mailbox is full' },
      'permanent',
      '5.2.2',
      'mailbox_full',
    ],
    [
      { action: 'failed', status: '5.0.0', diagnostic: 'smtp; 550 5.2.1 account inactive' },
      'permanent',
      '5.2.1',
      'mailbox_disabled',
    ],
    // A specific Status that disagrees with the remote server's own code is the reporting MTA's mapping
    // of the reply: the reply is the evidence, so a refusal of the content suppresses no address, and
    // an unknown user under a policy Status still does.
    [
      { action: 'failed', status: '5.1.1', diagnostic: '550 5.7.1 spam' },
      'permanent',
      '5.7.1',
      'content_rejected',
    ],
    [
      { action: 'failed', status: '5.7.1', diagnostic: '550 5.1.1 user unknown' },
      'permanent',
      '5.1.1',
      'unknown_recipient',
    ],
    [
      { action: 'failed', status: '5.0.0', diagnostic: '450 4.2.2 over quota' },
      'permanent',
      '5.2.2',
      'mailbox_full',
    ],
    [{ hint: 'failed', diagnostic: '550 5.7.1 blocked by policy' }, 'permanent', '5.7.1', 'policy_rejected'],
    // A notice that says delivery failed after a 421: the remote gave up, the address is not dead.
    [{ hint: 'failed', diagnostic: '421 try later' }, 'permanent', '4.4.2', 'expired'],
    [
      { hint: 'failed', diagnostic: 'Sorry, no mailbox here by that name' },
      'permanent',
      '5.1.1',
      'unknown_recipient',
    ],
    [{ hint: 'delayed', diagnostic: 'connection timed out' }, 'transient', '4.4.1', 'network_error'],
    [{ hint: 'failed', diagnostic: 'something odd happened' }, 'permanent', null, 'undetermined'],
    [{ hint: 'failed', diagnostic: 'host 192.0.2.25 said nothing' }, 'permanent', null, 'undetermined'],
    [{ diagnostic: 'host 192.0.2.25 said nothing' }, 'undetermined', null, 'undetermined'],
  ] as const)('%o is %s %s %s', (evidence, type, enhanced, category) => {
    expect(classifyReport(evidence)).toMatchObject({ type, enhanced, category });
  });
});

describe('the suppression rule, read from the code alone', () => {
  it.each([
    ['5.1.1', false, true],
    ['5.1.6', false, true],
    ['5.1.10', false, true],
    ['5.2.1', false, false],
    ['5.2.1', true, true],
    ['5.2.2', true, false],
    ['4.2.2', true, false],
    ['5.7.1', true, false],
    ['5.7.26', false, false],
    ['5.0.0', true, false],
    ['5.3.0', false, false],
  ] as const)('%s (repeated: %s) suppresses: %s', (code, repeated, expected) => {
    // A reply with nothing but its codes: the category comes from the enhanced code.
    const verdict = classifySmtpReply(code.startsWith('5') ? 550 : 450, `${code} refused`);
    expect(suppressesRecipient(verdict, repeated)).toBe(expected);
  });
});
