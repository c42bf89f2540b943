// Sender blocks (ARCHITECTURE.md, "Destination blocks"): a refusal of the sending address (a blocklist,
// its reputation, complaints about its mail) is told from a refusal of the recipient or of one message.
// The replies are written in the styles providers document on their postmaster pages; each goes
// through the session's classifier and through a bounce report quoting it, which must agree.
import { describe, expect, it } from 'vitest';
import { classifyReport, classifySmtpReply, isSenderBlock } from '../../src/bounce/reply-intelligence.js';
import { classifyReply } from '../../src/delivery/classify-reply.js';
import { decideNext } from '../../src/delivery/outcome.js';
import type { AttemptResult } from '../../src/delivery/transport.js';

const code = (reply: string) => Number(reply.slice(0, 3));

const SENDER_BLOCKS: [string, string][] = [
  [
    'Spamhaus (Postfix reject_rbl_client)',
    '554 5.7.1 Service unavailable; Client host [198.51.100.7] blocked using zen.spamhaus.org; https://www.spamhaus.org/query/ip/198.51.100.7',
  ],
  [
    'Spamhaus as a 550',
    '550 5.7.1 Service unavailable; Client host [127.0.0.1] blocked using zen.spamhaus.org',
  ],
  ['Spamhaus SBL named', '550 5.7.1 Rejected: 198.51.100.7 listed in SBL, see https://check.spamhaus.org/'],
  [
    'Barracuda Reputation',
    '554 Service unavailable; Client host [198.51.100.7] blocked using Barracuda Reputation; http://www.barracudanetworks.com/reputation/?r=1&ip=198.51.100.7',
  ],
  ['SpamCop', '550 5.7.1 Blocked - see https://www.spamcop.net/bl.shtml?198.51.100.7'],
  ['a generic RBL', '554 5.7.1 Rejected because 198.51.100.7 is in a black list at b.barracudacentral.org'],
  ['a DNSBL listing', '550 5.7.1 Your IP 198.51.100.7 was found on one or more DNSBLs'],
  ['an RBL by name', '550 Rejected by RBL: bl.mailspike.net'],
  ['listed at', '550 Client host [198.51.100.7] is listed at bl.example.org'],
  ['blacklisted', '554-IP address is black listed.'],
  ['blocklist', '550 5.7.1 The sending IP 198.51.100.7 is on our blocklist'],
  [
    'Gmail, unusual rate (421)',
    '421-4.7.0 [198.51.100.7] Our system has detected an unusual rate of unsolicited mail originating from your IP address. To protect our users from spam, mail sent from your IP address has been temporarily blocked.',
  ],
  [
    'Gmail, unusual rate (550)',
    '550-5.7.1 [198.51.100.7] Our system has detected an unusual rate of unsolicited mail originating from your IP address. To protect our users from spam, mail sent from your IP address has been blocked.',
  ],
  [
    'Gmail, rate limited for IP reputation',
    '421-4.7.28 [198.51.100.7] Our system has detected an unusual rate of unsolicited mail originating from your IP address. To protect our users from spam, mail sent from your IP address has been temporarily rate limited.',
  ],
  [
    'Gmail, low IP reputation',
    '550-5.7.1 This message is likely suspicious due to the very low reputation of the sending IP address.',
  ],
  [
    'Microsoft S3150',
    "550 5.7.1 Unfortunately, messages from [198.51.100.7] weren't sent. Please contact your Internet service provider since part of their network is on our block list (S3150). You can also refer your provider to http://mail.live.com/mail/troubleshooting.aspx#errors.",
  ],
  [
    'Microsoft S3140',
    "550 5.7.1 Unfortunately, messages from [198.51.100.7] weren't sent. Please contact your Internet service provider since part of their network is on our block list (S3140).",
  ],
  [
    'Microsoft SC-001',
    "550 SC-001 (BAY004-MC1F23) Unfortunately, messages from 198.51.100.7 weren't sent. Please contact your Internet service provider since part of their network is on our block list.",
  ],
  ['Microsoft OU-001', "550 OU-001 (SNT004-MC1F43) Unfortunately, messages from 198.51.100.7 weren't sent."],
  [
    'Office 365 banned sending IP',
    '550 5.7.606 Access denied, banned sending IP [198.51.100.7]. To request removal from this list please visit https://sender.office.com/',
  ],
  ['Office 365 banned sending IP (5.7.607)', '550 5.7.607 Access denied, banned sending IP [198.51.100.7]'],
  [
    'Office 365 rate limited for IP reputation',
    '451 4.7.650 The mail server [198.51.100.7] has been temporarily rate limited due to IP reputation.',
  ],
  [
    'Yahoo TSS04',
    '421 4.7.0 [TSS04] Messages from 198.51.100.7 temporarily deferred due to unexpected volume or user complaints - 4.16.55.1; see https://postmaster.yahooinc.com/error-codes',
  ],
  [
    'Yahoo TSS09',
    '553 5.7.2 [TSS09] All messages from 198.51.100.7 will be permanently deferred; Retrying will NOT succeed. See https://postmaster.yahooinc.com/error-codes',
  ],
  ['Yahoo TS01', '421 4.7.1 [TS01] Messages from 198.51.100.7 temporarily deferred due to user complaints'],
  ['AOL RTR:BL', '554- (RTR:BL) http://postmaster.info.aol.com/errors/554rtrbl.html'],
  ['AOL DYN:T1', '421 4.7.1 : (DYN:T1) http://postmaster.info.aol.com/errors/421dynt1.html'],
  ['AOL CON:B1', '554 5.7.1 (CON:B1) IP address 198.51.100.7 is on the AOL block list'],
  ['Verizon', '571 5.7.1 Message refused by policy: your IP 198.51.100.7 has a poor reputation'],
  [
    'Comcast BL000010',
    '554 resimta-po-12v.sys.comcast.net resimta-po-12v.sys.comcast.net 198.51.100.7 found on one or more DNSBLs, see http://postmaster.comcast.net/smtp-error-codes.php#BL000010',
  ],
  ['Proofpoint', '554 Blocked - see https://ipcheck.proofpoint.com/?ip=198.51.100.7'],
  ['Proofpoint (521)', '521 Blocked - see https://ipcheck.proofpoint.com/?ip=198.51.100.7'],
  [
    'Mimecast local reputation',
    '550 Local CT IP Reputation - (reject) https://community.mimecast.com/docs/DOC-1369#550 [abcd1234.uk9]',
  ],
  [
    'Mimecast global reputation',
    '550 Global CT IP Reputation - (reject) https://community.mimecast.com/docs/DOC-1369#550',
  ],
  ['Cloudmark', '554 5.7.1 Connection refused. Poor Reputation Sender. Cloudmark Sender Intelligence (CSI)'],
  [
    'poor reputation',
    "554 Your access to this mail system has been rejected due to the sending MTA's poor reputation",
  ],
  [
    'T-Online (BL)',
    '554 IP=198.51.100.7 - A problem occurred. (Ask your postmaster for help or to contact tosa@rx.t-online.example to clarify.) (BL)',
  ],
  ['too many complaints (421)', '421 4.7.0 Too many complaints from your IP, try again later'],
  ['too many complaints, no code', '421 too many complaints'],
  ['UCEPROTECT', '550 5.7.1 Rejected: IP 198.51.100.7 listed by dnsbl-1.uceprotect.net'],
  ['SORBS', '550 5.7.1 Rejected: mail from 198.51.100.7 refused, see http://www.sorbs.net'],
];

const NOT_SENDER_BLOCKS: [string, string][] = [
  ['relaying denied (5.7.1, the recipient)', '554 5.7.1 <jane@x.example>: Relay access denied'],
  ['relaying denied (550)', '550 5.7.1 Unable to relay for jane@x.example'],
  ['recipient not authorised (5.7.1)', '550 5.7.1 RESOLVER.RST.NotAuthorized; not authorized'],
  ['SPF failure', '550 5.7.23 The message was rejected because of Sender Policy Framework violation'],
  [
    'SPF failure (words)',
    '550 5.7.1 SPF check failed: 198.51.100.7 is not allowed to send mail for acme.example',
  ],
  [
    'DMARC failure',
    "550 5.7.1 Unauthenticated email from acme.example is not accepted due to domain's DMARC policy.",
  ],
  [
    'SPF and DKIM fail',
    '550 5.7.26 This message does not pass authentication checks (SPF and DKIM both do not pass).',
  ],
  [
    'Gmail authentication, blocked',
    '421-4.7.0 This message does not have authentication information or fails to pass authentication checks. To best protect our users from spam, the message has been blocked.',
  ],
  ['no PTR', '550 5.7.25 The IP address sending this message does not have a PTR record setup'],
  ['content refused (spam)', '554 5.7.1 Message rejected as spam by content filter'],
  [
    'Gmail, this message unsolicited',
    '550-5.7.1 [198.51.100.7] Our system has detected that this message is likely unsolicited mail.',
  ],
  ['a virus', '550 5.7.1 Virus found in message'],
  ['content, 5.6.0', '554 5.6.0 Message content rejected'],
  [
    'unknown user 5.1.1',
    '550 5.1.1 <jane@x.example>: Recipient address rejected: User unknown in local recipient table',
  ],
  [
    '5.1.1 with a blocklist word',
    '550 5.1.1 <jane@x.example>: Recipient address rejected: user unknown (blocklisted address)',
  ],
  [
    'Gmail no such account',
    "550-5.1.1 The email account that you tried to reach does not exist. Please try double-checking the recipient's email address for typos",
  ],
  ['Domino, not listed', '550 User jp (jane@x.example) not listed in Domino Directory'],
  ['mailbox full', '552 5.2.2 Mailbox full: quota exceeded'],
  ['recipient blocked the sender', "550 5.7.1 The sender is on the recipient's blocked senders list"],
  ['blocked by recipient', '550 5.7.1 Message blocked by recipient rules'],
  ['anti-spoofing', '550 Rejected by header based Anti-Spoofing policy'],
  ['a bare "blocked"', '550 Requested action not taken: mailbox unavailable (blocked)'],
  ['greylisting', '450 4.7.1 Greylisted, please try again later'],
  ['rate limit without reputation', '452 4.5.3 Too many recipients'],
  ['list members only', '550 Posting by non-members to hiking@lists.example is not allowed.'],
  ['sender address rejected', '553 5.1.8 <b+x@send.acme.example>: Sender address rejected'],
  // The tenant's own domain or content, not the sending address: one tenant's trouble.
  [
    'Gmail, low domain reputation',
    '550-5.7.1 Our system has detected that this message is likely suspicious due to the very low reputation of the sending domain.',
  ],
  [
    'Gmail, low domain reputation, blocked',
    '550-5.7.1 This message is likely suspicious due to the very low reputation of the sending domain and has been blocked. To best protect our users from spam, the message has been blocked.',
  ],
  [
    'Gmail, low domain reputation (421)',
    '421-4.7.0 Our system has detected that this message is suspicious due to the very low reputation of the sending domain. The message has been temporarily rate limited.',
  ],
  ['content reputation', '550 5.7.1 Message rejected: content reputation too low'],
  ['content reputation, blocked', '554 5.7.1 Message blocked: the reputation of this content is too low'],
  [
    'Microsoft, sender domain',
    '550 5.7.515 Access denied, sending domain acme.example does not meet the required authentication level.',
  ],
  [
    'Microsoft, domain reputation',
    "550 5.7.1 Message rejected: the sender's domain acme.example is on our block list due to poor reputation",
  ],
  [
    'Yahoo, From domain reputation',
    '554 5.7.9 Message not accepted for policy reasons: the From domain acme.example has a poor reputation',
  ],
  [
    'Yahoo, domain reputation (421)',
    '421 4.7.0 [TSS04] Messages from acme.example temporarily deferred due to domain reputation',
  ],
  [
    'Spamhaus DBL, the sender address',
    '554 5.7.1 Service unavailable; Sender address [b+x@send.acme.example] blocked using dbl.spamhaus.org',
  ],
  ['DMARC, blocked', '550 5.7.1 Message blocked: the From domain fails DMARC and its reputation is low'],
  ['a content filter that names reputation', '554 5.7.1 Spam: bad reputation of message content'],
];

describe('a refusal of the sending address', () => {
  it.each(SENDER_BLOCKS)('%s', (_name, reply) => {
    const session = classifySmtpReply(code(reply), reply);
    expect(session.senderBlock).toBe(true);
    // Never the recipient's fault: no category that suppresses or counts against a list.
    expect(['policy_rejected', 'content_rejected', 'rate_limited', 'system_error', 'undetermined']).toContain(
      session.category,
    );
    expect(session.reason).toMatch(/^the receiving server refused mail from the sending address/);
    // A report quoting the same reply says the same.
    const report = classifyReport({ action: code(reply) >= 500 ? 'failed' : 'delayed', diagnostic: reply });
    expect(report.senderBlock).toBe(true);
    // The delivery side's view carries it too.
    expect(classifyReply(code(reply), reply).senderBlock).toBe(true);
  });
});

describe('not a refusal of the sending address', () => {
  it.each(NOT_SENDER_BLOCKS)('%s', (_name, reply) => {
    expect(classifySmtpReply(code(reply), reply).senderBlock).toBe(false);
    expect(
      classifyReport({ action: code(reply) >= 500 ? 'failed' : 'delayed', diagnostic: reply }).senderBlock,
    ).toBe(false);
    expect(classifyReply(code(reply), reply).senderBlock).toBe(false);
  });

  it('the predicate refuses the categories that name the recipient whatever the words', () => {
    const spamhaus = 'blocked using zen.spamhaus.org';
    expect(isSenderBlock('policy_rejected', '5.7.1', spamhaus)).toBe(true);
    for (const category of [
      'unknown_recipient',
      'unknown_domain',
      'mailbox_full',
      'mailbox_disabled',
    ] as const)
      expect(isSenderBlock(category, '5.7.1', spamhaus)).toBe(false);
    // A refusal of the content is one tenant's message, whatever the words or the code.
    expect(isSenderBlock('content_rejected', '5.7.1', spamhaus)).toBe(false);
    expect(isSenderBlock('content_rejected', '5.7.606', 'Access denied')).toBe(false);
    // "Reputation" counts only next to a word for the address or the host.
    expect(isSenderBlock('policy_rejected', '5.7.1', 'rejected: poor IP reputation')).toBe(true);
    expect(
      isSenderBlock('policy_rejected', '5.7.1', 'rejected: poor reputation of the connecting host'),
    ).toBe(true);
    expect(isSenderBlock('policy_rejected', '5.7.1', 'rejected: poor reputation')).toBe(false);
    expect(
      isSenderBlock('policy_rejected', '5.7.1', `reputation ${'x'.repeat(60)} of the sending IP address`),
    ).toBe(false);
    // The Office 365 code alone names the sending address.
    expect(isSenderBlock('policy_rejected', '5.7.606', 'Access denied')).toBe(true);
    expect(isSenderBlock('policy_rejected', '5.7.1', 'Access denied')).toBe(false);
  });

  it('a delivered reply is never a block', () => {
    expect(classifyReply(250, '250 2.0.0 OK blocklist-free').senderBlock).toBe(false);
  });
});

describe('what a sender block does to the message (decideNext)', () => {
  const NOW = Date.UTC(2026, 10, 24, 12);
  const reply = '550 5.7.1 Service unavailable; Client host [127.0.0.1] blocked using zen.spamhaus.org';
  const verdict = classifyReply(550, reply);
  const result: AttemptResult = {
    outcome: verdict.outcome,
    smtpCode: 550,
    enhanced: verdict.enhanced,
    reply,
    remoteHost: 'mx.dest.example',
    remoteIp: '127.0.0.1',
    tls: false,
    throttled: verdict.throttled,
    greylisted: verdict.greylisted,
    category: verdict.category,
    reason: verdict.reason,
    senderBlock: verdict.senderBlock,
  };

  it('defers a 5xx sender block: kept queued, a policy refusal flagged sender_block, no suppression', () => {
    expect(result.outcome).toBe('bounced');
    const next = decideNext({ status: 'queued', attempts: 0, createdAt: NOW - 1000 }, result, NOW, 0.5);
    expect(next.status).toBe('deferred');
    expect(next.attemptOutcome).toBe('deferred');
    expect(next.nextAttemptAt).toBeGreaterThan(NOW);
    expect(next.suppress).toBeUndefined();
    expect(next.events).toHaveLength(1);
    expect(next.events[0]).toMatchObject({
      type: 'email.delivery_delayed',
      data: { category: 'policy_rejected', sender_block: true, smtp_code: 550, bounce_type: 'transient' },
    });
  });

  it('the same reply without the flag bounces, as before', () => {
    const next = decideNext(
      { status: 'queued', attempts: 0, createdAt: NOW - 1000 },
      { ...result, senderBlock: false },
      NOW,
      0.5,
    );
    expect(next.status).toBe('bounced');
  });

  it('a later sender block adds no event, and past the deadline the message expires, never bounces', () => {
    const later = decideNext({ status: 'deferred', attempts: 3, createdAt: NOW - 1000 }, result, NOW, 0.5);
    expect(later).toMatchObject({ status: 'deferred', events: [] });
    const expired = decideNext(
      { status: 'deferred', attempts: 9, createdAt: NOW - 1000, deadline: NOW + 1 },
      result,
      NOW,
      0.5,
    );
    expect(expired.status).toBe('failed');
    expect(expired.events[0]!.data).toMatchObject({ category: 'expired', last_category: 'policy_rejected' });
    expect(expired.suppress).toBeUndefined();
  });
});

describe("Gmail's rate limit of the sending address, in the session", () => {
  const NOW = Date.UTC(2026, 11, 2, 12);
  // As the session gets a multi-line reply: its lines, each with the code, joined by line breaks.
  const lines = (code: string) =>
    [
      `421-${code} [198.51.100.7      15] Our system has detected an unusual rate of`,
      `421-${code} unsolicited mail originating from your IP address. To protect our`,
      `421-${code} users from spam, mail sent from your IP address has been temporarily`,
      `421 ${code} rate limited. For more information, go to https://support.google.example/mail/?p=UnsolicitedRateLimitError`,
    ].join('\n');
  const delayed = (reply: string) => {
    const verdict = classifyReply(421, reply);
    const next = decideNext(
      { status: 'queued', attempts: 0, createdAt: NOW - 1000 },
      {
        outcome: verdict.outcome,
        smtpCode: 421,
        enhanced: verdict.enhanced,
        reply,
        remoteHost: 'gmail-smtp-in.l.google.example',
        remoteIp: '127.0.0.1',
        tls: true,
        throttled: verdict.throttled,
        greylisted: verdict.greylisted,
        category: verdict.category,
        reason: verdict.reason,
        senderBlock: verdict.senderBlock,
      },
      NOW,
      0.5,
    );
    return { verdict, data: next.events[0]!.data };
  };

  it('4.7.28 is recorded rate_limited, flagged sender_block, and slows the destination', () => {
    const { verdict, data } = delayed(lines('4.7.28'));
    expect(verdict).toMatchObject({ throttled: true, senderBlock: true });
    expect(data).toMatchObject({ category: 'rate_limited', sender_block: true });
  });

  it('the same words under 4.7.0 are a refusal of the address', () => {
    const { verdict, data } = delayed(lines('4.7.0'));
    expect(verdict).toMatchObject({ throttled: true, senderBlock: true });
    expect(data).toMatchObject({ category: 'policy_rejected', sender_block: true });
  });

  it('reads a multi-line reply as its words on one line', () => {
    const oneLine = lines('4.7.0').replace(/\n421[- ]4\.7\.0 /g, ' ');
    expect(oneLine).not.toContain('\n');
    expect(classifySmtpReply(421, lines('4.7.0'))).toEqual(classifySmtpReply(421, oneLine));
  });
});
