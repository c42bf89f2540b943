// A plain list of items (domains, webhook endpoints), each a line; an empty state when there are none.
import type { ReactNode } from 'react';
import { EmptyState } from './empty-state.js';

/** `items` undefined (not loaded yet) renders nothing; no items renders `empty`. */
export function ItemList<Item extends { id: string }>({
  items,
  empty,
  children,
}: {
  items: Item[] | undefined;
  empty: ReactNode;
  /** One item's line, inside its `<li>`. */
  children(item: Item): ReactNode;
}) {
  if (!items) return null;
  if (items.length === 0) return <EmptyState>{empty}</EmptyState>;
  return (
    <ul className="list">
      {items.map((item) => (
        <li key={item.id}>{children(item)}</li>
      ))}
    </ul>
  );
}
