// "Send an email": one message to any address, from the dashboard, through the same route the API's
// callers use (POST /api/email/send, or /send/test to record it only). The sandbox, the verified
// domains and the suppression list apply as they do to a key's sends; the server says why it refuses.
import { useId, useState } from 'react';
import { api, type ApiBody } from '../api.js';
import { Link } from '../router.js';
import { ActionForm, SubmitButton } from './action-form.js';
import { Field } from './field.js';
import { ErrorNotice, LiveRegion, Notice, sentence } from './notice.js';
import { urlPath } from '../url-path.js';
import type { Account } from '../api-types.js';
import { useApi } from './use-api.js';

type SendResult = ApiBody<'/api/email/send', 'post'>;

/** The form's labels by the API's field names, for the server's errors (field-labels.ts). */
const LABELS = { from: 'From', to: 'To', subject: 'Subject', message: 'Message' };

export function SendForm({ defaultFrom }: { defaultFrom?: string }) {
  // Where the simulator's addresses are, named for a sandboxed account (docs/API.md, "Simulator addresses").
  const simulator = useApi<Account>('/api/account').data?.simulator_domain;
  const messageId = useId();
  const [sent, setSent] = useState<SendResult>();
  const [error, setError] = useState<unknown>();
  const send = async (form: HTMLFormElement) => {
    const f = new FormData(form);
    const recordOnly = f.get('record_only') === 'on';
    try {
      const answer = await api<SendResult>('POST', recordOnly ? '/api/email/send/test' : '/api/email/send', {
        from: String(f.get('from') ?? '').trim(),
        to: String(f.get('to') ?? '').trim(),
        subject: String(f.get('subject') ?? ''),
        message: String(f.get('message') ?? ''),
      });
      setSent(answer);
      setError(undefined);
    } catch (err) {
      setSent(undefined);
      setError(err);
    }
  };
  return (
    <section aria-labelledby="send-heading" className="stack card send-form">
      <h2 id="send-heading">Send an email</h2>
      <p className="muted">
        To any address, from an address at one of your verified domains, as the API sends it. Until a domain
        of yours is verified the account is in the sandbox: a real send goes only to the simulator’s addresses
        {simulator ? ` (delivered@${simulator}, bounce@, complaint@, delayed@ or suppressed@ it)` : ''}, and
        “Record it in the logs only” checks any send as a real one would be checked.
      </p>
      <ActionForm onSubmit={send} className="stack" aria-label="Send an email">
        <Field label="From" name="from" type="email" required defaultValue={defaultFrom} autoComplete="off" />
        <Field label="To" name="to" type="email" required autoComplete="off" />
        <Field label="Subject" name="subject" required maxLength={998} />
        <div className="field">
          <label htmlFor={messageId}>Message</label>
          <textarea
            id={messageId}
            name="message"
            rows={6}
            required
            aria-describedby={`${messageId}-hint`}
            defaultValue="<p>Hello from txmail.</p>"
          />
          <p className="hint" id={`${messageId}-hint`}>
            HTML, sent as written; the plain-text part is made from it.
          </p>
        </div>
        <label className="check">
          <input type="checkbox" name="record_only" /> Record it in the logs only, without delivering it
        </label>
        <SubmitButton>Send</SubmitButton>
      </ActionForm>
      <LiveRegion>
        <ErrorNotice error={error} labels={LABELS} />
        {sent && (
          <Notice kind="success">
            {sent.status === 'test' ? 'Recorded, not delivered.' : 'Queued for delivery.'}{' '}
            <Link href={urlPath`/logs/${sent.id}`}>Follow it in the logs</Link>.
            {sent.warnings && sent.warnings.length > 0 && (
              <ul>
                {sent.warnings.map((w) => (
                  <li key={w}>{warningWords(w)}</li>
                ))}
              </ul>
            )}
          </Notice>
        )}
      </LiveRegion>
    </section>
  );
}

/** A test send's warning (`code: message`) in words, its code after them, as ErrorNotice says errors. */
function warningWords(warning: string): string {
  const colon = warning.indexOf(': ');
  return colon < 0 ? warning : `${sentence(warning.slice(colon + 2))} (${warning.slice(0, colon)})`;
}
