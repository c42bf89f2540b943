// Fetches a domain's MTA-STS policy file (RFC 8461 §3.3): GET https://mta-sts.<domain>/.well-known/
// mta-sts.txt, a 200 answer of type text/plain, at most 64 KiB, no redirects, within the time limit, the
// certificate valid for mta-sts.<domain>. Every failure is named with its RFC 8460 result type, so TLS
// reporting can tell the domain what went wrong.
import type { TlsFailureType } from '../delivery/tls-policy.js';
import { guardedHttps, HttpsFailure, type GuardedHttpsOptions } from './guarded-https.js';
import { parseStsPolicy, type StsPolicy } from './policy.js';

/** RFC 8461 §3.3: senders may limit the policy's size; 64 KiB is the size it suggests. */
export const MAX_POLICY_BYTES = 64 * 1024;
/** RFC 8461 §3.3 suggests a minute for the fetch (a delivery waits less for it: mta-sts-policies.ts). */
export const POLICY_FETCH_TIMEOUT_MS = 60_000;

export type FetchResult =
  | { ok: true; policy: StsPolicy; text: string }
  | { ok: false; failure: { type: TlsFailureType; detail: string } };

export type PolicyFetchOptions = Omit<GuardedHttpsOptions, 'timeoutMs' | 'maxBytes'> & {
  timeoutMs?: number;
};

export async function fetchStsPolicy(domain: string, options: PolicyFetchOptions): Promise<FetchResult> {
  const url = new URL(`https://mta-sts.${domain}/.well-known/mta-sts.txt`);
  let answer;
  try {
    answer = await guardedHttps(
      url,
      { method: 'GET', headers: { accept: 'text/plain' } },
      { ...options, timeoutMs: options.timeoutMs ?? POLICY_FETCH_TIMEOUT_MS, maxBytes: MAX_POLICY_BYTES },
    );
  } catch (err) {
    const failure = err instanceof HttpsFailure ? err : new HttpsFailure('fetch', String(err));
    return fail(failure.kind === 'webpki' ? 'sts-webpki-invalid' : 'sts-policy-fetch-error', failure.message);
  }
  if (answer.status !== 200) {
    const redirect = answer.status >= 300 && answer.status < 400 ? ' (redirects are not followed)' : '';
    return fail('sts-policy-fetch-error', `${url.host} answered HTTP ${answer.status}${redirect}`);
  }
  const type = (answer.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'text/plain') {
    return fail('sts-policy-invalid', `content type "${type.slice(0, 60)}", not text/plain`);
  }
  const text = answer.body.toString('utf8');
  const policy = parseStsPolicy(text);
  if ('error' in policy) return fail('sts-policy-invalid', policy.error);
  return { ok: true, policy, text };
}

function fail(type: TlsFailureType, detail: string): FetchResult {
  return { ok: false, failure: { type, detail } };
}
