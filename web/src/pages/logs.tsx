import { useState, type FormEvent } from 'react';
import { apiTextPage, query } from '../api.js';
import { emailStatusValues, type Email } from '../api-types.js';
import { BOUNCE_CATEGORIES, Category, categoryWords } from '../components/category.js';
import { DataTable } from '../components/data-table.js';
import { addressInput } from '../components/field.js';
import { formatTime } from '../components/format.js';
import { ErrorNotice, LiveRegion } from '../components/notice.js';
import { NextStep } from '../components/next-step.js';
import { Page } from '../components/page.js';
import { usePages } from '../components/use-pages.js';
import { StatusBadge } from '../components/status-badge.js';
import { Link, navigate, useLocation } from '../router.js';
import { AddressText } from '../components/address-text.js';
import { LoadMore } from '../components/load-more.js';

const STATUSES = emailStatusValues;

/** datetime-local (the person's time zone) → ISO for the API, and back. */
const toIso = (local: string) => (local ? new Date(local).toISOString() : undefined);
const toLocal = (iso: string | null) => {
  if (!iso) return '';
  const d = new Date(iso);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};

export function LogsPage() {
  const { search } = useLocation();
  const filters = {
    status: search.get('status') ?? undefined,
    category: search.get('category') ?? undefined,
    to: search.get('to') ?? undefined,
    from: search.get('from') ?? undefined,
    since: search.get('since') ?? undefined,
    until: search.get('until') ?? undefined,
    q: search.get('q') ?? undefined,
    domain: search.get('domain') ?? undefined,
  };
  const key = query(filters);
  const log = usePages<Email>('/api/emails', { ...filters, limit: '50' });
  const rows = log.rows ?? [];
  const [exportError, setExportError] = useState<unknown>();
  const [exporting, setExporting] = useState(false);

  /**
   * The filtered log as CSV (Accept: text/csv), saved as a file by the browser: every page the server
   * gives (10,000 rows each, `x-next-cursor` for the next), one header line.
   */
  const exportCsv = async () => {
    setExporting(true);
    try {
      let csv = '';
      let cursor: string | null = null;
      do {
        const page: { text: string; headers: Headers } = await apiTextPage(
          `/api/emails${query({ ...filters, cursor: cursor ?? undefined })}`,
          'text/csv',
        );
        csv += csv === '' ? page.text : page.text.slice(page.text.indexOf('\r\n') + 2);
        cursor = page.headers.get('x-next-cursor');
      } while (cursor);
      const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = 'emails.csv';
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      setExportError(undefined);
    } catch (err) {
      setExportError(err);
    } finally {
      setExporting(false);
    }
  };

  const apply = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const get = (n: string) => String(f.get(n) ?? '').trim() || undefined;
    navigate(
      `/logs${query({ q: get('q'), status: get('status'), category: get('category'), to: get('to'), domain: get('domain'), from: get('from'), since: toIso(get('since') ?? ''), until: toIso(get('until') ?? '') })}`,
    );
  };

  return (
    <Page
      title="Logs"
      intro="Every email of your account, newest first: sends, test sends and the mail we sent you."
    >
      <form className="filters" onSubmit={apply} key={key} aria-label="Filter the logs">
        <div className="field">
          <label htmlFor="f-q">Search</label>
          <input
            id="f-q"
            name="q"
            type="search"
            maxLength={256}
            defaultValue={filters.q}
            placeholder="Message-ID or subject words"
          />
        </div>
        <div className="field">
          <label htmlFor="f-status">Status</label>
          <select id="f-status" name="status" defaultValue={filters.status ?? ''}>
            <option value="">Any</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="f-category">Category</label>
          <select id="f-category" name="category" defaultValue={filters.category ?? ''}>
            <option value="">Any</option>
            {BOUNCE_CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {categoryWords(c)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="f-to">Recipient</label>
          <input
            id="f-to"
            name="to"
            {...addressInput('email')}
            defaultValue={filters.to}
            placeholder="jane@example.org"
          />
        </div>
        <div className="field">
          <label htmlFor="f-domain">To domain</label>
          <input id="f-domain" name="domain" defaultValue={filters.domain} placeholder="gmail.com" />
        </div>
        <div className="field">
          <label htmlFor="f-from">Sender</label>
          <input id="f-from" name="from" {...addressInput('email')} defaultValue={filters.from} />
        </div>
        <div className="field">
          <label htmlFor="f-since">From time</label>
          <input
            id="f-since"
            name="since"
            type="datetime-local"
            defaultValue={toLocal(filters.since ?? null)}
          />
        </div>
        <div className="field">
          <label htmlFor="f-until">Until</label>
          <input
            id="f-until"
            name="until"
            type="datetime-local"
            defaultValue={toLocal(filters.until ?? null)}
          />
        </div>
        <div className="filter-actions">
          <button className="button">Search</button>
          {key !== '' && (
            <button type="button" className="button secondary" onClick={() => navigate('/logs')}>
              Clear
            </button>
          )}
          <button
            type="button"
            className="button secondary"
            onClick={() => void exportCsv()}
            disabled={exporting}
          >
            {exporting ? 'Exporting…' : 'Export CSV'}
          </button>
        </div>
      </form>
      <LiveRegion>
        <ErrorNotice error={log.error ?? exportError} />
        {!log.loading && !log.error && (
          <p className="muted">
            {rows.length === 0
              ? 'No emails match.'
              : `${rows.length}${log.more ? '+' : ''} email${rows.length === 1 && !log.more ? '' : 's'}`}
          </p>
        )}
      </LiveRegion>
      <DataTable
        caption="Emails"
        className="logs"
        labelledCells
        rows={rows}
        columns={[
          {
            header: 'Status',
            // One element: on phones the cell is a grid of its label and its content.
            cell: (m) => (
              <div>
                <StatusBadge status={m.status} /> <Category category={m.category} />
                {m.next && (
                  <p className="muted">
                    <NextStep next={m.next} />
                  </p>
                )}
              </div>
            ),
          },
          {
            header: 'Subject',
            cell: (m) => (
              <span className="free-text subject">
                <Link href={`/logs/${m.id}`}>{m.subject}</Link>
              </span>
            ),
          },
          { header: 'To', cell: (m) => <AddressText text={m.to} /> },
          { header: 'From', cell: (m) => <AddressText text={m.from} /> },
          { header: 'Sent', cell: (m) => formatTime(m.created_at) },
        ]}
      />
      <LoadMore pages={log} />
    </Page>
  );
}
