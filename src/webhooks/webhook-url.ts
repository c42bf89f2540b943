// Webhook URLs: the syntax rule (checked when an endpoint is saved) and the resolution to one address
// (checked at creation and again before every push). A push connects to exactly the address checked
// here, so a name that resolves to a public address at check time and to 127.0.0.1 a moment later (DNS
// rebinding) cannot reach a private address.
import { isIP } from 'node:net';
import type { DnsResolver } from '../dns/resolver.js';
import { resolvePublicAddresses } from '../resolve-public.js';

export const MAX_URL_LENGTH = 2048;

/**
 * An endpoint's URL as shown to someone who may not read the endpoint itself (an audit entry, a viewer's
 * log): its origin alone, since the rest may be a secret of the receiver's (a user name and password, a
 * token in the query, or in the path itself, as Slack's, Discord's and Zapier's hooks carry theirs).
 * "/…" says a path was left out; undefined for a URL that does not parse.
 */
export function endpointOrigin(url: string): string | undefined {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname === '/' && !u.search && !u.hash ? '' : '/…'}`;
  } catch {
    return undefined;
  }
}

/** Why the URL cannot be an endpoint, or undefined when its form is acceptable. */
export function webhookUrlProblem(url: string, allowPrivate: boolean): string | undefined {
  if (url.length > MAX_URL_LENGTH) return `must be at most ${MAX_URL_LENGTH} characters`;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 'is not an absolute URL';
  }
  // The URL parser drops tabs and line breaks and escapes the rest, so such a URL would be stored and
  // shown as given but called as another: refused, as a browser's address bar would not take it.
  if (/[\p{Cc}\s]/u.test(url)) return 'must not contain spaces or control characters';
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
  const resolved = await resolvePublicAddresses(u.hostname.replace(/^\[|\]$/g, ''), dns, allowPrivate);
  if (!resolved.ok) return resolved;
  const address = resolved.addresses[0]!;
  return { ok: true, url: u, address, family: isIP(address) === 6 ? 6 : 4 };
}
