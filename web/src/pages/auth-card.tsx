// The frame of the signed-out pages.
import { useEffect, type ReactNode } from 'react';

export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  useEffect(() => {
    document.title = `${title} · txmail`;
  }, [title]);
  return (
    <main id="main" className="auth">
      <div className="auth-card">
        <p className="brand" aria-hidden="true">
          txmail
        </p>
        <h1>{title}</h1>
        {children}
      </div>
    </main>
  );
}
