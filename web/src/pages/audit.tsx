import { DataTable } from '../components/data-table.js';
import { formatTime } from '../components/format.js';
import { ErrorNotice } from '../components/notice.js';
import { Page } from '../components/page.js';
import { usePages } from '../components/use-pages.js';
import type { AuditEntry } from '../api-types.js';

/** The parts of txmail that change an account by themselves, as people call them. */
const SYSTEM_PARTS: Record<string, string> = { reputation_guard: 'the reputation guard' };

function actor(e: AuditEntry): string {
  if (e.actor.type === 'member') return e.actor.label ?? 'a member';
  if (e.actor.type === 'api_key') return `API key ${e.actor.id ?? ''}`;
  if (e.actor.type === 'system')
    return `txmail (${SYSTEM_PARTS[e.actor.id ?? ''] ?? e.actor.id ?? 'automatic'})`;
  return 'the operator';
}

/** What a change's target means where the action alone does not say it. */
function target(e: AuditEntry): string {
  if (e.action === 'account.reputation_changed' && e.target) return `sending state: ${e.target}`;
  return e.target ?? '';
}

export function AuditPage() {
  const entries = usePages<AuditEntry>('/api/audit', { limit: '100' });
  return (
    <Page title="Audit log" intro="Every change to this account: who made it, when and from which address.">
      <ErrorNotice error={entries.error} />
      <DataTable
        caption="Changes, newest first"
        rows={entries.rows}
        empty="Nothing changed yet."
        labelledCells
        columns={[
          { header: 'When', cell: (e) => formatTime(e.created_at) },
          { header: 'Who', cell: actor },
          { header: 'Action', cell: (e) => <code>{e.action}</code> },
          { header: 'Target', cell: target },
          { header: 'Address', cell: (e) => e.ip ?? '' },
        ]}
      />
      {entries.more && (
        <button
          type="button"
          className="button secondary"
          onClick={entries.loadMore}
          disabled={entries.loading}
        >
          Load more
        </button>
      )}
    </Page>
  );
}
