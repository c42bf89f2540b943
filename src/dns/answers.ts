// What DNS look-ups answer and how they fail, apart from the resolvers that make them: plain types and
// one error class, so that db/ and the pure modules it uses may name them (test/db-leaf.test.ts).

export type DnsFailure = 'nxdomain' | 'nodata' | 'temporary';

export class DnsError extends Error {
  constructor(
    readonly failure: DnsFailure,
    message: string,
  ) {
    super(message);
    this.name = 'DnsError';
  }
}

export interface MxRecord {
  exchange: string;
  priority: number;
}

/** An address with the TTL (seconds) its record was served with. */
export interface TimedAddress {
  address: string;
  ttl: number;
}
