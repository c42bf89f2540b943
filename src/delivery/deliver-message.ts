// One delivery attempt of one message: compose, sign, choose the envelope sender, route, hand to the
// transport. Knows nothing about the queue; the worker records what this returns.
import type { Clock } from '../clock.js';
import type { MessageRow } from '../db/schema.js';
import type { DkimKeys } from '../dkim/dkim-keys.js';
import type { DnsResolver } from '../dns/resolver.js';
import type { DestinationLimits } from './destination-limits.js';
import type { MessageBuilder } from './message-builder.js';
import type { SourceIpPool } from './source-ip-pool.js';
import { resolveMxRoute } from './mx-route.js';
import type { AttemptResult, DeliveryTarget, Transport } from './transport.js';
import type { Verp } from './verp.js';

export interface DelivererSettings {
  hostname: string;
  testDomain: string;
  returnPathLabel: string;
  relay: DeliveryTarget | undefined;
  mxPort: number;
  allowPrivateNetworks: boolean;
}

export type DeliveryOutcome =
  /** sourceIp: the local address the attempt left from (undefined: the system's choice, or none). */
  | { kind: 'attempted'; result: AttemptResult; sourceIp?: string }
  /** The destination is paused or saturated: try again then, without counting an attempt. */
  | { kind: 'paused'; until: number }
  | { kind: 'unsendable'; reason: string };

export class Deliverer {
  constructor(
    private readonly settings: DelivererSettings,
    private readonly deps: {
      dns: DnsResolver;
      dkim: DkimKeys;
      verp: Verp;
      transport: Transport;
      builder: MessageBuilder;
      limits: DestinationLimits;
      sources: SourceIpPool;
      verifiedDomains: (accountId: string) => Promise<string[]>;
      clock: Clock;
    },
  ) {}

  async deliver(m: MessageRow): Promise<DeliveryOutcome> {
    const { deps, settings } = this;
    const route = await this.targets(m.to_domain);
    if ('result' in route) return { kind: 'attempted', result: route.result };
    const now = deps.clock.now();
    const paused = deps.limits.pausedUntil(route.destination, now);
    if (paused !== undefined) return { kind: 'paused', until: paused };

    const verified = (await deps.verifiedDomains(m.account_id)).includes(m.from_domain);
    const key =
      (verified ? await deps.dkim.signingKey(m.from_domain, m.account_id) : undefined) ??
      (await deps.dkim.signingKey(settings.testDomain, null));
    if (!key) return { kind: 'unsendable', reason: 'no DKIM key to sign with' };
    // Bounces come back to a domain the service receives for: send.<customer domain> once verified
    // (SPF and return-path alignment), the service's test domain otherwise.
    const envelopeDomain = verified ? `${settings.returnPathLabel}.${m.from_domain}` : settings.testDomain;

    const signed = await deps.builder.build({
      message: {
        id: m.id,
        fromName: m.from_name,
        fromEmail: m.from_email,
        toName: m.to_name,
        toEmail: m.to_email,
        subject: m.subject,
        html: m.html,
        createdAt: m.created_at,
      },
      hostname: settings.hostname,
      key,
    });

    const admission = await deps.limits.acquire(route.destination);
    if ('retryAt' in admission) return { kind: 'paused', until: admission.retryAt };
    const maxMessages = deps.limits.rule(route.destination).messagesPerConnection;
    try {
      const source = deps.sources.take();
      if ('retryAt' in source) return { kind: 'paused', until: source.retryAt };
      const result = await deps.transport.deliver(
        { from: deps.verp.address(m.id, envelopeDomain), to: m.to_email, raw: signed },
        route.targets.map((t) => ({ ...t, maxMessages })),
        source.address,
      );
      if (result.throttled) deps.limits.throttled(route.destination, deps.clock.now());
      else if (result.outcome === 'delivered') deps.limits.delivered(route.destination);
      return { kind: 'attempted', result, sourceIp: source.address };
    } finally {
      admission.release();
    }
  }

  /** Where mail for this domain goes now: the relay, or its MX hosts; or why nowhere. */
  private async targets(
    domain: string,
  ): Promise<{ destination: string; targets: DeliveryTarget[] } | { result: AttemptResult }> {
    const { settings } = this;
    if (settings.relay) return { destination: `relay:${settings.relay.host}`, targets: [settings.relay] };
    const route = await resolveMxRoute(domain, this.deps.dns, {
      allowPrivate: settings.allowPrivateNetworks,
    });
    if (!route.ok) {
      return {
        result: {
          outcome: route.permanent ? 'bounced' : 'deferred',
          smtpCode: null,
          enhanced: route.enhanced,
          reply: route.reason,
          remoteHost: null,
          remoteIp: null,
          tls: false,
          throttled: false,
        },
      };
    }
    const targets = route.hosts.flatMap((h) =>
      h.addresses.map((address) => ({ host: h.name, address, port: settings.mxPort, secure: false })),
    );
    return { destination: `mx:${route.hosts[0]!.name}`, targets };
  }
}

/** The relay as a delivery target, from TXMAIL_RELAY_URL (`smtp://` STARTTLS when offered, `smtps://`). */
export function relayTarget(relayUrl: string): DeliveryTarget {
  const u = new URL(relayUrl);
  const secure = u.protocol === 'smtps:';
  return {
    host: u.hostname,
    address: u.hostname.replace(/^\[|\]$/g, ''),
    port: u.port ? Number(u.port) : secure ? 465 : 587,
    secure,
    ...(u.username
      ? { auth: { user: decodeURIComponent(u.username), pass: decodeURIComponent(u.password) } }
      : {}),
  };
}
