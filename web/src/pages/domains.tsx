import { useState, type FormEvent } from 'react';
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

interface DomainDetail extends DomainSummary {
  records: DomainRecord[];
  last_check: {
    checked_at: string;
    outcome: string;
    dmarc?: { policy: string | null; guidance?: string } | null;
  } | null;
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
          {d.last_check?.dmarc?.guidance && <Notice>{d.last_check.dmarc.guidance}</Notice>}
        </>
      )}
    </Page>
  );
}
