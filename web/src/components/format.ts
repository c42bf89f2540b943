// Dates as people read them, in their own time zone, with the exact ISO time on hover.
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

export function formatNumber(n: number): string {
  return n.toLocaleString('en-US');
}
