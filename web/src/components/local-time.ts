// The log's time filters: a datetime-local field holds the person's own time without a zone, the API
// and the page's address hold ISO 8601. The address is anyone's to edit (a bookmark cut short, a link
// typed by hand): a value that is no time leaves the field empty rather than throwing (an uncaught
// RangeError blanked the whole dashboard), and the API names the bad value.

/** A datetime-local value → ISO 8601 for the API; undefined when empty or not a time. */
export function localToIso(local: string): string | undefined {
  if (!local) return undefined;
  const d = new Date(local);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

/** An ISO time from the address → a datetime-local value in the person's time zone; '' when not a time. */
export function isoToLocal(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  const local = new Date(d.getTime() - d.getTimezoneOffset() * 60_000);
  return Number.isNaN(local.getTime()) ? '' : local.toISOString().slice(0, 16);
}
