import type { Pages } from './use-pages.js';

/**
 * The next page of a paged list (use-pages.ts), while the server has more. Never disabled while a page
 * loads (aria-disabled, the click ignored): a disabled button drops the keyboard's focus to the page's
 * start, and the person pressing it again and again would start over each time.
 */
export function LoadMore({ pages }: { pages: Pick<Pages<unknown>, 'more' | 'loading' | 'loadMore'> }) {
  if (!pages.more) return null;
  return (
    <button
      type="button"
      className="button secondary"
      onClick={() => {
        if (!pages.loading) pages.loadMore();
      }}
      aria-disabled={pages.loading}
    >
      Load more
    </button>
  );
}
