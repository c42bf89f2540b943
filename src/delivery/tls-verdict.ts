// What one connection's TLS means for the delivery over it: send, reconnect in cleartext, or refuse to
// send (no MAIL FROM) and try the next host; what to record with the attempt and what to report for
// TLS-RPT. Pure: the transport (smtp-transport.ts) reads the facts off the socket, this judges them
// against the requirement (tls-policy.ts). ARCHITECTURE.md, "TLS policy".
import {
  requirementUnder,
  unlistedHost,
  type TlsDetails,
  type TlsFailureType,
  type TlsRequirement,
  type TlsSessionReport,
} from './tls-policy.js';

/** What a connection's STARTTLS (or implicit TLS) came to, as read off the session. */
export type TlsFacts =
  | {
      kind: 'tls';
      /** `TLSv1.3`. */
      version: string | null;
      /** The cipher suite's standard name. */
      cipher: string | null;
      /** Why the certificate chain did not verify (OpenSSL's code, `CERT_HAS_EXPIRED`); null: it did. */
      chainError: string | null;
      /** Why the certificate is not for the host name (tls.checkServerIdentity's message); null: it is. */
      nameError: string | null;
    }
  /** The server's EHLO announced no STARTTLS. */
  | { kind: 'not-offered' }
  /** The server answered STARTTLS with an error reply. */
  | { kind: 'refused'; reply: string }
  /**
   * The STARTTLS handshake failed (a protocol or cipher the two sides do not share, a dropped
   * connection). `retriedInCleartext`: this is the new connection without TLS that followed it.
   */
  | { kind: 'handshake-failed'; error: string; retriedInCleartext?: boolean };

export interface TlsVerdict {
  /**
   * `send`: go on with the transaction. `fallback`: close, reconnect at once without STARTTLS and send
   * in cleartext. `refuse`: no MAIL FROM; the attempt is deferred with `reason` and the next host tried.
   */
  action: 'send' | 'fallback' | 'refuse';
  /** Recorded with the attempt when this session answers it. */
  details: TlsDetails;
  /** This connection for TLS reporting. */
  session: TlsSessionReport;
  /** For `refuse`: why, naming the policy and what failed. */
  reason?: string;
  /** For `refuse`: the attempt's enhanced code (RFC 3463: 4.7.4 no TLS offered, 4.7.5 TLS failed). */
  enhanced?: string;
}

/**
 * Judges one connection to `host` (its name; the certificate must be valid for it, never for the
 * address) at `address`. `credentials`: the session will log in (a relay): never in cleartext, so a
 * failed handshake is not retried without TLS, and a relay that offers no STARTTLS (or refuses it) is
 * not logged in to.
 */
export function judgeTls(
  target: { host: string; address: string },
  facts: TlsFacts,
  requirement: TlsRequirement,
  credentials = false,
): TlsVerdict {
  const host = target.host.replace(/\.$/, '');
  const base = { mxHost: host, receivingIp: target.address };
  const details = (over: Partial<TlsDetails>): TlsDetails => ({
    policy: requirement.policy,
    version: null,
    cipher: null,
    certificate: null,
    certificateError: null,
    cleartextFallback: false,
    ...over,
  });
  // A host an MTA-STS policy does not list (tls-policy.ts unlistedHost): in testing it is tried and
  // reported; in enforce the Deliverer never tries it, and the verdict, whole on its own, refuses it.
  const unlisted = unlistedHost(host, requirement);
  const refuse = (
    d: TlsDetails,
    failure: TlsFailureType,
    what: string,
    detail: string,
    enhanced: string,
  ): TlsVerdict => ({
    action: 'refuse',
    details: d,
    session: { ...base, ok: false, failure, detail },
    reason: `${requiredBy(requirement)}: ${what}; not delivered`,
    enhanced,
  });

  if (requirement.requireVerified && requirement.policy === 'mta-sts' && unlisted) {
    return refuse(details({}), 'validation-failure', unlisted, unlisted, '4.7.5');
  }

  switch (facts.kind) {
    case 'tls': {
      const certificateError = facts.chainError !== null ? chainWords(facts.chainError) : facts.nameError;
      const valid = certificateError === null;
      const d = details({
        version: facts.version,
        cipher: facts.cipher,
        certificate: valid ? 'valid' : 'invalid',
        certificateError,
      });
      if (!valid && requirement.requireVerified) {
        return refuse(
          d,
          certificateFailure(facts),
          `the certificate of ${host} is not valid for it: ${certificateError}`,
          certificateError,
          '4.7.5',
        );
      }
      // Whether the policy asks for a valid certificate: MTA-STS in testing reports as enforce would.
      const asks = requirement.requireVerified || requirement.policy === 'mta-sts-testing';
      const session: TlsSessionReport =
        asks && !valid
          ? { ...base, ok: false, failure: certificateFailure(facts), detail: certificateError }
          : unlisted
            ? { ...base, ok: false, failure: 'validation-failure', detail: unlisted }
            : { ...base, ok: true };
      return { action: 'send', details: d, session };
    }
    case 'not-offered':
    case 'refused': {
      const what =
        facts.kind === 'not-offered'
          ? `${host} offered no STARTTLS`
          : `${host} refused STARTTLS (${facts.reply})`;
      if (requirement.requireVerified) {
        return refuse(details({}), 'starttls-not-supported', what, what, '4.7.4');
      }
      // A relay's login is never sent in cleartext: whoever can strip STARTTLS from its EHLO would read
      // the credentials (a relay without TLS is reached with smtps://, or without credentials).
      if (credentials) {
        return {
          action: 'refuse',
          details: details({}),
          session: { ...base, ok: false, failure: 'starttls-not-supported', detail: what },
          reason: `${what}; the relay's credentials are never sent in cleartext, so nothing was sent`,
          enhanced: '4.7.4',
        };
      }
      return {
        action: 'send',
        details: details({}),
        session: { ...base, ok: false, failure: 'starttls-not-supported', detail: what },
      };
    }
    case 'handshake-failed': {
      const what = `the TLS handshake with ${host} failed (${facts.error})`;
      // The requirement and the credentials first, even for a cleartext retry already made: the
      // transport never makes one then, and the verdict does not rely on it (never cleartext under a
      // requirement).
      if (requirement.requireVerified) {
        return refuse(details({}), 'validation-failure', what, what, '4.7.5');
      }
      if (credentials) {
        return {
          action: 'refuse',
          details: details({}),
          session: { ...base, ok: false, failure: 'validation-failure', detail: what },
          reason: `${what}; the relay's credentials are never sent in cleartext, so it was not retried without TLS`,
          enhanced: '4.7.5',
        };
      }
      if (facts.retriedInCleartext) {
        return {
          action: 'send',
          details: details({ cleartextFallback: true }),
          session: { ...base, ok: false, failure: 'validation-failure', detail: what },
        };
      }
      return {
        action: 'fallback',
        details: details({ cleartextFallback: true }),
        session: { ...base, ok: false, failure: 'validation-failure', detail: what },
      };
    }
  }
}

/**
 * The first words of a refusal: who requires TLS. The sending domain's setting and an MTA-STS policy in
 * enforce both require a valid certificate; the reason says which applied.
 */
function requiredBy(requirement: TlsRequirement): string {
  if (requirement.policy === 'mta-sts') {
    return requirement.policyDomain
      ? `TLS is required by the MTA-STS policy of ${requirement.policyDomain} (enforce)`
      : "TLS is required by the recipient domain's MTA-STS policy (enforce)";
  }
  return "TLS is required by the sending domain's policy";
}

/** The RFC 8460 result type of a certificate that did not verify. */
function certificateFailure(facts: Extract<TlsFacts, { kind: 'tls' }>): TlsFailureType {
  if (facts.chainError === null) return 'certificate-host-mismatch';
  if (facts.chainError === 'CERT_HAS_EXPIRED') return 'certificate-expired';
  return UNTRUSTED.has(facts.chainError) ? 'certificate-not-trusted' : 'validation-failure';
}

const UNTRUSTED = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
]);

/** OpenSSL's verification codes in the words its own messages use (X509_verify_cert_error_string). */
const CHAIN_WORDS: Record<string, string> = {
  CERT_HAS_EXPIRED: 'certificate has expired',
  CERT_NOT_YET_VALID: 'certificate is not yet valid',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'self-signed certificate',
  SELF_SIGNED_CERT_IN_CHAIN: 'self-signed certificate in certificate chain',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'unable to verify the first certificate',
  UNABLE_TO_GET_ISSUER_CERT: 'unable to get issuer certificate',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'unable to get local issuer certificate',
  CERT_UNTRUSTED: 'certificate not trusted',
  CERT_REJECTED: 'certificate rejected',
  CERT_REVOKED: 'certificate revoked',
  CERT_SIGNATURE_FAILURE: 'certificate signature failure',
  INVALID_CA: 'invalid CA certificate',
  INVALID_PURPOSE: 'unsupported certificate purpose',
};

function chainWords(code: string): string {
  return CHAIN_WORDS[code] ?? code.toLowerCase().replaceAll('_', ' ');
}

/**
 * The requirement of one delivery, from the sending domain's `tls` setting and the recipient domain's
 * MTA-STS policy (undefined: none, or a relay delivers). A valid certificate is required when either
 * asks; the policy recorded is MTA-STS's when it enforces, else the domain's when it requires, else
 * MTA-STS testing's, else opportunistic. The MTA-STS fields (its mode, mx patterns, the policy's domain
 * and lines, a failure to get it) are kept for the transport and TLS reporting.
 */
export function tlsRequirement(
  domainTls: 'opportunistic' | 'required',
  mtaSts: TlsRequirement | undefined,
): TlsRequirement {
  if (mtaSts?.policy === 'mta-sts') return requirementUnder('mta-sts', mtaSts);
  if (domainTls === 'required') return requirementUnder('required', { ...mtaSts });
  return mtaSts ?? requirementUnder('opportunistic');
}

/**
 * A failed handshake in words: OpenSSL's reason ("tlsv1 alert protocol version", "unsupported
 * protocol") rather than its whole error line (an address, a source file, a line number).
 */
export function handshakeWords(err: { message: string; reason?: unknown }): string {
  if (typeof err.reason === 'string' && err.reason !== '') return err.reason;
  const line = err.message.split('\n')[0]!.trim();
  return /:SSL routines:[^:]*:([^:]+):/.exec(line)?.[1] ?? line;
}
