import { useState } from 'react';
import { api, ApiError } from '../api.js';
import { Field } from '../components/field.js';
import { ErrorNotice, LiveRegion, Notice } from '../components/notice.js';
import { Link, useLocation } from '../router.js';
import { useSession } from '../session.js';
import { AuthCard } from './auth-card.js';
import { ActionForm, SubmitButton } from '../components/action-form.js';

export function ResetPasswordPage() {
  const token = useLocation().search.get('token') ?? '';
  const { refresh } = useSession();
  const [done, setDone] = useState(false);
  const [error, setError] = useState<unknown>();
  const submit = async (form: HTMLFormElement) => {
    try {
      await api('POST', '/api/auth/password-reset/confirm', {
        token,
        password: new FormData(form).get('password'),
      });
      setDone(true);
      await refresh();
    } catch (err) {
      setError(err);
    }
  };
  // A link cut short by a mail program, or the page opened by hand: no form for a password that
  // could never be set.
  if (!token) {
    return (
      <AuthCard title="Choose a new password">
        <Notice kind="error">
          This reset link is not whole. <Link href="/forgot-password">Ask for a new one</Link>, and open it
          from the mail as it is.
        </Notice>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Choose a new password">
      {!done && (
        <ActionForm onSubmit={submit} className="stack">
          <Field
            label="New password"
            name="password"
            type="password"
            autoComplete="new-password"
            minLength={10}
            required
            hint="At least 10 characters. Every session of yours is logged out."
          />
          <SubmitButton>Set password</SubmitButton>
        </ActionForm>
      )}
      <LiveRegion>
        {done && (
          <Notice kind="success">
            Your password is changed. <Link href="/login">Log in</Link> with it.
          </Notice>
        )}
        {error instanceof ApiError && error.code === 'invalid_token' ? (
          <Notice kind="error">
            This reset link was used already or has expired: a link works once, for an hour.{' '}
            <Link href="/forgot-password">Ask for a new one</Link>.
          </Notice>
        ) : (
          <ErrorNotice error={error} labels={{ password: 'New password' }} />
        )}
      </LiveRegion>
    </AuthCard>
  );
}
