import { useState, type FormEvent } from 'react';
import { api } from '../api.js';
import { Field } from '../components/field.js';
import { ErrorNotice, LiveRegion, Notice } from '../components/notice.js';
import { Page } from '../components/page.js';
import { useSession } from '../session.js';

export function SettingsPage() {
  const { session } = useSession();
  const [done, setDone] = useState(false);
  const [error, setError] = useState<unknown>();
  const [resent, setResent] = useState(false);
  const change = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const f = new FormData(form);
    try {
      await api('POST', '/api/auth/password', {
        current_password: f.get('current'),
        new_password: f.get('next'),
      });
      setDone(true);
      setError(undefined);
      form.reset();
    } catch (err) {
      setError(err);
    }
  };
  const resend = async () => {
    try {
      await api('POST', '/api/auth/resend-verification');
      setResent(true);
    } catch (err) {
      setError(err);
    }
  };
  return (
    <Page title="Settings">
      <p>
        Signed in as <strong>{session.account?.email}</strong>
        {session.account?.email_verified ? ' (verified)' : ' (not verified yet)'}.
      </p>
      {!session.account?.email_verified && (
        <button type="button" className="button secondary" onClick={() => void resend()}>
          Email me a new verification link
        </button>
      )}
      <form onSubmit={(e) => void change(e)} className="stack card">
        <h2>Change password</h2>
        <Field
          label="Current password"
          name="current"
          type="password"
          autoComplete="current-password"
          required
        />
        <Field
          label="New password"
          name="next"
          type="password"
          autoComplete="new-password"
          minLength={10}
          required
          hint="At least 10 characters. Your other sessions are logged out."
        />
        <button className="button">Change password</button>
      </form>
      <LiveRegion>
        {resent && <Notice kind="success">A new verification link is on its way.</Notice>}
        {done && <Notice kind="success">Password changed; other sessions are logged out.</Notice>}
        <ErrorNotice error={error} />
      </LiveRegion>
    </Page>
  );
}
