import { useState } from 'react';
import { api, ApiError, type ApiBody } from '../api.js';
import { ActionForm, SubmitButton } from '../components/action-form.js';
import { Field } from '../components/field.js';
import { ErrorNotice, Notice } from '../components/notice.js';
import { Link, navigate } from '../router.js';
import { useSession } from '../session.js';
import { AuthCard } from './auth-card.js';

/** `ended`: the session this page had ended while it was open (said, so a person knows why they are here). */
export function LoginPage({ ended = false }: { ended?: boolean }) {
  const { session, setSession } = useSession();
  const [error, setError] = useState<unknown>();
  // The password was right and the member has two-factor sign-in: ask for the code too.
  const [needCode, setNeedCode] = useState(false);
  const submit = async (formElement: HTMLFormElement) => {
    const form = new FormData(formElement);
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
      {/* Once at a time, its button never disabled (action-form.tsx): a failed log-in keeps the focus. */}
      <ActionForm onSubmit={submit} className="stack">
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
        <ErrorNotice
          error={error}
          labels={{ email: 'Email', password: 'Password', code: 'Two-factor code' }}
        />
        <SubmitButton busyText="Logging in…">Log in</SubmitButton>
      </ActionForm>
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
