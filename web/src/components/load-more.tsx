import type { Pages } from './use-pages.js';

/** The next page of a paged list (use-pages.ts), while the server has more. */
export function LoadMore({ pages }: { pages: Pick<Pages<unknown>, 'more' | 'loading' | 'loadMore'> }) {
  if (!pages.more) return null;
  return (
    <button type="button" className="button secondary" onClick={pages.loadMore} disabled={pages.loading}>
      Load more
    </button>
  );
}
