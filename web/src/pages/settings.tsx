import { useState, type FormEvent } from 'react';
import { api } from '../api.js';
import { Field } from '../components/field.js';
import { ErrorNotice, LiveRegion, Notice } from '../components/notice.js';
import { Page } from '../components/page.js';
import { useApi } from '../components/use-api.js';
import { useSave } from '../components/use-save.js';
import { useMay } from '../permissions.js';
import { useSession } from '../session.js';
import { ActionForm, SubmitButton } from '../components/action-form.js';

const RETENTION_CHOICES = [1, 7, 30, 90, 365];

/**
 * How long a message's content (HTML and raw bytes) is kept once final (PATCH /api/account):
 * private by default, 30 days; "keep" stores null. Only said, not offered, to a member who may not
 * change it.
 */
function ContentRetention({ editable }: { editable: boolean }) {
  const account = useApi<{ content_retention_days: number | null }>('/api/account');
  const save = useSave(account.reload);
  if (!account.data) return <ErrorNotice error={account.error} />;
  const current = account.data.content_retention_days;
  const said = (
    <p>
      {current === null
        ? 'Content is kept as long as the log. An email’s HTML and raw message go when the log removes the email.'
        : `Content removed after ${current} day${current === 1 ? '' : 's'}. The HTML and the raw message of an email are removed that long after it is delivered, bounced or failed; its status, events and the servers’ replies stay in the log.`}
    </p>
  );
  if (!editable) {
    return (
      <section className="stack card" aria-labelledby="content-heading">
        <h2 id="content-heading">Email content</h2>
        {said}
        <p className="muted">Only the account’s owner can change this.</p>
      </section>
    );
  }
  const choices =
    current === null || RETENTION_CHOICES.includes(current)
      ? RETENTION_CHOICES
      : [...RETENTION_CHOICES, current].sort((a, b) => a - b);
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const value = String(new FormData(e.currentTarget).get('days'));
    const days = value === 'keep' ? null : Number(value);
    void save.run(
      () => api('PATCH', '/api/account', { content_retention_days: days }),
      days === null
        ? 'Content is kept as long as the log.'
        : `Content is removed ${days} day${days === 1 ? '' : 's'} after an email is final.`,
    );
  };
  return (
    <form onSubmit={submit} className="stack card" key={String(current)}>
      <h2>Email content</h2>
      {said}
      <div className="field">
        <label htmlFor="content-days">Remove content after</label>
        <select id="content-days" name="days" defaultValue={current === null ? 'keep' : String(current)}>
          {choices.map((d) => (
            <option key={d} value={String(d)}>
              {d} day{d === 1 ? '' : 's'}
            </option>
          ))}
          <option value="keep">Keep content (no removal)</option>
        </select>
      </div>
      <button className="button" disabled={save.busy}>
        Save
      </button>
      <LiveRegion>
        {save.done && <Notice kind="success">{save.done}</Notice>}
        <ErrorNotice error={save.error} />
      </LiveRegion>
    </form>
  );
}

/** Your password for every member; the account's address and settings for the owner (permissions.ts). */
export function SettingsPage() {
  const { session } = useSession();
  const may = useMay();
  const manages = may('POST /api/auth/resend-verification');
  const verified = session.account?.email_verified === true;
  const [done, setDone] = useState(false);
  const [error, setError] = useState<unknown>();
  // The password form's own error, shown in the form (it was at the page's foot, off a phone's screen).
  const [passwordError, setPasswordError] = useState<unknown>();
  const [resent, setResent] = useState(false);
  const change = async (form: HTMLFormElement) => {
    const f = new FormData(form);
    setDone(false);
    try {
      await api('POST', '/api/auth/password', {
        current_password: f.get('current_password'),
        new_password: f.get('new_password'),
      });
      setDone(true);
      setPasswordError(undefined);
      form.reset();
    } catch (err) {
      setPasswordError(err);
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
        Signed in as <strong>{session.member?.email ?? session.account?.email}</strong>
        {manages && (verified ? ' (verified)' : ' (not verified yet)')}.
      </p>
      {manages && !verified && (
        <button type="button" className="button secondary" onClick={() => void resend()}>
          Email me a new verification link
        </button>
      )}
      {may('POST /api/auth/password') && (
        <ActionForm onSubmit={change} className="stack card" aria-label="Change password">
          <h2>Change password</h2>
          {/* For password managers: whose password this is (not shown, not sent). */}
          <input
            type="email"
            name="username"
            autoComplete="username"
            value={session.member?.email ?? ''}
            readOnly
            hidden
          />
          <Field
            label="Current password"
            name="current_password"
            type="password"
            autoComplete="current-password"
            required
          />
          <Field
            label="New password"
            name="new_password"
            type="password"
            autoComplete="new-password"
            minLength={10}
            required
            hint="At least 10 characters. Your other sessions are logged out."
          />
          <SubmitButton>Change password</SubmitButton>
          <LiveRegion>
            {done && <Notice kind="success">Password changed; other sessions are logged out.</Notice>}
            <ErrorNotice
              error={passwordError}
              labels={{ current_password: 'Current password', new_password: 'New password' }}
            />
          </LiveRegion>
        </ActionForm>
      )}
      <ContentRetention editable={may('PATCH /api/account')} />
      <LiveRegion>
        {resent && <Notice kind="success">A new verification link is on its way.</Notice>}
        <ErrorNotice error={error} />
      </LiveRegion>
    </Page>
  );
}
