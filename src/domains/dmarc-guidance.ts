// What to tell a customer about their DMARC policy (RFC 7489). DMARC is optional for verification, but
// large mailbox providers expect at least p=none from senders (Gmail and Yahoo since February 2024).
export type DmarcPolicy = 'none' | 'quarantine' | 'reject';

export function dmarcGuidance(policy: DmarcPolicy | null, suggested: string): string {
  switch (policy) {
    case null:
      return `No DMARC policy. Publish "${suggested}" to start: it only collects reports. Once they show your mail passes, move to p=quarantine, then p=reject.`;
    case 'none':
      return 'Monitoring only (p=none): receivers deliver failing mail as usual. Once the reports show your mail passes, move to p=quarantine.';
    case 'quarantine':
      return 'Failing mail goes to spam (p=quarantine). When you are confident every sender of your domain passes, move to p=reject.';
    case 'reject':
      return 'Failing mail is refused (p=reject): the strongest protection against spoofing.';
  }
}
