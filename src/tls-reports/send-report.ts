// How a report reaches a `rua` (RFC 8460 §5): `mailto:` as signed mail handed straight to the
// address's domain's mail hosts (or the relay), never through the customers' queue; `https:` as a POST
// of the gzipped JSON. Each throws when the report was not accepted, so it is tried again later.
import type { DeliveryTarget, Transport } from '../delivery/transport.js';
import { mxTargets, resolveMxRoute } from '../delivery/mx-route.js';
import type { DnsResolver } from '../dns/resolver.js';
import { guardedHttps, type GuardedHttpsOptions } from '../mta-sts/guarded-https.js';

export interface ReportSenders {
  mail(to: string, from: string, raw: Buffer): Promise<void>;
  post(url: string, gzip: Buffer): Promise<void>;
}

export function reportSenders(deps: {
  dns: DnsResolver;
  transport: Transport;
  /** TXMAIL_RELAY_URL: all mail goes through it. */
  relay: DeliveryTarget | undefined;
  mxPort: number;
  /** The address reports leave from (one of TXMAIL_SOURCE_IPS, which SPF lists); undefined: the system's. */
  sourceIp?: string;
  allowPrivate: boolean;
  /** Trusted roots for https endpoints (tests in one process). */
  ca?: string | string[];
  timeoutMs?: number;
}): ReportSenders {
  const https: GuardedHttpsOptions = {
    dns: deps.dns,
    allowPrivate: deps.allowPrivate,
    ca: deps.ca,
    timeoutMs: deps.timeoutMs ?? 30_000,
    maxBytes: 64 * 1024,
  };
  return {
    async mail(to, from, raw) {
      const domain = to.slice(to.lastIndexOf('@') + 1).toLowerCase();
      let targets: DeliveryTarget[];
      if (deps.relay) {
        targets = [deps.relay];
      } else {
        const route = await resolveMxRoute(domain, deps.dns, { allowPrivate: deps.allowPrivate });
        if (!route.ok) throw new Error(route.reason);
        targets = mxTargets(route.hosts, deps.mxPort);
      }
      const result = await deps.transport.deliver({ from, to, raw }, targets, deps.sourceIp);
      if (result.outcome !== 'delivered') throw new Error(`${result.outcome}: ${result.reply}`);
    },
    async post(url, gzip) {
      const answer = await guardedHttps(
        new URL(url),
        { method: 'POST', headers: { 'content-type': 'application/tlsrpt+gzip' }, body: gzip },
        https,
      );
      if (answer.status < 200 || answer.status > 299) throw new Error(`HTTP ${answer.status}`);
    },
  };
}
