// A list the API answers a page at a time (`{ data, next_cursor }`: the log, the audit log): the first
// page for the query, then each "Load more" appends the next.
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, ApiError, query } from '../api.js';

export interface Pages<Row> {
  /** undefined until the first page is in. */
  rows: Row[] | undefined;
  /** Whether the server has more after the last row shown. */
  more: boolean;
  loading: boolean;
  error: unknown;
  /** The server has no such route yet (a feature of a later version). */
  unavailable: boolean;
  loadMore(): void;
  /** The first page again (after a change to the list), as far as the rows shown went or not. */
  reload(): Promise<void>;
  /**
   * Takes the rows that `gone` matches out of those shown (one removed from the list), keeping the pages
   * loaded so far and where the next starts: a reload would fold a long list back to its first page.
   */
  drop(gone: (row: Row) => boolean): void;
}

/**
 * The pages of `path` with `params` (unset ones left out); a change of either starts again. `pages`:
 * how many to load at first, for a list shown again as far as it was (the log after an email's page).
 */
export function usePages<Row>(
  path: string,
  params: Record<string, string | undefined>,
  { pages = 1 }: { pages?: number } = {},
): Pages<Row> {
  const search = query(params);
  /** Pages the first load still brings at once: only the list's first showing, not a later search. */
  const firstPages = useRef(pages);
  const [rows, setRows] = useState<Row[]>();
  const [cursor, setCursor] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<unknown>();
  const [unavailable, setUnavailable] = useState(false);
  /**
   * The list shown: its query and how many times it started from its first page. A page that comes back
   * after the query changed, or after the list started again (a reload after a change), is dropped.
   */
  const shown = useRef('');
  const starts = useRef(0);

  const load = useCallback(
    async (after: string | null) => {
      if (after === null) {
        starts.current++;
        shown.current = `${path}${search}#${starts.current}`;
      }
      const key = shown.current;
      /** The page after `cursor` (null: the first). */
      const pageAfter = (cursor: string | null) => {
        const q = new URLSearchParams(search);
        if (cursor !== null) q.set('cursor', cursor);
        const url = q.toString() === '' ? path : `${path}?${q.toString()}`;
        return api<{ data: Row[]; next_cursor: string | null }>('GET', url);
      };
      setLoading(true);
      try {
        const page = await pageAfter(after);
        if (shown.current !== key) return;
        let data = page.data;
        let next = page.next_cursor;
        if (after === null) {
          // Shown again as far as it was: the next pages follow before anything is drawn.
          for (let more = firstPages.current - 1; more > 0 && next !== null; more--) {
            const following = await pageAfter(next);
            if (shown.current !== key) return;
            data = [...data, ...following.data];
            next = following.next_cursor;
          }
          firstPages.current = 1;
        }
        setRows((prev) => (after === null ? data : [...(prev ?? []), ...data]));
        setCursor(next);
        setError(undefined);
      } catch (err) {
        if (shown.current !== key) return;
        if (err instanceof ApiError && err.routeMissing) setUnavailable(true);
        else setError(err);
        // A refused search shows its error, not the rows of the search before it, nor its next page.
        if (after === null) {
          setRows([]);
          setCursor(null);
        }
      } finally {
        if (shown.current === key) setLoading(false);
      }
    },
    [path, search],
  );
  useEffect(() => {
    void load(null);
  }, [path, search, load]);

  return {
    rows,
    more: cursor !== null,
    loading,
    error,
    unavailable,
    loadMore: () => {
      if (cursor !== null) void load(cursor);
    },
    reload: () => load(null),
    drop: (gone) => setRows((prev) => prev?.filter((row) => !gone(row))),
  };
}
