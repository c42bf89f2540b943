import { useRef, useState, type FormEvent } from 'react';
import { api, ApiError, type ApiBody } from '../api.js';
import { Field } from '../components/field.js';
import { ErrorNotice, Notice } from '../components/notice.js';
import { Link, navigate } from '../router.js';
import { useSession } from '../session.js';
import { AuthCard } from './auth-card.js';

/** `ended`: the session this page had ended while it was open (said, so a person knows why they are here). */
export function LoginPage({ ended = false }: { ended?: boolean }) {
  const { session, setSession } = useSession();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const submitting = useRef(false);
  // The password was right and the member has two-factor sign-in: ask for the code too.
  const [needCode, setNeedCode] = useState(false);
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    // One at a time (a second Enter while the first is with the server is ignored), the button marked
    // unavailable but not disabled: a disabled button dropped the keyboard's focus to the page.
    if (submitting.current) return;
    submitting.current = true;
    const form = new FormData(e.currentTarget);
    setBusy(true);
    try {
      const res = await api<ApiBody<'/api/auth/login', 'post'>>('POST', '/api/auth/login', {
        email: form.get('email'),
        password: form.get('password'),
        ...(needCode ? { code: form.get('code') } : {}),
      });
      setSession({ ...res, signup: session.signup });
      // Stay on the page that asked for a log-in; the log-in and sign-up pages lead to the overview.
      if (['/login', '/signup'].includes(window.location.pathname)) navigate('/', true);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'totp_required') {
        setNeedCode(true);
        setError(undefined);
      } else setError(err);
    } finally {
      submitting.current = false;
      setBusy(false);
    }
  };
  return (
    <AuthCard title="Log in">
      {ended && (
        <Notice kind="info">
          Your session has ended: you logged out elsewhere, an admin ended it or removed you from the account,
          or it expired. Log in again to go on.
        </Notice>
      )}
      <form onSubmit={(e) => void submit(e)} className="stack">
        <Field label="Email" name="email" type="email" autoComplete="email" required />
        <Field label="Password" name="password" type="password" autoComplete="current-password" required />
        {needCode && (
          <Field
            label="Two-factor code"
            name="code"
            autoComplete="one-time-code"
            required
            autoFocus
            hint="The 6 digits your authenticator app shows, or one of your recovery codes."
          />
        )}
        <ErrorNotice error={error} />
        <button className="button" aria-disabled={busy}>
          {busy ? 'Logging in…' : 'Log in'}
        </button>
      </form>
      <p>
        <Link href="/forgot-password">Forgot your password?</Link>
      </p>
      {session.signup === 'open' && (
        <p>
          New here? <Link href="/signup">Create an account</Link>
        </p>
      )}
    </AuthCard>
  );
}
