import { forgetSignup, signedUpLately } from '../signup-marker.js';
import { useEffect, useState } from 'react';
import { api, ApiError } from '../api.js';
import { ErrorNotice, LiveRegion, Notice } from '../components/notice.js';
import { Link, navigate, useLocation } from '../router.js';
import { useSession, type SessionInfo } from '../session.js';
import { AuthCard } from './auth-card.js';

/** One POST per token, even when React runs the effect twice (development) or the page re-mounts. */
const verifications = new Map<string, Promise<Omit<SessionInfo, 'signup'>>>();

/**
 * The page the verification link opens: it posts the token (a mail scanner's fetch uses nothing up),
 * which finishes the sign-up and logs this browser in, then shows the overview. At once in the browser
 * that asked for the sign-up; elsewhere, or over a session, only once the person here says so
 * (signup-marker.ts).
 */
export function VerifyEmailPage() {
  const token = useLocation().search.get('token') ?? '';
  const { session, setSession } = useSession();
  const [error, setError] = useState<unknown>();
  // Logged in already, or not the browser that signed up: the link may be another account's (mailed, or
  // opened by a page of someone who wants this browser in their account). Nothing is posted until the
  // person here says so.
  const [confirmed, setConfirmed] = useState(!session.account && signedUpLately());
  useEffect(() => {
    if (!confirmed) return;
    let live = true;
    if (!token) {
      setError(new ApiError(400, 'invalid_token', 'this link is not whole'));
      return;
    }
    if (!verifications.has(token)) verifications.set(token, api('POST', '/api/auth/verify', { token }));
    verifications
      .get(token)!
      .then((res) => {
        if (!live) return;
        forgetSignup();
        setSession({ ...res, signup: session.signup });
        navigate('/', true);
      })
      .catch((err: unknown) => {
        if (live) setError(err);
      });
    return () => {
      live = false;
    };
    // Once per token; the session setter is stable and must not re-post.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [token, confirmed]);
  if (!confirmed && !session.account) {
    return (
      <AuthCard title="Verify your email">
        <p>
          This link finishes the sign-up of a txmail account and logs this browser into it. Go on only if you
          asked for that account: a link someone else sent you would put you in their account.
        </p>
        <div className="inline-form">
          <button type="button" className="button" onClick={() => setConfirmed(true)}>
            Verify and log in
          </button>
          <Link href="/login" className="button secondary">
            Not now
          </Link>
        </div>
      </AuthCard>
    );
  }
  if (!confirmed && session.account) {
    return (
      <AuthCard title="Verify your email">
        <Notice kind="warning">
          You are logged in as {session.account.email}. This link finishes a sign-up: if it is another
          account's, opening it logs this browser out of {session.account.email} and into that account.
        </Notice>
        <div className="inline-form">
          <button type="button" className="button" onClick={() => setConfirmed(true)}>
            Open the link
          </button>
          {/* In place of the link in the history: Back does not offer it (and its token) again. */}
          <button type="button" className="button secondary" onClick={() => navigate('/', true)}>
            Stay as {session.account.email}
          </button>
        </div>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Verify your email">
      <LiveRegion>
        {!error && <p>Checking your link…</p>}
        {/* A used link opened again by someone already in, verified: nothing is wrong. */}
        {error !== undefined && session.account?.email_verified ? (
          <Notice kind="success">
            You are logged in as {session.account.email}, whose address is verified: this link has nothing
            left to do.
          </Notice>
        ) : error instanceof ApiError && error.code === 'invalid_token' ? (
          <Notice kind="error">
            This verification link was used already or has expired. If your address is verified, log in; if
            not, log in and the dashboard offers a new link.
          </Notice>
        ) : (
          <ErrorNotice error={error} />
        )}
      </LiveRegion>
      {error !== undefined && (
        <p>
          {session.account ? <Link href="/">Go to the overview</Link> : <Link href="/login">Log in</Link>}
        </p>
      )}
    </AuthCard>
  );
}
