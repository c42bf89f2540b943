import { useEffect, useRef, useState } from 'react';
import { api } from '../api.js';
import { AddressText } from '../components/address-text.js';
import { unicodeText } from '../components/unicode-address.js';
import { DataTable } from '../components/data-table.js';
import { Field } from '../components/field.js';
import { formatTime } from '../components/format.js';
import { ErrorNotice, LiveRegion, Notice } from '../components/notice.js';
import { focusPageHeading, Page } from '../components/page.js';
import { SessionsTable } from '../components/sessions-table.js';
import { useApi } from '../components/use-api.js';
import type { ApiBody } from '../api.js';
import type { Member } from '../api-types.js';
import { useSession, type Role } from '../session.js';
import { ActionForm, SubmitButton } from '../components/action-form.js';
import { useOneAtATime } from '../components/one-at-a-time.js';
import { urlPath } from '../url-path.js';

/** A member's address as people write it: an internationalised domain in Unicode (stored in ASCII). */
const shown = (m: Member): string => unicodeText(m.email);

const ROLES: { value: Role; label: string }[] = [
  // As docs/API.md's table of roles says them.
  {
    value: 'admin',
    label: "Admin: a developer's, plus domains, webhooks, suppressions, any key, members, audit",
  },
  {
    value: 'developer',
    label:
      'Developer: sending, its own keys, webhook tests and replays; reads domains, webhooks, suppressions',
  },
  { value: 'viewer', label: 'Viewer: logs and overview' },
];

export function MembersPage() {
  const members = useApi<ApiBody<'/api/members', 'get'>>('/api/members');
  // Only the owner sees and ends the owner's sessions (an admin is answered 403).
  const isOwner = useSession().session.member?.role === 'owner';
  const [message, setMessage] = useState<string>();
  const [error, setError] = useState<unknown>();
  const [open, setOpen] = useState<string>();
  const openMember = open === undefined ? undefined : members.data?.data.find((m) => m.id === open);

  /** Answers whether it was done. */
  const act = async (what: () => Promise<unknown>, done: string): Promise<boolean> => {
    try {
      await what();
      setMessage(done);
      setError(undefined);
      await members.reload();
      return true;
    } catch (err) {
      setMessage(undefined);
      setError(err);
      return false;
    }
  };
  const invite = async (form: HTMLFormElement) => {
    const f = new FormData(form);
    const email = String(f.get('email') ?? '').trim();
    const invited = await act(
      () => api('POST', '/api/members', { email, role: f.get('role') }),
      `An invitation is on its way to ${email}.`,
    );
    // Refused, what was typed stays, to be corrected.
    if (invited) form.reset();
  };
  // Once at a time (oneAtATime, below): a double click asked twice and sent two DELETEs.
  const remove = (m: Member) => oneAtATime(() => removeMember(m));
  const removeMember = async (m: Member) => {
    const invited = m.status === 'invited';
    const question = invited
      ? `Cancel the invitation of ${shown(m)}? Its link stops working.`
      : `Remove ${shown(m)}? Their sessions end at once, and the API keys they created are revoked: servers using them stop working.`;
    if (!window.confirm(question)) return;
    const removed = await act(
      () => api('DELETE', urlPath`/api/members/${m.id}`),
      invited ? `The invitation of ${shown(m)} is cancelled.` : `${shown(m)} is removed.`,
    );
    if (!removed) return;
    // Its sessions ended with it: their panel goes too.
    if (open === m.id) setOpen(undefined);
    focusPageHeading();
  };

  /** Answers whether the role was changed. */
  const changeRole = (m: Member, role: string): Promise<boolean> => {
    // A role changes what the member and its keys may do at once: asked first, as a removal is.
    if (!window.confirm(`Make ${shown(m)} ${role}? It applies to their sessions and keys at once.`)) {
      return Promise.resolve(false);
    }
    return act(() => api('PATCH', urlPath`/api/members/${m.id}`, { role }), `${shown(m)} is now ${role}.`);
  };
  const [mailing, setMailing] = useState<string>();
  const oneAtATime = useOneAtATime();
  const mailAgain = (m: Member) =>
    oneAtATime(async () => {
      setMailing(m.id);
      await act(
        () => api('POST', urlPath`/api/members/${m.id}/invitation`),
        `A new invitation is on its way to ${shown(m)}; the earlier link no longer works.`,
      );
      setMailing(undefined);
    });

  return (
    <Page
      title="Members"
      intro="The people who use this account, and what each may do. Invitations are valid for 7 days."
    >
      <ActionForm onSubmit={invite} className="inline-form" aria-label="Invite a member">
        <Field label="Email of the person to invite" name="email" type="email" required />
        <div className="field">
          <label htmlFor="invite-role">Role</label>
          <select id="invite-role" name="role" defaultValue="developer">
            {ROLES.map((r) => (
              <option key={r.value} value={r.value}>
                {r.label}
              </option>
            ))}
          </select>
        </div>
        <SubmitButton>Invite</SubmitButton>
      </ActionForm>
      <LiveRegion>
        {message && <Notice kind="success">{message}</Notice>}
        <ErrorNotice error={error} labels={{ email: 'Email of the person to invite' }} />
      </LiveRegion>
      <ErrorNotice error={members.error} />
      <DataTable
        caption="Members of this account"
        rows={members.data?.data}
        columns={[
          { header: 'Email', cell: (m) => <AddressText text={m.email} /> },
          {
            header: 'Role',
            cell: (m) =>
              m.role === 'owner' ? 'owner' : <RoleChoice member={m} change={(role) => changeRole(m, role)} />,
          },
          { header: 'Status', cell: (m) => <MemberStatus member={m} /> },
          { header: 'Two-factor', cell: (m) => (m.totp_enabled ? 'on' : 'off') },
          { header: 'Since', cell: (m) => formatTime(m.created_at) },
          {
            header: 'Actions',
            hiddenHeader: true,
            cell: (m) => (
              <>
                {/* An invitation not yet accepted has no sessions to show; the owner's are the owner's. */}
                {m.status !== 'invited' && (m.role !== 'owner' || isOwner) && (
                  <button
                    type="button"
                    className="button small secondary"
                    aria-expanded={open === m.id}
                    onClick={() => setOpen(open === m.id ? undefined : m.id)}
                  >
                    Sessions<span className="visually-hidden"> of {shown(m)}</span>
                  </button>
                )}{' '}
                {m.status === 'invited' && (
                  <button
                    type="button"
                    className="button small secondary"
                    aria-disabled={mailing === m.id}
                    onClick={() => void mailAgain(m)}
                  >
                    Mail again<span className="visually-hidden"> to {shown(m)}</span>
                  </button>
                )}{' '}
                {m.role !== 'owner' && (
                  <button type="button" className="button small danger" onClick={() => remove(m)}>
                    Remove<span className="visually-hidden"> {shown(m)}</span>
                  </button>
                )}
              </>
            ),
          },
        ]}
      />
      {openMember && (
        <section aria-label="Sessions of the member">
          {/* Below the table, maybe out of sight: shown and given the focus when opened. */}
          <h2
            tabIndex={-1}
            ref={(h) => {
              if (h && document.activeElement?.getAttribute('aria-expanded') === 'true') {
                h.scrollIntoView({ block: 'start' });
                h.focus();
              }
            }}
          >
            Sessions of {openMember.email}
          </h2>
          <SessionsTable
            key={openMember.id}
            path={urlPath`/api/members/${openMember.id}/sessions`}
            caption="Live sessions of the member"
          />
        </section>
      )}
    </Page>
  );
}

/** Active, or invited with when its link stops (or stopped) working. */
function MemberStatus({ member }: { member: Member }) {
  if (member.status !== 'invited' || !member.invite_expires_at) return <>active</>;
  const expired = Date.parse(member.invite_expires_at) <= Date.now();
  return (
    <>
      invited{' '}
      <span className={expired ? 'warning-text' : 'muted'}>
        ({expired ? 'link expired' : 'link valid until'} {formatTime(member.invite_expires_at)})
      </span>
    </>
  );
}

/**
 * A member's role: chosen in the list, then changed by its button. Choosing alone changes nothing
 * (WCAG 3.2.2): the list once acted on every change of its value, so a keyboard's arrows asked, and
 * saved, each role on the way to the one wanted.
 */
function RoleChoice({ member, change }: { member: Member; change: (role: string) => Promise<boolean> }) {
  const [chosen, setChosen] = useState<string>(member.role);
  // The member's role as the list has it now (after a change, or another admin's).
  useEffect(() => setChosen(member.role), [member.role]);
  const select = useRef<HTMLSelectElement>(null);
  const oneAtATime = useOneAtATime();
  const apply = () =>
    oneAtATime(async () => {
      if (!(await change(chosen))) setChosen(member.role);
      // The button goes once the role is the chosen one (or the choice is undone): the focus goes back
      // to the list, not to the page.
      select.current?.focus();
    });
  return (
    <span className="role-choice">
      <select
        ref={select}
        aria-label={`Role of ${shown(member)}`}
        value={chosen}
        onChange={(e) => setChosen(e.currentTarget.value)}
      >
        {ROLES.map((r) => (
          <option key={r.value} value={r.value}>
            {r.value}
          </option>
        ))}
      </select>
      {chosen !== member.role && (
        <button type="button" className="button small" onClick={() => void apply()}>
          Change<span className="visually-hidden"> the role of {shown(member)}</span>
        </button>
      )}
    </span>
  );
}
