// Every migration, in order. A migration is never edited once released: add a new one.
import type { Migration } from 'kysely';
import * as m001 from './001-initial.js';
import * as m002 from './002-delivery.js';
import * as m003 from './003-source-ips.js';
import * as m004 from './004-domains.js';
import * as m005 from './005-suppressions.js';
import * as m006 from './006-webhooks.js';
import * as m007 from './007-rate-limits.js';
import * as m008 from './008-sessions.js';
import * as m009 from './009-attempt-counts.js';
import * as m010 from './010-fair-webhooks.js';
import * as m011 from './011-test-usage.js';
import * as m012 from './012-signup-tokens.js';
import * as m013 from './013-message-category.js';
import * as m014 from './014-webhook-account-leases.js';
import * as m015 from './015-login-devices.js';
import * as m016 from './016-fair-delivery-claim.js';
import * as m017 from './017-domain-expire-after.js';
import * as m018 from './018-process-registry.js';
import * as m019 from './019-reputation-counts.js';
import * as m020 from './020-account-reputation.js';
import * as m021 from './021-destination-blocks.js';
import * as m022 from './022-blocklists.js';
import * as m023 from './023-tls-details.js';
import * as m024 from './024-mta-sts-tls-reports.js';
import * as m025 from './025-dkim-rotation.js';
import * as m026 from './026-message-content.js';
import * as m027 from './027-log-search-resend.js';
import * as m028 from './028-members.js';
import * as m029 from './029-audit-log.js';
import * as m030 from './030-api-key-roles.js';
import * as m031 from './031-member-reset-tokens.js';
import * as m032 from './032-content-retention-grace.js';
import * as m033 from './033-message-bodies.js';
import * as m034 from './034-inbound-raw.js';
import * as m035 from './035-inbound-digest.js';
import * as m036 from './036-sealed-messages.js';
import * as m037 from './037-message-body-parts.js';
import * as m038 from './038-inbound-raw-parts.js';
import * as m039 from './039-session-origin.js';
import * as m040 from './040-audit-target-label.js';
import * as m041 from './041-sealed-bodies.js';
import * as m042 from './042-process-delivers.js';
import * as m043 from './043-message-deadline.js';

export const migrations: Record<string, Migration> = {
  '001-initial': m001,
  '002-delivery': m002,
  '003-source-ips': m003,
  '004-domains': m004,
  '005-suppressions': m005,
  '006-webhooks': m006,
  '007-rate-limits': m007,
  '008-sessions': m008,
  '009-attempt-counts': m009,
  '010-fair-webhooks': m010,
  '011-test-usage': m011,
  '012-signup-tokens': m012,
  '013-message-category': m013,
  '014-webhook-account-leases': m014,
  '015-login-devices': m015,
  '016-fair-delivery-claim': m016,
  '017-domain-expire-after': m017,
  '018-process-registry': m018,
  '019-reputation-counts': m019,
  '020-account-reputation': m020,
  '021-destination-blocks': m021,
  '022-blocklists': m022,
  '023-tls-details': m023,
  '024-mta-sts-tls-reports': m024,
  '025-dkim-rotation': m025,
  '026-message-content': m026,
  '027-log-search-resend': m027,
  '028-members': m028,
  '029-audit-log': m029,
  '030-api-key-roles': m030,
  '031-member-reset-tokens': m031,
  '032-content-retention-grace': m032,
  '033-message-bodies': m033,
  '034-inbound-raw': m034,
  '035-inbound-digest': m035,
  '036-sealed-messages': m036,
  '037-message-body-parts': m037,
  '038-inbound-raw-parts': m038,
  '039-session-origin': m039,
  '040-audit-target-label': m040,
  '041-sealed-bodies': m041,
  '042-process-delivers': m042,
  '043-message-deadline': m043,
};
