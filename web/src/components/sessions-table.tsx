// A member's live sessions with a button to end each: your own (Security) or a member's (Members).
import { useState } from 'react';
import { api } from '../api.js';
import { DataTable } from './data-table.js';
import { formatTime } from './format.js';
import { ErrorNotice, LiveRegion, Notice } from './notice.js';
import { focusPageHeading } from './page.js';
import type { MemberSession as SessionRow } from '../api-types.js';
import { useApi } from './use-api.js';
import { describeUserAgent } from './user-agent.js';
import { useOneAtATime } from './one-at-a-time.js';

/** `path`: GET lists the sessions, DELETE `${path}/:id` ends one. */
export function SessionsTable({ path, caption }: { path: string; caption: string }) {
  const sessions = useApi<{ data: SessionRow[] }>(path);
  const [message, setMessage] = useState<string>();
  const [error, setError] = useState<unknown>();
  const oneAtATime = useOneAtATime();
  const end = (s: SessionRow) =>
    oneAtATime(async () => {
      try {
        await api('DELETE', `${path}/${s.id}`);
        setMessage('The session is ended.');
        setError(undefined);
        await sessions.reload();
        focusPageHeading();
      } catch (err) {
        setError(err);
      }
    });
  return (
    <>
      <LiveRegion>
        {message && <Notice kind="success">{message}</Notice>}
        <ErrorNotice error={error} />
      </LiveRegion>
      <ErrorNotice error={sessions.error} />
      <DataTable
        caption={caption}
        rows={sessions.data?.data}
        empty="No live sessions."
        columns={[
          {
            header: 'Browser',
            cell: (s) => <span title={s.user_agent ?? undefined}>{describeUserAgent(s.user_agent)}</span>,
          },
          { header: 'From', cell: (s) => s.ip ?? 'unknown' },
          { header: 'Started', cell: (s) => formatTime(s.created_at) },
          // Recorded at most once an hour (sessions.ts): said as such, not as the last request.
          { header: 'Last seen (to the hour)', cell: (s) => formatTime(s.last_seen_at) },
          { header: 'Expires', cell: (s) => formatTime(s.expires_at) },
          {
            header: 'Actions',
            hiddenHeader: true,
            cell: (s) =>
              s.current ? (
                <span>This browser</span>
              ) : (
                <button type="button" className="button small danger" onClick={() => void end(s)}>
                  End session
                  <span className="visually-hidden">
                    {' '}
                    of {describeUserAgent(s.user_agent)} started {formatTime(s.created_at)}
                  </span>
                </button>
              ),
          },
        ]}
      />
    </>
  );
}
