import type { ReactNode } from 'react';
import { DataTable } from '../components/data-table.js';
import { formatTime } from '../components/format.js';
import { ErrorNotice } from '../components/notice.js';
import { Page } from '../components/page.js';
import { usePages } from '../components/use-pages.js';
import type { ApiKey, AuditEntry, Domain, Member, Webhook } from '../api-types.js';
import { useApi } from '../components/use-api.js';
import { useMay } from '../permissions.js';
import { Link } from '../router.js';
import { LoadMore } from '../components/load-more.js';
import { ACTION_WORDS } from '../components/audit-actions.js';
import { unicodeText } from '../components/unicode-address.js';
import { urlPath } from '../url-path.js';
import { visibleControls } from '../components/visible-controls.js';

/** What an `account.security_changed` entry's target says the owner set. */
const SECURITY_STATES: Record<string, string> = {
  totp_required: 'two-factor sign-in required of every member',
  totp_not_required: 'two-factor sign-in no longer required',
};

/** The parts of txmail that change an account by themselves, as people call them. */
const SYSTEM_PARTS: Record<string, string> = { reputation_guard: 'the reputation guard' };

function actor(e: AuditEntry): string {
  if (e.actor.type === 'member') return e.actor.label ?? 'a member';
  if (e.actor.type === 'api_key') return `API key ${e.actor.label ?? e.actor.id ?? ''}`;
  if (e.actor.type === 'system')
    return `txmail (${SYSTEM_PARTS[e.actor.id ?? ''] ?? e.actor.id ?? 'automatic'})`;
  return 'the operator';
}

/** What a change's target means where the action alone does not say it. */
function target(e: AuditEntry, names: ReadonlyMap<string, string>): ReactNode {
  if (e.action === 'account.reputation_changed' && e.target) return `sending state: ${e.target}`;
  if (e.action === 'account.security_changed' && e.target) return SECURITY_STATES[e.target] ?? e.target;
  if (!e.target) return '';
  // An email (re-sent): its page in the log, while the log keeps it.
  if (e.action.startsWith('email.')) return <Link href={urlPath`/logs/${e.target}`}>email {e.target}</Link>;
  // An id of a key, endpoint, member or domain: what it was called when the entry was written (so an
  // endpoint's later new URL does not rewrite its history), else, for entries older than those labels,
  // its name now while the account has it. A key's name carries the first characters of the key, which
  // tell keys apart as its id would; the others' ids follow their names.
  // Names people chose, with their direction controls shown (visible-controls.ts).
  const chosen = labelThen(e) ?? names.get(e.target.split('/')[0]!);
  if (chosen === undefined) return visibleControls(e.target);
  const name = visibleControls(chosen);
  return e.action.startsWith('api_key.') ? name : `${name} (${visibleControls(e.target)})`;
}

/** What the entry's target was called when it was written, in the words useNames gives the lists'. */
function labelThen(e: AuditEntry): string | undefined {
  if (!e.target_label) return undefined;
  return e.action.startsWith('api_key.') ? `key ${e.target_label}` : e.target_label;
}

/** The names of what the account has now, by id, from the lists this member may read. */
function useNames(): Map<string, string> {
  const may = useMay();
  const keys = useApi<{ data: ApiKey[] }>(may('GET /api/api-keys') ? '/api/api-keys' : null);
  const hooks = useApi<{ data: Webhook[] }>(may('GET /api/webhooks') ? '/api/webhooks' : null);
  const members = useApi<{ data: Member[] }>(may('GET /api/members') ? '/api/members' : null);
  const domains = useApi<{ data: Domain[] }>(may('GET /api/domains') ? '/api/domains' : null);
  const names = new Map<string, string>();
  // As the audit log names keys (audit/target-label.ts keyLabel).
  for (const k of keys.data?.data ?? []) names.set(k.id, `key ${k.name} (${k.prefix}…)`);
  for (const w of hooks.data?.data ?? [])
    names.set(w.id, w.description ? `${w.description} (${w.url})` : w.url);
  for (const m of members.data?.data ?? []) names.set(m.id, m.email);
  for (const d of domains.data?.data ?? []) names.set(d.id, d.unicode_name);
  return names;
}

export function AuditPage() {
  const entries = usePages<AuditEntry>('/api/audit', { limit: '100' });
  const names = useNames();
  return (
    <Page title="Audit log" intro="Every change to this account: who made it, when and from which address.">
      <ErrorNotice error={entries.error} />
      <DataTable
        caption="Changes, newest first"
        className="phone-cards"
        rows={entries.rows}
        empty="Nothing changed yet."
        labelledCells
        columns={[
          { header: 'When', cell: (e) => formatTime(e.created_at) },
          { header: 'Who', cell: (e) => <span className="free-text">{unicodeText(actor(e))}</span> },
          {
            header: 'Action',
            // In words, with the code the API and its docs use beneath.
            cell: (e) => (
              <>
                {ACTION_WORDS[e.action] && <span className="action-words">{ACTION_WORDS[e.action]}</span>}
                <code className="code-words">{e.action}</code>
              </>
            ),
          },
          // Free text (a key's or an endpoint's own words, unbroken for 256 characters at most) wraps
          // anywhere, not past the table's edge.
          {
            header: 'Target',
            cell: (e) => <span className="free-text">{shownInUnicode(target(e, names))}</span>,
          },
          { header: 'Address', cell: (e) => e.ip ?? '' },
        ]}
      />
      <LoadMore pages={entries} />
    </Page>
  );
}

/** Text with its internationalised domains in Unicode (an address stored as `ana@xn--bcher-kva.example`). */
function shownInUnicode(node: ReactNode): ReactNode {
  return typeof node === 'string' ? unicodeText(node) : node;
}
