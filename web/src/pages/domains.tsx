import { useState, type FormEvent, type ReactNode } from 'react';
import { api } from '../api.js';
import type { DkimKey, Domain, DomainDetail } from '../api-types.js';
import { CopyButton } from '../components/copy-button.js';
import { Field } from '../components/field.js';
import { formatTime } from '../components/format.js';
import { ItemList } from '../components/item-list.js';
import { ErrorNotice, LiveRegion, Notice, NotAvailable } from '../components/notice.js';
import { Page } from '../components/page.js';
import { StatusBadge } from '../components/status-badge.js';
import { useApi } from '../components/use-api.js';
import { useSave, type Save } from '../components/use-save.js';
import { Link, navigate } from '../router.js';
import { ActionForm, SubmitButton } from '../components/action-form.js';
import { bareServiceHost } from '../components/service-host.js';
import { useMay } from '../permissions.js';
import { checkSummary } from '../components/domain-check-summary.js';
import { urlPath } from '../url-path.js';
import { useOneAtATime } from '../components/one-at-a-time.js';

type DomainSummary = Domain;
type DomainWarning = NonNullable<DomainDetail['last_check']>['warnings'][number];

/** The dashboard's choices for expire_after (the API takes any whole seconds from 60 to 172800). */
const EXPIRY_PRESETS: { seconds: number | null; words: string }[] = [
  { seconds: 600, words: '10 minutes' },
  { seconds: 3600, words: '1 hour' },
  { seconds: 86_400, words: '1 day' },
  { seconds: null, words: '2 days' },
];

/** expire_after in words: a preset's, or the seconds set through the API in the largest whole unit. */
function expiryWords(seconds: number | null): string {
  const preset = EXPIRY_PRESETS.find((p) => p.seconds === seconds);
  if (preset) return preset.words;
  const s = seconds ?? 0;
  if (s % 3600 === 0) return `${s / 3600} hours`;
  if (s % 60 === 0) return `${s / 60} minutes`;
  return `${s} seconds`;
}

const RECORD_NAMES: Record<string, string> = {
  dkim: 'DKIM',
  return_path_mx: 'Return path (MX)',
  spf: 'SPF',
  dmarc: 'DMARC',
};

export function DomainsPage() {
  const domains = useApi<{ data: DomainSummary[] }>('/api/domains');
  const may = useMay();
  const [error, setError] = useState<unknown>();
  const add = async (form: HTMLFormElement) => {
    const name = String(new FormData(form).get('name') ?? '').trim();
    try {
      const created = await api<DomainDetail>('POST', '/api/domains', { name });
      navigate(urlPath`/domains/${created.id}`);
    } catch (err) {
      setError(err);
    }
  };
  return (
    <Page
      title="Domains"
      intro="Send from your own domain: add it, publish the DNS records we show, and verify. One verified domain takes the account out of the sandbox."
    >
      {domains.unavailable ? (
        <NotAvailable what="Domains" />
      ) : (
        <>
          {may('POST /api/domains') && (
            <ActionForm onSubmit={add} className="inline-form">
              <Field
                label="Domain"
                name="name"
                placeholder="acme.example"
                required
                autoCapitalize="none"
                spellCheck={false}
              />
              <SubmitButton>Add domain</SubmitButton>
            </ActionForm>
          )}
          <LiveRegion>
            <ErrorNotice error={error ?? domains.error} labels={{ name: 'Domain' }} />
          </LiveRegion>
          <ItemList items={domains.data?.data} empty="No domains yet.">
            {(d) => (
              <>
                <Link href={urlPath`/domains/${d.id}`}>{d.unicode_name}</Link>{' '}
                <StatusBadge status={d.status} />
                <span className="muted"> added {formatTime(d.created_at)}</span>
                {d.expire_after !== null && (
                  <span className="muted"> · gives up after {expiryWords(d.expire_after)}</span>
                )}
                {d.tls === 'required' && <span className="muted"> · TLS required</span>}
              </>
            )}
          </ItemList>
        </>
      )}
    </Page>
  );
}

export function DomainPage({ id }: { id: string }) {
  const domain = useApi<DomainDetail>(urlPath`/api/domains/${id}`);
  const may = useMay();
  const [checking, setChecking] = useState(false);
  const [result, setResult] = useState<string>();
  const [error, setError] = useState<unknown>();
  const d = domain.data;
  const warnings = d?.last_check?.warnings ?? [];
  const bareHost = d && bareServiceHost(d.records);

  const verify = async () => {
    setChecking(true);
    setError(undefined);
    try {
      const checked = await api<DomainDetail>('POST', urlPath`/api/domains/${id}/verify`);
      await domain.reload();
      setResult(checkSummary(checked));
    } catch (err) {
      setError(err);
    } finally {
      setChecking(false);
    }
  };
  // Once at a time: a double click asked twice and sent two DELETEs.
  const oneAtATime = useOneAtATime();
  const remove = () => oneAtATime(removeDomain);
  const removeDomain = async () => {
    const question = `Delete ${d?.unicode_name ?? 'this domain'}? Mail from it is refused from then on, and if it is the account's only verified domain, the account goes back to the sandbox (test sends only).`;
    if (!d || !window.confirm(question)) return;
    try {
      await api('DELETE', urlPath`/api/domains/${id}`);
      navigate('/domains');
    } catch (err) {
      setError(err);
    }
  };

  return (
    <Page title={d ? d.unicode_name : 'Domain'}>
      <p>
        <Link href="/domains">← All domains</Link>
      </p>
      {domain.unavailable && <NotAvailable what="Domains" />}
      <ErrorNotice error={domain.error} />
      {d && (
        <>
          <p>
            Status: <StatusBadge status={d.status} />
            {d.last_checked_at && (
              <span className="muted"> · last checked {formatTime(d.last_checked_at)}</span>
            )}
            {d.fails_at && (
              <span className="muted"> · fails {formatTime(d.fails_at)} unless the records are found</span>
            )}
          </p>
          {/* Only what this member's role may do (a developer reads the domain). */}
          <div className="actions">
            {may('POST /api/domains/:id/verify') && (
              <button type="button" className="button" onClick={() => void verify()} disabled={checking}>
                {checking ? 'Checking DNS…' : 'Verify now'}
              </button>
            )}
            {may('DELETE /api/domains/:id') && (
              <button type="button" className="button danger" onClick={() => void remove()}>
                Delete domain
              </button>
            )}
          </div>
          <LiveRegion>
            {result && <Notice kind={d.status === 'verified' ? 'success' : 'info'}>{result}</Notice>}
            <ErrorNotice error={error} />
          </LiveRegion>
          {/* What a new domain needs first: the records to publish; its settings after. */}
          <h2>DNS records to publish</h2>
          <p>Add these at your DNS provider. Changes can take a few minutes to be visible.</p>
          {bareHost && (
            <Notice kind="warning">
              This txmail server’s host name ({bareHost}) is not a full domain name, so the return-path and
              SPF records below cannot work on the Internet. Whoever runs this server sets TXMAIL_HOSTNAME to
              its real name (a trial on one machine is fine as it is).
            </Notice>
          )}
          <div className="records">
            {d.records.map((r) => (
              <article key={r.record} className="record card" aria-labelledby={`rec-${r.record}`}>
                <h3 id={`rec-${r.record}`}>
                  {RECORD_NAMES[r.record] ?? r.record} <StatusBadge status={r.status} />{' '}
                  {!r.required && <span className="muted">(optional)</span>}
                </h3>
                {r.purpose && <p className="muted">{r.purpose}</p>}
                {r.value.length > 255 && (
                  <p className="muted">
                    The value is longer than 255 characters, the most one string of a TXT record holds. Most
                    DNS providers split it for you; where one asks for the strings, paste it as two or more
                    quoted parts of at most 255 characters each, one after the other.
                  </p>
                )}
                <RecordFacts
                  record={r}
                  what={{
                    name: `the ${RECORD_NAMES[r.record] ?? r.record} record name`,
                    value: `the ${RECORD_NAMES[r.record] ?? r.record} record value`,
                  }}
                >
                  {r.seen.length > 0 && (
                    <>
                      <dt>Seen in DNS</dt>
                      <dd>
                        {r.seen.map((s) => (
                          <code key={s} className="value seen">
                            {s}
                          </code>
                        ))}
                      </dd>
                    </>
                  )}
                </RecordFacts>
                {r.problems.map((p) => (
                  <Notice key={p} kind="error">
                    {p}
                  </Notice>
                ))}
                {r.warnings.map((w) => (
                  <Notice key={w} kind="warning">
                    {w}
                  </Notice>
                ))}
              </article>
            ))}
          </div>
          {d.last_check?.dmarc?.guidance && !warnings.some((w) => w.code === 'dmarc_missing') && (
            <Notice>{d.last_check.dmarc.guidance}</Notice>
          )}
          {warnings.length > 0 && <DomainWarnings warnings={warnings} />}
          <DkimKeys id={id} domain={d} onChanged={domain.reload} />
          <ExpiryForm id={id} name={d.unicode_name} current={d.expire_after} onSaved={domain.reload} />
          <TlsForm id={id} name={d.unicode_name} current={d.tls} onSaved={domain.reload} />
        </>
      )}
    </Page>
  );
}

/**
 * What receivers hold against the domain's mail though verification does not need it (docs/API.md,
 * GET /api/domains/:id: last_check.warnings), with the record that fixes it when there is one.
 */
function DomainWarnings({ warnings }: { warnings: DomainWarning[] }) {
  return (
    <section aria-labelledby="warnings-heading">
      <h2 id="warnings-heading">Warnings</h2>
      {warnings.map((w) => (
        <Notice key={w.code} kind="warning">
          <p>{w.message}</p>
          {w.suggested && (
            <RecordFacts
              record={w.suggested}
              what={{ name: 'the suggested record name', value: 'the suggested record value' }}
            />
          )}
        </Notice>
      ))}
    </section>
  );
}

/**
 * One setting of the domain (PATCH /api/domains/:id) chosen from a list: `body` turns the choice into the
 * request, `saved` the answer into what was saved.
 */
function SettingForm({
  domainId,
  headingId,
  heading,
  id,
  name,
  label,
  options,
  initial,
  hint,
  button,
  body,
  saved,
  onSaved,
}: {
  domainId: string;
  headingId: string;
  heading: string;
  /** The select's id; its hint's is `${id}-hint`. */
  id: string;
  name: string;
  label: string;
  options: { value: string; label: string }[];
  initial: string;
  hint: ReactNode;
  button: string;
  body: (value: string) => Record<string, unknown>;
  saved: (answer: DomainSummary) => string;
  onSaved: () => Promise<void>;
}) {
  const [value, setValue] = useState(initial);
  const save = useSave(onSaved);
  const may = useMay();
  if (!may('PATCH /api/domains/:id')) {
    // A role that reads the domain: the setting as it stands, no form.
    return (
      <section aria-labelledby={headingId}>
        <h2 id={headingId}>{heading}</h2>
        <p>
          {label}: <strong>{options.find((o) => o.value === initial)?.label ?? initial}</strong>
        </p>
        <p className="hint">{hint}</p>
      </section>
    );
  }
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    void save.run(() => api<DomainSummary>('PATCH', urlPath`/api/domains/${domainId}`, body(value)), saved);
  };
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>{heading}</h2>
      <form className="inline-form" onSubmit={submit}>
        <div className="field">
          <label htmlFor={id}>{label}</label>
          <select
            id={id}
            name={name}
            value={value}
            onChange={(e) => setValue(e.currentTarget.value)}
            aria-describedby={`${id}-hint`}
          >
            {options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
          <p className="hint" id={`${id}-hint`}>
            {hint}
          </p>
        </div>
        <button className="button" disabled={save.busy}>
          {save.busy ? 'Saving…' : button}
        </button>
      </form>
      <SaveOutcome save={save} />
    </section>
  );
}

/** What the last change did or why it failed, announced. */
function SaveOutcome({ save }: { save: Save }) {
  return (
    <LiveRegion>
      {save.done && <Notice kind="success">{save.done}</Notice>}
      <ErrorNotice error={save.error} />
    </LiveRegion>
  );
}

/**
 * How long txmail tries the domain's mail (docs/API.md, Domains: expire_after): a one-time code that
 * arrives an hour late only confuses, so time-sensitive mail gives up sooner and fails as expired.
 */
function ExpiryForm({
  id,
  name,
  current,
  onSaved,
}: {
  id: string;
  name: string;
  current: number | null;
  onSaved: () => Promise<void>;
}) {
  // A value set through the API that is no preset stays selectable as it is.
  const presets = EXPIRY_PRESETS.some((p) => p.seconds === current)
    ? EXPIRY_PRESETS
    : [{ seconds: current, words: expiryWords(current) }, ...EXPIRY_PRESETS];
  const options = presets.map((o) => ({
    value: o.seconds === null ? '' : String(o.seconds),
    label: o.seconds === null ? `${o.words} (default)` : o.words,
  }));
  return (
    <SettingForm
      domainId={id}
      headingId="expiry-heading"
      heading="Expiry"
      id="expire-after"
      name="expire_after"
      label="Give up after"
      options={options}
      initial={current === null ? '' : String(current)}
      hint={
        <>
          Mail from this domain not delivered by then is no longer tried: it fails with the reason “expired”.
          Shorter suits one-time codes and sign-in links.
        </>
      }
      button="Save expiry"
      body={(value) => ({ expire_after: value === '' ? null : Number(value) })}
      saved={(updated) =>
        `Saved: mail from ${name} that is not delivered within ${expiryWords(updated.expire_after)} fails as expired.`
      }
      onSaved={onSaved}
    />
  );
}

const TLS_WORDS: Record<DomainSummary['tls'], string> = {
  opportunistic: 'encrypted when the receiving server offers TLS, otherwise sent in cleartext',
  required: 'sent only over TLS with a valid certificate, otherwise held and retried until it expires',
};

/**
 * Whether the domain's mail may travel in cleartext (docs/API.md, Domains: TLS policy): opportunistic
 * reaches every server; required never goes unencrypted or to a server whose certificate is invalid.
 */
function TlsForm({
  id,
  name,
  current,
  onSaved,
}: {
  id: string;
  name: string;
  current: DomainSummary['tls'];
  onSaved: () => Promise<void>;
}) {
  return (
    <SettingForm
      domainId={id}
      headingId="tls-heading"
      heading="Encryption"
      id="tls-policy"
      name="tls"
      label="TLS"
      options={[
        { value: 'opportunistic', label: 'Opportunistic (default)' },
        { value: 'required', label: 'Required' },
      ]}
      initial={current}
      hint={
        <>
          Opportunistic: {TLS_WORDS.opportunistic}. Required: {TLS_WORDS.required}.
        </>
      }
      button="Save TLS policy"
      body={(value) => ({ tls: value })}
      saved={(updated) => `Saved: mail from ${name} is ${TLS_WORDS[updated.tls]}.`}
      onSaved={onSaved}
    />
  );
}

/** A record to publish as Type, Name and Value with Copy buttons; `what` names the two for screen readers. */
function RecordFacts({
  record,
  what,
  children,
}: {
  record: { type: string; name: string; value: string; priority?: number };
  what: { name: string; value: string };
  children?: ReactNode;
}) {
  return (
    <dl className="facts">
      <dt>Type</dt>
      <dd>{record.type}</dd>
      <dt>Name</dt>
      <dd>
        <code>{record.name}</code> <CopyButton value={record.name} what={what.name} />
      </dd>
      {record.priority !== undefined && (
        <>
          <dt>Priority</dt>
          <dd>{record.priority}</dd>
        </>
      )}
      <dt>Value</dt>
      <dd>
        <code className="value">{record.value}</code> <CopyButton value={record.value} what={what.value} />
      </dd>
      {children}
    </dl>
  );
}

const ALGORITHM_NAMES: Record<DkimKey['algorithm'], string> = {
  'rsa-sha256': 'RSA',
  'ed25519-sha256': 'Ed25519',
};

/**
 * The domain's DKIM keys (ARCHITECTURE.md, "DKIM"): the active ones that sign, a rotation's pending key
 * with the record to publish, retired keys with the day their record may go; the Rotate button and the
 * Ed25519 option.
 */
function DkimKeys({
  id,
  domain,
  onChanged,
}: {
  id: string;
  domain: DomainDetail;
  onChanged: () => Promise<void>;
}) {
  const save = useSave(onChanged);
  const may = useMay();
  const changes = may('PATCH /api/domains/:id');
  // The box shows the click at once, while the change and the reload after it run; then the server's value.
  const [clicked, setClicked] = useState<boolean>();
  const ed25519 = clicked ?? domain.dkim_ed25519;
  const keys = domain.dkim_keys;
  const rotating = keys.some((k) => k.status === 'pending' && k.algorithm === 'rsa-sha256');
  const rotate = () =>
    save.run(
      () => api('POST', urlPath`/api/domains/${id}/dkim/rotate`),
      'Rotation started: publish the new record below. The current key signs until txmail finds it in DNS.',
    );
  const setEd25519 = async (on: boolean) => {
    setClicked(on);
    await save.run(
      () => api('PATCH', urlPath`/api/domains/${id}`, { dkim_ed25519: on }),
      on
        ? 'Ed25519 turned on: publish its record below; it signs beside RSA once txmail finds it in DNS.'
        : 'Ed25519 turned off: mail is signed with RSA only.',
    );
    setClicked(undefined);
  };
  return (
    <section aria-labelledby="dkim-heading">
      <h2 id="dkim-heading">DKIM keys</h2>
      <p>
        Every message is signed with the active keys. Rotating replaces them: publish the new record; the
        current key keeps signing until txmail finds the new record in DNS (checked at least every 15 minutes,
        or now with Verify), then the new key takes over.
      </p>
      {may('POST /api/domains/:id/dkim/rotate') && (
        <div className="actions">
          <button type="button" className="button" onClick={() => void rotate()} disabled={save.busy}>
            {rotating ? 'Rotation in progress' : 'Rotate DKIM key'}
          </button>
        </div>
      )}
      <label className="check">
        <input
          type="checkbox"
          checked={ed25519}
          disabled={save.busy || !changes}
          onChange={(e) => void setEd25519(e.currentTarget.checked)}
          aria-describedby="ed25519-hint"
        />{' '}
        Also sign with Ed25519
      </label>
      <p className="hint" id="ed25519-hint">
        A second, Ed25519 signature (RFC 8463) beside the RSA one, for receivers that check it. It signs only
        once its record is found in DNS; verification of the domain stays with the RSA key.
      </p>
      <SaveOutcome save={save} />
      <div className="records">
        {keys.map((k) => (
          <article key={k.selector} className="record card" aria-labelledby={`dkim-${k.selector}`}>
            <h3 id={`dkim-${k.selector}`}>
              {ALGORITHM_NAMES[k.algorithm]} key <code>{k.selector}</code> <StatusBadge status={k.status} />
            </h3>
            <p className="muted">
              {k.status === 'active' &&
                `Signs mail${k.activated_at ? ` since ${formatTime(k.activated_at)}` : ''}.`}
              {k.status === 'pending' &&
                (k.algorithm === 'rsa-sha256'
                  ? 'The next key: publish this record; it takes over once txmail finds it.'
                  : 'Publish this record; the Ed25519 signature starts once txmail finds it.')}
              {k.status === 'retired' &&
                `No longer signs. Its record may be removed${k.removable_after ? ` after ${formatTime(k.removable_after)}` : ''}; mail signed with it may still be checked until then.`}
            </p>
            <RecordFacts
              record={k}
              what={{
                name: `the name of DKIM key ${k.selector}`,
                value: `the value of DKIM key ${k.selector}`,
              }}
            >
              {k.status === 'pending' && (
                <>
                  <dt>In DNS</dt>
                  <dd>
                    {k.record_status ? (
                      <>
                        <StatusBadge status={k.record_status} />
                        {k.record_checked_at && (
                          <span className="muted"> looked up {formatTime(k.record_checked_at)}</span>
                        )}
                      </>
                    ) : (
                      <StatusBadge status="not_checked" />
                    )}
                  </dd>
                </>
              )}
            </RecordFacts>
            {k.status === 'pending' && k.record_problem && <Notice kind="error">{k.record_problem}</Notice>}
          </article>
        ))}
      </div>
    </section>
  );
}
