// Teams' shapes (docs/design.md §2): who is signed in, the account's members and invitations, sessions,
// two-factor set-up and the audit log (docs/API.md), shared by $ref.
import { isoTime, nullableIsoTime } from './responses.js';

/** Closed objects whose every property is required. */
function record(properties: Record<string, object>, description?: string) {
  return {
    type: 'object',
    additionalProperties: false,
    required: Object.keys(properties),
    properties,
    ...(description ? { description } : {}),
  };
}

const role = { type: 'string', enum: ['owner', 'admin', 'developer', 'viewer'] } as const;

const sessionMember = {
  $id: 'SessionMember',
  ...record(
    {
      id: { type: 'string' },
      email: { type: 'string' },
      role,
      totp_enabled: { type: 'boolean' },
      must_enrol_totp: {
        type: 'boolean',
        description:
          'The account requires two-factor sign-in and this member has not set it up: nothing else works',
      },
    },
    'Who is signed in: the member, its role and its two-factor sign-in',
  ),
};

const member = {
  $id: 'Member',
  ...record({
    id: { type: 'string', description: "The owner's is `own_<account id>`" },
    email: { type: 'string' },
    role,
    status: { type: 'string', enum: ['invited', 'active'] },
    invite_expires_at: {
      ...nullableIsoTime,
      description:
        "While invited: when the invitation's link stops working (it may be past; mailing it again makes a new one); null once joined",
    },
    totp_enabled: { type: 'boolean' },
    created_at: isoTime,
  }),
};

const invitation = {
  $id: 'Invitation',
  ...record(
    {
      email: { type: 'string', description: 'The invited address' },
      role,
      account_email: {
        type: 'string',
        description: "The account's address (its owner's), which the link joins",
      },
      expires_at: isoTime,
    },
    'What a live invitation link is for',
  ),
};

const memberSession = {
  $id: 'MemberSession',
  ...record({
    id: { type: 'string', description: "The first 32 hex digits of the session id's hash" },
    created_at: isoTime,
    last_seen_at: isoTime,
    expires_at: isoTime,
    current: { type: 'boolean', description: 'The session of this request' },
    ip: {
      type: ['string', 'null'],
      description: 'The address the session was started from; null for a session from before it was kept',
    },
    user_agent: {
      type: ['string', 'null'],
      description:
        "The browser's User-Agent when the session was started (at most 256 characters); null if none",
    },
  }),
};

const totpSetup = {
  $id: 'TotpSetup',
  ...record({
    secret: { type: 'string', description: 'The base32 key, for apps that cannot read the URL' },
    otpauth_url: { type: 'string', description: 'otpauth://totp/…: the QR code of authenticator apps' },
  }),
};

const auditEntry = {
  $id: 'AuditEntry',
  ...record({
    id: { type: 'string' },
    created_at: isoTime,
    actor: record({
      type: {
        type: 'string',
        enum: ['member', 'api_key', 'operator', 'system'],
        description: "`system`: txmail itself, at nobody's request (`id` names the part: `reputation_guard`)",
      },
      id: {
        type: ['string', 'null'],
        description: "The member's or API key's id, or the system part's name",
      },
      label: {
        type: ['string', 'null'],
        description:
          "The member's address at the time, or the API key's name and first characters (`ci (txm_ab12cd…)`); null in entries made before keys were named",
      },
    }),
    action: { type: 'string', description: 'e.g. `member.invited`, `api_key.created`, `email.resent`' },
    target: { type: ['string', 'null'] },
    target_label: {
      type: ['string', 'null'],
      description:
        "What the target was called when the change was made: an API key's name and first characters, a domain's name, a webhook endpoint's description and the origin of its URL (a path or query may hold the receiver's token), a member's address and the role it has after the change (`ann@example.org as viewer`); null when the target names itself (an address, an email's id) or the entry is older",
    },
    ip: { type: ['string', 'null'] },
  }),
};

export const teamSchemas = [sessionMember, member, invitation, memberSession, totpSetup, auditEntry];
