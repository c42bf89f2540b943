// Row types of every table, declared once. Times are integer milliseconds since the epoch (UTC) in both
// dialects; booleans are stored as 0/1 integers so SQLite and PostgreSQL rows look alike.
import type { ColumnType, Insertable, Selectable } from 'kysely';
import type { ReputationStatus } from '../reputation/judge.js';

export type Plan = 'free' | 'pro' | 'scale';
export type AccountState = 'sandbox' | 'production';
export type MessageStatus =
  'queued' | 'deferred' | 'delivered' | 'bounced' | 'failed' | 'complained' | 'test';
/**
 * The statuses a delivery worker moves a message out of. A worker's record changes the status only
 * from these: once the receiver has recorded a bounce or complaint (while the worker still held the
 * lease), the message keeps it.
 */
export const QUEUED_MESSAGE_STATUSES: readonly MessageStatus[] = ['queued', 'deferred'];
export type EventType =
  | 'email.queued'
  | 'email.delivered'
  | 'email.delivery_delayed'
  | 'email.bounced'
  | 'email.complained'
  | 'email.failed'
  | 'email.test'
  // Something came back that changes nothing: a feedback report that is not a complaint (RFC 6591
  // auth-failure, RFC 6650 not-spam), or a notice from the null sender txmail cannot read (category
  // `undetermined`, kept with its text). Not pushed to webhooks (no endpoint can subscribe to it).
  | 'email.report_received'
  // About the account, not a message (message_id null): its reputation state changed
  // (ARCHITECTURE.md, "Reputation guardrails").
  | 'account.warning'
  | 'account.paused';
export type DomainStatus = 'pending' | 'verified' | 'temporary_failure' | 'failed';
/**
 * Domains an account may send from, and that make it `production`: a domain in its grace period
 * (`temporary_failure`) keeps sending while its owner repairs the records.
 */
export const SENDABLE_DOMAIN_STATUSES: readonly DomainStatus[] = ['verified', 'temporary_failure'];

export interface AccountsTable {
  id: string;
  email: string;
  password_hash: string | null;
  plan: Plan;
  state: AccountState;
  suspended_at: number | null;
  created_at: number;
  /** When the signup address was proven (verification link, password reset); operator accounts: creation. */
  email_verified_at: number | null;
  /**
   * The reputation guard's judgement of the account's rolling bounce and complaint rates
   * (reputation/guard.ts): `paused` refuses its sends until the operator resumes it. Defaults on insert.
   */
  reputation_status: ColumnType<ReputationStatus, ReputationStatus | undefined, ReputationStatus>;
  /** Why it is not healthy, with the rate and the threshold; null when healthy. */
  reputation_reason: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the status last changed; null: never. */
  reputation_changed_at: ColumnType<number | null, number | null | undefined, number | null>;
  /** Set by the owner: every member signs in with a second factor (migration 028). Defaults on insert. */
  require_totp_at: ColumnType<number | null, number | null | undefined, number | null>;
  /**
   * Days a message's content (HTML and raw bytes) is kept once the message is final; null keeps it
   * (ARCHITECTURE.md, "Message content"). Defaults on insert (30).
   */
  content_retention_days: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface SessionsTable {
  /** SHA-256 of the session id (hex); the id itself lives only in the browser's cookie. */
  id_hash: string;
  account_id: string;
  created_at: number;
  last_seen_at: number;
  /** Sliding: pushed forward while the session is used. */
  expires_at: number;
  /** The member signed in (migration 028); null only for a row written by an older version. */
  member_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** Where the session was started (migration 039): the client's address, and its User-Agent. */
  ip: ColumnType<string | null, string | null | undefined, string | null>;
  user_agent: ColumnType<string | null, string | null | undefined, string | null>;
}

export type MemberRole = 'owner' | 'admin' | 'developer' | 'viewer';

/** People of an account (migration 028; accounts/members.ts). */
export interface MembersTable {
  id: string;
  account_id: string;
  email: string;
  role: MemberRole;
  /** Invited members' own password; null for the owner (the account's) and for a pending invite. */
  password_hash: string | null;
  created_at: number;
  accepted_at: number | null;
  invite_token_hash: string | null;
  invite_expires_at: number | null;
  totp_pending_secret: string | null;
  totp_secret: string | null;
  totp_enabled_at: number | null;
  totp_last_step: number | null;
}

export interface MemberRecoveryCodesTable {
  code_hash: string;
  member_id: string;
  used_at: number | null;
}

/** One change to an account (migration 029; audit/audit.ts). */
export interface AuditLogTable {
  id: string;
  account_id: string;
  created_at: number;
  /** `system`: txmail itself (audit/audit.ts SystemActor, named by actor_id), e.g. the reputation guard. */
  actor_type: 'member' | 'api_key' | 'operator' | 'system';
  actor_id: string | null;
  actor_label: string | null;
  action: string;
  target: string | null;
  /** What the target was called when the change was made (migration 040, audit/target-label.ts). */
  target_label: string | null;
  ip: string | null;
}

/**
 * When an upgrade changed what the service does with data already stored (migration 032):
 * `content_retention` is when content retention began, for a database that held messages then.
 */
export interface UpgradeMarksTable {
  name: 'content_retention';
  at: number;
}

export interface LoginDevicesTable {
  /** SHA-256 of the device id (hex); the id itself lives only in the browser's device cookie. */
  id_hash: string;
  account_id: string;
  created_at: number;
  /** Pushed forward by each log-in from the browser. */
  expires_at: number;
}

export type AccountTokenPurpose = 'verify_email' | 'reset_password';

export interface AccountTokensTable {
  /** SHA-256 of the token (hex); the token itself is only in the email sent. */
  token_hash: string;
  account_id: string;
  purpose: AccountTokenPurpose;
  created_at: number;
  expires_at: number;
  /** Set when the token is used: a token works once. */
  used_at: number | null;
  /**
   * Sign-up links only: the scrypt hash of the password chosen at that sign-up, given to the account
   * when this link is used (never before: the link proves the inbox). Null for every other token.
   */
  password_hash: string | null;
  /**
   * Reset links of an invited member (migration 031): whose password the link resets. Null: the
   * owner's (the account's signup address).
   */
  member_id: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface AttemptCountsTable {
  /** SHA-256 of the limit's scope and what it counts (an address, an IP address), hex. */
  key: string;
  /** Attempts counted in the current window. */
  attempts: number;
  /** End of the current window. */
  expires_at: number;
}

export interface ApiKeysTable {
  id: string;
  account_id: string;
  name: string;
  /** The first characters of the key, shown in lists so a person can tell keys apart. */
  prefix: string;
  /** SHA-256 of the whole key, hex. The key itself is never stored. */
  key_hash: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
  /** The invited member who made the key (migration 030); null: the owner, the operator, or older. */
  member_id: string | null;
  /** That member's role, the most the key may do (http/permissions.ts); null: full rights. */
  role: MemberRole | null;
}

export interface DomainsTable {
  id: string;
  account_id: string;
  /** ASCII (punycode) form, lower case. */
  name: string;
  status: DomainStatus;
  created_at: number;
  verified_at: number | null;
  /** Start of the current verification window (creation, or a manual re-verify of a failed domain). */
  verification_started_at: number | null;
  /** When a verified domain's records were first found missing; null while they are in place. */
  failing_since: number | null;
  last_checked_at: number | null;
  /** JSON: the findings of the last conclusive check (domains/domain-check.ts `DomainCheck`). */
  findings: string | null;
  /** When the checker should next look at this domain; null: not scheduled (failed). */
  next_check_at: number | null;
  check_lease_owner: string | null;
  check_lease_until: number | null;
  /**
   * Seconds after a message's acceptance when txmail stops trying it (docs/API.md, Domains:
   * expire_after); null: the default retry period. Optional on insert (the column defaults to null).
   */
  expire_after: ColumnType<number | null, number | null | undefined, number | null>;
  /**
   * Whether the domain's mail may go in cleartext (docs/API.md, Domains: tls; ARCHITECTURE.md, "TLS
   * policy"). Optional on insert (the column defaults to opportunistic).
   */
  tls: ColumnType<DomainTls, DomainTls | undefined, DomainTls>;
}

/** A sending domain's TLS setting: `required` delivers only over TLS with a valid certificate. */
export type DomainTls = 'opportunistic' | 'required';
export const DOMAIN_TLS_VALUES: readonly DomainTls[] = ['opportunistic', 'required'];

export interface MessagesTable {
  id: string;
  account_id: string;
  status: MessageStatus;
  /** Display names as the caller wrote them ('' when none); addresses with an ASCII (punycode) domain. */
  from_name: string;
  from_email: string;
  from_domain: string;
  to_name: string;
  to_email: string;
  to_domain: string;
  subject: string;
  created_at: number;
  updated_at: number;
  /** Delivery attempts made so far. */
  attempts: number;
  /** When the worker should next try; null once the message is final. */
  next_attempt_at: number | null;
  lease_owner: string | null;
  lease_expires_at: number | null;
  /**
   * The category (one of BOUNCE_CATEGORIES, bounce/categories.ts) of the latest event about a failure,
   * a delay or a complaint that carried one in `data.category`, written by the repository that records
   * that event, in its transaction; null until then. A delay never replaces the category of a message
   * that already bounced, failed or complained.
   */
  category: string | null;
  /**
   * When txmail stops trying the message (ARCHITECTURE.md, "Expiry"): its sending domain's expire_after
   * after its acceptance, fixed at the accept and rewritten for waiting mail when the setting changes;
   * null: the default retry period (retry-schedule.ts messageDeadline).
   */
  deadline_at: number | null;
}

/**
 * Columns of `messages` that the accept path and the queue never name (they are written after the
 * message is stored): read by the log's repository only.
 */
export interface MessageLogColumns {
  /** When the content retention removed the HTML and the raw bytes; null while kept. */
  content_removed_at: ColumnType<number | null, number | null | undefined, number | null>;
  /** The message this one is a re-sent copy of (POST /api/emails/:id/resend); null for others. */
  resent_from: ColumnType<string | null, string | null | undefined, string | null>;
}

/**
 * A message's HTML as the send request gave it (a test send keeps at most 64 KiB: test-html.ts); '' once
 * the content retention removed it. Apart from `messages` so that the queue's changes to a message's
 * row never write it again (migration 033; ARCHITECTURE.md, "Message content").
 */
export interface MessageBodiesTable {
  message_id: string;
  /** '' when the HTML is in `parts` parts (message_body_parts), or once the content is removed. */
  html: string;
  parts: ColumnType<number, number | undefined, number>;
  /** 1: `html` is sealed (messages/sealed-html.ts; migration 041), txmail's mail carrying a sign-in link. */
  sealed: ColumnType<number, number | undefined, number>;
}

/** A large message's HTML, in order of `seq` (migration 037; db/sqlite/body-parts.ts). */
export interface MessageBodyPartsTable {
  message_id: string;
  seq: number;
  part: string;
}

/** A large HTML whose parts are written and whose message is not stored yet (migration 037). */
export interface MessageBodyPartsPendingTable {
  message_id: string;
}

/** The exact bytes of a message as last sent (signed), gzip in base64 (ARCHITECTURE.md, "Message content"). */
export interface MessageRawTable {
  message_id: string;
  account_id: string;
  raw: string;
  /** Bytes as sent, before compression. */
  size: number;
  signed_at: number;
}

/** A message whose content is removed once it is final (migration 036, messages/system-mail.ts). */
export interface SealedMessagesTable {
  message_id: string;
}

/** Every column of `messages`, in one place for the statements that name them all. */
export const MESSAGE_COLUMNS = [
  'id',
  'account_id',
  'status',
  'from_name',
  'from_email',
  'from_domain',
  'to_name',
  'to_email',
  'to_domain',
  'subject',
  'created_at',
  'updated_at',
  'attempts',
  'next_attempt_at',
  'lease_owner',
  'lease_expires_at',
  'category',
  'deadline_at',
] as const satisfies readonly (keyof MessagesTable)[];

export interface EventsTable {
  id: string;
  /** null for an event about the account itself (`account.warning`, `account.paused`). */
  message_id: string | null;
  account_id: string;
  type: EventType;
  created_at: number;
  /** JSON object with the event's details (SMTP reply, remote host, bounce reason…). */
  data: string;
}

export interface IdempotencyKeysTable {
  account_id: string;
  key: string;
  /** SHA-256 over the route and the request body: a reuse with another body is refused. */
  request_hash: string;
  /** The JSON body of the first response, replayed to repeats. */
  response: string;
  created_at: number;
}

export interface UsageTable {
  account_id: string;
  /** Calendar month in UTC, `YYYY-MM`. */
  month: string;
  sent: number;
}

/** Test sends per account and UTC day: the daily allowance's counter. */
export interface TestUsageTable {
  account_id: string;
  /** UTC day, `YYYY-MM-DD`. */
  day: string;
  sent: number;
}

export interface DkimKeysTable {
  id: string;
  /** null for the service's own keys (the test domain). */
  account_id: string | null;
  domain: string;
  selector: string;
  /** PKCS#8 PEM sealed with the DKIM key-encryption key (crypto/secret-box.ts). */
  private_key: string;
  /**
   * The DNS record's p= value: for RSA base64 DER SubjectPublicKeyInfo, for Ed25519 base64 of the raw
   * 32-byte key (RFC 8463 §4.2).
   */
  public_key: string;
  created_at: number;
  algorithm: DkimAlgorithmName;
  /** active: signs; pending: waits for its record in DNS; retired: signs no more (ARCHITECTURE.md, "DKIM"). */
  status: DkimKeyStatus;
  activated_at: number | null;
  retired_at: number | null;
  /** The last look-up of the key's record (pending keys): when, found/missing/wrong/error, why. */
  record_checked_at: number | null;
  record_status: DkimRecordStatus | null;
  record_problem: string | null;
}

/** What a look-up of a DKIM key's record found (domains/dkim-record-check.ts). */
export type DkimRecordStatus = 'found' | 'missing' | 'wrong' | 'error';

export type DkimAlgorithmName = 'rsa-sha256' | 'ed25519-sha256';
export type DkimKeyStatus = 'active' | 'pending' | 'retired';

export type AttemptOutcome = 'delivered' | 'deferred' | 'bounced' | 'failed';

export interface DeliveryAttemptsTable {
  id: string;
  message_id: string;
  account_id: string;
  started_at: number;
  duration_ms: number;
  outcome: AttemptOutcome;
  /** The MX host (or relay) name and the address connected to; null when no connection was made. */
  remote_host: string | null;
  remote_ip: string | null;
  /** 1 when the SMTP session was encrypted (STARTTLS or implicit TLS). */
  tls: number;
  smtp_code: number | null;
  /** RFC 3463 enhanced status code, e.g. 5.1.1. */
  enhanced_code: string | null;
  /** The server's reply, or what went wrong before there was one. */
  reply: string;
  /** The local address the connection left from; null: the system's choice. */
  source_ip: string | null;
  /**
   * What the answering session negotiated (delivery/tls-policy.ts TlsDetails): the protocol (`TLSv1.3`)
   * and cipher suite, null without TLS; whether the certificate verified for the host name ('valid',
   * 'invalid'; null without TLS) and why not. Null in rows from before they were recorded.
   */
  tls_version: string | null;
  tls_cipher: string | null;
  tls_certificate: 'valid' | 'invalid' | null;
  tls_certificate_error: string | null;
  /** The TLS policy applied (TlsPolicyName); null: no connection was tried, or an old row. */
  tls_policy: string | null;
  /** 1: the STARTTLS handshake failed and the message went, or was tried, in cleartext. */
  tls_fallback: number;
}

export interface SourceIpUsageTable {
  ip: string;
  /** UTC day, YYYY-MM-DD. */
  day: string;
  sent: number;
}

/** PostgreSQL only (see db/postgres/rate-limit-store.ts). */
export interface RateLimitsTable {
  key: string;
  tat: number;
  interval_ms: number;
  tolerance_ms: number;
  allowed: boolean;
}

export type SuppressionOrigin = 'bounce' | 'complaint' | 'manual';

export interface SuppressionsTable {
  id: string;
  account_id: string;
  /** Lower case, domain in ASCII (punycode). */
  address: string;
  origin: SuppressionOrigin;
  /** Plain-language reason, e.g. "the mailbox does not exist (5.1.1)". */
  reason: string;
  /** RFC 3463 code of the bounce that caused it; null for complaints and manual entries. */
  enhanced_code: string | null;
  /** The message whose bounce or complaint caused it. */
  source_message_id: string | null;
  created_at: number;
}

export type InboundStatus = 'pending' | 'processed' | 'failed';

/** An inbound message as received, base64: apart from its row, which changes (migration 034). */
export interface InboundRawTable {
  inbound_id: string;
  /** base64; '' when the text is in `parts` parts (inbound_raw_parts). */
  raw: string;
  parts: ColumnType<number, number | undefined, number>;
}

/** A large inbound message's raw text (base64), in order of `seq` (migration 038; db/sqlite/parts-store.ts). */
export interface InboundRawPartsTable {
  inbound_id: string;
  seq: number;
  part: string;
}

/** A large inbound message whose parts are written and whose row is not stored yet (migration 038). */
export interface InboundRawPartsPendingTable {
  inbound_id: string;
}

export interface InboundMessagesTable {
  id: string;
  received_at: number;
  remote_ip: string;
  helo: string;
  /** The envelope sender ('' for the null sender of bounces). */
  mail_from: string;
  /** JSON array of the accepted envelope recipients. */
  rcpt_to: string;
  size: number;
  status: InboundStatus;
  attempts: number;
  /** Held by the process handling it until then; a crash lets the recovery pass take it. */
  lease_expires_at: number | null;
  /** The process (processes.id) holding the lease; null when none does (a retry's wait has none). */
  lease_owner: ColumnType<string | null, string | null | undefined, string | null>;
  processed_at: number | null;
  /** JSON: what processing found and did. */
  outcome: string | null;
  /**
   * SHA-256 (hex) of the envelope and the bytes (inbound/message-digest.ts): a copy sent again is
   * recorded once (migration 035). Null for messages stored before it.
   */
  digest: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Event types a webhook endpoint can subscribe to (docs/design.md §4, §8). */
export const WEBHOOK_EVENT_TYPES = [
  'email.delivered',
  'email.bounced',
  'email.complained',
  'email.delivery_delayed',
  'email.failed',
  'account.warning',
  'account.paused',
] as const satisfies readonly EventType[];
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export interface WebhooksTable {
  id: string;
  account_id: string;
  url: string;
  description: string;
  /** Subscribed types with commas around each: `,email.delivered,email.bounced,`. */
  event_types: string;
  /** 1 enabled, 0 disabled (by the account, by a 410 Gone, or after the last retry failed). */
  enabled: number;
  disabled_reason: string | null;
  /** The `whsec_…` signing secret, sealed (crypto/secret-box.ts). */
  secret: string;
  /** The secret before the last rotation, still signing until `previous_secret_until`. */
  previous_secret: string | null;
  previous_secret_until: number | null;
  created_at: number;
  updated_at: number;
}

export type WebhookOutboxStatus = 'pending' | 'delivered' | 'failed' | 'skipped';

export interface WebhookOutboxTable {
  /** `<event id>:<webhook id>`, and `<event id>:<webhook id>:<replay id>` for a replay. */
  id: string;
  webhook_id: string;
  event_id: string;
  account_id: string;
  status: WebhookOutboxStatus;
  attempts: number;
  created_at: number;
  /** When the dispatcher should next try; null once final. */
  next_attempt_at: number | null;
  lease_owner: string | null;
  lease_expires_at: number | null;
  /** 1 for a push queued by a replay (counted against the endpoint's cap of pending replays), else 0. */
  replay: ColumnType<number, number | undefined, number>;
}

export interface WebhookAttemptsTable {
  id: string;
  webhook_id: string;
  account_id: string;
  event_id: string;
  /** An event type, or `webhook.test`. */
  event_type: string;
  /** 1 for the first attempt of this event at this endpoint; test sends count 1. */
  attempt: number;
  started_at: number;
  duration_ms: number;
  /** 1 when the endpoint answered 2xx. */
  success: number;
  /** null when no response arrived (refused address, connection error, timeout). */
  status_code: number | null;
  /** The first KiB of the response body. */
  response: string;
  error: string | null;
}

export interface AccountNoticesTable {
  id: string;
  account_id: string;
  /** e.g. `webhook_disabled`. */
  kind: string;
  message: string;
  /** JSON object with what the dashboard links to (webhook id, url…). */
  data: string;
  created_at: number;
}

/** A process that holds leases, kept fresh by its heartbeat (process-registry.ts). */
export interface ProcessesTable {
  id: string;
  host: string;
  pid: number;
  /** When the operating system started the process (ms since the epoch). */
  boot: number;
  started_at: number;
  heartbeat_at: number;
  /** 1: it runs the worker role (it delivers mail); the worker processes share destination limits. */
  delivers: number;
}

/**
 * What happened to an account's mail from one sending domain on one UTC day (db/reputation-repo.ts,
 * ARCHITECTURE.md "Reputation counts"). Activity columns are never reset; window columns are zeroed
 * when an operator resumes the account.
 */
export interface ReputationCountsTable {
  account_id: string;
  domain: string;
  /** 'YYYY-MM-DD', UTC. */
  day: string;
  /** Messages that left the queue for the first time (first counted attempt or first final decision). */
  sent: ColumnType<number, number | undefined, number>;
  delivered: ColumnType<number, number | undefined, number>;
  /** Permanent bounces of any category. */
  bounced: ColumnType<number, number | undefined, number>;
  /** Spam complaints (an unsubscribe is counted in neither complaint column). */
  complained: ColumnType<number, number | undefined, number>;
  /** Messages that reached a final state (delivered, bounced, failed, complained from the queue). */
  final: ColumnType<number, number | undefined, number>;
  /** Permanent bounces whose category counts against the list (bounce/categories.ts). */
  bad_bounces: ColumnType<number, number | undefined, number>;
  /** Complaints of category `complaint` (an unsubscribe is not one). */
  spam_complaints: ColumnType<number, number | undefined, number>;
}

/** The last blocklist verdict of one (target, zone) (blocklists/query.ts Listing). */
export interface BlocklistListingsTable {
  target: string;
  zone: string;
  kind: 'address' | 'name';
  listed: number;
  answer: string | null;
  reason: string | null;
  error: string | null;
  checked_at: number;
  listed_since: number | null;
}

/** When the next blocklist check is due, and which process holds the current one. */
export interface BlocklistScheduleTable {
  id: string;
  next_run_at: number;
  owner: string | null;
  last_run_at: number | null;
}

/** An account's latest sender block from a destination for a source address (migration 021). */
export interface SenderBlockHitsTable {
  destination: string;
  /** '' for the system's choice of address. */
  source_ip: string;
  account_id: string;
  hit_at: number;
  /** The account's sender blocks from the destination within the window (from its first to hit_at). */
  replies: ColumnType<number, number | undefined, number>;
}

/** A destination paused for a source address after sender blocks of several accounts (migration 021). */
export interface DestinationBlocksTable {
  destination: string;
  source_ip: string;
  paused_until: number;
  paused_at: number;
  accounts: number;
  reply: string;
}

/** A recipient domain's MTA-STS policy as last fetched (migration 024; mta-sts/). */
export interface MtaStsPoliciesTable {
  domain: string;
  policy_id: string;
  mode: 'enforce' | 'testing' | 'none';
  /** JSON array of mx patterns. */
  mx: string;
  max_age: number;
  fetched_at: number;
  expires_at: number;
  policy: string;
}

/** TLS-RPT sessions per day, policy, result and hosts (migration 024; tls-reports/). */
export interface TlsReportCountsTable {
  day: string;
  policy_domain: string;
  policy_type: 'sts' | 'no-policy-found';
  policy_hash: string;
  policy_strings: string;
  result_type: string;
  mx_host: string;
  receiving_ip: string;
  sending_ip: string;
  sessions: number;
}

/** One TLS-RPT report of a (policy domain, day) to one `rua` (migration 024). */
export interface TlsReportSendsTable {
  policy_domain: string;
  day: string;
  rua: string;
  attempts: number;
  last_attempt_at: number;
  last_error: string | null;
  sent_at: number | null;
}

/** When the next TLS-RPT run is due, and which process holds the current one. */
export interface TlsReportScheduleTable {
  id: string;
  next_run_at: number;
  owner: string | null;
  last_run_at: number | null;
}

export interface Database {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  domains: DomainsTable;
  messages: MessagesTable & MessageLogColumns;
  message_bodies: MessageBodiesTable;
  message_body_parts: MessageBodyPartsTable;
  message_body_parts_pending: MessageBodyPartsPendingTable;
  message_raw: MessageRawTable;
  sealed_messages: SealedMessagesTable;
  events: EventsTable;
  idempotency_keys: IdempotencyKeysTable;
  usage: UsageTable;
  test_usage: TestUsageTable;
  dkim_keys: DkimKeysTable;
  delivery_attempts: DeliveryAttemptsTable;
  source_ip_usage: SourceIpUsageTable;
  rate_limits: RateLimitsTable;
  suppressions: SuppressionsTable;
  inbound_messages: InboundMessagesTable;
  inbound_raw: InboundRawTable;
  inbound_raw_parts: InboundRawPartsTable;
  inbound_raw_parts_pending: InboundRawPartsPendingTable;
  webhooks: WebhooksTable;
  webhook_outbox: WebhookOutboxTable;
  webhook_attempts: WebhookAttemptsTable;
  account_notices: AccountNoticesTable;
  sessions: SessionsTable;
  account_tokens: AccountTokensTable;
  attempt_counts: AttemptCountsTable;
  login_devices: LoginDevicesTable;
  processes: ProcessesTable;
  reputation_counts: ReputationCountsTable;
  blocklist_listings: BlocklistListingsTable;
  blocklist_schedule: BlocklistScheduleTable;
  sender_block_hits: SenderBlockHitsTable;
  destination_blocks: DestinationBlocksTable;
  mta_sts_policies: MtaStsPoliciesTable;
  tls_report_counts: TlsReportCountsTable;
  tls_report_sends: TlsReportSendsTable;
  tls_report_schedule: TlsReportScheduleTable;
  members: MembersTable;
  member_recovery_codes: MemberRecoveryCodesTable;
  audit_log: AuditLogTable;
  upgrade_marks: UpgradeMarksTable;
}

export type Account = Selectable<AccountsTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type SessionRow = Selectable<SessionsTable>;
export type AccountTokenRow = Selectable<AccountTokensTable>;
export type LoginDeviceRow = Selectable<LoginDevicesTable>;
export type MemberRow = Selectable<MembersTable>;
export type AuditLogRow = Selectable<AuditLogTable>;
export type MessageRow = Selectable<MessagesTable>;
/**
 * A message with its HTML (message_bodies): what the worker builds, and the log's view of one message.
 * `sealed`: the HTML is sealed (messages/sealed-html.ts), to be opened before it is built.
 */
export type MessageWithBody = MessageRow & { html: string; sealed?: boolean };
/** A message as the log reads it: with the columns only the log names (MessageLogColumns). */
export type LoggedMessageRow = MessageRow & Selectable<MessageLogColumns>;
export type NewMessage = Insertable<MessagesTable>;
export type EventRow = Selectable<EventsTable>;
export type NewEvent = Insertable<EventsTable>;
export type DkimKeyRow = Selectable<DkimKeysTable>;
export type DomainRow = Selectable<DomainsTable>;
export type NewDomain = Insertable<DomainsTable>;
export type DeliveryAttemptRow = Selectable<DeliveryAttemptsTable>;
export type SuppressionRow = Selectable<SuppressionsTable>;
export type InboundMessageRow = Selectable<InboundMessagesTable>;
/**
 * An inbound message's bytes: base64 text (`raw`, as inbound_raw stores a whole one), or the bytes in
 * pieces (`pieces`, as the receiver holds them), which belong to the message alone: the parser moves
 * them to its thread (inbound/report-parser.ts) instead of copying them.
 */
export type InboundRaw = { raw: string } | { pieces: readonly Uint8Array[] };
/** A message the receiver (or the simulator) stores: its row and its raw text. */
export type ReceivedMessage = Insertable<InboundMessagesTable> & InboundRaw;
export type WebhookRow = Selectable<WebhooksTable>;
export type WebhookOutboxRow = Selectable<WebhookOutboxTable>;
export type WebhookAttemptRow = Selectable<WebhookAttemptsTable>;
export type AccountNoticeRow = Selectable<AccountNoticesTable>;
