// One delivery attempt of one message: choose the signing key and the envelope sender (or refuse a
// sender domain that may no longer send), route, compose, sign, hand to the transport. Knows nothing
// about the queue; the worker records what this returns.
import type { SealedHtml } from '../messages/sealed-html.js';
import type { Clock } from '../clock.js';
import {
  SENDABLE_DOMAIN_STATUSES,
  type DomainStatus,
  type DomainTls,
  type MessageWithBody,
} from '../db/schema.js';
import { MAX_RAW_KEPT_BYTES } from '../db/messages-repo.js';
import type { KeptRaw } from '../db/queue-record.js';
import type { DkimKeys, SigningKey } from '../dkim/dkim-keys.js';
import type { RouteDns } from '../dns/dns-cache.js';
import type { DestinationBlocks } from './destination-blocks.js';
import { blockDestination } from './destination-key.js';
import type { DestinationLimits } from './destination-limits.js';
import type { BuiltMessage } from './build-message.js';
import type { MessageBuilder } from './message-builder.js';
import type { SourceIpPool } from './source-ip-pool.js';
import { mxTargets, resolveMxRoute } from './mx-route.js';
import { senderDomainRefusal } from './sender-domain-refusal.js';
import { unlistedHost, type TlsRequirement, type TlsSessionReport } from './tls-policy.js';
import { tlsRequirement } from './tls-verdict.js';
import type { AttemptResult, DeliveryTarget, Transport } from './transport.js';
import type { Verp } from './verp.js';
import type { SimulatorTransport } from '../simulator/simulator-transport.js';

/** A delivery that failed before anything was sent; `cause` is what failed. */
export class AttemptNotStarted extends Error {
  constructor(cause: unknown) {
    super(`the attempt did not start: ${(cause as Error)?.message ?? String(cause)}`, { cause });
  }
}

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
  | { kind: 'attempted'; result: AttemptResult; sourceIp?: string; raw?: KeptRaw }
  /** The destination is paused or saturated: try again then, without counting an attempt. */
  | { kind: 'paused'; until: number }
  /** Failed without an attempt; `details` go into the email.failed event beside the reason. */
  | { kind: 'unsendable'; reason: string; details?: Record<string, unknown> };

type Sender =
  { key: SigningKey; envelopeDomain: string } | { refused: string; details?: Record<string, unknown> };

export class Deliverer {
  constructor(
    private readonly settings: DelivererSettings,
    private readonly deps: {
      /** MX and address look-ups: the worker's DnsCache (dns/dns-cache.ts), shared by its deliveries. */
      dns: RouteDns;
      dkim: DkimKeys;
      verp: Verp;
      transport: Transport;
      builder: MessageBuilder;
      limits: DestinationLimits;
      sources: SourceIpPool;
      /** Destinations paused for source addresses after sender blocks (absent: none are kept). */
      blocks?: DestinationBlocks;
      /** The account's sendable domains (cached briefly: domains/verified-domains.ts). */
      verifiedDomains: (accountId: string) => Promise<string[]>;
      /** The status of one of the account's domains as stored now (undefined: no such domain). */
      domainStatus: (accountId: string, name: string) => Promise<DomainStatus | undefined>;
      /**
       * The TLS setting of the account's sendable domain (cached with the verified domains); absent:
       * every domain is opportunistic (ARCHITECTURE.md, "TLS policy").
       */
      domainTls?: (accountId: string, name: string) => Promise<DomainTls>;
      /**
       * The recipient domain's MTA-STS policy as a requirement (undefined: it has none); asked for every
       * attempt to the MX hosts, never with a relay. Absent: no MTA-STS.
       */
      tlsPolicy?: (recipientDomain: string) => Promise<TlsRequirement | undefined>;
      /** Told every attempt's TLS sessions to the recipient's MX hosts (TLS reporting, RFC 8460). */
      tlsReports?: {
        record(r: {
          recipientDomain: string;
          requirement: TlsRequirement;
          sourceIp: string | null;
          sessions: TlsSessionReport[];
        }): void;
      };
      /**
       * The bytes of an attempt as signed, compressed to be kept with its record (ARCHITECTURE.md,
       * "Message content"); never throws (undefined: not kept). Started as soon as the message is
       * signed, so the compression runs while the SMTP exchange waits. Absent: nothing is kept.
       */
      keepRaw?: (signed: Buffer, gzipped: Buffer | undefined) => Promise<KeptRaw | undefined>;
      /** Opens the HTML of a sealed message (messages/sealed-html.ts) to build it. */
      sealedHtml: Pick<SealedHtml, 'open'>;
      /** Answers mail to the simulator's addresses in place of the transport (docs/design.md §16). */
      simulator?: SimulatorTransport;
      clock: Clock;
    },
  ) {}

  /** The process is stopping: deliveries waiting for a connection go back to the queue (destination-limits.ts). */
  stopWaiting(): void {
    this.deps.limits.stopWaiting();
  }

  /**
   * Delivers once. What fails before the transport is handed the message (a read of the database, the
   * DNS, the signing) rejects with AttemptNotStarted: nothing was sent, which the worker may count as
   * no attempt. A failure after it rejects as it is.
   */
  async deliver(m: MessageWithBody, mayFinish?: () => boolean, deadline?: number): Promise<DeliveryOutcome> {
    let sending = false;
    try {
      return await this.deliverOnce(m, () => (sending = true), mayFinish, deadline);
    } catch (err) {
      throw sending ? err : new AttemptNotStarted(err);
    }
  }

  /**
   * `mayFinish`: whether the message's lease is still this process's (DeliveryJob.mayFinish).
   * `deadline`: the message's (its expire_after): the wait for a connection ends there, and no attempt
   * starts at or after it; the message waits until then (`paused`), when the worker fails it as expired.
   */
  private async deliverOnce(
    m: MessageWithBody,
    startSending: () => void,
    mayFinish: (() => boolean) | undefined,
    deadline: number | undefined,
  ): Promise<DeliveryOutcome> {
    const { deps, settings } = this;
    if (deps.simulator?.handles(m.to_domain)) return this.simulate(m, deps.simulator);
    const sender = await this.sender(m);
    if ('refused' in sender) return { kind: 'unsendable', reason: sender.refused, details: sender.details };
    const { key, envelopeDomain } = sender;
    const route = await this.targets(m.to_domain);
    if ('result' in route) return { kind: 'attempted', result: route.result };
    const now = deps.clock.now();
    const paused = deps.limits.pausedUntil(route.destination, now);
    if (paused !== undefined) return { kind: 'paused', until: paused };
    // The source addresses the destination is paused for after sender blocks: the message leaves from
    // another one, or waits for the first pause to end without counting an attempt (ARCHITECTURE.md,
    // "Destination blocks").
    const blockKey = blockDestination(route.destination);
    const blocked = deps.blocks ? await deps.blocks.paused(blockKey) : undefined;
    if (blocked && blocked.size > 0) {
      const configured = deps.sources.addresses();
      const candidates = configured.length > 0 ? configured : [''];
      if (candidates.every((a) => blocked.has(a)))
        return { kind: 'paused', until: Math.min(...candidates.map((a) => blocked.get(a)!)) };
    }
    // The TLS requirement after the pauses: a paused destination waits without a policy look-up, and
    // an unlisted MX is not recorded as an attempt of a message that was only to wait.
    const tls = await this.tlsRequirement(m);
    // MTA-STS in enforce: only the hosts its policy lists are tried (RFC 8461 §4.1); none listed, the
    // message waits (the policy or the MX records may change) instead of going elsewhere.
    if (tls.policy === 'mta-sts') {
      const listed = route.targets.filter((t) => unlistedHost(t.host, tls) === undefined);
      if (listed.length === 0) return { kind: 'attempted', result: this.unlisted(m, route.targets, tls) };
      route.targets = listed;
    }

    // A destination whose line is full would send the message away: know it before signing it.
    const turnedAway = deps.limits.turnsAway(route.destination, m.account_id, deps.clock.now(), m.id);
    if (turnedAway !== undefined) return { kind: 'paused', until: turnedAway };
    const { bytes: signed, gzipped } = await this.sign(m, key);

    const admission = await deps.limits.acquire(route.destination, m.account_id, m.id, deadline);
    if ('retryAt' in admission) return { kind: 'paused', until: admission.retryAt };
    const maxMessages = deps.limits.rule(route.destination).messagesPerConnection;
    try {
      // The look-ups, the signature and the line took it past its deadline: not started (docs/API.md),
      // nor counted against a warming source address's allowance.
      if (deadline !== undefined && deps.clock.now() >= deadline) return { kind: 'paused', until: deadline };
      const source = deps.sources.take(blocked && blocked.size > 0 ? new Set(blocked.keys()) : undefined);
      if ('retryAt' in source) return { kind: 'paused', until: source.retryAt };
      // Compressed while the SMTP exchange waits; not for a message that only waits its turn.
      const kept = this.keep(m, signed, gzipped);
      startSending();
      const result = await deps.transport.deliver(
        {
          from: deps.verp.address(m.id, envelopeDomain),
          to: m.to_email,
          raw: signed,
          ...(mayFinish ? { mayFinish } : {}),
          ...(deadline !== undefined ? { until: deadline } : {}),
        },
        route.targets.map((t) => ({ ...t, maxMessages })),
        source.address,
        tls,
      );
      if (result.tlsSessions && result.tlsSessions.length > 0 && !settings.relay) {
        deps.tlsReports?.record({
          recipientDomain: m.to_domain,
          requirement: tls,
          sourceIp: source.address ?? null,
          sessions: result.tlsSessions,
        });
      }
      // Only a real throttle slows the destination down. A greylisting reply is about this message's
      // (client, sender, recipient) triplet: the other messages for the destination go on at full
      // concurrency (ARCHITECTURE.md, "Greylisting is not throttling").
      if (result.throttled && !result.greylisted) deps.limits.throttled(route.destination, deps.clock.now());
      else if (result.outcome === 'delivered') deps.limits.delivered(route.destination);
      if (result.senderBlock && deps.blocks) {
        await deps.blocks.senderBlock({
          destination: blockKey,
          sourceIp: source.address ?? '',
          accountId: m.account_id,
          reply: result.reply,
        });
      }
      return { kind: 'attempted', result, sourceIp: source.address, raw: await kept };
    } finally {
      admission.release();
    }
  }

  private sign(m: MessageWithBody, key: SigningKey | undefined): Promise<BuiltMessage> {
    return this.deps.builder.build({
      message: {
        id: m.id,
        fromName: m.from_name,
        fromEmail: m.from_email,
        toName: m.to_name,
        toEmail: m.to_email,
        subject: m.subject,
        // A sealed message's link is in plain text only here, on its way to the wire.
        html: m.sealed && m.html !== '' ? this.deps.sealedHtml.open(m.html) : m.html,
        createdAt: m.created_at,
        feedbackId: feedbackId(m.account_id, m.from_domain),
      },
      hostname: this.settings.hostname,
      key,
      // Compressed for keeping on the build thread (build-message.ts keptCopy).
      ...(this.deps.keepRaw && !m.sealed ? { keepUpTo: MAX_RAW_KEPT_BYTES } : {}),
    });
  }

  /**
   * Keeps the bytes as signed (deps.keepRaw); not a sealed message's: the log withholds its content, and
   * they would hold its link in plain text until the retention sweep.
   */
  private keep(m: MessageWithBody, signed: Buffer, gzipped: Buffer | undefined) {
    return m.sealed ? undefined : this.deps.keepRaw?.(signed, gzipped);
  }

  /**
   * Mail to a simulator address: signed as it would be sent while its From domain is one the account
   * may send from, else not signed at all: the simulator takes mail from a domain not yet verified,
   * and no other key may sign it (the test domain's would vouch for any From the customer wrote, and
   * the raw view would hand out a message that passes DKIM and DMARC for the service's domain). Then
   * kept, and answered by the simulator; no route, no limits, no connection (docs/design.md §16).
   * Only the cached look-ups (ownKey): a domain not yet verified, the simulator's common case, must not
   * cost a read of its status for every message, as a real send's last look before failing does.
   */
  private async simulate(m: MessageWithBody, simulator: SimulatorTransport): Promise<DeliveryOutcome> {
    const { deps, settings } = this;
    const key = m.from_domain === settings.testDomain ? undefined : await this.ownKey(m);
    const { bytes: signed, gzipped } = await this.sign(m, key);
    const kept = this.keep(m, signed, gzipped);
    const result = await simulator.deliver(
      {
        from: deps.verp.address(m.id, key ? this.returnPathDomain(m.from_domain) : settings.testDomain),
        to: m.to_email,
        raw: signed,
      },
      m.attempts,
    );
    return { kind: 'attempted', result, raw: await kept };
  }

  /**
   * The key of the customer's From domain while the account may send from it, through the caches (the
   * sendable domains a second, keys a minute); undefined otherwise.
   */
  private async ownKey(m: MessageWithBody): Promise<SigningKey | undefined> {
    const sendable = (await this.deps.verifiedDomains(m.account_id)).includes(m.from_domain);
    return sendable ? this.deps.dkim.signingKey(m.from_domain, m.account_id) : undefined;
  }

  /** Where a customer domain's bounces come back: send.<domain> (SPF and return-path alignment). */
  private returnPathDomain(domain: string): string {
    return `${this.settings.returnPathLabel}.${domain}`;
  }

  /**
   * The key that signs the message and the domain its bounces come back to (one the service receives
   * for). The service's own mail (From the test domain: the guided test, account and system mail) is
   * signed with the test domain's key, bounces to the test domain. Customer mail only with its own
   * domain's key, bounces to send.<domain> (SPF and return-path alignment), while the domain may send;
   * else the message fails with the reason (sender-domain-refusal.ts).
   */
  private async sender(m: MessageWithBody): Promise<Sender> {
    const { deps, settings } = this;
    const domain = m.from_domain;
    if (domain === settings.testDomain) {
      const key = await deps.dkim.signingKey(domain, null);
      return key ? { key, envelopeDomain: domain } : { refused: `no DKIM key for ${domain}` };
    }
    const signed = (key: SigningKey): Sender => ({ key, envelopeDomain: this.returnPathDomain(domain) });
    const key = await this.ownKey(m);
    if (key) return signed(key);
    // Before failing the message, look again past the caches (a second for the domains, a minute for
    // keys): the domain may have been verified, or given its key, a moment ago.
    const status = await deps.domainStatus(m.account_id, domain);
    if (status !== undefined && SENDABLE_DOMAIN_STATUSES.includes(status)) {
      deps.dkim.forget(domain, m.account_id);
      const fresh = await deps.dkim.signingKey(domain, m.account_id);
      if (fresh) return signed(fresh);
    }
    return {
      refused: senderDomainRefusal(domain, status),
      details: { sender_domain: domain, domain_status: status ?? null },
    };
  }

  /**
   * What TLS the message's sessions must have (tls-verdict.ts tlsRequirement): its sending domain's
   * setting (the service's own mail: opportunistic) and, to the MX hosts, the recipient domain's
   * MTA-STS policy; through a relay only the domain's setting applies (to the relay's host).
   */
  private async tlsRequirement(m: MessageWithBody): Promise<TlsRequirement> {
    const { deps, settings } = this;
    const domainTls =
      m.from_domain !== settings.testDomain && deps.domainTls
        ? await deps.domainTls(m.account_id, m.from_domain)
        : 'opportunistic';
    const mtaSts = settings.relay ? undefined : await deps.tlsPolicy?.(m.to_domain);
    return tlsRequirement(domainTls, mtaSts);
  }

  /**
   * No MX host is listed by the recipient domain's MTA-STS policy (enforce): deferred without a
   * connection, and reported as a failure for each host (TLS reporting).
   */
  private unlisted(m: MessageWithBody, targets: DeliveryTarget[], tls: TlsRequirement): AttemptResult {
    const hosts = [...new Set(targets.map((t) => t.host))];
    const of = tls.policyDomain ?? m.to_domain;
    const reason = `the MTA-STS policy of ${of} (enforce) does not list ${hosts.join(', ')}; not delivered`;
    this.deps.tlsReports?.record({
      recipientDomain: m.to_domain,
      requirement: tls,
      sourceIp: null,
      sessions: targets.map((t) => ({
        mxHost: t.host,
        receivingIp: t.address,
        ok: false,
        failure: 'validation-failure',
        detail: unlistedHost(t.host, tls)!,
      })),
    });
    return {
      outcome: 'deferred',
      smtpCode: null,
      enhanced: '4.7.5',
      reply: reason,
      remoteHost: null,
      remoteIp: null,
      tls: false,
      throttled: false,
      greylisted: false,
      category: 'network_error',
      reason,
      tlsDetails: {
        policy: tls.policy,
        version: null,
        cipher: null,
        certificate: null,
        certificateError: null,
        cleartextFallback: false,
      },
    };
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
          greylisted: false,
          category: route.category,
          reason: route.reason,
        },
      };
    }
    return { destination: `mx:${route.hosts[0]!.name}`, targets: mxTargets(route.hosts, settings.mxPort) };
  }
}

/**
 * The Feedback-ID header's value (`<account id>:<sending domain>:txmail`): Gmail's feedback loop
 * counts complaints per value of this header, so each tenant's, and each of its domains', complaint
 * rate is reported apart. The service's own mail carries the test domain. Signed with the message.
 */
export function feedbackId(accountId: string, fromDomain: string): string {
  return `${accountId}:${fromDomain}:txmail`;
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
