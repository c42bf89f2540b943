// Accepting a message: policy (account, sandbox, sender domain, quota), idempotency, then the durable
// write. Returns the response body only once the message and its first event are committed.
import { createHash } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { AcceptWriter } from '../accept/writer.js';
import type { AcceptItem } from '../db/accept-item.js';
import type { AcceptReadsRepo } from '../db/accept-reads-repo.js';
import type { Account } from '../db/schema.js';
import type { SuppressionFacts } from '../db/suppressions-repo.js';
import { AppError } from '../errors.js';
import { newId } from '../ids.js';
import { PLANS, nextDayStart, nextMonthStart, usageDay, usageMonth } from '../accounts/plans.js';
import type { SendRequestBody, SendResponse, ValidSend } from './send-request.js';
import { validateSend } from './send-request.js';
import type { IsSimulated } from '../simulator/simulator-addresses.js';
import { storedTestHtml } from './test-html.js';

export type SendRoute = 'send' | 'test';

export interface AcceptRequest {
  account: Account;
  route: SendRoute;
  body: SendRequestBody;
  idempotencyKey: string | undefined;
  /** The message this one re-sends (POST /api/emails/:id/resend): named in its email.queued event. */
  resentFrom?: string;
}

/** Policy facts about an account that live outside its row (verified domains, suppressions…). */
export interface SendPolicySource {
  verifiedDomains(accountId: string): Promise<string[]>;
  /**
   * The expire_after (seconds) of the account's sendable domain `name`, null when it has none or may not
   * send: the message's deadline is fixed from it at the accept (ARCHITECTURE.md, "Expiry").
   */
  expireAfter(accountId: string, name: string): Promise<number | null>;
  /** The suppression of this address (lower case) for this account, if any: one indexed look-up. */
  suppression(accountId: string, address: string): Promise<SuppressionFacts | undefined>;
}

export const IDEMPOTENCY_TTL_MS = 24 * 3600_000;

export class AcceptService {
  /** Idempotency keys being processed in this process: a concurrent repeat gets 409. */
  private readonly inFlight = new Set<string>();

  constructor(
    private readonly writer: Pick<AcceptWriter, 'submit'>,
    private readonly reads: AcceptReadsRepo,
    private readonly policy: SendPolicySource,
    private readonly clock: Clock,
    /** Whether mail to a recipient domain is the simulator's (simulator-addresses.ts); absent: none is. */
    private readonly isSimulated?: IsSimulated,
  ) {}

  /** A real send to a simulator address (docs/design.md §16). */
  private simulated(route: SendRoute, send: ValidSend): boolean {
    return route === 'send' && this.isSimulated?.(send.to.domain) === true;
  }

  async accept(req: AcceptRequest): Promise<SendResponse> {
    const { account, route } = req;
    if (account.suspended_at !== null) {
      throw new AppError(
        'account_suspended',
        'this account is suspended; contact the operator of this service',
      );
    }
    const send = validateSend(req.body);
    const checked = async () => {
      // The reputation guard paused it (reputation/guard.ts): only new mail is refused, so a retry of a
      // request accepted before the pause still gets its first answer (replayed before this runs) and
      // the client does not send it again after the resume. The test route and the guided test work.
      if (route === 'send' && account.reputation_status === 'paused') {
        throw new AppError(
          'account_paused',
          `sending from this account is paused: ${account.reputation_reason ?? 'its bounce or complaint rate is too high'}; clean the list, then ask the operator of this service to resume the account`,
        );
      }
      // The simulator takes mail in the sandbox and from a domain not yet verified: nothing leaves.
      if (this.simulated(route, send)) return [];
      const warnings = await this.policyRefusals(account, send, route);
      if (route === 'send' && warnings.length > 0) throw warnings[0]!;
      return warnings;
    };

    if (req.idempotencyKey === undefined) return this.persist(req, send, await checked());
    const flightKey = `${account.id}\n${req.idempotencyKey}`;
    if (this.inFlight.has(flightKey)) {
      throw new AppError(
        'idempotency_in_progress',
        'a request with this Idempotency-Key is still being processed',
      );
    }
    this.inFlight.add(flightKey);
    try {
      const requestHash = hashRequest(route, req.body);
      // A retry of an accepted request gets its first answer even if the policy has changed since (the
      // recipient was suppressed by the bounce of that very message, say): the policy runs after.
      const replay = await this.replay(account.id, req.idempotencyKey, requestHash);
      return replay ?? (await this.persist(req, send, await checked(), requestHash));
    } finally {
      this.inFlight.delete(flightKey);
    }
  }

  /**
   * Why a real send would be refused, most fundamental first (sandbox, domain, then recipient). A real
   * send leaves the recipient to the accept transaction (AcceptItem.refuseSuppressed), which sees every
   * suppression committed before it; a test send looks it up here to report it as a warning.
   */
  private async policyRefusals(account: Account, send: ValidSend, route: SendRoute): Promise<AppError[]> {
    const refusals: AppError[] = [];
    const [verified, suppressed] = await Promise.all([
      this.policy.verifiedDomains(account.id),
      route === 'test' ? this.policy.suppression(account.id, send.to.email.toLowerCase()) : undefined,
    ]);
    if (account.state === 'sandbox') {
      refusals.push(
        new AppError(
          'account_sandboxed',
          'this account has no verified domain yet; verify one in the dashboard (test sends and the guided test work meanwhile)',
        ),
      );
    }
    if (!verified.includes(send.from.domain)) {
      refusals.push(
        new AppError(
          'domain_not_verified',
          `"${send.from.domain}" is not a verified domain of this account; send from a verified domain`,
        ),
      );
    }
    if (suppressed) refusals.push(suppressedError(send.to.email, suppressed));
    return refusals;
  }

  private async replay(
    accountId: string,
    key: string,
    requestHash: string,
  ): Promise<SendResponse | undefined> {
    const stored = await this.reads.findIdempotencyKey(accountId, key, this.clock.now() - IDEMPOTENCY_TTL_MS);
    if (!stored) return undefined;
    if (stored.request_hash !== requestHash) {
      throw new AppError(
        'idempotency_key_reused',
        'this Idempotency-Key was used in the last 24 hours with a different request',
      );
    }
    return JSON.parse(stored.response) as SendResponse;
  }

  private async persist(
    req: AcceptRequest,
    send: ValidSend,
    warnings: AppError[],
    requestHash?: string,
  ): Promise<SendResponse> {
    const now = this.clock.now();
    const id = newId();
    const isTest = req.route === 'test';
    // Queued and delivered like any send, but counted as a test send and never refused for a
    // suppression: the simulator's addresses are never suppressed (docs/design.md §16).
    const simulated = this.simulated(req.route, send);
    const response: SendResponse = isTest
      ? { id, status: 'test', warnings: warnings.map((w) => `${w.code}: ${w.message}`) }
      : { id, status: 'queued' };
    const plan = PLANS[req.account.plan];
    const cap = plan.emailsPerMonth;
    // Read from the same cached look-up as the verified domains: no query of its own.
    const expireAfter = isTest ? null : await this.policy.expireAfter(req.account.id, send.from.domain);
    const testCap = plan.testSendsPerDay;
    // A test send keeps at most 64 KiB of its HTML; the event says how big it was.
    const stored = isTest ? storedTestHtml(send.html) : { html: send.html };
    const eventData = isTest
      ? {
          warnings: response.warnings,
          ...(stored.truncatedFrom !== undefined
            ? { html_truncated: true, html_bytes: stored.truncatedFrom }
            : {}),
        }
      : {
          ...(simulated ? { simulated: true } : {}),
          ...(req.resentFrom !== undefined ? { resent_from: req.resentFrom } : {}),
        };
    const item: AcceptItem = {
      message: {
        id,
        account_id: req.account.id,
        status: isTest ? 'test' : 'queued',
        from_name: send.from.name,
        from_email: send.from.email,
        from_domain: send.from.domain,
        to_name: send.to.name,
        to_email: send.to.email,
        to_domain: send.to.domain,
        subject: send.subject,
        created_at: now,
        updated_at: now,
        attempts: 0,
        next_attempt_at: isTest ? null : now,
        lease_owner: null,
        lease_expires_at: null,
        category: null,
        deadline_at: expireAfter === null ? null : now + expireAfter * 1000,
      },
      html: stored.html,
      event: {
        id: newId(),
        message_id: id,
        account_id: req.account.id,
        type: isTest ? 'email.test' : 'email.queued',
        created_at: now,
        data: JSON.stringify(eventData),
      },
      ...(isTest || simulated
        ? { testQuota: { day: usageDay(now), cap: testCap } }
        : { quota: { month: usageMonth(now), cap }, refuseSuppressed: send.to.email.toLowerCase() }),
      ...(requestHash && req.idempotencyKey !== undefined
        ? {
            idempotency: {
              key: req.idempotencyKey,
              requestHash,
              response: JSON.stringify(response),
              expiredBefore: now - IDEMPOTENCY_TTL_MS,
            },
          }
        : {}),
    };

    const outcome = await this.writer.submit(item);
    switch (outcome.kind) {
      case 'accepted':
        return response;
      case 'quota_exceeded': {
        const retryAfter = Math.ceil((nextMonthStart(now) - now) / 1000);
        throw new AppError(
          'monthly_quota_exceeded',
          `the ${req.account.plan} plan allows ${cap} emails per month and they are used up; the quota refills at ${new Date(nextMonthStart(now)).toISOString()}`,
          { 'Retry-After': String(retryAfter) },
        );
      }
      case 'test_quota_exceeded': {
        const refill = nextDayStart(now);
        throw new AppError(
          'test_quota_exceeded',
          `the ${req.account.plan} plan allows ${testCap} test sends per day (UTC) and they are used up; the allowance refills at ${new Date(refill).toISOString()}`,
          { 'Retry-After': String(Math.ceil((refill - now) / 1000)) },
        );
      }
      case 'suppressed':
        throw suppressedError(send.to.email, outcome.suppression);
      case 'idempotency_conflict': {
        // Another process stored the key between our look-up and our write.
        const replay = await this.replay(req.account.id, req.idempotencyKey!, requestHash!);
        if (replay) return replay;
        throw new AppError(
          'idempotency_in_progress',
          'a request with this Idempotency-Key is still being processed',
        );
      }
    }
  }
}

function suppressedError(address: string, suppression: SuppressionFacts): AppError {
  return new AppError(
    'recipient_suppressed',
    `${address} is suppressed since ${new Date(suppression.created_at).toISOString()}: ${suppression.reason}`,
  );
}

/** Identifies "the same request" for idempotency: the route and the exact fields sent. */
export function hashRequest(route: SendRoute, body: SendRequestBody): string {
  const canonical = JSON.stringify([route, body.from, body.to, body.subject, body.message]);
  return createHash('sha256').update(canonical).digest('hex');
}
