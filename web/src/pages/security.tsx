import { useState } from 'react';
import { api, type ApiBody } from '../api.js';
import type { TotpSetup } from '../api-types.js';
import { CopyButton } from '../components/copy-button.js';
import { Field } from '../components/field.js';
import { ErrorNotice, LiveRegion, Notice } from '../components/notice.js';
import { Page } from '../components/page.js';
import { QrCode } from '../components/qr-code.js';
import { SessionsTable } from '../components/sessions-table.js';
import { useMay } from '../permissions.js';
import { useSession } from '../session.js';
import { ActionForm, SubmitButton } from '../components/action-form.js';
import { useOneAtATime } from '../components/one-at-a-time.js';

/** Two-factor sign-in (set up, recovery codes shown once), the owner's requirement, your sessions. */
export function SecurityPage() {
  const { session, refresh } = useSession();
  const member = session.member;
  const may = useMay();
  const [setup, setSetup] = useState<TotpSetup>();
  const [codes, setCodes] = useState<string[]>();
  const [message, setMessage] = useState<string>();
  const [error, setError] = useState<unknown>();

  const oneAtATime = useOneAtATime();
  // Once: a second set-up replaces the first key, and the page could show the one not kept.
  const start = () =>
    oneAtATime(async () => {
      try {
        setSetup(await api<TotpSetup>('POST', '/api/auth/totp/setup'));
        setError(undefined);
      } catch (err) {
        setError(err);
      }
    });
  const confirm = async (form: HTMLFormElement) => {
    try {
      const res = await api<ApiBody<'/api/auth/totp/confirm', 'post'>>('POST', '/api/auth/totp/confirm', {
        code: String(new FormData(form).get('code') ?? '').trim(),
      });
      setCodes(res.recovery_codes);
      setSetup(undefined);
      setError(undefined);
      // The session says two-factor is on at once, so a member who leaves before pressing "I saved
      // them" finds it on when coming back; only under the enrolment gate does that wait for the
      // button, since lifting the gate would take the codes off the screen before they are saved.
      if (!member?.must_enrol_totp) await refresh();
    } catch (err) {
      setError(err);
    }
  };
  // After the codes are saved: the session now says two-factor is on (and lifts the enrolment gate).
  const saved = async () => {
    setCodes(undefined);
    setMessage('Two-factor sign-in is on.');
    await refresh();
  };
  const disable = async (form: HTMLFormElement) => {
    try {
      await api('POST', '/api/auth/totp/disable', {
        code: String(new FormData(form).get('code') ?? '').trim(),
      });
      setMessage('Two-factor sign-in is off.');
      setError(undefined);
      await refresh();
    } catch (err) {
      setError(err);
    }
  };
  const requireTotp = async (on: boolean) => {
    try {
      await api('PATCH', '/api/account/security', { require_totp: on });
      setMessage(on ? 'Every member must now use two-factor sign-in.' : 'Two-factor sign-in is optional.');
      setError(undefined);
      await refresh();
    } catch (err) {
      setError(err);
    }
  };

  return (
    <Page title="Security" intro="Two-factor sign-in and where you are logged in.">
      {member?.must_enrol_totp && !codes && (
        <Notice kind="warning">
          This account requires two-factor sign-in. Set it up to use the dashboard.
        </Notice>
      )}
      <section aria-labelledby="totp-heading" className="stack card">
        <h2 id="totp-heading">Two-factor sign-in</h2>
        {member?.totp_enabled && !codes && (
          <>
            <p>Two-factor sign-in is on for {member.email}.</p>
            {!session.account?.require_totp && (
              <ActionForm onSubmit={disable} className="inline-form" aria-label="Turn off two-factor sign-in">
                <Field label="Code to turn it off" name="code" autoComplete="one-time-code" required />
                <SubmitButton className="button secondary">Turn off</SubmitButton>
              </ActionForm>
            )}
          </>
        )}
        {!member?.totp_enabled && !setup && !codes && (
          <>
            <p>Log in with a code from an authenticator app as well as your password.</p>
            <button type="button" className="button" onClick={() => void start()}>
              Set up two-factor sign-in
            </button>
          </>
        )}
        {setup && (
          <>
            <p>
              Scan this code with your authenticator app, or add the key below by hand (or open the link on
              your phone), then enter the code the app shows. Turning it on logs out your other sessions; this
              one stays.
            </p>
            <QrCode
              value={setup.otpauth_url}
              label={`QR code of the two-factor key for ${member?.email ?? 'you'}`}
            />
            <p className="secret">
              Key: <code data-testid="totp-secret">{setup.secret}</code>{' '}
              <CopyButton value={setup.secret} what="the key" />
            </p>
            <p className="secret">
              <a href={setup.otpauth_url} data-testid="totp-url">
                {setup.otpauth_url}
              </a>
            </p>
            <ActionForm onSubmit={confirm} className="inline-form">
              <Field
                label="Code from the app"
                name="code"
                inputMode="numeric"
                autoComplete="one-time-code"
                required
              />
              <SubmitButton>Turn on</SubmitButton>
            </ActionForm>
            {/* A wrong code is said under its field, not below the next card. */}
            <LiveRegion>
              <ErrorNotice error={error} labels={{ code: 'Code from the app' }} />
            </LiveRegion>
          </>
        )}
        {codes && (
          <div className="notice success" role="status">
            <p>
              <strong>Your recovery codes.</strong> Each logs you in once without the app. Save them now: they
              are shown only once.
            </p>
            <ul className="recovery-codes" data-testid="recovery-codes">
              {codes.map((c) => (
                <li key={c}>
                  <code>{c}</code>
                </li>
              ))}
            </ul>
            <p>
              <CopyButton value={codes.join('\n')} what="the recovery codes" />{' '}
              <button type="button" className="button" onClick={() => void saved()}>
                I saved them
              </button>
            </p>
          </div>
        )}
      </section>
      {may('PATCH /api/account/security') && (
        <section aria-labelledby="require-heading" className="stack card">
          <h2 id="require-heading">For every member</h2>
          {session.account?.require_totp ? (
            <>
              <p>Every member must use two-factor sign-in.</p>
              <button type="button" className="button secondary" onClick={() => void requireTotp(false)}>
                Stop requiring two-factor sign-in
              </button>
            </>
          ) : (
            <>
              <p>Members without two-factor sign-in will have to set it up before anything else.</p>
              <button type="button" className="button" onClick={() => void requireTotp(true)}>
                Require two-factor sign-in
              </button>
            </>
          )}
        </section>
      )}
      <LiveRegion>
        {message && <Notice kind="success">{message}</Notice>}
        {!setup && <ErrorNotice error={error} labels={{ code: 'Code to turn it off' }} />}
      </LiveRegion>
      {!member?.must_enrol_totp && (
        <section aria-labelledby="sessions-heading">
          <h2 id="sessions-heading">Your sessions</h2>
          <SessionsTable path="/api/auth/sessions" caption="Where you are logged in" />
        </section>
      )}
    </Page>
  );
}
