import { useState } from 'react';
import { api, type ApiBody } from '../api.js';
import { Field } from '../components/field.js';
import { ErrorNotice, LiveRegion } from '../components/notice.js';
import { navigate, useLocation } from '../router.js';
import { useSession } from '../session.js';
import { AuthCard } from './auth-card.js';
import { ActionForm, SubmitButton } from '../components/action-form.js';

/**
 * The page an invitation link opens: the invited member chooses a password, which accepts the
 * invitation and logs this browser in (the page posts the token: a mail scanner's fetch uses nothing up).
 */
export function AcceptInvitePage() {
  const token = useLocation().search.get('token') ?? '';
  const { session, setSession } = useSession();
  const [error, setError] = useState<unknown>();
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
  return (
    <AuthCard title="Join the account">
      <p>You were invited to a txmail account. Choose your password to join it.</p>
      <ActionForm onSubmit={submit} className="stack">
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
        <ErrorNotice error={error} />
      </LiveRegion>
    </AuthCard>
  );
}
