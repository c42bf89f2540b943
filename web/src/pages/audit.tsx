import { DataTable } from '../components/data-table.js';
import { formatTime } from '../components/format.js';
import { ErrorNotice } from '../components/notice.js';
import { Page } from '../components/page.js';
import { usePages } from '../components/use-pages.js';
import type { AuditEntry } from '../api-types.js';

function actor(e: AuditEntry): string {
  if (e.actor.type === 'member') return e.actor.label ?? 'a member';
  if (e.actor.type === 'api_key') return `API key ${e.actor.id ?? ''}`;
  return 'the operator';
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
          { header: 'Target', cell: (e) => e.target ?? '' },
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
