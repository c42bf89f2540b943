// A box a wide table scrolls sideways in (on a phone, its last columns), with a shadow at an edge past
// which it goes on (scroll-edges.ts). It is a focusable named region, so a keyboard scrolls it too
// (axe-core's scrollable-region-focusable). Always, not only once it is measured to overflow: the
// measure comes a frame after the table is drawn, and a check (or a person) can come before it.
import type { ReactNode } from 'react';
import { useScrollEdges } from './scroll-edges.js';

export function ScrollBox({ label, children }: { label: string; children: ReactNode }) {
  const edges = useScrollEdges<HTMLDivElement>();
  const className = ['table-wrap', edges.left && 'more-left', edges.right && 'more-right']
    .filter(Boolean)
    .join(' ');
  return (
    <div className={className} ref={edges.ref} tabIndex={0} role="region" aria-label={label}>
      {children}
    </div>
  );
}
