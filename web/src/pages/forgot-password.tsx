import { useState } from 'react';
import { api } from '../api.js';
import { Field } from '../components/field.js';
import { ErrorNotice, LiveRegion, Notice } from '../components/notice.js';
import { Link } from '../router.js';
import { AuthCard } from './auth-card.js';
import { ActionForm, SubmitButton } from '../components/action-form.js';

export function ForgotPasswordPage() {
  const [sentTo, setSentTo] = useState<string>();
  const [error, setError] = useState<unknown>();
  const submit = async (form: HTMLFormElement) => {
    const email = String(new FormData(form).get('email'));
    try {
      await api('POST', '/api/auth/password-reset', { email });
      setSentTo(email);
      setError(undefined);
    } catch (err) {
      setError(err);
    }
  };
  return (
    <AuthCard title="Reset your password">
      <ActionForm onSubmit={submit} className="stack">
        <Field label="Email" name="email" type="email" autoComplete="email" required />
        <SubmitButton>Email me a reset link</SubmitButton>
      </ActionForm>
      <LiveRegion>
        {sentTo && (
          <Notice kind="success">
            If {sentTo} can log in to txmail, a link is on its way. It works once, for one hour.
          </Notice>
        )}
        <ErrorNotice error={error} labels={{ email: 'Email' }} />
      </LiveRegion>
      <p>
        <Link href="/login">Back to log in</Link>
      </p>
    </AuthCard>
  );
}
