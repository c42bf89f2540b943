// A bounce category as people read it: its name in words, and on request what it means. The list and
// the meanings are the server's own (src/bounce/categories.ts), so the dashboard never says otherwise.
import { BOUNCE_CATEGORIES, CATEGORY_MEANING, isBounceCategory } from '../../../src/bounce/categories.js';

export { BOUNCE_CATEGORIES };

/** `unknown_recipient` → "unknown recipient". */
export function categoryWords(category: string): string {
  return category.replace(/_/g, ' ');
}

/** The category of a message or an event, when it has one of the list; nothing otherwise. */
export function Category({ category, meaning = false }: { category: unknown; meaning?: boolean }) {
  if (typeof category !== 'string' || !isBounceCategory(category)) return null;
  return (
    <span className="category">
      <span className="category-name">{categoryWords(category)}</span>
      {meaning && <span className="category-meaning">: {CATEGORY_MEANING[category]}</span>}
    </span>
  );
}
