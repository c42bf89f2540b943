// The worker's record of one delivered attempt (db/queue-record.ts AttemptRecord: the new state, the
// attempt row, the email.delivered event), for benches that store records without delivering.
import { newId } from '../../dist/ids.js';

/** `m`: the message row (its id and account); `owner`: the worker holding its lease. */
export function deliveredRecord(m, now, owner = 'w') {
  return {
    messageId: m.id,
    accountId: m.account_id,
    owner,
    status: 'delivered',
    nextAttemptAt: null,
    counted: true,
    now,
    attempt: {
      id: newId(),
      message_id: m.id,
      account_id: m.account_id,
      started_at: now,
      duration_ms: 5,
      outcome: 'delivered',
      remote_host: 'mx.dest.example',
      remote_ip: '192.0.2.1',
      tls: 1,
      smtp_code: 250,
      enhanced_code: '2.0.0',
      reply: '250 2.0.0 Ok: queued',
      source_ip: null,
      tls_version: 'TLSv1.3',
      tls_cipher: 'TLS_AES_256_GCM_SHA384',
      tls_certificate: 'valid',
      tls_certificate_error: null,
      tls_policy: 'opportunistic',
      tls_fallback: 0,
    },
    events: [{ id: newId(), type: 'email.delivered', data: { attempt: 1, smtp_code: 250 } }],
  };
}
