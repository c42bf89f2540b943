// Turns a stored inbound message into events: parse (bounce/, on a thread under a time budget), match
// it to the sent message by its VERP token (tag-checked) or, for complaints, by our Message-ID,
// decide, record in one transaction. Also the recovery pass: messages stored but never processed (a
// crash between the 250 and the commit) are leased and processed again.
//
// Attempts are counted when they begin (the recovery pass's claim counts its own), so a message that
// stops its process every time it is parsed is given up after MAX_ATTEMPTS restarts, not retried
// forever. A parse that kills its thread fails the message at once: the same bytes would do it again.
// A parse over its budget is tried once more, a minute later, with RETRY_BUDGET_FACTOR times the
// budget, then failed: the budget is wall time, and on a busy machine a large report can run past it
// though it is no attack (the receiver answered it 250, and a lost bounce is a suppression missed).
// Hostile bytes cost the thread at most 1 + RETRY_BUDGET_FACTOR budgets.
import type { Logger } from 'pino';
import { DISABLED_REPEAT_WINDOW_MS } from '../bounce/categories.js';
import { shownRecipients } from '../bounce/inbound-report.js';
import type { InboundReport } from '../bounce/parse-report.js';
import type { Clock } from '../clock.js';
import type { InboundEffect, InboundRepo, InboundTarget } from '../db/inbound-repo.js';
import type { InboundMessageRow, InboundRaw } from '../db/schema.js';
import type { Verp } from '../delivery/verp.js';
import { quotedSignatures, verifyOurHeaderSignature, type OurKeyLookup } from '../dkim/verify-headers.js';
import { isId, newId } from '../ids.js';
import { LeaseLoop } from '../lease-loop.js';
import type { IsSimulated } from '../simulator/simulator-addresses.js';
import { decideEffects } from './decide-effects.js';
import { ParserClosed, ParserUnavailable, ParseTimeout, type ReportParser } from './report-parser.js';

const LEASE_MS = 5 * 60_000;
const MAX_ATTEMPTS = 5;
/** A parse over its budget is tried again this much later, with this many times the budget. */
export const RETRY_AFTER_TIMEOUT_MS = 60_000;
export const RETRY_BUDGET_FACTOR = 3;
/** Raw bounces are kept this long after they arrive (to inspect what was parsed), then deleted. */
const KEEP_MS = 7 * 24 * 3600_000;
const PRUNE_EVERY_MS = 3600_000;
/**
 * Fresh messages this process takes in hand at most (parsing, or waiting for the parser thread), and
 * their raw text at most: past either, the receiver stores a message for the recovery pass instead,
 * which reads it back from the database one at a time. Without a bound, a few dozen clients sending
 * 10 MB messages that take a second each to parse queued gigabytes in memory.
 */
export const MAX_IN_HAND = 32;
export const MAX_IN_HAND_CHARS = 64 * 1024 * 1024;

/** The most of a kept copy inflated to read its header block (ours run to 2-3 KiB). */
const SENT_HEAD_BYTES = 64 * 1024;

export interface ProcessorDeps {
  repo: InboundRepo;
  /** Parses off the event loop, under a time budget (report-parser.ts). */
  parser: ReportParser;
  verp: Verp;
  clock: Clock;
  logger: Logger;
  /** Our Message-ID domain (TXMAIL_HOSTNAME): `<message id>@<hostname>`. */
  hostname: string;
  /**
   * Our DKIM public key for a signature's d= and s=: a report that names a message by its Message-ID
   * alone counts only with our signature over that Message-ID (dkim/verify-headers.ts). Absent: such
   * reports match nothing.
   */
  ourDkimKey?: OurKeyLookup;
  /**
   * The header block a message was sent with, while its copy is kept (the log's raw view), inflated no
   * further than `maxBytes`: a report whose copy of the original no longer verifies (its recipient
   * redacted) is matched when it quotes one of the signatures the message was sent with
   * (dkim/verify-headers.ts quotedSignatures). Absent: never.
   */
  sentHead?: (accountId: string, messageId: string, maxBytes: number) => Promise<string | undefined>;
  /** Whether mail to a recipient domain is the simulator's (simulator-addresses.ts); absent: none is. */
  isSimulated?: IsSimulated;
  /**
   * Told of every message processed: what it was (bounce, complaint, feedback, undetermined,
   * auto_reply, ignored, duplicate: a copy of one already processed; `error` when processing failed
   * and will be retried, a first parse over its budget included; `failed` when it is given up: a
   * parse over its larger budget, one that killed its thread, or too many attempts) and the events
   * recorded (metrics).
   */
  processed?: (kind: string, effects: InboundEffect[]) => void;
  /** The lease owner id: the process's (process-registry.ts) in a service, else one of its own. */
  owner?: string;
  /** False while this process may be counted dead (process-registry.ts): claim nothing new. */
  canClaim?: () => boolean;
}

/** Room for one fresh message, taken before it is stored (InboundProcessor.reserve). */
export interface Room {
  release(): void;
}

/** What a pending message's outcome holds while it waits for its try after a parse over budget. */
type RetryingOutcome = {
  kind: 'retrying';
  reason: string;
};

/** Why the message's earlier parse ran out of budget, when one did; undefined when none did. */
function timedOutBefore(row: InboundMessageRow): string | undefined {
  if (row.outcome === null) return undefined;
  try {
    const outcome = JSON.parse(row.outcome) as Partial<RetryingOutcome>;
    return outcome.kind === 'retrying' ? String(outcome.reason) : undefined;
  } catch {
    return undefined;
  }
}

/** The length of `bytes` bytes in base64 (4 characters for every 3 bytes, padded). */
function base64Length(bytes: number): number {
  return Math.ceil(bytes / 3) * 4;
}

export class InboundProcessor {
  /** The recovery pass: the claim loop shared with the delivery worker and the dispatcher (lease-loop.ts). */
  private recovery: LeaseLoop<InboundMessageRow> | undefined;
  private lastPrune = 0;
  private readonly running = new Set<Promise<void>>();
  /** The raw text of the messages in `running`. */
  private inHandChars = 0;
  /** Room taken for messages being stored (reserve), not yet in `running`. */
  private readonly reserved = { count: 0, chars: 0 };
  private stopped = false;
  /** Whom the leases of the messages this process handles name (the receiver stores them so). */
  readonly owner: string;

  constructor(private readonly deps: ProcessorDeps) {
    this.owner = deps.owner ?? `inbound-${newId()}`;
  }

  /** Lease length for a message the receiver has just stored (it processes it at once). */
  static leaseUntil(now: number): number {
    return now + LEASE_MS;
  }

  /**
   * Takes room for a fresh message of `rawChars` characters of raw text (base64: 4 for 3 bytes), if
   * there is some (MAX_IN_HAND, MAX_IN_HAND_CHARS; room for one is always taken when none is in hand):
   * held from before the message is stored until `process` takes it in hand, or `release` gives it
   * back. Without room the receiver stores the message unleased, for the recovery pass, and wakes it.
   */
  reserve(rawChars: number): Room | undefined {
    const inHand = this.running.size + this.reserved.count;
    const chars = this.inHandChars + this.reserved.chars;
    if (inHand > 0 && (inHand >= MAX_IN_HAND || chars + rawChars > MAX_IN_HAND_CHARS)) return undefined;
    this.reserved.count++;
    this.reserved.chars += rawChars;
    let held = true;
    return {
      release: () => {
        if (!held) return;
        held = false;
        this.reserved.count--;
        this.reserved.chars -= rawChars;
      },
    };
  }

  /** Messages in hand now (parsing or waiting for the parser), and room taken for ones being stored. */
  get inHand(): number {
    return this.running.size + this.reserved.count;
  }

  /**
   * Processes a message the receiver has just stored: its first attempt, in the room `reserve` took for
   * it. Never throws (a failure is recorded, and retried later unless it is final).
   */
  process(row: InboundMessageRow, raw: InboundRaw, room?: Room): Promise<void> {
    // The room held for it becomes the message in hand, in the same turn.
    room?.release();
    return this.track(row, row.attempts + 1, raw);
  }

  /**
   * Starts the recovery pass now, again every `intervalMs`, and whenever woken (wake()). One message at
   * a time, as before: a recovered message waits its turn on the parser thread behind fresh ones.
   */
  startRecovery(intervalMs = 30_000): void {
    if (this.stopped || this.recovery) return;
    this.recovery = new LeaseLoop<InboundMessageRow>({
      concurrency: 1,
      pollMs: intervalMs,
      canClaim: this.deps.canClaim,
      key: (row) => row.id,
      claim: (slots) => this.claim(slots),
      run: (row) => this.track(row, row.attempts),
      claimFailed: (err) => this.deps.logger.error({ err }, 'inbound recovery pass failed'),
      // No release on stop: a message cut short by the closed parser stays leased, and the registry
      // gives this process's leases back when it leaves (process-registry.ts).
    });
    this.recovery.start();
  }

  /** Reports are waiting (a dead process's were released): run the recovery pass now. */
  wake(): void {
    this.recovery?.wake();
  }

  /**
   * Leases and processes every pending message whose lease has expired, now, and says how many
   * (operations and tests; the running pass is startRecovery's loop, with the same claim).
   */
  async recover(): Promise<number> {
    let total = 0;
    while (!this.stopped && (this.deps.canClaim?.() ?? true)) {
      const rows = await this.claim(20);
      for (const row of rows) await this.track(row, row.attempts);
      total += rows.length;
      if (rows.length < 20) break;
    }
    return total;
  }

  /** Stops the recovery pass and waits for the messages being processed (the parser is closed apart). */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.recovery?.stop();
    await Promise.all(this.running);
  }

  /** Leases up to `slots` pending messages whose lease has expired; prunes old ones once an hour. */
  private async claim(slots: number): Promise<InboundMessageRow[]> {
    const now = this.deps.clock.now();
    if (now - this.lastPrune >= PRUNE_EVERY_MS) {
      this.lastPrune = now;
      await this.deps.repo.prune(now - KEEP_MS);
    }
    // The claim counts the attempt it begins (see the top of this file).
    return this.deps.repo.claimPending(this.owner, now, now + LEASE_MS, slots);
  }

  /** `raw`: the message's raw text when the receiver has it; a recovered message's is read from the database. */
  private track(row: InboundMessageRow, attempt: number, raw?: InboundRaw): Promise<void> {
    // Counted as its base64 text, whichever form it is in (the limits were set so).
    const chars = base64Length(row.size);
    this.inHandChars += chars;
    const p = this.processOne(row, attempt, raw).finally(() => {
      this.running.delete(p);
      this.inHandChars -= chars;
    });
    this.running.add(p);
    return p;
  }

  /** `attempt`: which attempt this is, counting this one. */
  private async processOne(row: InboundMessageRow, attempt: number, received?: InboundRaw): Promise<void> {
    if (attempt > MAX_ATTEMPTS) {
      // Each earlier attempt began and never finished: its process stopped while it ran.
      return this.fail(row, attempt - 1, `gave up after ${attempt - 1} attempts that did not finish`);
    }
    // The same message sent again (the same envelope and bytes: a relay that lost our 250): recorded
    // once. Looked for before the raw text is read back: a copy is marked processed as a duplicate,
    // with nothing to apply.
    const copyOf = row.digest === null ? undefined : await this.duplicateOf(row, row.digest);
    if (copyOf !== undefined) {
      const outcome = { kind: 'duplicate', of: copyOf };
      if (await this.deps.repo.complete(row.id, outcome, [], this.deps.clock.now()))
        this.deps.processed?.('duplicate', []);
      this.deps.logger.info({ inboundId: row.id, ...outcome }, 'inbound message processed');
      return;
    }
    let raw = received;
    if (raw === undefined) {
      try {
        raw = await this.deps.repo.raw(row.id);
      } catch (err) {
        // The database: the lease ends and the recovery pass tries again (the attempt is counted).
        this.deps.logger.error({ err, inboundId: row.id }, 'could not read an inbound message');
        return;
      }
      if (raw === undefined) return this.fail(row, attempt, 'its raw text is gone');
    }
    const timedOut = timedOutBefore(row);
    let report: InboundReport;
    try {
      report = await this.deps.parser.parse(
        { ...raw, mailFrom: row.mail_from },
        timedOut === undefined ? {} : { budgetFactor: RETRY_BUDGET_FACTOR },
      );
    } catch (err) {
      // Stopping: the message stays leased, and the recovery pass takes it up when the lease ends.
      if (err instanceof ParserClosed) return;
      // The thread did not load: not this message's fault; the same, and a try when the lease ends.
      if (err instanceof ParserUnavailable) {
        this.deps.logger.warn({ inboundId: row.id, reason: err.message }, 'could not parse yet');
        return;
      }
      const reason = (err as Error).message;
      if (err instanceof ParseTimeout && timedOut === undefined && attempt < MAX_ATTEMPTS)
        return this.retryAfterTimeout(row, attempt, reason);
      return this.fail(row, attempt, timedOut === undefined ? reason : `${timedOut}; tried again: ${reason}`);
    }
    try {
      const { outcome, effects } = await this.evaluate(row, report);
      if (await this.deps.repo.complete(row.id, outcome, effects, this.deps.clock.now())) {
        this.deps.processed?.(String(outcome.kind), effects);
      }
      this.deps.logger.info({ inboundId: row.id, ...outcome }, 'inbound message processed');
    } catch (err) {
      // The database, or a bug: worth another try later, up to MAX_ATTEMPTS.
      if (attempt >= MAX_ATTEMPTS) return this.fail(row, attempt, (err as Error).message, err);
      this.deps.processed?.('error', []);
      this.deps.logger.error(
        { err, inboundId: row.id, attempts: attempt },
        'could not process an inbound message',
      );
      const retryAt = this.deps.clock.now() + 60_000 * 2 ** attempt;
      await this.deps.repo
        .postpone(row.id, attempt, retryAt)
        .catch((e: unknown) =>
          this.deps.logger.error({ err: e, inboundId: row.id }, 'could not postpone it'),
        );
    }
  }

  /** The first processed copy of the message, if any; a failed look-up is no copy (the report is read). */
  private async duplicateOf(row: InboundMessageRow, digest: string): Promise<string | undefined> {
    try {
      return await this.deps.repo.processedCopyOf(row.id, digest);
    } catch (err) {
      this.deps.logger.warn({ err, inboundId: row.id }, 'could not look for an earlier copy');
      return undefined;
    }
  }

  /** The parse ran past its budget: pending again, for one more try with a larger budget (top of file). */
  private async retryAfterTimeout(row: InboundMessageRow, attempt: number, reason: string): Promise<void> {
    this.deps.processed?.('error', []);
    this.deps.logger.warn(
      { inboundId: row.id, remoteIp: row.remote_ip, size: row.size, attempts: attempt, reason },
      'inbound message over its parse budget: tried again later',
    );
    const outcome: RetryingOutcome = { kind: 'retrying', reason };
    await this.deps.repo
      .postpone(row.id, attempt, this.deps.clock.now() + RETRY_AFTER_TIMEOUT_MS, outcome)
      .catch((e: unknown) => this.deps.logger.error({ err: e, inboundId: row.id }, 'could not postpone it'));
  }

  /** Gives the message up: status failed, with its reason; it is never processed again. */
  private async fail(row: InboundMessageRow, attempts: number, reason: string, err?: unknown): Promise<void> {
    this.deps.processed?.('failed', []);
    this.deps.logger.warn(
      { err, inboundId: row.id, remoteIp: row.remote_ip, size: row.size, attempts, reason },
      'inbound message failed',
    );
    await this.deps.repo
      .fail(row.id, attempts, reason, this.deps.clock.now())
      .catch((e: unknown) =>
        this.deps.logger.error({ err: e, inboundId: row.id }, 'could not mark it failed'),
      );
  }

  private async evaluate(
    row: InboundMessageRow,
    report: InboundReport,
  ): Promise<{ outcome: Record<string, unknown>; effects: InboundEffect[] }> {
    const outcome: Record<string, unknown> = { kind: report.kind };
    if (report.kind === 'ignored') {
      outcome.reason = report.reason;
      return { outcome, effects: [] };
    }
    if (report.kind === 'auto_reply') {
      outcome.reason = report.reason;
      outcome.category = 'auto_reply';
    }
    if (report.kind === 'complaint') outcome.category = report.category;
    if (report.kind === 'undetermined') outcome.category = 'undetermined';
    const targets = await this.targets(report, JSON.parse(row.rcpt_to) as string[]);
    const effects: InboundEffect[] = [];
    const results: Record<string, string> = {};
    for (const target of targets) {
      // The look-up scans the address's history, so only when a disabled mailbox is reported at all.
      const repeatedDisabled =
        report.kind === 'bounce' &&
        report.recipients.some(
          (r) => r.classification.category === 'mailbox_disabled' && r.classification.type === 'permanent',
        ) &&
        (await this.deps.repo.disabledBefore(
          target.account_id,
          target.to_email,
          target.id,
          this.deps.clock.now() - DISABLED_REPEAT_WINDOW_MS,
        ));
      const decision = decideEffects({
        report,
        target,
        inboundId: row.id,
        repeatedDisabled,
        newId,
        mailFrom: row.mail_from,
      });
      if ('effect' in decision) {
        // The simulator's reports (docs/design.md §16) suppress nothing and count nothing against the
        // account: they rehearse what a real one does to the message and its webhooks.
        const simulated = this.deps.isSimulated?.(target.to_domain) ?? false;
        effects.push(
          simulated ? { ...decision.effect, suppression: undefined, reputation: undefined } : decision.effect,
        );
        results[target.id] = decision.effect.event.type;
      } else {
        results[target.id] = `skipped: ${decision.skipped}`;
      }
    }
    outcome.messages = results;
    if (targets.length === 0) outcome.reason = 'no message of ours matches it';
    return { outcome, effects };
  }

  /**
   * The messages a report is about. Only tag-checked VERP addresses name a message for a bounce: the
   * envelope recipient, else one in the returned original's headers. A complaint or other feedback
   * report may also be matched by our Message-ID (feedback loops send to fbl@, and the original's
   * Return-Path may be missing), but only under our own DKIM signature, and only if the original's
   * recipient, when shown, is the message's.
   * An undetermined notice and an automatic reply only by the envelope recipient: mail to a message's
   * own VERP address is about that message, whatever it quotes.
   */
  private async targets(
    report: Extract<
      InboundReport,
      { kind: 'bounce' | 'complaint' | 'feedback' | 'undetermined' | 'auto_reply' }
    >,
    rcptTo: string[],
  ): Promise<InboundTarget[]> {
    const ids = new Set<string>();
    const verpIds = (addresses: string[]) =>
      addresses.flatMap((a) => {
        const id = this.deps.verp.messageId(a.slice(0, a.lastIndexOf('@')));
        return id ? [id] : [];
      });
    for (const id of verpIds(rcptTo)) ids.add(id);
    if (ids.size === 0 && report.kind !== 'undetermined' && report.kind !== 'auto_reply')
      for (const id of verpIds(report.original.verpAddresses)) ids.add(id);
    const found: InboundTarget[] = [];
    for (const id of ids) {
      const t = await this.deps.repo.findTarget(id);
      if (t) found.push(t);
    }
    if (found.length > 0 || (report.kind !== 'complaint' && report.kind !== 'feedback')) return found;

    // Matched by our Message-ID alone: only with our own DKIM signature over it. A Message-ID is no
    // secret (it travels in replies, forwards and archives), and fbl@ takes mail from anyone: without
    // the signature, anyone who knew one could mark another tenant's message complained, suppress its
    // recipient and raise the account's complaint rate. Feedback loops that keep the original's
    // headers keep its signature; those that redact them keep the VERP Return-Path, matched above.
    const signed =
      this.deps.ourDkimKey && (await verifyOurHeaderSignature(report.original.headers, this.deps.ourDkimKey));
    const t = signed
      ? await this.signedTarget(signed.messageId, signed.accountId)
      : await this.quotingTarget(report.original.headers);
    if (!t) return [];
    // The report must not show only recipients that are not ours.
    const shown = shownRecipients(report);
    const ours = (a: string) => a === t.to_email.toLowerCase() || a.endsWith(`@${t.to_domain}`);
    if (shown.length > 0 && !shown.some(ours)) return [];
    return [t];
  }

  /** Our message by a Message-ID our signature covers, signed with its account's key or the service's. */
  private async signedTarget(
    messageId: string,
    accountId: string | null,
  ): Promise<InboundTarget | undefined> {
    const id = this.ourMessageId(messageId);
    const t = id && (await this.deps.repo.findTarget(id));
    return t && (accountId === null || accountId === t.account_id) ? t : undefined;
  }

  /**
   * Our message by the copy's Message-ID when the copy quotes a DKIM signature the message was sent with
   * (its b= equal to one in the bytes kept): a copy whose recipient a feedback loop redacted no longer
   * verifies, but only the original's holder has its signature (a Yahoo-style report that dropped the
   * Return-Path was lost). Needs the kept copy: none after the content's retention, or for sealed mail.
   */
  private async quotingTarget(headers: string): Promise<InboundTarget | undefined> {
    if (!this.deps.sentHead) return undefined;
    const quoted = quotedSignatures(headers);
    const id = quoted.messageId && this.ourMessageId(quoted.messageId);
    if (!id || quoted.values.length === 0) return undefined;
    const t = await this.deps.repo.findTarget(id);
    if (!t) return undefined;
    // Only the head is inflated: anyone may send fbl@ a report naming a message kept at 16 MiB.
    const head = await this.deps.sentHead(t.account_id, t.id, SENT_HEAD_BYTES);
    if (head === undefined) return undefined;
    const sent = quotedSignatures(head);
    return quoted.values.some((v) => sent.values.includes(v)) ? t : undefined;
  }

  /** The message id of `<id>@<our hostname>`, or undefined for any other Message-ID. */
  private ourMessageId(messageId: string): string | undefined {
    const [id, host] = messageId.split('@');
    return id && isId(id) && host === this.deps.hostname.toLowerCase() ? id : undefined;
  }
}
