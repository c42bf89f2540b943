import { useEffect, useRef, useState, type FormEvent } from 'react';
import { api, ApiError } from '../api.js';
import { useOneAtATime } from '../components/one-at-a-time.js';
import type { Suppression } from '../api-types.js';
import { DataTable } from '../components/data-table.js';
import { Field } from '../components/field.js';
import { formatTime } from '../components/format.js';
import { ErrorNotice, LiveRegion, Notice, NotAvailable } from '../components/notice.js';
import { focusPageHeading, Page } from '../components/page.js';
import { usePages } from '../components/use-pages.js';
import { ActionForm, SubmitButton } from '../components/action-form.js';
import { useMay } from '../permissions.js';
import { LoadMore } from '../components/load-more.js';
import { AddressText } from '../components/address-text.js';
import { Link, navigate, useLocation } from '../router.js';
import { visibleControls } from '../components/visible-controls.js';
import { urlPath } from '../url-path.js';

/** The longest address the suppressions API takes (its schema's maxLength). */
const MAX_ADDRESS = 320;

export function SuppressionsPage() {
  // What the search box holds: the start of the addresses to show (alphabetically), or nothing (all,
  // newest first). Kept in the address (`?starts_with=`), as the log's filters are: a reload, a link
  // or Back keeps the search.
  const { search: params } = useLocation();
  const address = params.get('starts_with') ?? '';
  const setAddress = (value: string) =>
    navigate(`/suppressions${value ? `?starts_with=${encodeURIComponent(value)}` : ''}`);
  // The box follows the address (Back, "Show all"), kept in place so that the focus stays where it is.
  const searchForm = useRef<HTMLFormElement>(null);
  useEffect(() => {
    const box = searchForm.current?.elements.namedItem('address');
    if (box instanceof HTMLInputElement && box.value.trim() !== address) box.value = address;
  }, [address]);
  const list = usePages<Suppression>('/api/suppressions', { starts_with: address, limit: '100' });
  const [message, setMessage] = useState<string>();
  const [error, setError] = useState<unknown>();
  const search = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setAddress(String(new FormData(e.currentTarget).get('address') ?? '').trim());
  };
  const may = useMay();
  // By hand: an address someone asked not to be mailed, or one known dead (Postmark and SES let you).
  const add = async (form: HTMLFormElement) => {
    const f = new FormData(form);
    const added = String(f.get('address') ?? '').trim();
    const reason = String(f.get('reason') ?? '').trim();
    try {
      const answer = await api<Suppression>('POST', '/api/suppressions', {
        address: added,
        ...(reason ? { reason } : {}),
      });
      setMessage(`${answer.address} is suppressed: sends to it are refused.`);
      setError(undefined);
      form.reset();
      await list.reload();
    } catch (err) {
      setMessage(undefined);
      setError(err);
    }
  };
  // Once at a time: a double click asked twice, removed once and then said the address was not on the
  // list, beside the word that it was removed.
  const oneAtATime = useOneAtATime();
  const remove = (s: Suppression) =>
    oneAtATime(async () => {
      if (!window.confirm(`Remove ${s.address} from the suppression list? Mail to it will be sent again.`))
        return;
      try {
        await api('DELETE', urlPath`/api/suppressions/${s.address}`);
      } catch (err) {
        // Removed meanwhile (another tab, another member): as good as removed here.
        if (!(err instanceof ApiError && err.code === 'not_found')) {
          setMessage(undefined);
          setError(err);
          return;
        }
      }
      setError(undefined);
      setMessage(`${s.address} is no longer suppressed.`);
      // Out of the rows shown, every page loaded kept (a reload went back to the first 100).
      list.drop((row) => row.address === s.address);
      focusPageHeading();
    });
  return (
    <Page
      title="Suppressions"
      intro="Addresses that hard-bounced or complained, and those you added by hand. Sends to them are refused to protect your reputation."
    >
      {list.unavailable ? (
        <NotAvailable what="Suppressions" />
      ) : (
        <>
          <form onSubmit={search} className="inline-form" role="search" ref={searchForm}>
            <Field
              label="Find addresses starting with"
              name="address"
              placeholder="jane@ or jane@acme"
              autoCapitalize="none"
              spellCheck={false}
              maxLength={MAX_ADDRESS}
              defaultValue={address}
            />
            <button className="button">Search</button>
            {address && (
              <button type="button" className="button secondary" onClick={() => setAddress('')}>
                Show all
              </button>
            )}
          </form>
          {may('POST /api/suppressions') && (
            <ActionForm onSubmit={add} className="inline-form" aria-label="Add to the suppression list">
              <Field label="Suppress an address" name="address" type="email" required />
              <Field label="Why (optional)" name="reason" maxLength={500} />
              <SubmitButton className="button secondary">Suppress</SubmitButton>
            </ActionForm>
          )}
          <LiveRegion>
            {message && <Notice kind="success">{message}</Notice>}
            <ErrorNotice
              error={error ?? list.error}
              labels={{ address: 'Address', reason: 'Why', starts_with: 'Find addresses starting with' }}
            />
          </LiveRegion>
          <DataTable
            rows={list.rows}
            empty={address ? `No suppressed address starts with ${address}.` : 'No suppressed addresses.'}
            columns={[
              { header: 'Address', cell: (s) => <AddressText text={s.address} /> },
              {
                header: 'Why',
                cell: (s) => (
                  <span className="free-text">
                    {s.origin}: {visibleControls(s.reason)}{' '}
                    {/* The reason often names its code already ("… (5.1.1)"): not twice. */}
                    {s.enhanced_code && !s.reason.includes(s.enhanced_code) && <code>{s.enhanced_code}</code>}
                    {/* The bounce or complaint that caused it: its message in the log, while kept. */}
                    {s.source_email_id && (
                      <>
                        {' '}
                        <Link href={urlPath`/logs/${s.source_email_id}`}>
                          the email<span className="visually-hidden"> that suppressed {s.address}</span>
                        </Link>
                      </>
                    )}
                  </span>
                ),
              },
              { header: 'Since', cell: (s) => formatTime(s.created_at) },
              {
                header: 'Actions',
                hiddenHeader: true,
                cell: (s) =>
                  may('DELETE /api/suppressions/:address') && (
                    <button type="button" className="button small danger" onClick={() => void remove(s)}>
                      Remove<span className="visually-hidden"> {s.address}</span>
                    </button>
                  ),
              },
            ]}
          />
          <LoadMore pages={list} />
        </>
      )}
    </Page>
  );
}
