// What to tell a customer about their DMARC policy (RFC 7489). DMARC is optional for verification, but
// Gmail and Yahoo require at least p=none from bulk senders since February 2024: a missing record is
// also a warning of the check (domain-check.ts, dmarc_missing).
export type DmarcPolicy = 'none' | 'quarantine' | 'reject';

export function dmarcGuidance(policy: DmarcPolicy | null, suggested: string): string {
  switch (policy) {
    case null:
      return `No DMARC policy: required by Gmail and Yahoo for bulk senders. Publish "${suggested}" to start: it only collects reports. Once they show your mail passes, move to p=quarantine, then p=reject.`;
    case 'none':
      return 'Monitoring only (p=none): receivers deliver failing mail as usual. Once the reports show your mail passes, move to p=quarantine.';
    case 'quarantine':
      return 'Failing mail goes to spam (p=quarantine). When you are confident every sender of your domain passes, move to p=reject.';
    case 'reject':
      return 'Failing mail is refused (p=reject): the strongest protection against spoofing.';
  }
}
