// Which destination a sender block is about (ARCHITECTURE.md, "Destination blocks"). A provider refuses
// a sending address on all of its MX hosts at once (gmail-smtp-in.l.google.com and its alt1…alt4 share
// one verdict), so blocks are kept per the MX host's registered domain (google.com), not per host as
// the traffic limits are (destination-limits.ts). The registered domain is found without a public
// suffix list: the last two labels, or three under the common second-level registries of a
// country-code top-level domain (example.co.uk, example.com.au). Pure.

/** Second-level labels under which a country-code domain registers names (co.uk, com.au, ne.jp). */
const SECOND_LEVEL = new Set(['ac', 'co', 'com', 'edu', 'gov', 'ne', 'net', 'or', 'org']);

/** The registered domain of a host name, lower case, without a trailing dot. */
export function registeredDomain(host: string): string {
  const labels = host.toLowerCase().replace(/\.$/, '').split('.');
  if (labels.length <= 2) return labels.join('.');
  const [second, top] = labels.slice(-2) as [string, string];
  const take = top.length === 2 && SECOND_LEVEL.has(second) ? 3 : 2;
  return labels.slice(-take).join('.');
}

/**
 * The destination of sender blocks for a traffic-limits key (`mx:<host>` or `relay:<host>`): the MX
 * host's registered domain; the relay as it is.
 */
export function blockDestination(limitsKey: string): string {
  return limitsKey.startsWith('mx:') ? registeredDomain(limitsKey.slice(3)) : limitsKey;
}
