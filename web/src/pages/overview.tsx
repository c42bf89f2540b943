import { query, type ApiBody } from '../api.js';
import type { Account } from '../api-types.js';
import { ActivityPanel } from '../components/activity-panel.js';
import { Page } from '../components/page.js';
import { ReputationNotice, ReputationPanel } from '../components/reputation-panel.js';
import { ErrorNotice, Notice } from '../components/notice.js';
import { StatusBadge } from '../components/status-badge.js';
import { useApi } from '../components/use-api.js';
import { GUIDED_TEST_SUBJECT } from '../components/guided-test-subject.js';
import { useMay } from '../permissions.js';
import { formatNumber, formatTime } from '../components/format.js';
import { Link } from '../router.js';
import { useSession } from '../session.js';
import { urlPath } from '../url-path.js';
import { currentNotices } from '../notices-current.js';

type AccountOverview = Account;

export function OverviewPage() {
  const { session } = useSession();
  const { data, error } = useApi<AccountOverview>('/api/account');
  // What txmail has to tell the account (a webhook endpoint disabled…); servers without it answer 404.
  const notices = useApi<ApiBody<'/api/account/notices', 'get'>>('/api/account/notices');
  const may = useMay();
  const webhooks = useApi<ApiBody<'/api/webhooks', 'get'>>(may('GET /api/webhooks') ? '/api/webhooks' : null);
  const verified = session.account?.email_verified ?? false;
  // Until the list has come, an endpoint's notice waits rather than showing and then going; where the
  // list cannot be had (an error, a server without the route), notices are shown as they are.
  const knownWebhooks = webhooks.loading ? [] : webhooks.data?.data;
  // The sandbox's steps, each marked done from what the account has (read only where the role may).
  const sandboxed = data?.state === 'sandbox';
  const guidedTests = useApi<{ data: unknown[] }>(
    sandboxed && may('GET /api/emails')
      ? `/api/emails${query({ q: GUIDED_TEST_SUBJECT, status: 'delivered', limit: '1' })}`
      : null,
  );
  const domains = useApi<{ data: unknown[] }>(sandboxed && may('GET /api/domains') ? '/api/domains' : null);
  const keys = useApi<{ data: unknown[] }>(sandboxed && may('GET /api/api-keys') ? '/api/api-keys' : null);
  const has = (list: { data?: { data: unknown[] } | undefined }) => (list.data?.data.length ?? 0) > 0;
  return (
    <Page title="Overview">
      <ErrorNotice error={error} />
      {data && (
        <>
          {data.suspended && (
            <Notice kind="error">
              This account is suspended by the operator: nothing is sent. Contact them.
            </Notice>
          )}
          {data.reputation && <ReputationNotice reputation={data.reputation} />}
          <Warnings overview={data} />
          {currentNotices(notices.data?.data ?? [], data, knownWebhooks)
            .slice(0, 5)
            .map((n) => (
              <Notice key={n.id} kind="warning">
                {n.message} <span className="muted">({formatTime(n.created_at)})</span>
                {typeof n.data.webhook_id === 'string' && (
                  <>
                    {' '}
                    <Link href={urlPath`/webhooks/${n.data.webhook_id}`}>Open the endpoint</Link>
                  </>
                )}
              </Notice>
            ))}
          <div className="cards">
            <div className="card">
              <h2>Account</h2>
              <p>
                State: <StatusBadge status={data.state} />
              </p>
              <p>
                Plan: <strong>{data.plan}</strong>
              </p>
              <p className="muted">{data.email}</p>
            </div>
            <div className="card">
              <h2>This month</h2>
              <Usage overview={data} />
            </div>
            <div className="card">
              <h2>Limits</h2>
              <ul className="plain">
                <li>
                  Domains: {data.counts.domains ?? 0} of {data.limits.domains}
                </li>
                <li>
                  Webhooks:{' '}
                  {data.limits.webhooks === 0
                    ? 'not on this plan'
                    : `${data.counts.webhooks ?? 0} of ${data.limits.webhooks}`}
                </li>
                {data.test_sends && (
                  <li>
                    Test sends today: {formatNumber(data.test_sends.sent)} of{' '}
                    {formatNumber(data.test_sends.limit)}
                  </li>
                )}
                <li>
                  Logs kept:{' '}
                  {data.limits.log_retention_hours === null
                    ? 'permanently'
                    : `${data.limits.log_retention_hours} hours`}
                </li>
              </ul>
            </div>
          </div>
          {data.state === 'sandbox' ? (
            <div className="card">
              <h2>Leave the sandbox</h2>
              <p>
                In the sandbox, only test sends and the guided test work. Verify one domain to send for real.
              </p>
              <ol className="steps">
                <li className={verified ? 'done' : ''}>
                  {verified
                    ? 'Your email address is verified.'
                    : 'Verify your email address: open the link we emailed you.'}
                </li>
                <li className={has(guidedTests) ? 'done' : ''}>
                  <StepLink href="/guided-test" route="POST /api/guided-test">
                    Run the guided test
                  </StepLink>
                  : see a real email arrive in your inbox.
                </li>
                <li className={has(domains) ? 'done' : ''}>
                  <StepLink href="/domains" route="POST /api/domains">
                    Add your domain
                  </StepLink>{' '}
                  and publish its DNS records (DKIM, return path, SPF).
                </li>
                <li>Press “Verify now” once the records are published: the account moves to production.</li>
                <li className={has(keys) ? 'done' : ''}>
                  <StepLink href="/api-keys" route="POST /api/api-keys">
                    Create an API key
                  </StepLink>{' '}
                  and send from your server.
                </li>
              </ol>
              {!(may('POST /api/domains') && may('POST /api/api-keys')) && (
                <p className="muted">Steps not linked are for a member whose role allows them (an admin).</p>
              )}
            </div>
          ) : data.reputation?.status === 'paused' ? null : (
            // A paused account cannot send: the banner above says so, and this would say the opposite.
            <Notice kind="success">
              Production: you can send from your verified domains. <Link href="/logs">See the logs</Link>.
            </Notice>
          )}
          {data.reputation && <ReputationPanel reputation={data.reputation} />}
          <ActivityPanel reputation={data.reputation} />
        </>
      )}
    </Page>
  );
}

function Usage({ overview }: { overview: AccountOverview }) {
  const { sent, limit, resets_at } = overview.usage;
  const percent = limit === 0 ? 100 : Math.min(100, Math.round((sent / limit) * 100));
  return (
    <>
      <p>
        <strong>{formatNumber(sent)}</strong> of {formatNumber(limit)} emails sent
      </p>
      <div
        className="meter"
        role="meter"
        aria-valuemin={0}
        aria-valuemax={limit}
        aria-valuenow={sent}
        aria-label="Emails sent this month"
      >
        <div
          className={`meter-fill ${percent >= 100 ? 'bad' : percent >= 80 ? 'warn' : ''}`}
          style={{ width: `${percent}%` }}
        />
      </div>
      <p className="muted">
        Resets {formatTime(resets_at)}. txmail’s own mail to you (sign-up, password resets, invitations, the
        guided test, notices) is not counted here; the chart and the log show it.
      </p>
    </>
  );
}

function Warnings({ overview }: { overview: AccountOverview }) {
  const { sent, limit } = overview.usage;
  if (sent >= limit)
    return (
      <Notice kind="error">
        The monthly quota is used up: sends are refused until it resets. Upgrade the plan to send more.
      </Notice>
    );
  if (sent >= 0.8 * limit)
    return (
      <Notice kind="warning">{Math.round((sent / limit) * 100)}% of this month’s emails are used.</Notice>
    );
  return null;
}

/**
 * A sandbox step's link, for a role that may take the step; the words alone for one that may not (a
 * viewer was led to pages that only said its role does not reach them).
 */
function StepLink({ href, route, children }: { href: string; route: string; children: string }) {
  const may = useMay();
  return may(route) ? <Link href={href}>{children}</Link> : <>{children}</>;
}
