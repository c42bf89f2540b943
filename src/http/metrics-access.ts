// Who may read GET /metrics. Its series name every account and its sending domains with their bounce
// and complaint rates (tenants never learn of each other), and a scrape is the costliest request the
// listener answers, so it is not for anyone who reaches the port: with TXMAIL_METRICS_TOKEN set, only a
// request bearing it (Prometheus's `authorization` setting); unset, only a request from this host.
import { createHash, timingSafeEqual } from 'node:crypto';
import { trustedNetworks } from '../trusted-networks.js';

const onThisHost = trustedNetworks(['loopback']);

/** What a request to /metrics gets: read, or refused with the reason to give. */
export type MetricsAccess = { allowed: true } | { allowed: false; reason: string };

/**
 * The decision for a configured token (or none). `peer` is the socket's address, `client` the one the
 * request is taken to come from (the same, or X-Forwarded-For's by TXMAIL_TRUST_PROXY), `forwarded`
 * whether it carries a proxy's header (Forwarded, X-Forwarded-For, X-Real-IP, Via). Without a token
 * both addresses must be this host's and no proxy may have passed it on: a reverse proxy on this host
 * (SECURITY.md's own deployment) hands every outsider's request over from 127.0.0.1, and with
 * TXMAIL_TRUST_PROXY trusting every hop an outsider can write "127.0.0.1" into X-Forwarded-For. A proxy
 * that adds none of those headers cannot be told from a local scraper: set the token then. Pure.
 */
export function metricsAccess(token: string | undefined) {
  // Compared as digests of equal length, in constant time: the comparison tells nothing of the token.
  const expected = token === undefined ? undefined : digest(`Bearer ${token}`);
  return (request: {
    peer: string;
    client: string;
    forwarded: boolean;
    authorization: string | undefined;
  }): MetricsAccess => {
    if (expected !== undefined) {
      const given = request.authorization;
      if (given !== undefined && timingSafeEqual(digest(given.trim()), expected)) return { allowed: true };
      return { allowed: false, reason: 'GET /metrics needs the bearer token TXMAIL_METRICS_TOKEN sets' };
    }
    if (!request.forwarded && onThisHost(request.peer) && onThisHost(request.client))
      return { allowed: true };
    return {
      allowed: false,
      reason:
        'GET /metrics answers requests from this host only, not passed on by a proxy; set TXMAIL_METRICS_TOKEN to scrape it from elsewhere',
    };
  };
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
