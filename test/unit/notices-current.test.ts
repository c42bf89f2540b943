// The overview lists only the account's notices that still say something true
// (web/src/notices-current.ts): a browser walk found "endpoint disabled" shown after the endpoint was
// deleted, and last month's quota notices beside this month's live usage.
import { describe, expect, it } from 'vitest';
import { currentNotices, stillCurrent } from '../../web/src/notices-current.js';

const notice = (kind: string, data: Record<string, unknown> = {}) => ({
  id: '0190a0b0-0000-7000-8000-000000000001',
  kind,
  message: 'm',
  data,
  created_at: '2026-11-01T00:00:00Z',
});
const webhook = (id: string, enabled: boolean, reason = 'failing') => ({
  id,
  url: 'https://hooks.example/in',
  description: '',
  events: [],
  enabled,
  disabled_reason: enabled ? null : reason,
  created_at: '2026-11-01T00:00:00Z',
  updated_at: '2026-11-01T00:00:00Z',
});
const noReputation = { reputation: undefined } as never;
const A = '0190a0b0-0000-7000-8000-0000000000aa';

describe('which notices the overview still shows', () => {
  it("shows a disabled endpoint's notice only while that endpoint is there and disabled", () => {
    const disabled = notice('webhook_disabled', { webhook_id: A });
    expect(stillCurrent(disabled, noReputation, [webhook(A, false)])).toBe(true);
    expect(stillCurrent(disabled, noReputation, [webhook(A, true)])).toBe(false);
    expect(stillCurrent(disabled, noReputation, [])).toBe(false);
    // A role that may not list endpoints: nothing to check it against, so it is shown.
    expect(stillCurrent(disabled, noReputation, undefined)).toBe(true);
  });

  it('leaves the quota to the live usage warnings, and the reputation to its panel', () => {
    expect(stillCurrent(notice('quota_80'), noReputation, [])).toBe(false);
    expect(stillCurrent(notice('quota_100'), noReputation, [])).toBe(false);
    const reputation = { reputation: { status: 'warning' } } as never;
    expect(stillCurrent(notice('reputation_paused'), reputation, [])).toBe(false);
    expect(stillCurrent(notice('reputation_paused'), noReputation, [])).toBe(true);
    expect(stillCurrent(notice('reputation_resumed'), reputation, [])).toBe(true);
  });

  it('shows no failure notice of an endpoint a member disabled since, and of one disabled twice only the newest', () => {
    const disabled = notice('webhook_disabled', { webhook_id: A });
    expect(stillCurrent(disabled, noReputation, [webhook(A, false, 'disabled by the account')])).toBe(false);
    const newer = { ...disabled, id: '0190a0b0-0000-7000-8000-000000000002' };
    const resumed = { ...notice('reputation_resumed'), id: '0190a0b0-0000-7000-8000-000000000003' };
    const listed = currentNotices([newer, disabled, resumed], noReputation, [webhook(A, false)]);
    expect(listed.map((n) => n.id)).toEqual([newer.id, resumed.id]);
  });
});
