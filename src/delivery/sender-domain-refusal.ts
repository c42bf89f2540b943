// Why a customer's message can no longer be sent from its From domain. Customer mail is signed only with
// its own domain's key, while that domain may send (verified, or `temporary_failure` in its grace
// period): signed with the service's test-domain key it would fail DMARC alignment for the From domain
// and spend the test domain's reputation on mail nobody vouches for any more. Pure.
import type { DomainStatus } from '../db/schema.js';

/**
 * The reason stored with the message's `email.failed` event, from the domain's status in the account
 * now (undefined: the account has no such domain, e.g. it was deleted) when no key can sign for it.
 */
export function senderDomainRefusal(domain: string, status: DomainStatus | undefined): string {
  switch (status) {
    case undefined:
      return `sender domain ${domain} was removed from this account; mail from it is no longer sent`;
    case 'failed':
      return `sender domain ${domain} is no longer verified (its DNS records failed verification); verify it again to send from it`;
    case 'pending':
      return `sender domain ${domain} is not verified; verify it to send from it`;
    case 'verified':
    case 'temporary_failure':
      // A domain set verified by hand before verification existed: verifying it creates its key.
      return `sender domain ${domain} has no DKIM key to sign with; verify it to get one`;
  }
}
