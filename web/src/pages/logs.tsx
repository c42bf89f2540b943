import { useEffect, useRef, useState, type FormEvent } from 'react';
import { apiTextPage, query } from '../api.js';
import { emailStatusValues, type Email } from '../api-types.js';
import { BOUNCE_CATEGORIES, Category, categoryWords } from '../components/category.js';
import { DataTable } from '../components/data-table.js';
import { addressInput } from '../components/field.js';
import { formatTime } from '../components/format.js';
import { isoToLocal, localToIso } from '../components/local-time.js';
import { ErrorNotice, LiveRegion, Notice } from '../components/notice.js';
import { NextStep } from '../components/next-step.js';
import { Page } from '../components/page.js';
import { usePages } from '../components/use-pages.js';
import { StatusBadge } from '../components/status-badge.js';
import { Link, navigate, useLocation } from '../router.js';
import { AddressText } from '../components/address-text.js';
import { LoadMore } from '../components/load-more.js';
import { visibleControls } from '../components/visible-controls.js';
import { urlPath } from '../url-path.js';

const STATUSES = emailStatusValues;

/** The filters' labels by the API's names, for the server's refusals (`"to" is not …`). */
const FILTER_LABELS = {
  q: 'Search',
  status: 'Status',
  category: 'Category',
  to: 'Recipient',
  domain: 'To domain',
  from: 'Sender',
  since: 'From time',
  until: 'Until',
};

/** Emails a page of the log. */
const PAGE_SIZE = 50;

/**
 * Where the log was when an email of it was opened, for this browser tab (sessionStorage): its search
 * (`?status=bounced…`), the pages loaded and the scroll. The email's page links back to that search,
 * and coming back to it (the browser's Back, that link) shows it as far and where it was.
 */
const PLACE = 'txmail.logs.place';
interface Place {
  search: string;
  pages: number;
  scrollY: number;
}

function storedPlace(): Place | undefined {
  try {
    return (JSON.parse(sessionStorage.getItem(PLACE) ?? 'null') as Place | null) ?? undefined;
  } catch {
    // Storage refused or unreadable: the log's first page.
    return undefined;
  }
}

/** The log an email was opened from in this tab: `/logs` with the filters it had. */
export function logsBackHref(): string {
  return `/logs${storedPlace()?.search ?? ''}`;
}

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
  // Read once, when the page is made: an email of this search was opened from here.
  const [place] = useState(() => {
    const stored = storedPlace();
    return stored?.search === key ? stored : undefined;
  });
  const log = usePages<Email>(
    '/api/emails',
    { ...filters, limit: String(PAGE_SIZE) },
    { pages: Math.min(place?.pages ?? 1, 20) },
  );
  const rows = log.rows ?? [];
  const [exportError, setExportError] = useState<unknown>();
  const [exporting, setExporting] = useState(false);
  const [formError, setFormError] = useState<string>();
  // Back where it was, once the pages it had are in.
  const restored = useRef(place === undefined);
  useEffect(() => {
    if (restored.current || log.loading || log.rows === undefined) return;
    restored.current = true;
    window.scrollTo(0, place!.scrollY);
  }, [log.loading, log.rows, place]);
  const remember = () => {
    try {
      const pages = Math.max(1, Math.ceil(rows.length / PAGE_SIZE));
      sessionStorage.setItem(PLACE, JSON.stringify({ search: key, pages, scrollY: window.scrollY }));
    } catch {
      // Storage refused: coming back shows the first page.
    }
  };
  // The form is made again for each search (its fields show the search's values): the focus goes back
  // to its Search button, not to the page's start, when the search came from it.
  const searched = useRef(false);
  const searchButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!searched.current) return;
    searched.current = false;
    searchButton.current?.focus();
  }, [key]);

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
    const since = localToIso(get('since') ?? '');
    const until = localToIso(get('until') ?? '');
    if (since !== undefined && until !== undefined && since > until) {
      setFormError('“From time” is after “Until”: no email could match.');
      return;
    }
    setFormError(undefined);
    const next = `/logs${query({ q: get('q'), status: get('status'), category: get('category'), to: get('to'), domain: get('domain'), from: get('from'), since, until })}`;
    // The same search again asks the server again (the newest emails appear; there is no other refresh)
    // and leaves the form (and the focus) as it is.
    if (next === `/logs${key}`) return void log.reload();
    searched.current = true;
    navigate(next);
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
            defaultValue={isoToLocal(filters.since ?? null)}
          />
        </div>
        <div className="field">
          <label htmlFor="f-until">Until</label>
          <input
            id="f-until"
            name="until"
            type="datetime-local"
            defaultValue={isoToLocal(filters.until ?? null)}
          />
        </div>
        <div className="filter-actions">
          <button className="button" ref={searchButton}>
            Search
          </button>
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
        {formError && <Notice kind="error">{formError}</Notice>}
        <ErrorNotice error={log.error ?? exportError} labels={FILTER_LABELS} />
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
                <Link href={urlPath`/logs/${m.id}`} onClick={remember}>
                  {visibleControls(m.subject)}
                </Link>
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
