// What TLS a delivery must have, and what each session had. Shared by the Deliverer (which decides
// the requirement from the sending domain's `tls` setting and the recipient domain's MTA-STS policy),
// the transport (which applies it and reports what the session negotiated) and TLS reporting (which
// counts the sessions per recipient domain, RFC 8460). ARCHITECTURE.md, "TLS policy".

/** The policy applied to one attempt, recorded with it. */
export type TlsPolicyName =
  /** STARTTLS when offered, any certificate; after a failed handshake, cleartext on a new connection. */
  | 'opportunistic'
  /** The sending domain's `tls: "required"`: only over TLS with a certificate valid for the host. */
  | 'required'
  /** The recipient domain's MTA-STS policy in mode `enforce` (RFC 8461). */
  | 'mta-sts'
  /** MTA-STS in mode `testing`: delivered as opportunistic; failures are only reported. */
  | 'mta-sts-testing';

/** The RFC 8460 §4.3 result types txmail can observe. */
export type TlsFailureType =
  | 'starttls-not-supported'
  | 'certificate-host-mismatch'
  | 'certificate-expired'
  | 'certificate-not-trusted'
  | 'validation-failure'
  | 'sts-policy-fetch-error'
  | 'sts-policy-invalid'
  | 'sts-webpki-invalid';

export interface TlsRequirement {
  policy: TlsPolicyName;
  /**
   * No delivery without TLS and a certificate valid for the host name (chain, name and dates). Follows
   * from `policy` (verifiesCertificate): made by requirementUnder, never set on its own.
   */
  requireVerified: boolean;
  /**
   * MTA-STS: the policy's `mx` patterns (`mx.example.com`, `*.example.net`). In `enforce` a host that
   * matches none is not tried; in `testing` it is, and the mismatch is reported. Absent: any host.
   */
  mxPatterns?: string[];
  /**
   * The recipient domain's MTA-STS policy and its mode, whatever `policy` names (the sending domain's
   * `required` wins the name when MTA-STS only tests): TLS reporting reports an STS policy from it.
   */
  sts?: 'enforce' | 'testing';
  /** For TLS-RPT: the domain whose policy this is and the policy's lines (RFC 8460 policy-string). */
  policyDomain?: string;
  policyStrings?: string[];
  /** The MTA-STS policy could not be had (its fetch failed, it was invalid): reported, not applied. */
  policyFailure?: { type: TlsFailureType; detail: string };
}

/**
 * Whether a policy requires TLS with a certificate valid for the host: the sending domain's `required`
 * and MTA-STS in enforce; opportunistic and MTA-STS testing take any certificate, or none.
 */
export function verifiesCertificate(policy: TlsPolicyName): boolean {
  return policy === 'required' || policy === 'mta-sts';
}

/** The requirement of `policy` with `fields` (the MTA-STS ones), requireVerified as the policy says. */
export function requirementUnder(
  policy: TlsPolicyName,
  fields: Omit<TlsRequirement, 'policy' | 'requireVerified'> = {},
): TlsRequirement {
  return { ...fields, policy, requireVerified: verifiesCertificate(policy) };
}

export const OPPORTUNISTIC: TlsRequirement = requirementUnder('opportunistic');

/** What one session negotiated, recorded with the attempt that used it. */
export interface TlsDetails {
  policy: TlsPolicyName;
  /** `TLSv1.3`; null when the session was not encrypted. */
  version: string | null;
  /** The negotiated cipher suite's standard name; null without TLS. */
  cipher: string | null;
  /** Whether the certificate verified for the host name; null without TLS. */
  certificate: 'valid' | 'invalid' | null;
  /** Why it did not verify (the chain's error or the name mismatch); null when valid or without TLS. */
  certificateError: string | null;
  /** The STARTTLS handshake failed and the message was sent, or tried, in cleartext on a new connection. */
  cleartextFallback: boolean;
}

/** One connection's TLS result, for reporting (every host tried in an attempt, not just the last). */
export interface TlsSessionReport {
  mxHost: string;
  receivingIp: string;
  /** true: TLS was negotiated and, where the policy asks, the certificate verified. */
  ok: boolean;
  failure?: TlsFailureType;
  detail?: string;
}

/**
 * Why the requirement's MTA-STS policy does not cover `host` (its `mx` patterns match none of it), or
 * undefined when it does or there is no such policy: the one statement of the rule. In enforce the
 * Deliverer never tries such a host (deliver-message.ts); in testing it is tried and reported.
 */
export function unlistedHost(host: string, requirement: TlsRequirement): string | undefined {
  if (requirement.mxPatterns === undefined || mxMatchesPolicy(host, requirement.mxPatterns)) return undefined;
  const name = host.replace(/\.$/, '');
  const of = requirement.policyDomain ? ` of ${requirement.policyDomain}` : '';
  return `${name} is not listed in the MTA-STS policy${of}`;
}

/**
 * Whether an MX host name matches one of an MTA-STS policy's `mx` patterns (RFC 8461 §4.1): case
 * insensitive, a trailing dot ignored; `*.example.com` matches exactly one label in place of the `*`.
 */
export function mxMatchesPolicy(host: string, patterns: readonly string[]): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return patterns.some((p) => {
    const pattern = p.toLowerCase().replace(/\.$/, '');
    if (!pattern.startsWith('*.')) return name === pattern;
    const rest = pattern.slice(1); // ".example.com"
    if (!name.endsWith(rest)) return false;
    const label = name.slice(0, name.length - rest.length);
    return label.length > 0 && !label.includes('.');
  });
}
