import { useEffect, useState } from 'react';
import { api, ApiError, type ApiBody } from '../api.js';
import { Field } from '../components/field.js';
import { formatTime } from '../components/format.js';
import { ErrorNotice, LiveRegion, Notice } from '../components/notice.js';
import { Link, navigate, useLocation } from '../router.js';
import { useSession } from '../session.js';
import { AuthCard } from './auth-card.js';
import { ActionForm, SubmitButton } from '../components/action-form.js';

type Invitation = ApiBody<'/api/auth/invitation', 'post'>;

/**
 * The page an invitation link opens: it says which account and role the link joins, then the invited
 * member chooses a password, which accepts the invitation and logs this browser in. Both requests post
 * the token (a mail scanner's fetch of the link uses nothing up, and the token is in no URL the server
 * logs).
 */
export function AcceptInvitePage() {
  const token = useLocation().search.get('token') ?? '';
  const { session, setSession } = useSession();
  const [invitation, setInvitation] = useState<Invitation>();
  // A link that cannot be used: said instead of the form.
  const [dead, setDead] = useState(false);
  const [error, setError] = useState<unknown>();
  useEffect(() => {
    let current = true;
    api<Invitation>('POST', '/api/auth/invitation', { token })
      .then((found) => current && setInvitation(found))
      .catch((err: unknown) => {
        if (!current) return;
        // A server without the route (an older version) still lets the link be used.
        if (err instanceof ApiError && err.routeMissing) return;
        if (err instanceof ApiError && (err.code === 'invalid_token' || err.code === 'validation_error')) {
          setDead(true);
        } else setError(err);
      });
    return () => {
      current = false;
    };
  }, [token]);
  const submit = async (form: HTMLFormElement) => {
    try {
      const res = await api<ApiBody<'/api/auth/accept-invite', 'post'>>('POST', '/api/auth/accept-invite', {
        token,
        password: new FormData(form).get('password'),
      });
      setSession({ ...res, signup: session.signup });
      navigate('/', true);
    } catch (err) {
      setError(err);
    }
  };
  if (dead) {
    return (
      <AuthCard title="Join the account">
        <Notice kind="warning">
          This invitation link is used already, has expired, or is not whole (a mail program may have cut it).
          Ask the person who invited you to mail it again from the Members page.
        </Notice>
        <p>
          Joined already? <Link href="/login">Log in</Link>.
        </p>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Join the account">
      {invitation ? (
        <p data-testid="invitation">
          You are invited to join the txmail account of <strong>{invitation.account_email}</strong> as{' '}
          <strong>{invitation.role}</strong>, with the address <strong>{invitation.email}</strong>. Choose
          your password to join it. This link works until {formatTime(invitation.expires_at)}.
        </p>
      ) : (
        <p>You were invited to a txmail account. Choose your password to join it.</p>
      )}
      {session.account && (
        <Notice kind="info">
          You are logged in as {session.account.email}. Joining logs this browser out of it and into the
          account you join.
        </Notice>
      )}
      <ActionForm onSubmit={submit} className="stack">
        {/* For password managers: the address the new password belongs to (not shown, not sent). */}
        {invitation && (
          <input
            type="email"
            name="username"
            autoComplete="username"
            value={invitation.email}
            readOnly
            hidden
          />
        )}
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          minLength={10}
          required
          hint="At least 10 characters."
        />
        <SubmitButton>Join</SubmitButton>
      </ActionForm>
      <LiveRegion>
        <ErrorNotice error={error} labels={{ password: 'Password' }} />
      </LiveRegion>
    </AuthCard>
  );
}
