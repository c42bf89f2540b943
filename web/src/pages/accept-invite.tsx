import { useState, type FormEvent } from 'react';
import { api, type ApiBody } from '../api.js';
import { Field } from '../components/field.js';
import { ErrorNotice, LiveRegion } from '../components/notice.js';
import { navigate, useLocation } from '../router.js';
import { useSession } from '../session.js';
import { AuthCard } from './auth-card.js';

/**
 * The page an invitation link opens: the invited member chooses a password, which accepts the
 * invitation and logs this browser in (the page posts the token: a mail scanner's fetch uses nothing up).
 */
export function AcceptInvitePage() {
  const token = useLocation().search.get('token') ?? '';
  const { session, setSession } = useSession();
  const [error, setError] = useState<unknown>();
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    try {
      const res = await api<ApiBody<'/api/auth/accept-invite', 'post'>>('POST', '/api/auth/accept-invite', {
        token,
        password: new FormData(e.currentTarget).get('password'),
      });
      setSession({ ...res, signup: session.signup });
      navigate('/', true);
    } catch (err) {
      setError(err);
    }
  };
  return (
    <AuthCard title="Join the account">
      <p>You were invited to a txmail account. Choose your password to join it.</p>
      <form onSubmit={(e) => void submit(e)} className="stack">
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          minLength={10}
          required
          hint="At least 10 characters."
        />
        <button className="button">Join</button>
      </form>
      <LiveRegion>
        <ErrorNotice error={error} />
      </LiveRegion>
    </AuthCard>
  );
}
