import { useEffect, useState, type FormEvent } from 'react';
import { api } from '../api.js';
import { CopyButton } from '../components/copy-button.js';
import { Field } from '../components/field.js';
import { formatTime } from '../components/format.js';
import { ItemList } from '../components/item-list.js';
import { ErrorNotice, LiveRegion, Notice, NotAvailable } from '../components/notice.js';
import { Page } from '../components/page.js';
import { StatusBadge } from '../components/status-badge.js';
import { useApi } from '../components/use-api.js';
import { Link, navigate } from '../router.js';

interface DomainSummary {
  id: string;
  name: string;
  unicode_name: string;
  status: string;
  created_at: string;
  verified_at: string | null;
  last_checked_at: string | null;
  fails_at: string | null;
  /** Seconds after acceptance when txmail stops trying the domain's mail; null: 2 days. */
  expire_after: number | null;
  /** Whether the domain's mail may go in cleartext (docs/API.md, Domains: TLS policy). */
  tls: 'opportunistic' | 'required';
}

interface DomainRecord {
  record: string;
  type: string;
  name: string;
  value: string;
  priority?: number;
  required: boolean;
  purpose?: string;
  status: string;
  seen: string[];
  problems: string[];
  warnings: string[];
}

/** One DKIM key of the domain (docs/API.md, Domains: dkim_keys). */
interface DkimKey {
  selector: string;
  algorithm: 'rsa-sha256' | 'ed25519-sha256';
  status: 'active' | 'pending' | 'retired';
  type: string;
  name: string;
  value: string;
  activated_at: string | null;
  removable_after: string | null;
  record_status: string | null;
  record_checked_at: string | null;
  record_problem: string | null;
}

interface DomainDetail extends DomainSummary {
  records: DomainRecord[];
  dkim_keys: DkimKey[];
  dkim_ed25519: boolean;
  last_check: {
    checked_at: string;
    outcome: string;
    dmarc?: { policy: string | null; guidance?: string } | null;
    /** About the domain as a whole (no MX, no DMARC); absent from servers before they existed. */
    warnings?: DomainWarning[];
  } | null;
}

interface DomainWarning {
  code: string;
  severity: string;
  message: string;
  suggested?: { type: string; name: string; value: string };
}

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
  const [error, setError] = useState<unknown>();
  const add = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const name = String(new FormData(e.currentTarget).get('name') ?? '').trim();
    try {
      const created = await api<DomainDetail>('POST', '/api/domains', { name });
      navigate(`/domains/${created.id}`);
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
          <form onSubmit={(e) => void add(e)} className="inline-form">
            <Field
              label="Domain"
              name="name"
              placeholder="acme.example"
              required
              autoCapitalize="none"
              spellCheck={false}
            />
            <button className="button">Add domain</button>
          </form>
          <LiveRegion>
            <ErrorNotice error={error ?? domains.error} />
          </LiveRegion>
          <ItemList items={domains.data?.data} empty="No domains yet.">
            {(d) => (
              <>
                <Link href={`/domains/${d.id}`}>{d.unicode_name}</Link> <StatusBadge status={d.status} />
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
  const domain = useApi<DomainDetail>(`/api/domains/${encodeURIComponent(id)}`);
  const [checking, setChecking] = useState(false);
  const [result, setResult] = useState<string>();
  const [error, setError] = useState<unknown>();
  const d = domain.data;
  const warnings = d?.last_check?.warnings ?? [];

  const verify = async () => {
    setChecking(true);
    setError(undefined);
    try {
      const checked = await api<DomainDetail>('POST', `/api/domains/${id}/verify`);
      await domain.reload();
      setResult(
        checked.status === 'verified'
          ? `${checked.unicode_name} is verified.`
          : `Checked: ${checked.records.filter((r) => r.required && r.status !== 'found').length} required records are not right yet.`,
      );
    } catch (err) {
      setError(err);
    } finally {
      setChecking(false);
    }
  };
  const remove = async () => {
    if (!d || !window.confirm(`Delete ${d.unicode_name}? Mail from it is refused from then on.`)) return;
    try {
      await api('DELETE', `/api/domains/${id}`);
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
          <div className="actions">
            <button type="button" className="button" onClick={() => void verify()} disabled={checking}>
              {checking ? 'Checking DNS…' : 'Verify now'}
            </button>
            <button type="button" className="button danger" onClick={() => void remove()}>
              Delete domain
            </button>
          </div>
          <LiveRegion>
            {result && <Notice kind={d.status === 'verified' ? 'success' : 'info'}>{result}</Notice>}
            <ErrorNotice error={error} />
          </LiveRegion>
          <ExpiryForm
            id={id}
            name={d.unicode_name}
            current={d.expire_after}
            onSaved={() => void domain.reload()}
          />
          <TlsForm id={id} name={d.unicode_name} current={d.tls} onSaved={() => void domain.reload()} />
          {warnings.length > 0 && <DomainWarnings warnings={warnings} />}
          <DkimKeys id={id} domain={d} onChanged={() => void domain.reload()} />
          <h2>DNS records to publish</h2>
          <p>Add these at your DNS provider. Changes can take a few minutes to be visible.</p>
          <div className="records">
            {d.records.map((r) => (
              <article key={r.record} className="record card" aria-labelledby={`rec-${r.record}`}>
                <h3 id={`rec-${r.record}`}>
                  {RECORD_NAMES[r.record] ?? r.record} <StatusBadge status={r.status} />{' '}
                  {!r.required && <span className="muted">(optional)</span>}
                </h3>
                {r.purpose && <p className="muted">{r.purpose}</p>}
                <dl className="facts">
                  <dt>Type</dt>
                  <dd>{r.type}</dd>
                  <dt>Name</dt>
                  <dd>
                    <code>{r.name}</code>{' '}
                    <CopyButton
                      value={r.name}
                      what={`the ${RECORD_NAMES[r.record] ?? r.record} record name`}
                    />
                  </dd>
                  {r.priority !== undefined && (
                    <>
                      <dt>Priority</dt>
                      <dd>{r.priority}</dd>
                    </>
                  )}
                  <dt>Value</dt>
                  <dd>
                    <code className="value">{r.value}</code>{' '}
                    <CopyButton
                      value={r.value}
                      what={`the ${RECORD_NAMES[r.record] ?? r.record} record value`}
                    />
                  </dd>
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
                </dl>
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
            <dl className="facts">
              <dt>Type</dt>
              <dd>{w.suggested.type}</dd>
              <dt>Name</dt>
              <dd>
                <code>{w.suggested.name}</code>{' '}
                <CopyButton value={w.suggested.name} what="the suggested record name" />
              </dd>
              <dt>Value</dt>
              <dd>
                <code className="value">{w.suggested.value}</code>{' '}
                <CopyButton value={w.suggested.value} what="the suggested record value" />
              </dd>
            </dl>
          )}
        </Notice>
      ))}
    </section>
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
  onSaved: () => void;
}) {
  const [value, setValue] = useState(current === null ? '' : String(current));
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState<string>();
  const [error, setError] = useState<unknown>();
  // A value set through the API that is no preset stays selectable as it is.
  const options = EXPIRY_PRESETS.some((p) => p.seconds === current)
    ? EXPIRY_PRESETS
    : [{ seconds: current, words: expiryWords(current) }, ...EXPIRY_PRESETS];
  const save = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setSaving(true);
    setSaved(undefined);
    setError(undefined);
    try {
      const updated = await api<DomainSummary>('PATCH', `/api/domains/${id}`, {
        expire_after: value === '' ? null : Number(value),
      });
      setSaved(
        `Saved: mail from ${name} that is not delivered within ${expiryWords(updated.expire_after)} fails as expired.`,
      );
      onSaved();
    } catch (err) {
      setError(err);
    } finally {
      setSaving(false);
    }
  };
  return (
    <section aria-labelledby="expiry-heading">
      <h2 id="expiry-heading">Expiry</h2>
      <form className="inline-form" onSubmit={(e) => void save(e)}>
        <div className="field">
          <label htmlFor="expire-after">Give up after</label>
          <select
            id="expire-after"
            name="expire_after"
            value={value}
            onChange={(e) => setValue(e.currentTarget.value)}
            aria-describedby="expire-after-hint"
          >
            {options.map((o) => (
              <option key={String(o.seconds)} value={o.seconds === null ? '' : String(o.seconds)}>
                {o.seconds === null ? `${o.words} (default)` : o.words}
              </option>
            ))}
          </select>
          <p className="hint" id="expire-after-hint">
            Mail from this domain not delivered by then is no longer tried: it fails with the reason
            “expired”. Shorter suits one-time codes and sign-in links.
          </p>
        </div>
        <button className="button" disabled={saving}>
          {saving ? 'Saving…' : 'Save expiry'}
        </button>
      </form>
      <LiveRegion>
        {saved && <Notice kind="success">{saved}</Notice>}
        <ErrorNotice error={error} />
      </LiveRegion>
    </section>
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
  onSaved: () => void;
}) {
  const [value, setValue] = useState(current);
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState<string>();
  const [error, setError] = useState<unknown>();
  const save = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setSaving(true);
    setSaved(undefined);
    setError(undefined);
    try {
      const updated = await api<DomainSummary>('PATCH', `/api/domains/${id}`, { tls: value });
      setSaved(`Saved: mail from ${name} is ${TLS_WORDS[updated.tls]}.`);
      onSaved();
    } catch (err) {
      setError(err);
    } finally {
      setSaving(false);
    }
  };
  return (
    <section aria-labelledby="tls-heading">
      <h2 id="tls-heading">Encryption</h2>
      <form className="inline-form" onSubmit={(e) => void save(e)}>
        <div className="field">
          <label htmlFor="tls-policy">TLS</label>
          <select
            id="tls-policy"
            name="tls"
            value={value}
            onChange={(e) => setValue(e.currentTarget.value as DomainSummary['tls'])}
            aria-describedby="tls-policy-hint"
          >
            <option value="opportunistic">Opportunistic (default)</option>
            <option value="required">Required</option>
          </select>
          <p className="hint" id="tls-policy-hint">
            Opportunistic: {TLS_WORDS.opportunistic}. Required: {TLS_WORDS.required}.
          </p>
        </div>
        <button className="button" disabled={saving}>
          {saving ? 'Saving…' : 'Save TLS policy'}
        </button>
      </form>
      <LiveRegion>
        {saved && <Notice kind="success">{saved}</Notice>}
        <ErrorNotice error={error} />
      </LiveRegion>
    </section>
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
function DkimKeys({ id, domain, onChanged }: { id: string; domain: DomainDetail; onChanged: () => void }) {
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string>();
  const [error, setError] = useState<unknown>();
  // Shown at once as clicked; put back if the change fails, and follow the server after a reload.
  const [ed25519, setEd25519Shown] = useState(domain.dkim_ed25519);
  useEffect(() => setEd25519Shown(domain.dkim_ed25519), [domain.dkim_ed25519]);
  const keys = domain.dkim_keys ?? [];
  const rotating = keys.some((k) => k.status === 'pending' && k.algorithm === 'rsa-sha256');
  const act = async (request: () => Promise<unknown>, message: string, undo?: () => void) => {
    setBusy(true);
    setDone(undefined);
    setError(undefined);
    try {
      await request();
      setDone(message);
      onChanged();
    } catch (err) {
      undo?.();
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const rotate = () =>
    act(
      () => api('POST', `/api/domains/${id}/dkim/rotate`),
      'Rotation started: publish the new record below. The current key signs until txmail finds it in DNS.',
    );
  const setEd25519 = (on: boolean) => {
    setEd25519Shown(on);
    return act(
      () => api('PATCH', `/api/domains/${id}`, { dkim_ed25519: on }),
      on
        ? 'Ed25519 turned on: publish its record below; it signs beside RSA once txmail finds it in DNS.'
        : 'Ed25519 turned off: mail is signed with RSA only.',
      () => setEd25519Shown(!on),
    );
  };
  return (
    <section aria-labelledby="dkim-heading">
      <h2 id="dkim-heading">DKIM keys</h2>
      <p>
        Every message is signed with the active keys. Rotating replaces them: publish the new record; the
        current key keeps signing until txmail finds the new record in DNS (checked at least every 15 minutes,
        or now with Verify), then the new key takes over.
      </p>
      <div className="actions">
        <button type="button" className="button" onClick={() => void rotate()} disabled={busy}>
          {rotating ? 'Rotation in progress' : 'Rotate DKIM key'}
        </button>
      </div>
      <label className="check">
        <input
          type="checkbox"
          checked={ed25519}
          disabled={busy}
          onChange={(e) => void setEd25519(e.currentTarget.checked)}
          aria-describedby="ed25519-hint"
        />{' '}
        Also sign with Ed25519
      </label>
      <p className="hint" id="ed25519-hint">
        A second, Ed25519 signature (RFC 8463) beside the RSA one, for receivers that check it. It signs only
        once its record is found in DNS; verification of the domain stays with the RSA key.
      </p>
      <LiveRegion>
        {done && <Notice kind="success">{done}</Notice>}
        <ErrorNotice error={error} />
      </LiveRegion>
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
            <dl className="facts">
              <dt>Type</dt>
              <dd>{k.type}</dd>
              <dt>Name</dt>
              <dd>
                <code>{k.name}</code>{' '}
                <CopyButton value={k.name} what={`the name of DKIM key ${k.selector}`} />
              </dd>
              <dt>Value</dt>
              <dd>
                <code className="value">{k.value}</code>{' '}
                <CopyButton value={k.value} what={`the value of DKIM key ${k.selector}`} />
              </dd>
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
            </dl>
            {k.status === 'pending' && k.record_problem && <Notice kind="error">{k.record_problem}</Notice>}
          </article>
        ))}
      </div>
    </section>
  );
}
