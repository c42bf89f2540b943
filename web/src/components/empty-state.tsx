// What a list with nothing in it shows instead: one sentence saying so, where the list would be.
import type { ReactNode } from 'react';

export function EmptyState({ children }: { children: ReactNode }) {
  return <p>{children}</p>;
}
