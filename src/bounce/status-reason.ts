// Plain-language reasons for RFC 3463 enhanced status codes, for the log and the suppression list.

const EXACT: Record<string, string> = {
  '1.1': 'the mailbox does not exist',
  '1.2': "the recipient's domain does not exist or accepts no mail",
  '1.3': 'the recipient address is malformed',
  '1.6': 'the mailbox has moved and has no forwarding address',
  '1.7': "the sender's address is malformed",
  '1.8': "the sender's address was refused",
  '1.10': "the recipient's domain accepts no mail (null MX)",
  '2.1': 'the mailbox is disabled',
  '2.2': 'the mailbox is full',
  '2.3': 'the message is larger than the mailbox accepts',
  '2.4': 'a mailing list expansion failed',
  '3.4': 'the message is larger than the receiving server accepts',
  '4.1': 'the receiving server did not answer',
  '4.2': 'the connection to the receiving server broke',
  '4.4': 'the recipient domain could not be routed',
  '4.7': 'the message expired in a queue before it could be delivered',
  '7.1': "the receiving server's policy refused the message",
  '7.26': 'the message failed sender authentication (SPF, DKIM or DMARC)',
  '7.28': 'the receiving server is rate limiting mail from this sender',
};

const BY_SUBJECT: Record<string, string> = {
  '0': 'the receiving server gave no further detail',
  '1': 'a problem with the recipient address',
  '2': 'a problem with the mailbox',
  '3': 'a problem with the receiving mail system',
  '4': 'a network or routing problem',
  '5': 'a mail protocol problem',
  '6': 'a problem with the message content',
  '7': "the receiving server's security or policy refused the message",
};

/** e.g. `5.1.1` → "the mailbox does not exist". */
export function describeStatus(code: string): string {
  const [, subject = '0', detail = '0'] = code.split('.');
  const exact = EXACT[`${subject}.${detail}`];
  if (exact) return exact;
  if (subject === '7' && code.startsWith('5')) return BY_SUBJECT['7']!;
  const general = BY_SUBJECT[subject] ?? BY_SUBJECT['0']!;
  return code.startsWith('4') ? `temporary failure: ${general}` : general;
}
