// The operator's email when a blocklist check finds a new listing or a listing gone.
import { usableSources } from '../delivery/source-ip-pool.js';
import type { ListingChangeReport } from './monitor.js';
import type { Listing } from './query.js';

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function listingMail(
  changes: readonly ListingChangeReport[],
  listings: readonly Listing[],
  sourceIps: readonly string[],
): { subject: string; html: string } {
  const listed = changes.filter((c) => c.change === 'listed');
  const first = changes[0]!.listing;
  const ended = changes.length - listed.length;
  const subject =
    changes.length === 1
      ? `txmail: ${first.target} is ${listed.length ? 'listed on' : 'no longer listed on'} ${first.zone}`
      : `txmail: ${[listed.length ? `${listed.length} new blocklist listings` : '', ended ? `${ended} blocklist listings ended` : ''].filter(Boolean).join(', ')}`;
  const line = ({ listing: l, change }: ListingChangeReport) =>
    change === 'listed'
      ? `<li><code>${esc(l.target)}</code> is listed on <code>${esc(l.zone)}</code> (answer ${esc(l.answer ?? '')})` +
        `${l.reason ? `: ${esc(l.reason)}` : ''}</li>`
      : `<li><code>${esc(l.target)}</code> is no longer listed on <code>${esc(l.zone)}</code></li>`;
  const listedSources = new Set(
    listings.filter((l) => l.listed && l.kind === 'address').map((l) => l.target),
  );
  const allListed = sourceIps.every((ip) => listedSources.has(ip));
  const usable = usableSources(sourceIps, listedSources);
  const sources =
    listedSources.size === 0
      ? ''
      : !allListed
        ? `<p>Mail no longer leaves from ${[...listedSources].map((a) => `<code>${esc(a)}</code>`).join(', ')} while it is listed; it goes out from ${usable.map((a) => `<code>${esc(a)}</code>`).join(', ')}.</p>`
        : '<p>Every sending address is listed: mail still goes out from all of them (txmail never stops all mail). Ask the lists for removal, or add a clean address to TXMAIL_SOURCE_IPS.</p>';
  return {
    subject,
    html: [
      '<p>Hello,</p>',
      '<p>The blocklist check of this txmail service found:</p>',
      `<ul>\n${changes.map(line).join('\n')}\n</ul>`,
      sources,
      '<p>Each list says how to ask for removal at the address in its reason. <code>txmail status</code> shows every listing.</p>',
      '<p>— txmail</p>',
    ]
      .filter(Boolean)
      .join('\n'),
  };
}
