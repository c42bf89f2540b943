import { useEffect, useState } from 'react';
import { api } from '../api.js';
import { ErrorNotice, LiveRegion, Notice } from '../components/notice.js';
import { Link, useLocation } from '../router.js';
import { useSession } from '../session.js';
import { AuthCard } from './auth-card.js';

/** One POST per token, even when React runs the effect twice (development) or the page re-mounts. */
const verifications = new Map<string, Promise<unknown>>();

/** The page the verification link opens: it posts the token (a mail scanner's fetch uses nothing up). */
export function VerifyEmailPage() {
  const token = useLocation().search.get('token') ?? '';
  const { session, refresh } = useSession();
  const [state, setState] = useState<'working' | 'done' | 'failed'>('working');
  const [error, setError] = useState<unknown>();
  useEffect(() => {
    let live = true;
    if (!verifications.has(token)) verifications.set(token, api('POST', '/api/auth/verify', { token }));
    verifications
      .get(token)!
      .then(async () => {
        if (!live) return;
        setState('done');
        await refresh();
      })
      .catch((err: unknown) => {
        if (!live) return;
        setState('failed');
        setError(err);
      });
    return () => {
      live = false;
    };
    // Once per token; refresh is stable enough and must not re-post.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [token]);
  return (
    <AuthCard title="Verify your email">
      <LiveRegion>
        {state === 'working' && <p>Checking your link…</p>}
        {state === 'done' && <Notice kind="success">Your email address is verified.</Notice>}
        <ErrorNotice error={error} />
      </LiveRegion>
      {state !== 'working' && (
        <p>
          {session.account ? (
            <Link href="/guided-test">Continue to the guided test</Link>
          ) : (
            <Link href="/login">Log in</Link>
          )}
        </p>
      )}
    </AuthCard>
  );
}
