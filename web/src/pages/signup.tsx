import { useState, type FormEvent } from 'react';
import { api } from '../api.js';
import { Field } from '../components/field.js';
import { ErrorNotice, Notice } from '../components/notice.js';
import { Link, navigate } from '../router.js';
import { useSession, type SessionInfo } from '../session.js';
import { AuthCard } from './auth-card.js';

export function SignupPage() {
  const { session, setSession } = useSession();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
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
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setBusy(true);
    try {
      const res = await api<Omit<SessionInfo, 'signup'>>('POST', '/api/auth/signup', {
        email: form.get('email'),
        password: form.get('password'),
      });
      setSession({ ...res, signup: session.signup });
      // Stay on the page that asked for a log-in; the log-in and sign-up pages lead to the overview.
      if (['/login', '/signup'].includes(window.location.pathname)) navigate('/', true);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <AuthCard title="Create your account">
      <p>Send transactional email from your servers. Free: 1,000 emails a month.</p>
      <form onSubmit={(e) => void submit(e)} className="stack">
        <Field
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          required
          hint="We send a verification link here; the guided test mails this address."
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
        <ErrorNotice error={error} />
        <button className="button" disabled={busy}>
          {busy ? 'Creating…' : 'Create account'}
        </button>
      </form>
      <p>
        Have an account? <Link href="/login">Log in</Link>
      </p>
    </AuthCard>
  );
}
