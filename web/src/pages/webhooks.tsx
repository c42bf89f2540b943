import { useEffect, useState } from 'react';
import { api, type ApiBody } from '../api.js';
import type { Account } from '../api-types.js';
import {
  webhookEventTypeValues,
  type NewWebhook,
  type WebhookDetail,
  type WebhookAttempt,
  type WebhookEventType,
  type WebhookSecret,
} from '../api-types.js';
import { CopyButton } from '../components/copy-button.js';
import { DataTable } from '../components/data-table.js';
import { Field } from '../components/field.js';
import { formatTime } from '../components/format.js';
import { ItemList } from '../components/item-list.js';
import { ErrorNotice, LiveRegion, Notice, NotAvailable } from '../components/notice.js';
import { Page } from '../components/page.js';
import { useApi } from '../components/use-api.js';
import { Link, navigate } from '../router.js';
import { useMay } from '../permissions.js';
import { ActionForm, SubmitButton } from '../components/action-form.js';
import { useOneAtATime } from '../components/one-at-a-time.js';
import { visibleControls } from '../components/visible-controls.js';
import { urlPath } from '../url-path.js';
import { LoadMore } from '../components/load-more.js';
import { usePages } from '../components/use-pages.js';

/** The endpoint forms' labels, for the server's errors (components/field-labels.ts). */
const WEBHOOK_LABELS = { url: 'Endpoint URL', description: 'Description', events: 'Events to send' };

// The event types are the API's (webhookEventTypeValues, generated from /openapi.json); a type added
// there fails the build here until it has a label.
const EVENT_LABELS: Record<WebhookEventType, string> = {
  'email.delivered': 'Delivered',
  'email.bounced': 'Bounced',
  'email.complained': 'Complained (marked as spam)',
  'email.delivery_delayed': 'Delivery delayed',
  'email.failed': 'Failed (gave up)',
  'account.warning': 'Account reputation warning',
  'account.paused': 'Account sending paused',
};
const DEFAULT_EVENTS = new Set<WebhookEventType>(['email.delivered', 'email.bounced', 'email.complained']);

/** The event types to send, one checkbox each (field `events`), as the add and edit forms offer them. */
function EventChoices({ checked }: { checked: (value: WebhookEventType) => boolean }) {
  return (
    <fieldset>
      <legend>Events to send</legend>
      {webhookEventTypeValues.map((value) => (
        <label key={value} className="check">
          <input type="checkbox" name="events" value={value} defaultChecked={checked(value)} />{' '}
          {EVENT_LABELS[value]} <code>{value}</code>
        </label>
      ))}
    </fieldset>
  );
}

export function WebhooksPage() {
  const may = useMay();
  const hooks = useApi<ApiBody<'/api/webhooks', 'get'>>('/api/webhooks');
  // The plan's allowance, so that a plan without webhooks says so before anyone fills in the form.
  const account = useApi<Account>('/api/account');
  const allowed = account.data?.limits.webhooks;
  const [error, setError] = useState<unknown>();
  const [created, setCreated] = useState<NewWebhook>();
  const create = async (form: HTMLFormElement) => {
    const f = new FormData(form);
    const description = String(f.get('description') ?? '').trim();
    try {
      const res = await api<NewWebhook>('POST', '/api/webhooks', {
        url: String(f.get('url') ?? '').trim(),
        events: f.getAll('events').map(String),
        ...(description ? { description } : {}),
      });
      setCreated(res);
      setError(undefined);
      // Cleared, as the key form is: a second click once made a second endpoint for the same URL.
      form.reset();
      await hooks.reload();
    } catch (err) {
      setError(err);
    }
  };
  return (
    <Page
      title="Webhooks"
      intro="We POST delivery, bounce and complaint events to your endpoint, signed with Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature)."
    >
      {hooks.unavailable ? (
        <NotAvailable what="Webhooks" />
      ) : (
        <>
          {!may('POST /api/webhooks') ? null : allowed === 0 ? (
            <Notice kind="info">
              Your plan ({account.data?.plan}) includes no webhook endpoints. Ask whoever runs this txmail
              server to move the account to a plan with webhooks.
            </Notice>
          ) : allowed !== undefined && (hooks.data?.data.length ?? 0) >= allowed ? (
            <Notice kind="info">
              All {allowed} endpoints your plan ({account.data?.plan}) allows are in use: delete one to add
              another, or ask whoever runs this txmail server for a larger plan.
            </Notice>
          ) : (
            <ActionForm onSubmit={create} className="stack card">
              <h2>Add an endpoint</h2>
              <Field
                label="Endpoint URL"
                name="url"
                type="url"
                placeholder="https://api.acme.example/txmail-events"
                required
              />
              <Field label="Description (optional)" name="description" maxLength={256} />
              <EventChoices checked={(value) => DEFAULT_EVENTS.has(value)} />
              {allowed !== undefined && (
                <p className="muted">
                  {hooks.data?.data.length ?? 0} of {allowed} endpoints on your plan.
                </p>
              )}
              <SubmitButton>Add endpoint</SubmitButton>
            </ActionForm>
          )}
          <LiveRegion>
            <ErrorNotice error={error ?? hooks.error} labels={WEBHOOK_LABELS} />
            {created && (
              <div className="notice success" role="status">
                <p>
                  Endpoint added. Its signing secret: <code>{created.secret}</code>{' '}
                  <CopyButton value={created.secret} what="the signing secret" />
                </p>
                <p>
                  <Link href={urlPath`/webhooks/${created.id}`}>Send it a test event</Link>
                </p>
              </div>
            )}
          </LiveRegion>
          <ItemList items={hooks.data?.data} empty="No endpoints yet.">
            {(w) => (
              <>
                <Link href={urlPath`/webhooks/${w.id}`}>
                  <span className="free-text">{w.url}</span>
                </Link>{' '}
                {w.description && (
                  <span className="webhook-description free-text">{visibleControls(w.description)}</span>
                )}{' '}
                {!w.enabled && <span className="badge bad">disabled</span>}
                <span className="muted"> {w.events.join(', ')}</span>
              </>
            )}
          </ItemList>
        </>
      )}
    </Page>
  );
}

/**
 * Changes an endpoint's URL, description and events in place (PATCH /api/webhooks/:id): its secret
 * and its history stay, where deleting and adding again would make a new secret.
 */
function EditEndpoint({ webhook, onSaved }: { webhook: WebhookDetail; onSaved: () => Promise<void> }) {
  const [saved, setSaved] = useState(false);
  const [error, setError] = useState<unknown>();
  const save = async (form: HTMLFormElement) => {
    const f = new FormData(form);
    setSaved(false);
    try {
      await api('PATCH', urlPath`/api/webhooks/${webhook.id}`, {
        url: String(f.get('url') ?? '').trim(),
        description: String(f.get('description') ?? '').trim(),
        events: f.getAll('events').map(String),
      });
      setError(undefined);
      setSaved(true);
      await onSaved();
    } catch (err) {
      setError(err);
    }
  };
  return (
    <details className="card">
      <summary>Edit the endpoint</summary>
      <ActionForm onSubmit={save} className="stack" aria-label="Edit the endpoint">
        <Field label="Endpoint URL" name="url" type="url" defaultValue={webhook.url} required />
        <Field label="Description" name="description" maxLength={256} defaultValue={webhook.description} />
        <EventChoices checked={(value) => (webhook.events as readonly string[]).includes(value)} />
        <SubmitButton>Save changes</SubmitButton>
        <LiveRegion>
          {saved && <Notice kind="success">Saved; the secret is unchanged.</Notice>}
          <ErrorNotice error={error} labels={WEBHOOK_LABELS} />
        </LiveRegion>
      </ActionForm>
    </details>
  );
}

export function WebhookPage({ id }: { id: string }) {
  const hook = useApi<WebhookDetail>(urlPath`/api/webhooks/${id}`);
  // A page at a time, older ones on "Load more" (the first 50 alone once hid older attempts and their
  // Replay buttons).
  const attempts = usePages<WebhookAttempt>(urlPath`/api/webhooks/${id}/deliveries`, {});
  const [secret, setSecret] = useState<string>();
  const [message, setMessage] = useState<string>();
  const [error, setError] = useState<unknown>();
  const oneAtATime = useOneAtATime();
  // A replay is queued, then pushed by the worker within a few seconds: the attempts are read again
  // meanwhile, so that the new one shows without a reload.
  const [replayedAt, setReplayedAt] = useState<number>();
  const reloadAttempts = attempts.reload;
  useEffect(() => {
    if (replayedAt === undefined) return;
    const timers = [1500, 4000, 8000].map((ms) => setTimeout(() => void reloadAttempts(), ms));
    return () => timers.forEach(clearTimeout);
  }, [replayedAt, reloadAttempts]);
  // What runs now, said on the page and on the buttons (a test event waits for the endpoint up to its
  // timeout: the page once looked idle for 15 s while the other buttons did nothing).
  const [busy, setBusy] = useState<string>();
  const act = (what: () => Promise<string | undefined>, doing = 'Working…') =>
    oneAtATime(async () => {
      setError(undefined);
      setBusy(doing);
      try {
        setMessage(await what());
        await attempts.reload();
        await hook.reload();
      } catch (err) {
        setError(err);
      } finally {
        setBusy(undefined);
      }
    });
  const w = hook.data;
  const may = useMay();
  return (
    <Page title="Webhook endpoint">
      <p>
        <Link href="/webhooks">← All endpoints</Link>
      </p>
      {hook.unavailable && <NotAvailable what="Webhooks" />}
      <ErrorNotice error={hook.error} />
      {w && (
        <>
          <dl className="facts">
            <dt>URL</dt>
            <dd>
              <code className="free-text">{w.url}</code>
            </dd>
            {w.description && (
              <>
                <dt>Description</dt>
                <dd className="free-text">{visibleControls(w.description)}</dd>
              </>
            )}
            <dt>Events</dt>
            <dd>{w.events.join(', ')}</dd>
            <dt>State</dt>
            <dd>{w.enabled ? 'enabled' : `disabled${w.disabled_reason ? `: ${w.disabled_reason}` : ''}`}</dd>
            <dt>Signing secret</dt>
            <dd>
              {secret ? (
                <>
                  <code>{secret}</code> <CopyButton value={secret} what="the signing secret" />
                </>
              ) : !may('GET /api/webhooks/:id/secret') ? (
                <span className="muted">shown to admins and the owner</span>
              ) : (
                <button
                  type="button"
                  className="button small secondary"
                  onClick={() =>
                    void act(
                      async () => (
                        setSecret(
                          (await api<WebhookSecret>('GET', urlPath`/api/webhooks/${id}/secret`)).secret,
                        ),
                        undefined
                      ),
                    )
                  }
                >
                  Reveal
                </button>
              )}
            </dd>
          </dl>
          <div className="actions" aria-busy={busy !== undefined}>
            {may('POST /api/webhooks/:id/test') && (
              <button
                type="button"
                className="button"
                onClick={() =>
                  void act(async () => {
                    const a = await api<WebhookAttempt>('POST', urlPath`/api/webhooks/${id}/test`);
                    return a.success
                      ? `Test event delivered: your endpoint answered ${a.status_code}.`
                      : `Test event failed: ${a.error ?? `your endpoint answered ${a.status_code}`}.`;
                  }, 'Sending the test event and waiting for your endpoint’s answer…')
                }
              >
                {busy?.startsWith('Sending the test') ? 'Sending…' : 'Send test event'}
              </button>
            )}
            {may('POST /api/webhooks/:id/rotate-secret') && (
              <button
                type="button"
                className="button secondary"
                onClick={() =>
                  void act(async () => {
                    if (!window.confirm('Rotate the signing secret? The old one keeps signing for 24 hours.'))
                      return undefined;
                    const s = await api<WebhookSecret>('POST', urlPath`/api/webhooks/${id}/rotate-secret`);
                    setSecret(s.secret);
                    return 'New secret created; the old one also signs for 24 hours.';
                  })
                }
              >
                Rotate secret
              </button>
            )}
            {may('PATCH /api/webhooks/:id') && (
              <button
                type="button"
                className="button secondary"
                onClick={() =>
                  void act(async () => {
                    await api('PATCH', urlPath`/api/webhooks/${id}`, { enabled: !w.enabled });
                    return w.enabled ? 'Endpoint disabled.' : 'Endpoint enabled.';
                  })
                }
              >
                {w.enabled ? 'Disable' : 'Enable'}
              </button>
            )}
            {may('DELETE /api/webhooks/:id') && (
              <button
                type="button"
                className="button danger"
                onClick={() =>
                  void act(async () => {
                    if (!window.confirm('Delete this endpoint?')) return undefined;
                    await api('DELETE', urlPath`/api/webhooks/${id}`);
                    navigate('/webhooks');
                    return undefined;
                  })
                }
              >
                Delete
              </button>
            )}
          </div>
          <LiveRegion>
            {busy ? (
              <Notice kind="info">{busy}</Notice>
            ) : (
              message && <Notice kind="success">{message}</Notice>
            )}
            <ErrorNotice error={error} />
          </LiveRegion>
          {may('PATCH /api/webhooks/:id') && (
            // Not keyed by its values: the form holds what was saved, and its notice stays after the reload.
            <EditEndpoint webhook={w} onSaved={hook.reload} />
          )}
          <h2>Delivery attempts</h2>
          <DataTable
            caption="Delivery attempts, newest first"
            className="phone-cards"
            labelledCells
            rows={attempts.rows}
            empty="No attempts yet."
            columns={[
              { header: 'When', cell: (a) => formatTime(a.created_at) },
              {
                header: 'Event',
                cell: (a) => (
                  <>
                    <code>{a.event_type}</code> #{a.attempt}
                  </>
                ),
              },
              {
                header: 'Result',
                cell: (a) => (
                  <>
                    <span className={`badge ${a.success ? 'good' : 'bad'}`}>
                      {a.success ? 'success' : 'failed'}
                    </span>{' '}
                    {a.status_code ?? ''} <span className="muted">{a.duration_ms} ms</span>
                  </>
                ),
              },
              {
                header: 'Response',
                cell: (a) => <code className="reply">{a.error ?? a.response ?? ''}</code>,
              },
              {
                header: 'Actions',
                hiddenHeader: true,
                // A disabled endpoint takes no replays (the server says so): none offered until enabled.
                cell: (a) =>
                  a.event_type !== 'webhook.test' &&
                  w?.enabled !== false &&
                  may('POST /api/webhooks/:id/replay') && (
                    <button
                      type="button"
                      className="button small secondary"
                      onClick={() =>
                        void act(async () => {
                          await api('POST', urlPath`/api/webhooks/${id}/replay`, { event_id: a.event_id });
                          setReplayedAt(Date.now());
                          return 'Event queued to be sent again.';
                        })
                      }
                    >
                      Replay<span className="visually-hidden"> {a.event_type}</span>
                    </button>
                  ),
              },
            ]}
          />
          <LoadMore pages={attempts} />
        </>
      )}
    </Page>
  );
}
