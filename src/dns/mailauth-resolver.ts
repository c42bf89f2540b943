// Our resolver in the shape mailauth's checks take (`resolver(name, type)`, answers as node:dns gives
// them), so they look up through TXMAIL_DNS_SERVERS too. mailauth tells "no record" from "try later" by
// the Node.js error codes, so DnsError's sorting is translated back into them.
import { DnsError, type DnsResolver } from './resolver.js';

export type MailauthResolver = (name: string, type: string) => Promise<unknown[]>;

export function mailauthResolver(dns: DnsResolver): MailauthResolver {
  return async (name, type) => {
    try {
      switch (type) {
        case 'TXT':
          return await dns.txtChunks(name);
        case 'A':
          return await dns.a(name);
        case 'AAAA':
          return await dns.aaaa(name);
        case 'MX':
          return await dns.mx(name);
        default:
          throw new DnsError('nodata', `${type} look-ups are not supported here`);
      }
    } catch (err) {
      const failure = err instanceof DnsError ? err.failure : 'temporary';
      const code = failure === 'nxdomain' ? 'ENOTFOUND' : failure === 'nodata' ? 'ENODATA' : 'ESERVFAIL';
      throw Object.assign(new Error((err as Error).message), { code });
    }
  };
}
