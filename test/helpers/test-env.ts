// What tests read and set in a txmail instance, named once: accounts and their usage, messages with
// their events and attempts, the mail the service sent, queue state, reputation, blocks and suppressions.
// Every method goes through the instance's own repositories (or, where no repository answers the
// question, one query of the same database): tests say what they look at, not which table holds it.
import type { Insertable, Updateable } from 'kysely';
import type { ReputationMove } from '../../src/db/account-reputation-repo.js';
import { compressRaw } from '../../src/db/messages-repo.js';
import type { AttemptRecord } from '../../src/db/queue-repo.js';
import { keepRawStatement } from '../../src/db/queue-record.js';
import { addReputationCounts } from '../../src/db/reputation-repo.js';
import type {
  AccountTokenRow,
  AuditLogRow,
  Database,
  DomainsTable,
  EventType,
  InboundMessageRow,
  MessageRow,
  MessageStatus,
  NewDomain,
  NewEvent,
  Plan,
  ReceivedMessage,
  SessionsTable,
  WebhookAttemptRow,
} from '../../src/db/schema.js';
import { executeStatement } from '../../src/db/statement.js';
import { newId } from '../../src/ids.js';
import type { ReputationDelta } from '../../src/reputation/counts.js';
import { reputationAudit } from '../../src/reputation/guard.js';
import type { Services } from '../../src/services.js';
import { insertEndpoint, queuePushes } from './webhook-pushes.js';

export type TestFacade = ReturnType<typeof testFacade>;

/**
 * `dkim`: absent where no test adds a signing domain (a seam's contract database); `sealedHtml`: absent
 * where no test reads the service's sealed mail.
 */
export function testFacade(
  services: Pick<Services, 'repos' | 'db'> & Partial<Pick<Services, 'dkim' | 'sealedHtml'>>,
) {
  const { repos } = services;
  const db = services.db.kysely;
  const openSealed = (html: string) => {
    if (!services.sealedHtml) throw new Error('a sealed message, and no sealedHtml to open it');
    return services.sealedHtml.open(html);
  };
  return {
    // Accounts.
    account: (accountId: string) => repos.accounts.findById(accountId),
    accountByEmail: (email: string) => repos.accounts.findByEmail(email),
    setPlan: (accountId: string, plan: Plan) => repos.accounts.setPlan(accountId, plan),
    /** `at` null resumes. */
    setSuspended: (accountId: string, at: number | null) => repos.accounts.setSuspended(accountId, at),
    revokeKey: (accountId: string, keyId: string, at: number) =>
      repos.accounts.revokeApiKey(accountId, keyId, at),
    /** Mail counted against the plan in `month` (YYYY-MM). */
    monthUsage: (accountId: string, month: string) => repos.accounts.monthUsage(accountId, month),
    /** Sets the count of `month` (YYYY-MM) as if that much mail had been accepted. */
    async setMonthUsage(accountId: string, month: string, sent: number): Promise<void> {
      await db
        .insertInto('usage')
        .values({ account_id: accountId, month, sent })
        .onConflict((oc) => oc.columns(['account_id', 'month']).doUpdateSet({ sent }))
        .execute();
    },
    /** The account's monthly counts, by month (YYYY-MM). */
    usage: (accountId: string) =>
      db
        .selectFrom('usage')
        .select(['month', 'sent'])
        .where('account_id', '=', accountId)
        .orderBy('month')
        .execute(),
    /** The account's guided test sends per day, by day (YYYY-MM-DD). */
    testUsage: (accountId: string) =>
      db
        .selectFrom('test_usage')
        .select(['day', 'sent'])
        .where('account_id', '=', accountId)
        .orderBy('day')
        .execute(),
    /** Sets the guided test sends' count of `day` (YYYY-MM-DD). */
    async setTestUsage(accountId: string, day: string, sent: number): Promise<void> {
      await db
        .insertInto('test_usage')
        .values({ account_id: accountId, day, sent })
        .onConflict((oc) => oc.columns(['account_id', 'day']).doUpdateSet({ sent }))
        .execute();
    },
    /** The account's audit log, newest first. */
    auditLog: (accountId: string) => repos.audit.list(accountId, 1000),
    /** Adds an audit entry as given (an old one, say). */
    addAuditEntry: (entry: AuditLogRow) => repos.audit.insert(entry),
    /** The account's notices (quota warnings…), by kind. */
    notices: (accountId: string) =>
      db
        .selectFrom('account_notices')
        .select(['kind', 'data'])
        .where('account_id', '=', accountId)
        .orderBy('kind')
        .execute(),
    // Dashboard sign-in.
    /** Every dashboard session (its id only as a hash). */
    sessions: () => db.selectFrom('sessions').selectAll().execute(),
    /** Stores a dashboard session as given (one from before members, say). */
    async addSession(session: Insertable<SessionsTable>): Promise<void> {
      await db.insertInto('sessions').values(session).execute();
    },
    /** The account's members, as stored (passwords hashed, TOTP secrets sealed). */
    members: (accountId: string) => repos.members.list(accountId),
    /** The invited member (not an owner) at the address, accepted or not. */
    invitedMember: (email: string) => repos.members.findInvitedByEmail(email),
    /** Stores a mailed link as sign-up does (its token as a hash), in place of the account's earlier one. */
    /** The owner's: links of invited members are made by reset requests only. */
    plantLink: (link: Omit<AccountTokenRow, 'member_id'>) =>
      repos.signups.replaceLink({ ...link, member_id: null }),
    /** Every link token mailed (verification, reset), as stored. */
    accountTokens: () => db.selectFrom('account_tokens').selectAll().execute(),
    /** The browsers remembered for the account (device cookies, as hashes). */
    loginDevices: (accountId: string) =>
      db.selectFrom('login_devices').selectAll().where('account_id', '=', accountId).execute(),
    reputationState: (accountId: string) => repos.accountReputation.state(accountId),
    /** Moves an account's reputation state as the guard does (false: it was not in `from`). */
    moveReputation: (move: Omit<ReputationMove, 'audit'>) =>
      repos.accountReputation.move({
        ...move,
        audit: reputationAudit(move.accountId, move.to, { type: 'system', id: 'reputation_guard' }, move.now),
      }),
    pausedAccounts: () => repos.accountReputation.paused(),
    /** How many accounts are in each reputation state. */
    reputationCounts: () => repos.accountReputation.countByStatus(),
    /** Adds to the accounts' daily reputation counts as the worker's and the receiver's records do. */
    addReputationCounts: (deltas: ReputationDelta[]) => addReputationCounts(db, deltas),
    /** The account's reputation counts as stored, one row per day and recipient domain. */
    reputationDays: (accountId: string) =>
      db
        .selectFrom('reputation_counts')
        .selectAll()
        .where('account_id', '=', accountId)
        .orderBy('day')
        .orderBy('domain')
        .execute(),
    /** The account's bounce and complaint counts over days >= fromDay (YYYY-MM-DD), as the guard weighs them. */
    reputationWindow: (accountId: string, fromDay: string) => repos.reputation.window(accountId, fromDay),

    // Sending domains.
    /**
     * Gives the account `name` as a verified domain (as adding and verifying one does) and makes it
     * production; with its DKIM key unless `dkim` is false (a domain verified by hand before
     * verification existed).
     */
    async addVerifiedDomain(accountId: string, name: string, options: { dkim?: boolean } = {}) {
      await repos.domains.insert({
        id: newId(),
        account_id: accountId,
        name,
        status: 'verified',
        created_at: Date.now(),
        verified_at: Date.now(),
      });
      await repos.accounts.setState(accountId, 'production');
      if (options.dkim !== false) {
        // A selector of its own: several test accounts may add the same name.
        const selector = `t${newId().replaceAll('-', '').slice(-12)}`;
        if (!services.dkim) throw new Error('this facade has no DKIM keys to give a domain');
        await repos.dkimKeys.insert(await services.dkim.generate(name, accountId, selector));
      }
    },
    /** Adds a domain row as it is given (a pending one, say). */
    addDomain: (domain: NewDomain) => repos.domains.insert(domain),
    domainsOf: (accountId: string) => repos.domains.list(accountId),
    /** Changes the account's domain `name` as a check or an older version would have left it. */
    async updateDomain(accountId: string, name: string, changes: Updateable<DomainsTable>): Promise<void> {
      await db
        .updateTable('domains')
        .set(changes)
        .where('account_id', '=', accountId)
        .where('name', '=', name)
        .execute();
    },
    /** Every DKIM key of the domain: current, next and retired. */
    dkimKeys: (domain: string, accountId: string | null) => repos.dkimKeys.all(domain, accountId),
    /** The key that signs the domain's mail now (accountId null: the service's own domain). */
    dkimKey: (domain: string, accountId: string | null) => repos.dkimKeys.current(domain, accountId),

    // Messages.
    message: (accountId: string, id: string) => repos.messages.get(accountId, id),
    events: (accountId: string, id: string) => repos.messages.events(accountId, id),
    attempts: (accountId: string, id: string) => repos.messages.attempts(accountId, id),
    /** How many messages are stored, whichever account's. */
    async messageCount(): Promise<number> {
      const row = await db
        .selectFrom('messages')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    /** The ids of every message stored, whichever account's. */
    async messageIds(): Promise<string[]> {
      const rows = await db.selectFrom('messages').select('id').execute();
      return rows.map((r) => r.id);
    },
    /** Changes a message as a worker, a pass or an older version would have left it. */
    async updateMessage(messageId: string, changes: Updateable<Database['messages']>): Promise<void> {
      await db.updateTable('messages').set(changes).where('id', '=', messageId).execute();
    },
    /**
     * A message's HTML as stored (`sealed` 1: sealed, sealedHtml opens it), '' once its content is
     * removed; undefined when the message is gone.
     */
    storedBody: (messageId: string) =>
      db
        .selectFrom('message_bodies')
        .select(['html', 'sealed'])
        .where('message_id', '=', messageId)
        .executeTakeFirst(),
    /** The ids of the messages whose content goes as soon as they are final (they carry a sign-in link). */
    async sealedMessageIds(): Promise<string[]> {
      const rows = await db.selectFrom('sealed_messages').select('message_id').execute();
      return rows.map((r) => r.message_id);
    },
    /** Every message of the account, the service's own mail to it included, oldest first. */
    messagesOf: (accountId: string) =>
      db
        .selectFrom('messages as m')
        .innerJoin('message_bodies as b', 'b.message_id', 'm.id')
        .selectAll('m')
        .select('b.html')
        .where('m.account_id', '=', accountId)
        .orderBy('m.created_at')
        .execute(),
    /**
     * Every message to `address` (the service's own mail: links, warnings), oldest first, with its HTML
     * (opened, where it is stored sealed: the link as mailed).
     */
    mailTo: async (address: string) =>
      (
        await db
          .selectFrom('messages as m')
          .innerJoin('message_bodies as b', 'b.message_id', 'm.id')
          .selectAll('m')
          .select(['b.html', 'b.sealed'])
          .where('m.to_email', '=', address.toLowerCase())
          .orderBy('m.id')
          .execute()
      ).map(({ sealed, ...m }) => ({ ...m, html: sealed === 1 ? openSealed(m.html) : m.html })),
    /**
     * Puts a message straight into the database (messageRow.ts makes one), as if accepted: its row, and
     * its HTML ('' when not given) in message_bodies.
     */
    async insertMessage({ html = '', ...row }: MessageRow & { html?: string }): Promise<void> {
      await db.insertInto('messages').values(row).execute();
      await db.insertInto('message_bodies').values({ message_id: row.id, html }).execute();
    },
    /** Records events as given, as if the service had (a report received, an account warning). */
    async addEvents(events: NewEvent[]): Promise<void> {
      await db.insertInto('events').values(events).execute();
    },
    /** The ids of every event stored, whichever account's, in order of id. */
    async eventIds(): Promise<string[]> {
      const rows = await db.selectFrom('events').select('id').orderBy('id').execute();
      return rows.map((r) => r.id);
    },
    /** Events of these types recorded for any of the messages, oldest first. */
    eventsOfTypes: (types: EventType[], messageIds: string[]) =>
      db
        .selectFrom('events')
        .selectAll()
        .where('type', 'in', types)
        .where('message_id', 'in', messageIds)
        .orderBy('created_at')
        .execute(),
    /**
     * Keeps `signed` as the message's latest bytes, as the worker's record does (the same statement:
     * queue-record.ts keepRawStatement); a message too large to keep is not kept.
     */
    async keepRaw(accountId: string, messageId: string, signed: Buffer, now: number): Promise<void> {
      const kept = await compressRaw(signed, now);
      if (kept) await executeStatement(db, keepRawStatement(messageId, accountId, kept));
    },
    /** Whether the bytes the message was last sent as are still stored (content removal deletes them). */
    async rawKept(messageId: string): Promise<boolean> {
      const row = await db
        .selectFrom('message_raw')
        .select('message_id')
        .where('message_id', '=', messageId)
        .executeTakeFirst();
      return row !== undefined;
    },
    /** Every delivery attempt recorded, whichever account's. */
    allAttempts: () => db.selectFrom('delivery_attempts').selectAll().execute(),
    /** The status of each of these messages that exists. */
    statuses: (messageIds: string[]) =>
      db.selectFrom('messages').select(['id', 'status']).where('id', 'in', messageIds).execute(),

    // The queue and who works on it.
    /** The live processes' registrations (pid, host, heartbeat). */
    processes: () => repos.processes.all(),
    /** The ids of every message in `status`, whichever account's. */
    async idsWithStatus(status: MessageStatus): Promise<string[]> {
      const rows = await db.selectFrom('messages').select('id').where('status', '=', status).execute();
      return rows.map((r) => r.id);
    },
    /** The messages due by `now` or held under a lease: what a worker still has to try. */
    dueOrLeased: (now: number) =>
      db
        .selectFrom('messages')
        .select(['id', 'status', 'lease_owner', 'next_attempt_at'])
        .where((eb) => eb.or([eb('next_attempt_at', '<=', now), eb('lease_owner', 'is not', null)]))
        .execute(),
    /** The messages some process holds a lease on now. */
    leased: () =>
      db
        .selectFrom('messages')
        .select(['id', 'status', 'lease_owner', 'lease_expires_at'])
        .where('lease_owner', 'is not', null)
        .execute(),
    /** When the next queued message falls due (undefined: none waits). */
    nextDue: (now = Date.now()) => repos.queue.nextDue(now),
    /** Claims due mail as a worker of process `owner` does (the queue's claimDue), leased until `until`. */
    claimDue: (owner: string, now: number, until: number, limit: number) =>
      repos.queue.claimDue(owner, now, until, limit),
    /** Records delivery results as the worker does (the queue's recordMany). */
    recordAttempts: (records: AttemptRecord[]) => repos.queue.recordMany(records),

    /** One event of the account per due time, each pushed to every endpoint it has (webhook-pushes.ts); the event ids. */
    queuePushes: (accountId: string, dues: number[]) => queuePushes(db, accountId, dues),
    /** How many of the account's pushes are still to be made (due, or retried later). */
    async pendingPushes(accountId: string): Promise<number> {
      const row = await db
        .selectFrom('webhook_outbox')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('account_id', '=', accountId)
        .where('next_attempt_at', 'is not', null)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    /** Adds a webhook endpoint as given, plan or not (its secret a placeholder, not sealed). */
    addWebhook: (accountId: string, options?: Parameters<typeof insertEndpoint>[2]) =>
      insertEndpoint(db, accountId, options),
    /** A webhook endpoint as stored (its secrets sealed). */
    webhook: (accountId: string, id: string) => repos.webhooks.get(accountId, id),
    /** Records a push's attempt as given, as if made. */
    addWebhookAttempt: (attempt: WebhookAttemptRow) => repos.webhookOutbox.insertAttempt(attempt),
    /** The endpoint's push attempts, newest first. */
    webhookAttempts: (accountId: string, webhookId: string) =>
      repos.webhookOutbox.attempts(accountId, webhookId, undefined, 1000),
    /** The pushes queued for a webhook endpoint, sent or not. */
    webhookPushes: (webhookId: string) =>
      db.selectFrom('webhook_outbox').selectAll().where('webhook_id', '=', webhookId).execute(),

    /** The source addresses' daily counts as the workers share them (warm-up caps). */
    sourceIpUsage: () => db.selectFrom('source_ip_usage').selectAll().execute(),

    // What stops or holds mail.
    /** A recipient domain's MTA-STS policy as last fetched. */
    mtaStsPolicy: (domain: string) => repos.mtaSts.get(domain),
    destinationBlocks: (now: number) => repos.destinationBlocks.active(now),
    suppression: (accountId: string, address: string) => repos.suppressions.get(accountId, address),

    // TLS reports (TLS-RPT).
    /** The reports of `day` (YYYY-MM-DD): sent, pending or settled without one, per policy domain. */
    tlsReportSends: (day: string) => repos.tlsReports.sendsOn(day),
    /** The policy domains with sessions counted on `day`. */
    tlsReportDomains: (day: string) => repos.tlsReports.domainsOn(day),

    // Inbound reports.
    /** Stores a received report as the receiver does, for the processor to take. */
    storeInbound: (message: ReceivedMessage) => repos.inbound.store(message),
    inboundReport: (id: string) => repos.inbound.get(id),
    /** A stored report's raw text (base64), kept apart from its row. */
    inboundRaw: (id: string) => repos.inbound.raw(id),
    /** Records a stored report's outcome and its effects as the processor does (false: already done). */
    completeInbound: (...args: Parameters<Services['repos']['inbound']['complete']>) =>
      repos.inbound.complete(...args),
    /** The ids of the reports in `status` (pending: stored, not yet processed). */
    async inboundWithStatus(status: InboundMessageRow['status']): Promise<string[]> {
      const rows = await db
        .selectFrom('inbound_messages')
        .select('id')
        .where('status', '=', status)
        .execute();
      return rows.map((r) => r.id);
    },
    /** The ids of the reports stored from a client address. */
    async inboundFrom(remoteIp: string): Promise<string[]> {
      const rows = await db
        .selectFrom('inbound_messages')
        .select('id')
        .where('remote_ip', '=', remoteIp)
        .execute();
      return rows.map((r) => r.id);
    },
  };
}
