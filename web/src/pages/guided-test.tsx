import { useEffect, useState } from 'react';
import { api } from '../api.js';
import { ErrorNotice, LiveRegion, Notice } from '../components/notice.js';
import { Page } from '../components/page.js';
import { Link } from '../router.js';
import { useSession } from '../session.js';
import type { Domain, EmailDetail } from '../api-types.js';
import { SendForm } from '../components/send-form.js';
import { useApi } from '../components/use-api.js';
import { useMay } from '../permissions.js';
import { Timeline } from './email-detail.js';
import { useOneAtATime } from '../components/one-at-a-time.js';
import { urlPath } from '../url-path.js';

const FINAL = new Set(['delivered', 'bounced', 'failed', 'complained']);

export function GuidedTestPage() {
  const { session } = useSession();
  const may = useMay();
  const domains = useApi<{ data: Domain[] }>(may('GET /api/domains') ? '/api/domains' : null);
  const verified = domains.data?.data.find((d) => d.status === 'verified');
  const [sent, setSent] = useState<{ id: string; to: string; from: string }>();
  const [detail, setDetail] = useState<EmailDetail>();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);

  // Follow the message until it is final: the timeline fills in as the worker records each step.
  useEffect(() => {
    if (!sent) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout>;
    const poll = async () => {
      try {
        const d = await api<EmailDetail>('GET', urlPath`/api/emails/${sent.id}`);
        if (stopped) return;
        setDetail(d);
        if (FINAL.has(d.status)) return;
      } catch (err) {
        if (!stopped) setError(err);
      }
      if (!stopped) timer = setTimeout(() => void poll(), 1000);
    };
    void poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [sent]);

  // A double click sends one email, not two (each counts against the hour's onboarding mail).
  const oneAtATime = useOneAtATime();
  const run = () => oneAtATime(send);
  const send = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const queued = await api<{ id: string; to: string; from: string }>('POST', '/api/guided-test');
      // The last test's result stays until a new one is queued (a refused run leaves it as it was).
      setDetail(undefined);
      setSent(queued);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  const email = session.account?.email ?? '';
  // The test goes to the account's own address: a member's is the owner's, not the member's own.
  const ownAddress = !session.member || session.member.role === 'owner';
  const recipient = ownAddress
    ? `your signup address, ${email}`
    : `the account's address, ${email} (its owner's)`;
  return (
    <Page
      title="Guided test"
      intro={
        <>
          One button sends a real email from our test domain to {recipient}. It works in the sandbox, before
          you verify a domain. Below it, a form sends any email, as the API does.
        </>
      }
    >
      {!session.account?.email_verified && (
        <Notice kind="warning">Verify your email address first: open the link we emailed to {email}.</Notice>
      )}
      <button type="button" className="button" onClick={() => void run()} disabled={busy}>
        {busy ? 'Sending…' : sent ? 'Send another test email' : 'Send a test email'}
      </button>
      <LiveRegion>
        <ErrorNotice error={error} />
        {sent && !detail && <p>Queued from {sent.from}…</p>}
        {detail && (
          <p data-testid="guided-status">
            Status: <strong>{detail.status}</strong>
            {detail.status === 'delivered' && <> — check the inbox of {detail.to}.</>}
          </p>
        )}
      </LiveRegion>
      {detail && (
        <>
          <Timeline detail={detail} />
          <p>
            <Link href={urlPath`/logs/${detail.id}`}>Open this email in the logs</Link>
          </p>
        </>
      )}
      {detail?.status === 'delivered' && (
        <Notice kind="success">
          It arrived. Next: <Link href="/domains">add your domain</Link> and{' '}
          <Link href="/api-keys">create an API key</Link>.
        </Notice>
      )}
      {/* Once the domains are in: a verified one gives the From a start (remounted when it arrives). */}
      {may('POST /api/email/send') && !domains.loading && (
        <SendForm key={verified?.name ?? ''} defaultFrom={verified ? `hello@${verified.name}` : undefined} />
      )}
    </Page>
  );
}
