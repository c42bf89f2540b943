import { markSignup } from '../signup-marker.js';
import { useState } from 'react';
import { api } from '../api.js';
import { ActionForm, SubmitButton } from '../components/action-form.js';
import { Field } from '../components/field.js';
import { ErrorNotice, Notice } from '../components/notice.js';
import { Link } from '../router.js';
import { useSession } from '../session.js';
import { AuthCard } from './auth-card.js';

export function SignupPage() {
  const { session } = useSession();
  const [sentTo, setSentTo] = useState<string>();
  const [error, setError] = useState<unknown>();
  if (session.signup === 'closed') {
    return (
      <AuthCard title="Sign-up is closed">
        <Notice>This server creates accounts by its operator only. Ask them for an account.</Notice>
        <p>
          <Link href="/login">Log in</Link>
        </p>
      </AuthCard>
    );
  }
  if (sentTo !== undefined) {
    // The server answers the same whether or not the address has an account, and so does this page:
    // the email tells the owner which it was.
    return (
      <AuthCard title="Check your inbox">
        <Notice kind="success">We sent a message to {sentTo}.</Notice>
        <p>
          Open the link in it to finish signing up; it logs you in and works once, for 48 hours. If this
          address already has an account, the message says so: log in, or reset your password.
        </p>
        <p>
          Nothing arrived? Check the spam folder, or{' '}
          <Link href="/signup" onClick={() => setSentTo(undefined)}>
            sign up again
          </Link>{' '}
          in a few minutes.
        </p>
        <p>
          <Link href="/login">Log in</Link>
        </p>
      </AuthCard>
    );
  }
  const submit = async (formElement: HTMLFormElement) => {
    const form = new FormData(formElement);
    try {
      await api('POST', '/api/auth/signup', { email: form.get('email'), password: form.get('password') });
      markSignup();
      setError(undefined);
      setSentTo(String(form.get('email')));
    } catch (err) {
      setError(err);
    }
  };
  return (
    <AuthCard title="Create your account">
      <p>Send transactional email from your servers. Free: 1,000 emails a month.</p>
      {/* Once at a time, its button never disabled (action-form.tsx). */}
      <ActionForm onSubmit={submit} className="stack">
        <Field
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          required
          hint="We send a link here that finishes the sign-up; the guided test mails this address."
        />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          minLength={10}
          required
          hint="At least 10 characters."
        />
        <ErrorNotice error={error} labels={{ email: 'Email', password: 'Password' }} />
        <SubmitButton busyText="Creating…">Create account</SubmitButton>
      </ActionForm>
      <p>
        Have an account? <Link href="/login">Log in</Link>
      </p>
    </AuthCard>
  );
}
