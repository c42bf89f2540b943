// DNS look-ups through TXMAIL_DNS_SERVERS (or the system's resolvers), with errors sorted into the three
// answers mail routing cares about: the name does not exist, it has no such records, or "try later".
import { promises as dns } from 'node:dns';
import { DnsError, type MxRecord, type TimedAddress } from './answers.js';
import { parseServer, queryMx, type TimedMx } from './mx-query.js';

export { DnsError, type DnsFailure, type MxRecord, type TimedAddress } from './answers.js';

/** Rounds over the servers before a look-up fails as temporary. */
const TRIES = 2;

export class DnsResolver {
  private readonly resolver: dns.Resolver;

  constructor(
    servers: string[],
    private readonly timeoutMs = 5000,
  ) {
    this.resolver = new dns.Resolver({ timeout: timeoutMs, tries: TRIES });
    if (servers.length > 0) this.resolver.setServers(servers);
  }

  mx(name: string): Promise<MxRecord[]> {
    return this.wrap(name, 'MX', () => this.resolver.resolveMx(name));
  }

  a(name: string): Promise<string[]> {
    return this.wrap(name, 'A', () => this.resolver.resolve4(name));
  }

  aaaa(name: string): Promise<string[]> {
    return this.wrap(name, 'AAAA', () => this.resolver.resolve6(name));
  }

  /**
   * MX records with their TTL (dns-cache.ts keeps the answer that long): one query of our own
   * (mx-query.ts), since c-ares gives no TTL for MX, to the same servers with the same time and tries.
   */
  mxTimed(name: string): Promise<TimedMx> {
    const servers = this.resolver.getServers().map(parseServer);
    return queryMx(name, servers, this.timeoutMs, TRIES, this.mxServers);
  }

  /** Which server the MX look-ups ask first (mx-query.ts ServerMemory). */
  private readonly mxServers = { first: 0 };

  /** A records with their TTLs (dns-cache.ts keeps each answer that long). */
  aTimed(name: string): Promise<TimedAddress[]> {
    return this.wrap(name, 'A', () => this.resolver.resolve4(name, { ttl: true }));
  }

  aaaaTimed(name: string): Promise<TimedAddress[]> {
    return this.wrap(name, 'AAAA', () => this.resolver.resolve6(name, { ttl: true }));
  }

  /** TXT records, each joined from its character strings. */
  async txt(name: string): Promise<string[]> {
    const records = await this.wrap(name, 'TXT', () => this.resolver.resolveTxt(name));
    return records.map((chunks) => chunks.join(''));
  }

  /** Raw TXT records in the shape mailauth's resolver option expects. */
  async txtChunks(name: string): Promise<string[][]> {
    return this.wrap(name, 'TXT', () => this.resolver.resolveTxt(name));
  }

  /** Ends every look-up in flight (they fail as temporary): a shutdown need not wait for slow lists. */
  cancel(): void {
    this.resolver.cancel();
  }

  private async wrap<T>(name: string, type: string, query: () => Promise<T>): Promise<T> {
    try {
      return await query();
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code === 'ENOTFOUND') throw new DnsError('nxdomain', `${name} does not exist (NXDOMAIN)`);
      if (code === 'ENODATA') throw new DnsError('nodata', `${name} has no ${type} records`);
      throw new DnsError('temporary', `${type} look-up for ${name} failed (${code ?? String(err)})`);
    }
  }
}
