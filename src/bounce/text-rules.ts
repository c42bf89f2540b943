// What a bounce means when the server sent no enhanced status code, recognised from its words.
// Data, not code (as in KumoMTA's bounce classifier): first match wins, most specific first.

export interface TextRule {
  pattern: RegExp;
  /** The subject.detail this text stands for; the class (4 or 5) comes from the reply or the report. */
  status: string;
}

export const TEXT_RULES: readonly TextRule[] = [
  {
    pattern: /mailbox (is )?full|over ?quota|quota exceeded|insufficient (system )?storage|exceeded storage/i,
    status: '2.2',
  },
  {
    pattern: /(mailbox|account|user) (is |has been )?(disabled|deactivated|suspended|inactive|locked)/i,
    status: '2.1',
  },
  {
    pattern:
      /user unknown|unknown user|no such (user|mailbox|recipient)|does not exist|doesn't exist|doesn't have an? [\w.-]+ account|recipient not found|RecipNotFound|invalid (recipient|mailbox)|unknown (recipient|mailbox)|mailbox (not found|unavailable)|no mailbox|address rejected|couldn't be found|not a valid (user|mailbox)|user not found/i,
    status: '1.1',
  },
  {
    pattern:
      /couldn't find any host|host (or domain name )?not found|domain (name )?not found|no such domain|unrouteable/i,
    status: '1.2',
  },
  { pattern: /too (big|large)|size limit|exceeds (the )?(maximum )?(message )?size/i, status: '3.4' },
  {
    pattern: /spam|blocked|block ?list|black ?list|reputation|policy|not allowed|denied|DMARC|SPF|DKIM/i,
    status: '7.1',
  },
];

/** The subject.detail the text of a failure stands for, or undefined. */
export function statusFromText(text: string): string | undefined {
  return TEXT_RULES.find((r) => r.pattern.test(text))?.status;
}
