// Whether the host name the service says EHLO with (TXMAIL_HOSTNAME) can stand before receivers
// (ARCHITECTURE.md, "The service's own DNS records"). RFC 5321 §4.1.1.1 asks for the client's fully
// qualified domain name; a bare machine name (`vm`, `localhost`) or an address is penalised by spam
// filters (SpamAssassin's HELO rules, Postfix's reject_non_fqdn_helo_hostname), and no A, PTR or SPF
// record can be published for it. Pure: the roles that send or name mail (serve, api, worker) call it
// at start.
import { allLdhLabels, numericTopLabel } from './domains/labels.js';

/** Why `name` is not a fully qualified domain name, or undefined when it is one. */
export function fqdnProblem(name: string): string | undefined {
  const n = name.replace(/\.$/, '');
  if (n.includes(':') || n.startsWith('[')) return 'is an IP address literal, not a name';
  if (n.length === 0 || n.length > 253) return 'is not a domain name';
  const labels = n.split('.');
  if (!allLdhLabels(labels)) {
    return 'is not a domain name (letters, digits and hyphens in dot-separated labels)';
  }
  // A top-level label of digits only is an IPv4 address, or a name no registry can hand out.
  if (numericTopLabel(labels)) {
    return labels.length === 4 ? 'is an IP address, not a name' : 'has a numeric top-level label';
  }
  if (labels.length < 2) return 'is a single label, not a fully qualified domain name';
  return undefined;
}

export type HostnameVerdict = { ok: true } | { ok: false; message: string } | { ok: 'warn'; message: string };

/**
 * What lets a process start with a host name that is not a FQDN (with a warning): a development or test
 * set-up (TXMAIL_ALLOW_PRIVATE_NETWORKS), or a trial on this machine (`txmail serve --trial`, which
 * `npm start` runs: the embedded default must start on a machine named `vm`).
 */
export type HostnameAllowance = 'TXMAIL_ALLOW_PRIVATE_NETWORKS' | '--trial' | undefined;

/** The start check of serve, api and worker: a host name that is not a FQDN stops the process. */
export function hostnameVerdict(hostname: string, allowance: HostnameAllowance): HostnameVerdict {
  const problem = fqdnProblem(hostname);
  if (problem === undefined) return { ok: true };
  const what = `"${hostname}" ${problem}: it is the EHLO name and the Message-ID domain, and receivers penalise or refuse mail whose EHLO name is not a fully qualified domain name`;
  if (allowance === 'TXMAIL_ALLOW_PRIVATE_NETWORKS') {
    return { ok: 'warn', message: `${what} (allowed because TXMAIL_ALLOW_PRIVATE_NETWORKS is set)` };
  }
  if (allowance === '--trial') {
    return {
      ok: 'warn',
      message: `${what} (allowed for a trial on this machine, npm start; set TXMAIL_HOSTNAME before sending to the internet)`,
    };
  }
  return {
    ok: false,
    message: `${what}. Set TXMAIL_HOSTNAME to the sending machine's public name (e.g. mta1.example.com) and publish its A/AAAA, PTR and SPF records (txmail dns), or set TXMAIL_ALLOW_PRIVATE_NETWORKS=true for a development or test set-up`,
  };
}
