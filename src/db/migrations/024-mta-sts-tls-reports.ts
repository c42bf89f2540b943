// MTA-STS and TLS reporting (ARCHITECTURE.md, "TLS policy"): the recipient domains' MTA-STS policies as
// last fetched, shared by every process (RFC 8461 §5.1: a cached policy applies until its max_age ends);
// the TLS-RPT session counts per day (RFC 8460), the reports sent, and the row that elects the process
// that sends them.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('mta_sts_policies')
    // The recipient domain (lower case, ASCII).
    .addColumn('domain', 'text', (c) => c.primaryKey())
    // The id of the `_mta-sts` TXT record the policy was fetched under: a new id means a new policy.
    .addColumn('policy_id', 'text', (c) => c.notNull())
    // 'enforce', 'testing' or 'none'.
    .addColumn('mode', 'text', (c) => c.notNull())
    // JSON array of the policy's mx patterns.
    .addColumn('mx', 'text', (c) => c.notNull())
    .addColumn('max_age', 'bigint', (c) => c.notNull())
    .addColumn('fetched_at', 'bigint', (c) => c.notNull())
    // fetched_at + max_age: until then the policy applies, even when a refresh fails.
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    // The policy as served (at most 64 KiB): TLS-RPT reports its lines.
    .addColumn('policy', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('tls_report_counts')
    // 'YYYY-MM-DD', UTC.
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('policy_domain', 'text', (c) => c.notNull())
    // 'sts' or 'no-policy-found' (RFC 8460 §4.4).
    .addColumn('policy_type', 'text', (c) => c.notNull())
    // SHA-256 (hex) of policy_strings: the key, as the strings themselves can be long.
    .addColumn('policy_hash', 'text', (c) => c.notNull())
    // JSON array of the policy's lines; '[]' without a policy.
    .addColumn('policy_strings', 'text', (c) => c.notNull())
    // 'success' or an RFC 8460 §4.3 result type.
    .addColumn('result_type', 'text', (c) => c.notNull())
    // '' when unknown (a policy that could not be fetched, before any connection).
    .addColumn('mx_host', 'text', (c) => c.notNull())
    .addColumn('receiving_ip', 'text', (c) => c.notNull())
    .addColumn('sending_ip', 'text', (c) => c.notNull())
    .addColumn('sessions', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('tls_report_counts_pk', [
      'day',
      'policy_domain',
      'policy_type',
      'policy_hash',
      'result_type',
      'mx_host',
      'receiving_ip',
      'sending_ip',
    ])
    .execute();
  await db.schema
    .createTable('tls_report_sends')
    .addColumn('policy_domain', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    // One `rua` URI of the domain's TLSRPT record; '' when the domain publishes none (nothing to send).
    .addColumn('rua', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('last_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('last_error', 'text')
    // Set once the report was accepted (a 2xx answer, or the SMTP server's 250); null while retried.
    .addColumn('sent_at', 'bigint')
    .addPrimaryKeyConstraint('tls_report_sends_pk', ['policy_domain', 'day', 'rua'])
    .execute();
  await db.schema
    .createTable('tls_report_schedule')
    // One row, id 'reports': a conditional update of next_run_at elects the process that reports.
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('next_run_at', 'bigint', (c) => c.notNull())
    .addColumn('owner', 'text')
    .addColumn('last_run_at', 'bigint')
    .execute();
}
