// A box a wide table scrolls sideways in (on a phone, its last columns), with a shadow at an edge past
// which it goes on (scroll-edges.ts). While it overflows it can take the keyboard's focus and is a named
// region, so a keyboard user can scroll it too (axe-core's scrollable-region-focusable).
import type { ReactNode } from 'react';
import { useScrollEdges } from './scroll-edges.js';

export function ScrollBox({ label, children }: { label: string; children: ReactNode }) {
  const edges = useScrollEdges<HTMLDivElement>();
  const overflows = edges.left || edges.right;
  const className = ['table-wrap', edges.left && 'more-left', edges.right && 'more-right']
    .filter(Boolean)
    .join(' ');
  return (
    <div
      className={className}
      ref={edges.ref}
      {...(overflows ? { tabIndex: 0, role: 'region', 'aria-label': label } : {})}
    >
      {children}
    </div>
  );
}
