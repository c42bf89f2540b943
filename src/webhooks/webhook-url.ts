// Webhook URLs: the syntax rule (checked when an endpoint is saved) and the resolution to one address
// (checked at creation and again before every push). A push connects to exactly the address checked
// here, so a name that resolves to a public address at check time and to 127.0.0.1 a moment later (DNS
// rebinding) cannot reach a private address.
import { isIP } from 'node:net';
import { DnsError, type DnsResolver } from '../dns/resolver.js';
import { isPublicAddress } from '../public-address.js';

export const MAX_URL_LENGTH = 2048;

/** Why the URL cannot be an endpoint, or undefined when its form is acceptable. */
export function webhookUrlProblem(url: string, allowPrivate: boolean): string | undefined {
  if (url.length > MAX_URL_LENGTH) return `must be at most ${MAX_URL_LENGTH} characters`;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 'is not an absolute URL';
  }
  if (u.protocol !== 'https:' && !(allowPrivate && u.protocol === 'http:')) return 'must start with https://';
  if (u.username || u.password) return 'must not contain a user name or password';
  if (u.hostname === '') return 'has no host';
  return undefined;
}

export type ResolvedTarget =
  | { ok: true; url: URL; address: string; family: 4 | 6 }
  /** temporary: the DNS could not answer now (a push retries later; a creation is not refused). */
  | { ok: false; reason: string; temporary: boolean };

/** Resolves the URL's host once and picks the address to connect to; refuses private addresses. */
export async function resolveWebhookTarget(
  url: string,
  dns: DnsResolver,
  allowPrivate: boolean,
): Promise<ResolvedTarget> {
  const u = new URL(url);
  const host = u.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (isIP(host)) {
    addresses = [host];
  } else {
    addresses = [];
    let temporary = false;
    let lastError = '';
    for (const lookup of [dns.a.bind(dns), dns.aaaa.bind(dns)]) {
      try {
        addresses.push(...(await lookup(host)));
      } catch (err) {
        if (!(err instanceof DnsError)) throw err;
        if (err.failure === 'temporary') temporary = true;
        lastError = err.message;
      }
    }
    if (addresses.length === 0) {
      return { ok: false, reason: `${host} does not resolve (${lastError})`, temporary };
    }
  }
  // Every address must be public: a name with one public and one private address could be steered.
  const refused = allowPrivate ? undefined : addresses.find((a) => !isPublicAddress(a));
  if (refused !== undefined) {
    return {
      ok: false,
      reason: `${host} resolves to ${refused}, a loopback, private or otherwise non-public address`,
      temporary: false,
    };
  }
  const address = addresses[0]!;
  return { ok: true, url: u, address, family: isIP(address) === 6 ? 6 : 4 };
}
