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
