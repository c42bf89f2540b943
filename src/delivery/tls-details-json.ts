// The `tls_details` of the API's delivery attempts and of delivery events (docs/API.md): what the
// answering session negotiated and the TLS policy applied, one shape for both.
import type { DeliveryAttemptRow } from '../db/schema.js';
import type { TlsDetails } from './tls-policy.js';

export interface TlsDetailsJson {
  version: string | null;
  cipher: string | null;
  certificate: 'valid' | 'invalid' | null;
  certificate_error: string | null;
  policy: string;
  cleartext_fallback: boolean;
}

export function tlsDetailsJson(d: TlsDetails): TlsDetailsJson {
  return {
    version: d.version,
    cipher: d.cipher,
    certificate: d.certificate,
    certificate_error: d.certificateError,
    policy: d.policy,
    cleartext_fallback: d.cleartextFallback,
  };
}

/** An attempt's stored details; null for a row from before they were recorded, or no session. */
export function attemptTlsDetailsJson(a: DeliveryAttemptRow): TlsDetailsJson | null {
  if (a.tls_policy === null) return null;
  return {
    version: a.tls_version,
    cipher: a.tls_cipher,
    certificate: a.tls_certificate,
    certificate_error: a.tls_certificate_error,
    policy: a.tls_policy,
    cleartext_fallback: Number(a.tls_fallback) === 1,
  };
}
