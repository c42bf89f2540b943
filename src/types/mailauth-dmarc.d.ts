// mailauth ships no types for its DMARC record look-up; this is the part txmail uses.
declare module 'mailauth/lib/dmarc/get-dmarc-record.js' {
  export interface DmarcRecord {
    v?: string;
    p?: string;
    sp?: string;
    pct?: number;
    rua?: string;
    /** The record as published. */
    rr: string;
    /** The policy came from the organizational domain, not the domain itself (RFC 7489 §6.6.3). */
    isOrgRecord: boolean;
    [tag: string]: unknown;
  }
  /** The DMARC policy for a domain, or false when none applies; `resolver(name, 'TXT')` answers string[][]. */
  export default function getDmarcRecord(
    domain: string,
    resolver: (name: string, type: string) => Promise<string[][]>,
  ): Promise<DmarcRecord | false>;
}
