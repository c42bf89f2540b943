// A form whose submission runs once at a time: a second click (or Enter) while the first is still
// with the server is ignored, and its submit button is marked unavailable until the answer is in. A double
// click once created two API keys (or two webhook endpoints) of which only one's secret was shown, sent
// two password-reset mails of which the first was dead on arrival, and answered an invitation that had
// worked with `member_exists`.
import { createContext, useContext, useState, type FormEvent, type ReactNode } from 'react';
import { useOneAtATime } from './one-at-a-time.js';

const Busy = createContext(false);

export function ActionForm({
  onSubmit,
  children,
  className,
  'aria-label': label,
}: {
  /** Runs with the form (read it before the first await: the event is gone after). */
  onSubmit: (form: HTMLFormElement) => Promise<void>;
  children: ReactNode;
  className?: string;
  'aria-label'?: string;
}) {
  const [busy, setBusy] = useState(false);
  // State alone is not enough: two clicks can both arrive before React draws the unavailable button.
  const oneAtATime = useOneAtATime();
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    return oneAtATime(async () => {
      setBusy(true);
      try {
        await onSubmit(form);
      } finally {
        setBusy(false);
      }
    });
  };
  return (
    <form onSubmit={(e) => void submit(e)} className={className} aria-label={label} aria-busy={busy}>
      <Busy.Provider value={busy}>{children}</Busy.Provider>
    </form>
  );
}

/**
 * The submit button of an ActionForm: marked unavailable while its form's submission runs. Not
 * `disabled`: a disabled button drops the keyboard's focus to the page, and the form ignores a second
 * submission anyway.
 */
export function SubmitButton({
  children,
  className = 'button',
  busyText,
}: {
  children: ReactNode;
  className?: string;
  /** What the button says while the submission runs ("Logging in…"); its children otherwise. */
  busyText?: string;
}) {
  const busy = useContext(Busy);
  return (
    <button className={className} aria-disabled={busy}>
      {busy && busyText !== undefined ? busyText : children}
    </button>
  );
}
