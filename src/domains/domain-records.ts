// The DNS records a customer publishes for a sending domain (docs/design.md §6), in one place: the API shows
// them, the checker compares DNS against them.
import type { DkimAlgorithmName } from '../db/schema.js';
import { dkimRecordName, dkimRecordValue } from '../dkim/keys.js';

export type RecordKind = 'dkim' | 'return_path_mx' | 'spf' | 'dmarc';

export interface ExpectedRecord {
  record: RecordKind;
  type: 'TXT' | 'MX';
  name: string;
  value: string;
  /** MX preference. */
  priority?: number;
  /** false: checked and reported, but verification does not wait for it (DMARC). */
  required: boolean;
  purpose: string;
}

/** Where the service receives bounces and what customers' SPF records include. */
export interface ServiceDns {
  returnPathLabel: string;
  inboundMx: string;
  spfDomain: string;
}

export function spfRecordValue(spfDomain: string): string {
  return `v=spf1 include:${spfDomain} ~all`;
}

/** The DMARC record txmail suggests to start with: monitoring only, reports to the domain's owner. */
export function suggestedDmarcValue(domain: string): string {
  return `v=DMARC1; p=none; rua=mailto:dmarc-reports@${domain}`;
}

export function domainRecords(
  domain: string,
  key: { selector: string; publicKey: string },
  service: ServiceDns,
): ExpectedRecord[] {
  const returnPath = `${service.returnPathLabel}.${domain}`;
  return [
    {
      record: 'dkim',
      type: 'TXT',
      name: dkimRecordName(key.selector, domain),
      value: dkimRecordValue(key.publicKey),
      required: true,
      purpose: 'DKIM: receivers check the signature on every message against this public key',
    },
    {
      record: 'return_path_mx',
      type: 'MX',
      name: returnPath,
      value: service.inboundMx,
      priority: 10,
      required: true,
      purpose: `Return path: bounces and complaints for mail sent from ${domain} come back to txmail`,
    },
    {
      record: 'spf',
      type: 'TXT',
      name: returnPath,
      value: spfRecordValue(service.spfDomain),
      required: true,
      purpose: `SPF: authorizes txmail's servers to send with the envelope domain ${returnPath}`,
    },
    {
      record: 'dmarc',
      type: 'TXT',
      name: `_dmarc.${domain}`,
      value: suggestedDmarcValue(domain),
      required: false,
      purpose:
        'DMARC (recommended): tells receivers what to do with mail that fails DKIM and SPF alignment, and where to send reports',
    },
  ];
}

/** The TXT record that publishes one DKIM key (any status: the dashboard shows pending and retired ones too). */
export function dkimKeyRecord(key: {
  selector: string;
  domain: string;
  public_key: string;
  algorithm: DkimAlgorithmName;
}): { type: 'TXT'; name: string; value: string } {
  return {
    type: 'TXT',
    name: dkimRecordName(key.selector, key.domain),
    value: dkimRecordValue(key.public_key, key.algorithm),
  };
}
