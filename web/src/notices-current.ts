// Which of the account's notices (GET /api/account/notices, a history) the overview still shows.
import type { ApiBody } from './api.js';
import type { Account } from './api-types.js';

/**
 * Notices of a move to warning or paused say what the reputation panel and its banner say live (and a
 * past one would contradict a recovered status): with the panel, they are not listed again.
 */
const LIVE_REPUTATION_KINDS = new Set(['reputation_warning', 'reputation_paused']);

type AccountNotice = ApiBody<'/api/account/notices', 'get'>['data'][number];
type Webhooks = ApiBody<'/api/webhooks', 'get'>['data'];

/**
 * Whether a notice still says something true: the overview's live warnings say this month's quota
 * (a notice of last month's 80 % would not), the reputation panel says the reputation, and a disabled
 * endpoint's notice holds only while that endpoint is there and disabled (`webhooks` is undefined
 * where the role may not list them: the notice is shown).
 */
export function stillCurrent(
  notice: AccountNotice,
  overview: Pick<Account, 'reputation'>,
  webhooks: Webhooks | undefined,
) {
  if (notice.kind.startsWith('quota_')) return false;
  if (overview.reputation && LIVE_REPUTATION_KINDS.has(notice.kind)) return false;
  const webhookId = notice.data.webhook_id;
  if (notice.kind === 'webhook_disabled' && typeof webhookId === 'string' && webhooks)
    // Disabled by txmail after its failures, not since by a member (then the notice is not why).
    return webhooks.some((w) => w.id === webhookId && !w.enabled && w.disabled_reason !== BY_THE_ACCOUNT);
  return true;
}

/** What webhook-endpoints.ts records when a member disables an endpoint. */
const BY_THE_ACCOUNT = 'disabled by the account';

/**
 * The notices to list, newest first as given: those still current, and of an endpoint disabled,
 * enabled and disabled again only the newest.
 */
export function currentNotices(
  notices: readonly AccountNotice[],
  overview: Pick<Account, 'reputation'>,
  webhooks: Webhooks | undefined,
): AccountNotice[] {
  const seen = new Set<string>();
  return notices.filter((n) => {
    const webhookId = n.data.webhook_id;
    if (n.kind === 'webhook_disabled' && typeof webhookId === 'string') {
      if (seen.has(webhookId)) return false;
      seen.add(webhookId);
    }
    return stillCurrent(n, overview, webhooks);
  });
}
