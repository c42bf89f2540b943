// Sending domains: what a check looks for, and the caches its result makes stale.
import type { ApiKeyAuth } from '../accounts/api-key-auth.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { DkimKeys } from '../dkim/dkim-keys.js';
import type { DnsResolver } from '../dns/resolver.js';
import { Domains } from '../domains/domains.js';
import type { VerifiedDomains } from '../domains/verified-domains.js';
import type { Repos } from './repos.js';

export function createDomains(
  config: Config,
  deps: {
    repos: Repos;
    dkim: DkimKeys;
    dns: DnsResolver;
    verifiedDomains: VerifiedDomains;
    auth: ApiKeyAuth;
    clock: Clock;
  },
): Domains {
  const { repos, verifiedDomains, auth } = deps;
  return new Domains(
    repos.domains,
    repos.dkimKeys,
    deps.dkim,
    deps.dns,
    deps.clock,
    {
      returnPathLabel: config.returnPathLabel,
      inboundMx: config.inboundMx,
      spfDomain: config.spfDomain,
      reserved: [config.testDomain, config.hostname, config.spfDomain, config.inboundMx],
      // Read only through config.sourceIps: the variable's syntax may grow (e.g. warm-up dates).
      sourceIps: config.sourceIps,
      hostname: config.hostname,
    },
    (accountId, accountStateChanged) => {
      verifiedDomains.invalidate(accountId);
      if (accountStateChanged) auth.invalidate();
    },
  );
}
