// Reply intelligence (src/bounce/reply-intelligence.ts): the rules' own examples through both entry
// points (the table is the test), the same verdict for the same failure in the session and in a
// report, and suppression only ever from a permanent dead-address category.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BOUNCE_CATEGORIES } from '../../src/bounce/categories.js';
import { readDeliveryStatus } from '../../src/bounce/delivery-status.js';
import { findEnhancedCode } from '../../src/bounce/enhanced-code.js';
import {
  classifyReport,
  classifySmtpReply,
  explainReport,
  explainSmtpReply,
  stageOf,
  suppressesRecipient,
  type ReplyVerdict,
} from '../../src/bounce/reply-intelligence.js';
import { REPLY_RULES } from '../../src/bounce/reply-rules.js';

/** A DSN's delivery-status part for one recipient, as a reporting MTA writes it after `reply`. */
function dsnFields(code: number, text: string, status?: string): string {
  const cls = String(code)[0]!;
  const quoted = findEnhancedCode(text);
  return [
    'Reporting-MTA: dns; mta.relay.example',
    '',
    'Final-Recipient: rfc822; jane@recipient.example',
    `Action: ${cls === '5' ? 'failed' : 'delayed'}`,
    `Status: ${status ?? (quoted?.[0] === cls ? quoted : `${cls}.0.0`)}`,
    'Remote-MTA: dns; mx.recipient.example',
    `Diagnostic-Code: smtp; ${text.replace(/\r?\n/g, ' ')}`,
    '',
  ].join('\r\n');
}

/** The verdict a DSN gives its recipient, read by the real DSN reader. */
function reportVerdict(code: number, text: string, status?: string): ReplyVerdict {
  const dsn = readDeliveryStatus(dsnFields(code, text, status), '');
  expect(dsn?.recipients).toHaveLength(1);
  return dsn!.recipients[0]!.classification;
}

const replyCode = (reply: string) => Number(reply.slice(0, 3));

describe('every rule, by its own examples', () => {
  const cases = REPLY_RULES.flatMap((rule) =>
    rule.examples.map((ex) => [rule.name, ex.reply, rule, ex] as const),
  );
  it.each(cases)('%s: %s', (_name, reply, rule, ex) => {
    const code = replyCode(reply);
    const session = explainSmtpReply(code, reply);
    // The example is this rule's: no rule before it takes it.
    expect(session.rule).toBe(rule.name);
    expect(session.verdict.category).toBe(rule.category);
    expect(session.verdict.enhanced).toBe(ex.enhanced);
    expect(session.verdict.greylisted).toBe(rule.greylisted === true && code < 500);
    // The same words quoted by a report.
    expect(reportVerdict(code, reply)).toEqual(session.verdict);
    expect(explainReport({ action: code >= 500 ? 'failed' : 'delayed', diagnostic: reply }).rule).toBe(
      rule.name,
    );
  });

  it('have at least one example each, and distinct names', () => {
    for (const rule of REPLY_RULES) expect(rule.examples.length, rule.name).toBeGreaterThan(0);
    expect(new Set(REPLY_RULES.map((r) => r.name)).size).toBe(REPLY_RULES.length);
    for (const rule of REPLY_RULES) expect(BOUNCE_CATEGORIES).toContain(rule.category);
  });
});

describe('the session and a report agree', () => {
  const examples = REPLY_RULES.flatMap((r) => r.examples.map((e) => e.reply));
  // The words of an example without its codes, to be given other codes.
  const words = examples.map((reply) => reply.replace(/^\d{3}[ -](?:[245]\.\d{1,3}\.\d{1,3} )?/, ''));
  const enhancedOf = (cls: number) =>
    fc.option(
      fc
        .tuple(
          fc.constantFrom(0, 1, 2, 3, 4, 5, 6, 7),
          fc.oneof(fc.integer({ min: 0, max: 10 }), fc.constantFrom(26, 28, 351, 500, 606)),
        )
        .map(([s, d]) => `${cls}.${s}.${d}`),
      { nil: undefined },
    );
  const replyArb = fc
    .tuple(
      fc.constantFrom(421, 450, 451, 452, 550, 551, 552, 553, 554),
      fc.constantFrom(...words),
      fc.constantFrom('', ' (in reply to RCPT TO)', ' [mx1.recipient.example]'),
    )
    .chain(([code, text, tail]) =>
      enhancedOf(Math.floor(code / 100)).map((enhanced) => ({ code, enhanced, text: `${text}${tail}` })),
    );

  it('for generated replies: code, enhanced code and the words of any rule', () => {
    fc.assert(
      fc.property(replyArb, ({ code, enhanced, text }) => {
        const reply = `${code} ${enhanced ? `${enhanced} ` : ''}${text}`;
        const session = classifySmtpReply(code, reply);
        expect(reportVerdict(code, reply, enhanced)).toEqual(session);
        // A plain notice quoting the same reply, failed or delayed as the class says.
        expect(
          classifyReport({ action: code >= 500 ? 'failed' : 'delayed', diagnostic: reply, source: 'plain' }),
        ).toEqual(session);
      }),
      { numRuns: 500 },
    );
  });

  it.each([
    [550, '550 No such user', 'unknown_recipient', '5.1.1'],
    [452, '452 Requested action not taken: insufficient system storage', 'mailbox_full', '4.2.2'],
    [452, '452 Requested action not taken', 'system_error', '4.3.1'],
  ])('%i %j: %s %s in both', (code, reply, category, enhanced) => {
    const session = classifySmtpReply(code, reply);
    expect(session).toMatchObject({ category, enhanced });
    expect(reportVerdict(code, reply)).toEqual(session);
  });
});

describe('what a verdict does', () => {
  it('greylisting is not throttling, and a rate limit is not greylisting', () => {
    const grey = classifySmtpReply(450, '450 4.7.1 Greylisted, please try again later');
    expect(grey).toMatchObject({ greylisted: true, throttled: false, type: 'transient' });
    const rate = classifySmtpReply(421, '421 4.7.28 Rate limited due to IP reputation');
    expect(rate).toMatchObject({ greylisted: false, throttled: true, category: 'rate_limited' });
    // A 5xx is never a greylisting or a pause: it is final.
    expect(classifySmtpReply(550, '550 5.7.1 Greylisted forever')).toMatchObject({
      greylisted: false,
      throttled: false,
    });
  });

  it.each([
    [554, '554 5.7.1 The message sent in this session was identified as spam', 'content_rejected'],
    [550, '550 5.7.1 Messages sent over this connection contain a virus', 'content_rejected'],
    [550, '550 5.7.1 Mail sent by the current connection failed DMARC', 'policy_rejected'],
    [
      550,
      '550 5.7.1 email sent by this session is rejected because your IP is listed on Spamhaus',
      'policy_rejected',
    ],
    [550, '550 User unknown (only one message per connection)', 'unknown_recipient'],
  ])(
    'reads a reply that names the connection for what it refuses, not as a rate: %i %s',
    (code, reply, category) => {
      // NetEase's limit of messages per connection (a review found the first wording of its rule took
      // these over).
      expect(classifySmtpReply(code, reply).category).toBe(category);
    },
  );

  it('a report that gave up after 4xx replies is final, expired unless the words say more, never suppressing', () => {
    const expired = classifyReport({
      action: 'failed',
      status: '4.4.7',
      diagnostic: '421 4.4.7 Message expired',
    });
    expect(expired).toMatchObject({ type: 'permanent', category: 'expired' });
    const unknown = classifyReport({
      action: 'failed',
      status: '4.1.1',
      diagnostic: '450 4.1.1 User unknown',
    });
    expect(unknown).toMatchObject({ type: 'permanent', category: 'expired' });
    expect(suppressesRecipient(unknown, true)).toBe(false);
    const full = classifyReport({ action: 'failed', status: '4.2.2', diagnostic: '452 4.2.2 Mailbox full' });
    expect(full).toMatchObject({ type: 'permanent', category: 'mailbox_full' });
  });

  it('reads Amazon SES sub-types', () => {
    expect(
      classifyReport({ action: 'failed', reportedType: 'Permanent/NoEmail', source: 'ses' }),
    ).toMatchObject({
      category: 'unknown_recipient',
      enhanced: '5.1.1',
    });
    expect(
      classifyReport({
        action: 'failed',
        status: '5.0.0',
        reportedType: 'Permanent/Suppressed',
        diagnostic: 'Amazon SES has suppressed sending to this address',
        source: 'ses',
      }),
    ).toMatchObject({ category: 'unknown_recipient', enhanced: '5.1.1' });
    expect(
      classifyReport({
        action: 'failed',
        status: '5.3.0',
        reportedType: 'Transient/MailboxFull',
        source: 'ses',
      }),
    ).toMatchObject({ category: 'mailbox_full' });
    expect(
      classifyReport({ action: 'failed', status: '5.0.0', reportedType: 'Permanent/General', source: 'ses' }),
    ).toMatchObject({ category: 'undetermined' });
  });

  it('reads the notice when the diagnostic says nothing', () => {
    expect(
      classifyReport({
        action: 'failed',
        diagnostic: '',
        text: 'User jp (jane@x.example) not listed in Domino Directory',
      }),
    ).toMatchObject({ category: 'unknown_recipient', enhanced: '5.1.1', type: 'permanent' });
  });

  it("reads a DSN's notice only when the report is about one recipient", () => {
    const group = (to: string) => `Final-Recipient: rfc822; ${to}\r\nAction: failed\r\nStatus: 5.0.0\r\n`;
    const notice = '<jane@recipient.example>: user unknown';
    const one = readDeliveryStatus(
      `Reporting-MTA: dns; mta.example\r\n\r\n${group('jane@recipient.example')}`,
      notice,
    );
    expect(one!.recipients[0]!.classification.category).toBe('unknown_recipient');
    // Two recipients: the notice's prose may be about the other one.
    const two = readDeliveryStatus(
      `Reporting-MTA: dns; mta.example\r\n\r\n${group('jane@recipient.example')}\r\n${group('joe@recipient.example')}`,
      'Delivery to some recipients failed: user unknown',
    );
    for (const r of two!.recipients) expect(r.classification.category).toBe('undetermined');
    // But what it lists under one recipient is that one's, and only that one's.
    const listed = readDeliveryStatus(
      `Reporting-MTA: dns; mta.example\r\n\r\n${group('jane@recipient.example')}\r\n${group('joe@recipient.example')}`,
      notice,
    );
    expect(listed!.recipients.map((r) => [r.recipient, r.classification.category, r.diagnostic])).toEqual([
      ['jane@recipient.example', 'unknown_recipient', 'user unknown'],
      ['joe@recipient.example', 'undetermined', undefined],
    ]);
  });

  it("reads a DSN recipient's own lines in the notice before the notice's prose, when it has no Diagnostic-Code", () => {
    // cPanel's Exim puts one sentence before every failure, whatever the reason; the reason is the
    // line under the address.
    const status = readDeliveryStatus(
      'Reporting-MTA: dns; server.example\r\n\r\nAction: failed\r\nFinal-Recipient: rfc822;jane@recipient.example\r\nStatus: 5.0.0\r\n',
      [
        'The following address(es) failed:',
        '',
        'The mail server could not deliver mail to jane@recipient.example.  The account or domain may not exist, they may be blacklisted, or missing the proper dns entries.',
        '',
        '  jane@recipient.example',
        '    mailbox is full: retry timeout exceeded',
      ].join('\n'),
    );
    expect(status!.recipients[0]).toMatchObject({
      diagnostic: 'mailbox is full: retry timeout exceeded',
      classification: { category: 'mailbox_full' },
    });
  });

  it('never reads a refusal before the recipient was named as about the recipient', () => {
    const group = 'Final-Recipient: rfc822; jane@recipient.example\r\nAction: failed\r\nStatus: 5.0.0\r\n';
    const report = (command: string) =>
      readDeliveryStatus(
        `Reporting-MTA: dns; mta.example\r\n\r\n${group}Diagnostic-Code: smtp; 550-Requested action not taken: mailbox unavailable\r\n`,
        `<jane@recipient.example>: host mx.x.example[192.0.2.1] said: 550-Requested action not\n    taken: mailbox unavailable (in reply to ${command} command)`,
      )!.recipients[0]!.classification;
    // At RCPT TO the same words are about the mailbox; at MAIL FROM (or HELO) no recipient had been named.
    expect(report('RCPT TO')).toMatchObject({ category: 'unknown_recipient' });
    for (const command of ['MAIL FROM', 'EHLO']) {
      const v = report(command);
      expect(v).toMatchObject({ category: 'policy_rejected', enhanced: '5.7.1' });
      expect(suppressesRecipient(v, true)).toBe(false);
    }
    // Exim names the stage in the diagnostic itself.
    const exim = classifyReport({
      action: 'failed',
      diagnostic:
        'SMTP error from remote mail server after MAIL FROM:<b+x@send.acme.example> SIZE=2048: 550 5.1.1 <b+x@send.acme.example>: mailbox unavailable',
    });
    expect(exim).toMatchObject({ category: 'policy_rejected', enhanced: '5.7.1' });
    // Storage at MAIL FROM is the server's (452) or the declared size (552), never the mailbox's.
    const atMailFrom = (reply: string, action: string) =>
      classifyReport({ action, diagnostic: reply, stage: 'MAIL FROM' });
    expect(atMailFrom('452 4.3.1 Insufficient system storage', 'delayed')).toMatchObject({
      category: 'system_error',
    });
    expect(
      atMailFrom('552 Requested mail action aborted: exceeded storage allocation', 'failed'),
    ).toMatchObject({
      category: 'message_too_large',
    });
  });

  it("reads the command a reply answered from Postfix, Exim, Sendmail's transcript and qmail", () => {
    expect(stageOf('<j@x>: host mx said: 550 no (in reply\n    to MAIL FROM command)')).toBe('MAIL FROM');
    expect(stageOf('SMTP error from remote mail server after pipelined MAIL FROM:<b@x> SIZE=10:')).toBe(
      'MAIL FROM',
    );
    expect(stageOf('SMTP error from remote mail server after RCPT TO:<j@x>:')).toBe('RCPT TO');
    expect(stageOf('>>> MAIL From:<b@x> SIZE=10\n<<< 550 5.1.0 mailbox unavailable')).toBe('MAIL FROM');
    // Pipelined: the reply that follows is not MAIL FROM's.
    expect(stageOf('>>> MAIL From:<b@x>\n>>> RCPT To:<j@x>\n<<< 550 5.1.1 unknown')).toBe('RCPT TO');
    expect(stageOf('Connected to 192.0.2.1 but sender was rejected.')).toBe('MAIL FROM');
    expect(stageOf('Connected to 192.0.2.1 but my name was rejected.')).toBe('HELO');
    expect(stageOf('host mx.x.example[192.0.2.1] refused to talk to me: 554 no PTR')).toBe(
      'INITIAL CONNECTION',
    );
    expect(stageOf('SMTP error from remote mail server after HELO mta.example:')).toBe('HELO');
    expect(stageOf('hMailServer sent: MAIL FROM:<b@x>\n   Remote server replied: 550 no')).toBe('MAIL FROM');
    // MDaemon's transcript after its time stamps; the last exchange of a transcript kept across attempts.
    expect(
      stageOf(' Wed 2026-12-02 05:12:11: --> MAIL From:<b@x>\n Wed 2026-12-02 05:12:12: <-- 550 no\n'),
    ).toBe('MAIL FROM');
    expect(
      stageOf('>>> MAIL From:<b@x>\n<<< 451 4.3.0 later\n>>> RCPT To:<j@x>\n<<< 550 5.1.1 unknown'),
    ).toBe('RCPT TO');
    // Sendmail pipelining: only the last command is shown; two 503s after the refusal say it was MAIL FROM's.
    expect(
      stageOf(
        '>>> DATA\n<<< 550 mailbox unavailable\n554 5.0.0 Service unavailable\n<<< 503 Bad sequence\n<<< 503 Bad sequence',
      ),
    ).toBe('MAIL FROM');
    expect(
      stageOf('>>> DATA\n<<< 550 5.1.1 <j@x>... User unknown\n<<< 503 5.0.0 Need RCPT (recipient)'),
    ).toBe('DATA');
    expect(stageOf('550 5.1.1 User unknown')).toBeUndefined();
  });

  it('suppresses only a permanent dead address, whatever the words', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...REPLY_RULES.flatMap((r) => r.examples.map((e) => e.reply))),
        fc.constantFrom(421, 450, 451, 452, 550, 554),
        (reply, code) => {
          const v = classifySmtpReply(code, reply);
          if (suppressesRecipient(v, true)) {
            expect(v.type).toBe('permanent');
            expect(['unknown_recipient', 'unknown_domain', 'mailbox_disabled']).toContain(v.category);
          }
          if (code < 500) expect(suppressesRecipient(v, true)).toBe(false);
        },
      ),
    );
  });
});
