// Which destination a sender block is about (ARCHITECTURE.md, "Destination blocks"). A provider refuses
// a sending address on all of its MX hosts at once (gmail-smtp-in.l.google.com and its alt1…alt4 share
// one verdict), so blocks are kept per the MX host's registrable name (google.com), not per host as
// the traffic limits are (destination-limits.ts). The registrable name comes from the Public Suffix
// List with its private section: names a hosting company hands to its customers
// (compute-1.amazonaws.com, herokuapp.com) are suffixes there, so a tenant whose MX is a rented machine
// (ec2-1-2-3-4.compute-1.amazonaws.com) pauses that machine only, never every domain the hosting
// company serves. Pure.
import { parse } from 'tldts';

/**
 * Hosting names the list does not hold whose next label is the customer's, keyed like the list's own
 * wildcard rules: a virtual machine's name under `<region>.cloudapp.azure.com` is its owner's.
 */
const EXTRA_WILDCARD_SUFFIXES = ['cloudapp.azure.com'];

/**
 * The registrable name of a host name, lower case, without a trailing dot; the host itself when it
 * has none (an IP literal, a single label such as localhost, a name that is itself a suffix).
 */
export function registeredDomain(host: string): string {
  const name = host.trim().toLowerCase().replace(/\.$/, '');
  for (const suffix of EXTRA_WILDCARD_SUFFIXES) {
    if (name.endsWith(`.${suffix}`)) {
      // `<name>.<region>.cloudapp.azure.com`: the suffix's labels, the wildcard label, the customer's.
      const labels = name.split('.');
      return labels.slice(-(suffix.split('.').length + 2)).join('.');
    }
  }
  const parsed = parse(name, { allowPrivateDomains: true });
  if (parsed.isIp === true || !parsed.domain) return name;
  return parsed.domain;
}

/**
 * The destination of sender blocks for a traffic-limits key (`mx:<host>` or `relay:<host>`): the MX
 * host's registrable name; the relay as it is.
 */
export function blockDestination(limitsKey: string): string {
  return limitsKey.startsWith('mx:') ? registeredDomain(limitsKey.slice(3)) : limitsKey;
}
