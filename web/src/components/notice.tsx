// Results of async actions, announced by screen readers (aria-live) and shown in place.
import type { ReactNode } from 'react';
import { ApiError } from '../api.js';

export function Notice({
  kind = 'info',
  children,
}: {
  kind?: 'info' | 'success' | 'error' | 'warning';
  children: ReactNode;
}) {
  return (
    <div className={`notice ${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}

/** Shows an error as the server wrote it (`code: message`). */
export function ErrorNotice({ error }: { error: unknown }) {
  if (!error) return null;
  const text = error instanceof ApiError ? error.toString() : String(error);
  return <Notice kind="error">{text}</Notice>;
}

/** For pages whose API arrives in a later txmail version (the route answers 404). */
export function NotAvailable({ what }: { what: string }) {
  return (
    <Notice kind="info">
      {what} are not available on this server yet: its txmail version has no such API. They will appear here
      once the server is upgraded.
    </Notice>
  );
}

/** A polite live region that always exists, so changes inside it are announced. */
export function LiveRegion({ children }: { children: ReactNode }) {
  return (
    <div aria-live="polite" aria-atomic="true" className="live">
      {children}
    </div>
  );
}
