import { logsBackHref } from './logs.js';
import { useState } from 'react';
import { api, apiText } from '../api.js';
import type { Account, EmailDetail, TlsDetails } from '../api-types.js';
import { Category } from '../components/category.js';
import { useApi } from '../components/use-api.js';
import { useMay } from '../permissions.js';
import { DataTable } from '../components/data-table.js';
import { formatNumber, formatTime } from '../components/format.js';
import { ErrorNotice, LiveRegion, Notice } from '../components/notice.js';
import { NextStep } from '../components/next-step.js';
import { Page } from '../components/page.js';
import { StatusBadge } from '../components/status-badge.js';
import { Link } from '../router.js';
import { AddressText } from '../components/address-text.js';
import { urlPath } from '../url-path.js';
import { useOneAtATime } from '../components/one-at-a-time.js';
import { visibleControls } from '../components/visible-controls.js';

/**
 * A session's TLS in one line: "TLS 1.3 · TLS_AES_256_GCM_SHA384 · certificate valid · policy
 * opportunistic", or how it went without ("cleartext after a failed TLS handshake").
 */
function tlsWords(t: TlsDetails): string {
  const parts: string[] = [];
  if (t.version !== null) {
    parts.push(t.version.replace(/^TLSv/, 'TLS '));
    if (t.cipher) parts.push(t.cipher);
    if (t.certificate === 'valid') parts.push('certificate valid');
    else if (t.certificate === 'invalid')
      parts.push(`certificate invalid${t.certificate_error ? ` (${t.certificate_error})` : ''}`);
  } else if (t.cleartext_fallback) {
    parts.push('cleartext after a failed TLS handshake');
  } else {
    parts.push('no TLS');
  }
  parts.push(`policy ${t.policy}`);
  return parts.join(' · ');
}

const EVENT_WORDS: Record<string, string> = {
  'email.queued': 'Queued',
  'email.test': 'Recorded by the test route (not delivered)',
  'email.delivered': 'Delivered',
  // The event's own time follows these words: "Delayed (to be retried) <time>", never "will retry
  // <time>", which read as the retry's time.
  'email.delivery_delayed': 'Delayed (to be retried)',
  'email.bounced': 'Bounced',
  'email.complained': 'Marked as spam by the recipient',
  'email.report_received': 'Report received (nothing changed)',
  'email.failed': 'Failed: gave up',
};

/** The message's history, oldest first, each event with what the receiving server said. */
export function Timeline({ detail }: { detail: EmailDetail }) {
  const events = [...detail.events].sort((a, b) => a.created_at.localeCompare(b.created_at));
  return (
    <ol className="timeline" aria-label="Event timeline">
      {events.map((e) => (
        <li key={e.id} className={`event ${e.type.replace('email.', '')}`}>
          <p>
            <strong>{EVENT_WORDS[e.type] ?? e.type}</strong>{' '}
            <time dateTime={e.created_at}>{formatTime(e.created_at)}</time>
          </p>
          <EventData data={e.data} />
        </li>
      ))}
      {detail.next ? (
        <li className="event pending">
          <strong>Next</strong> <NextStep next={detail.next} />
        </li>
      ) : (
        detail.next_attempt_at && (
          <li className="event pending">Next attempt {formatTime(detail.next_attempt_at)}</li>
        )
      )}
    </ol>
  );
}

function EventData({ data }: { data: Record<string, unknown> }) {
  const reply = typeof data.reply === 'string' ? data.reply : undefined;
  const reason = typeof data.reason === 'string' ? data.reason : undefined;
  // An expiry's reason is the word "expired"; its sentence (how long, the last reply) is `detail`.
  const detail = typeof data.detail === 'string' ? data.detail : undefined;
  const warnings = Array.isArray(data.warnings) ? (data.warnings as string[]) : [];
  const host = typeof data.remote_host === 'string' ? data.remote_host : undefined;
  return (
    <>
      {host && (
        <p className="muted">
          {host}
          {typeof data.remote_ip === 'string' ? ` (${data.remote_ip})` : ''}
          {data.tls === true ? ', encrypted (TLS)' : data.tls === false ? ', not encrypted' : ''}
        </p>
      )}
      {reply && (
        // Without a reply code no server answered: the words are txmail's own (a DNS look-up failed, a
        // connection was refused or lost), not a reply.
        <p>
          {typeof data.smtp_code === 'number' ? 'Reply' : 'What happened'}:{' '}
          <code className="reply">{reply}</code>
        </p>
      )}
      {reason && (
        <p>
          Reason: {reason}
          {detail && ` (${detail})`}
        </p>
      )}
      {typeof data.category === 'string' && (
        <p>
          Category: <Category category={data.category} />
        </p>
      )}
      {typeof data.bounce_type === 'string' && <p>Bounce type: {data.bounce_type}</p>}
      {warnings.length > 0 && (
        <ul>
          {warnings.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      )}
    </>
  );
}

/** A plan's log retention in words: "48 hours", "90 days". */
function spanWords(hours: number): string {
  if (hours < 72 || hours % 24 !== 0) return `${hours} hour${hours === 1 ? '' : 's'}`;
  const days = hours / 24;
  return `${days} day${days === 1 ? '' : 's'}`;
}

/**
 * What happens to the message's content, in words: its own retention, or the plan's log retention
 * (`logHours`; null: for ever) when that takes the whole email first. A free plan keeps the log 48
 * hours against 30 days of content, and the content's date alone read as a promise.
 */
function contentWords(d: EmailDetail, logHours: number | null | undefined): string {
  const days = d.content_retention_days;
  const after = days === undefined || days === null ? undefined : `${days} day${days === 1 ? '' : 's'}`;
  // txmail's own mail with a sign-in link: its content goes as soon as it is final, not after days.
  if (d.content_sealed)
    return d.content_removed_at
      ? `Content removed once the email was final (on ${formatTime(d.content_removed_at)}): it carried a sign-in link for its recipient alone; the log keeps the rest.`
      : 'Content removed within a minute of the email being final: it carries a sign-in link for its recipient alone; the log keeps the rest.';
  if (d.content_removed_at)
    return `Content removed ${after ? `${after} after the email was final` : 'by its retention'} (on ${formatTime(d.content_removed_at)}); the log keeps the rest.`;
  const removes = d.content_removes_at;
  const logEnds =
    logHours === null || logHours === undefined ? undefined : Date.parse(d.created_at) + logHours * 3_600_000;
  // The content goes first when its retention ends before the log's (or the log is kept for ever).
  const contentFirst =
    days !== undefined &&
    days !== null &&
    (logEnds === undefined || (removes ? Date.parse(removes) < logEnds : days * 24 < logHours!));
  if (contentFirst)
    return removes
      ? `Content will be removed on ${formatTime(removes)}, ${after} after the email was final.`
      : `Content will be removed ${after} after the email is final.`;
  if (logEnds === undefined) return 'Content kept as long as the log (no content retention).';
  const leaves = `The whole email leaves the log on ${formatTime(new Date(logEnds).toISOString())} (your plan keeps it ${spanWords(logHours!)})`;
  return after === undefined
    ? `Content kept as long as the log (no content retention). ${leaves}.`
    : `${leaves}, before its content’s ${after} have passed.`;
}

/** The message exactly as sent (GET /api/emails/:id/raw), loaded when opened. */
function RawMessage({ detail }: { detail: EmailDetail }) {
  const [raw, setRaw] = useState<string>();
  const [error, setError] = useState<unknown>();
  const path = urlPath`/api/emails/${detail.id}/raw`;
  const load = async () => {
    if (raw !== undefined) return;
    try {
      setRaw(await apiText(path, 'message/rfc822'));
    } catch (err) {
      setError(err);
    }
  };
  if (detail.content_sealed) {
    return (
      <p className="muted">
        Not shown: this message carries a sign-in link (a password reset, sign-up or invitation link) meant
        for its recipient alone.
      </p>
    );
  }
  if (!detail.raw_bytes) {
    return (
      <p className="muted">
        {detail.content_removed_at
          ? 'The raw message was removed with the content.'
          : detail.status === 'test'
            ? 'No raw message: a test send is recorded, never built nor delivered.'
            : 'No raw message yet: it is kept from the first delivery attempt.'}
      </p>
    );
  }
  return (
    <details onToggle={(e) => e.currentTarget.open && void load()}>
      <summary>Raw message as sent ({formatNumber(detail.raw_bytes)} bytes)</summary>
      <p>
        <a href={path} download={`${detail.id}.eml`}>
          Download .eml
        </a>
      </p>
      <ErrorNotice error={error} />
      {raw === undefined && !error ? <p className="muted">Loading…</p> : <pre className="code">{raw}</pre>}
    </details>
  );
}

/** Re-send: a copy queued as a new message (POST /api/emails/:id/resend), then a link to it. */
function Resend({ detail }: { detail: EmailDetail }) {
  const [busy, setBusy] = useState(false);
  const [copy, setCopy] = useState<string>();
  const [error, setError] = useState<unknown>();
  const oneAtATime = useOneAtATime();
  const may = useMay();
  // Not offered to a role that may not send (a viewer was shown it, then `forbidden`).
  if (!may('POST /api/emails/:id/resend')) return null;
  if (detail.status === 'test' || detail.content_removed_at || detail.content_sealed) return null;
  // Once at a time: two clicks in one turn (before the button showed busy) queued two copies.
  const resend = () => oneAtATime(resendOnce);
  const resendOnce = async () => {
    // Still on its way: the copy may arrive beside it, and its recipient get the mail twice.
    const underway = detail.status === 'queued' || detail.status === 'deferred';
    if (
      underway &&
      !window.confirm(
        'This email is still being delivered (txmail retries it). Send a copy anyway? The recipient may get both.',
      )
    )
      return;
    setBusy(true);
    setError(undefined);
    try {
      setCopy((await api<{ id: string }>('POST', urlPath`/api/emails/${detail.id}/resend`)).id);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="stack">
      <p>
        <button type="button" className="button secondary" onClick={() => void resend()} disabled={busy}>
          {busy ? 'Re-sending…' : 'Re-send as a new email'}
        </button>
      </p>
      <LiveRegion>
        {copy && (
          <Notice kind="success">
            Queued a copy: <Link href={urlPath`/logs/${copy}`}>open the new email</Link>.
          </Notice>
        )}
        <ErrorNotice error={error} />
      </LiveRegion>
    </div>
  );
}

export function EmailDetailPage({ id }: { id: string }) {
  const { data, error } = useApi<EmailDetail>(urlPath`/api/emails/${id}`);
  // The plan's log retention, which may end the email before its content's own retention does.
  const account = useApi<Account>('/api/account');
  return (
    <Page title="Email">
      <p>
        <Link href={logsBackHref()}>← Back to the logs</Link>
      </p>
      <ErrorNotice error={error} />
      {data && (
        <>
          <dl className="facts">
            <dt>Status</dt>
            <dd>
              <StatusBadge status={data.status} />
            </dd>
            {data.category && (
              <>
                <dt>Category</dt>
                <dd>
                  <Category category={data.category} meaning />
                </dd>
              </>
            )}
            <dt>Subject</dt>
            <dd className="free-text">{visibleControls(data.subject)}</dd>
            <dt>From</dt>
            <dd>
              <AddressText text={data.from} />
            </dd>
            <dt>To</dt>
            <dd>
              <AddressText text={data.to} />
            </dd>
            <dt>Sent</dt>
            <dd>{formatTime(data.created_at)}</dd>
            <dt>Id</dt>
            <dd>
              <code>{data.id}</code>
            </dd>
            <dt>Content</dt>
            <dd>{contentWords(data, account.data?.limits.log_retention_hours)}</dd>
            {data.resent_from && (
              <>
                <dt>Re-sent from</dt>
                <dd>
                  <Link href={urlPath`/logs/${data.resent_from}`}>the original email</Link>
                </dd>
              </>
            )}
            {data.resends && data.resends.length > 0 && (
              <>
                <dt>Re-sent as</dt>
                <dd>
                  {data.resends.map((r, i) => (
                    <span key={r}>
                      {i > 0 && ', '}
                      <Link href={urlPath`/logs/${r}`}>copy {i + 1}</Link>
                    </span>
                  ))}
                </dd>
              </>
            )}
          </dl>
          <Resend detail={data} />
          <h2>Timeline</h2>
          <Timeline detail={data} />
          <h2>Delivery attempts</h2>
          <DataTable
            className="phone-cards"
            labelledCells
            caption="Delivery attempts"
            rows={[...data.delivery_attempts].reverse()}
            empty={
              data.status === 'test'
                ? 'Test sends are recorded, never delivered.'
                : 'No delivery attempt yet.'
            }
            columns={[
              { header: 'Started', cell: (a) => formatTime(a.started_at) },
              { header: 'Outcome', cell: (a) => <StatusBadge status={a.outcome} /> },
              {
                header: 'Server',
                cell: (a) => (
                  <>
                    {a.remote_host ?? '—'}
                    {a.remote_ip ? ` (${a.remote_ip})` : ''}
                    {a.tls && !a.tls_details ? ', TLS' : ''}
                    {a.tls_details && (
                      <>
                        <br />
                        <span className="tls-details">{tlsWords(a.tls_details)}</span>
                      </>
                    )}
                    <br />
                    <span className="muted">{a.duration_ms} ms</span>
                  </>
                ),
              },
              {
                header: 'SMTP reply',
                cell: (a) => <code className="reply">{a.reply}</code>,
              },
            ]}
          />
          <h2>Webhook deliveries</h2>
          <DataTable
            className="phone-cards"
            labelledCells
            caption="Webhook deliveries"
            rows={data.webhook_deliveries}
            empty="No webhook push for this email."
            columns={[
              { header: 'Started', cell: (w) => formatTime(w.started_at) },
              {
                header: 'Event',
                cell: (w) => (
                  <>
                    {w.event_type}
                    <br />
                    <span className="muted">attempt {w.attempt}</span>
                  </>
                ),
              },
              { header: 'Endpoint', cell: (w) => <code className="free-text">{w.url}</code> },
              {
                header: 'Result',
                cell: (w) => (
                  <>
                    {w.success ? 'delivered' : 'failed'}
                    {w.status_code !== null ? ` (HTTP ${w.status_code})` : ''}
                    {w.error ? `: ${w.error}` : ''}
                    <br />
                    <span className="muted">{w.duration_ms} ms</span>
                  </>
                ),
              },
            ]}
          />
          <h2>Content</h2>
          <RawMessage detail={data} />
          {data.content_sealed ? null : data.content_removed_at ? (
            <p className="muted">The HTML body was removed with the content.</p>
          ) : (
            <details>
              <summary>
                {data.html_truncated
                  ? `HTML body: the first 64 KiB of ${formatNumber(data.html_bytes ?? 0)} bytes (test sends keep no more)`
                  : 'HTML body as sent'}
              </summary>
              <pre className="code">{data.message}</pre>
            </details>
          )}
        </>
      )}
    </Page>
  );
}
