import { useState } from 'react';
import { api, type ApiBody } from '../api.js';
import type { Account, ApiKey, Domain, NewApiKey } from '../api-types.js';
import { useMay } from '../permissions.js';
import { CopyButton } from '../components/copy-button.js';
import { DataTable } from '../components/data-table.js';
import { Field } from '../components/field.js';
import { formatTime } from '../components/format.js';
import { ErrorNotice, LiveRegion, Notice } from '../components/notice.js';
import { focusPageHeading, Page } from '../components/page.js';
import { useApi } from '../components/use-api.js';
import { ActionForm, SubmitButton } from '../components/action-form.js';
import { visibleControls } from '../components/visible-controls.js';
import { urlPath } from '../url-path.js';
import { useOneAtATime } from '../components/one-at-a-time.js';

export function ApiKeysPage() {
  const keys = useApi<ApiBody<'/api/api-keys', 'get'>>('/api/api-keys');
  // In the sandbox only the test route takes mail: the sample says the route that answers.
  const account = useApi<Account>('/api/account').data;
  const sandboxed = account?.state === 'sandbox';
  // The sample works as shown: sent from a verified domain of the account's when it has one, else from
  // an address the test route takes (it says the domain is not verified, and records the send).
  const may = useMay();
  const domains = useApi<{ data: Domain[] }>(may('GET /api/domains') ? '/api/domains' : null);
  const verified = domains.data?.data.find((d) => d.status === 'verified');
  const from = verified ? `hello@${verified.name}` : 'you@example.com';
  const [created, setCreated] = useState<NewApiKey>();
  const [message, setMessage] = useState<string>();
  const [error, setError] = useState<unknown>();

  const create = async (form: HTMLFormElement) => {
    const name = String(new FormData(form).get('name') ?? '').trim();
    try {
      setCreated(await api<NewApiKey>('POST', '/api/api-keys', name ? { name } : {}));
      setMessage(undefined);
      setError(undefined);
      form.reset();
      await keys.reload();
    } catch (err) {
      setError(err);
    }
  };
  // One revocation at a time: a double click asked twice and sent two DELETEs, the second not_found.
  const oneAtATime = useOneAtATime();
  const revoke = (key: ApiKey) => oneAtATime(() => revokeKey(key));
  const revokeKey = async (key: ApiKey) => {
    if (
      !window.confirm(
        `Revoke the key “${visibleControls(key.name)}” (${key.prefix}…)? Servers using it stop working at once.`,
      )
    )
      return;
    try {
      await api('DELETE', urlPath`/api/api-keys/${key.id}`);
      setMessage(`The key “${visibleControls(key.name)}” is revoked.`);
      if (created?.id === key.id) setCreated(undefined);
      await keys.reload();
      focusPageHeading();
    } catch (err) {
      setError(err);
    }
  };

  return (
    <Page
      title="API keys"
      intro="Your servers send with a key in the x-api-key header. Keep keys on servers: never in browser or mobile code."
    >
      <ActionForm onSubmit={create} className="inline-form">
        <Field label="Name of the new key" name="name" placeholder="production" maxLength={100} />
        <SubmitButton>Create key</SubmitButton>
      </ActionForm>
      <LiveRegion>
        {created && (
          <div className="notice success key-reveal" role="status">
            <p>
              <strong>Your new key “{visibleControls(created.name)}”.</strong> Copy it now: it is shown only
              once.
            </p>
            <p className="secret">
              <code data-testid="new-api-key">{created.key}</code>{' '}
              <CopyButton value={created.key} what="the new API key" />
            </p>
          </div>
        )}
        {message && <Notice kind="success">{message}</Notice>}
        <ErrorNotice error={error} labels={{ name: 'Name of the new key' }} />
      </LiveRegion>
      <ErrorNotice error={keys.error} />
      <DataTable
        caption="Your API keys"
        rows={keys.data?.data}
        empty="No keys yet."
        columns={[
          { header: 'Name', cell: (k) => <span className="free-text">{visibleControls(k.name)}</span> },
          { header: 'Key', cell: (k) => <code>{k.prefix}…</code> },
          { header: 'Created', cell: (k) => formatTime(k.created_at) },
          { header: 'Last used', cell: (k) => (k.last_used_at ? formatTime(k.last_used_at) : 'never') },
          {
            header: 'Made by',
            cell: (k) =>
              k.made_by === null ? (
                'the owner or the operator (full rights)'
              ) : (
                <span className="free-text">
                  {visibleControls(k.made_by)} (as {k.role})
                </span>
              ),
          },
          {
            header: 'Actions',
            hiddenHeader: true,
            // A developer revokes only the keys it made (the answer says which).
            cell: (k) =>
              k.may_revoke ? (
                <button type="button" className="button small danger" onClick={() => void revoke(k)}>
                  Revoke<span className="visually-hidden"> the key {visibleControls(k.name)}</span>
                </button>
              ) : null,
          },
        ]}
      />
      <h2>Send with your key</h2>
      {sandboxed && (
        <p>
          Until a domain of yours is verified the account is in the sandbox: a real send goes only to the
          simulator’s addresses
          {account?.simulator_domain && (
            <>
              {' '}
              (<code>delivered@{account.simulator_domain}</code>, <code>bounce@</code>,{' '}
              <code>complaint@</code>, <code>delayed@</code> or <code>suppressed@</code> it)
            </>
          )}
          , so this sample uses the test route, which checks a send as a real one would be checked and
          delivers nothing.
        </p>
      )}
      <pre className="code">{`curl -X POST ${window.location.origin}/api/email/send${sandboxed ? '/test' : ''} \\
  -H "x-api-key: $TXMAIL_API_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"from":"${from}","to":"someone@example.org","subject":"Hello","message":"<p>Hi</p>"}'`}</pre>
    </Page>
  );
}
