// The frame of a signed-in page: its heading (focused on navigation, so screen readers hear where
// they are) and the document title.
import { useEffect, useRef, type ReactNode } from 'react';

export function Page({ title, intro, children }: { title: string; intro?: ReactNode; children: ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · txmail`;
    heading.current?.focus();
  }, [title]);
  return (
    <section className="page">
      <h1 tabIndex={-1} ref={heading}>
        {title}
      </h1>
      {intro && <p className="intro">{intro}</p>}
      {children}
    </section>
  );
}

/**
 * Gives the keyboard's focus back to the page's heading: after an action that removed the row whose
 * button had it (revoke, remove, end), focus would otherwise fall to the document's body.
 */
export function focusPageHeading(): void {
  document.querySelector<HTMLElement>('section.page > h1')?.focus();
}
