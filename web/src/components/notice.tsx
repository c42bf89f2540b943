// Results of async actions, announced by screen readers (aria-live) and shown in place.
import { useEffect, useId, useRef, type ReactNode, type Ref } from 'react';
import { ApiError } from '../api.js';
import { withLabels, type FieldLabels } from './field-labels.js';
import { visibleControls } from './visible-controls.js';

export function Notice({
  kind = 'info',
  children,
  id,
  ref,
}: {
  kind?: 'info' | 'success' | 'error' | 'warning';
  children: ReactNode;
  id?: string;
  ref?: Ref<HTMLDivElement>;
}) {
  return (
    <div className={`notice ${kind}`} role={kind === 'error' ? 'alert' : 'status'} id={id} ref={ref}>
      {children}
    </div>
  );
}

/**
 * Shows an error in words first: the server's message as a sentence, its code after it, small, for
 * whoever reads the API's documentation or asks for help (`invalid_credentials: the email or the
 * password is wrong` reads "The email or the password is wrong. (invalid_credentials)").
 */
export function ErrorNotice({ error, labels }: { error: unknown; labels?: FieldLabels }) {
  const id = useId();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => markField(ref.current, id, error), [id, error]);
  if (!error) return null;
  if (!(error instanceof ApiError)) return <Notice kind="error">{String(error)}</Notice>;
  return (
    <Notice kind="error" id={id} ref={ref}>
      {/* A refusal may repeat what was typed or stored: its direction controls shown (visible-controls.ts). */}
      {visibleControls(sentence(labels ? withLabels(error.message, labels) : error.message))}{' '}
      <span className="error-code">({error.code})</span>
    </Notice>
  );
}

/**
 * The field a refusal names (`"url" must start with https://`), marked invalid and described by the
 * error while it is shown, so a screen reader on the field says what is wrong with it; the page's field
 * of that name (forms name their fields as the API does). Answers the undoing.
 */
function markField(notice: HTMLElement | null, id: string, error: unknown): (() => void) | undefined {
  if (!notice || !(error instanceof ApiError)) return undefined;
  const name = /^"([A-Za-z_]\w*)/.exec(error.message)?.[1];
  if (name === undefined) return undefined;
  // The form that was sent holds the field (its button keeps the focus: ActionForm's is never
  // disabled); else the page's only field of that name. Two forms of one page may both have an
  // `address` (Suppressions: the search and the add form), and the wrong one must not be marked.
  const sent = document.activeElement?.closest('form');
  const page = notice.closest('main, form, .auth-card') ?? document;
  const inPage = page.querySelectorAll<HTMLElement>(`[name="${name}"]`);
  const field =
    sent?.querySelector<HTMLElement>(`[name="${name}"]`) ?? (inPage.length === 1 ? inPage[0] : null);
  if (!field) return undefined;
  const described = field.getAttribute('aria-describedby');
  field.setAttribute('aria-invalid', 'true');
  field.setAttribute('aria-describedby', described ? `${described} ${id}` : id);
  return () => {
    field.removeAttribute('aria-invalid');
    if (described) field.setAttribute('aria-describedby', described);
    else field.removeAttribute('aria-describedby');
  };
}

/** The server's messages are clauses (`the current password is wrong`): capitalised and ended. */
export function sentence(message: string): string {
  const text = message.trim();
  if (text === '') return text;
  // An address, a domain or a quoted name opens some messages ("owner@… already has…", "acme.example
  // is already a domain…"): left as written.
  const first = text.split(/\s/, 1)[0]!;
  const capital = /[@"“]|\w\.\w/.test(first) ? text : text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
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
