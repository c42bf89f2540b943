// Dates as people read them, in their own time zone, named: the API, the CSV export and the chart's
// days are in UTC, so a time without its zone would read as one of theirs.
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'long' });
}

export function formatNumber(n: number): string {
  return n.toLocaleString('en-US');
}

/** A rate (a fraction) as people write it, like the server's messages: `12.5 %`, `5.20 %`, `0.1 %`. */
export function formatPercent(fraction: number): string {
  const p = fraction * 100;
  if (p >= 10) return `${p.toFixed(1)} %`;
  if (p >= 1) return `${p.toFixed(2)} %`;
  return `${p.toFixed(3).replace(/0+$/, '').replace(/\.$/, '')} %`;
}

/** A threshold or an axis tick, without the zeros a measured rate keeps: `5 %`, `0.1 %`, `12.5 %`. */
export function formatLimit(fraction: number): string {
  const p = Math.round(fraction * 100 * 1e6) / 1e6;
  return `${p} %`;
}
