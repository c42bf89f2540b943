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
    return webhooks.some((w) => w.id === webhookId && !w.enabled);
  return true;
}
