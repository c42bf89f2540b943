// The dashboard's shapes: the signed-in account and the API keys it manages (docs/API.md), shared by $ref.
import { isoTime, nullableIsoTime } from './responses.js';

const sessionAccount = {
  $id: 'SessionAccount',
  type: 'object',
  additionalProperties: false,
  required: ['id', 'email', 'email_verified', 'plan', 'state', 'require_totp'],
  properties: {
    id: { type: 'string' },
    email: { type: 'string' },
    email_verified: { type: 'boolean' },
    plan: { type: 'string', enum: ['free', 'pro', 'scale'] },
    state: { type: 'string', enum: ['sandbox', 'production'] },
    require_totp: { type: 'boolean', description: 'The owner requires two-factor sign-in of every member' },
  },
} as const;

const keyProperties = {
  id: { type: 'string' },
  name: { type: 'string' },
  prefix: { type: 'string', description: 'The first characters of the key, to tell keys apart' },
  created_at: isoTime,
  last_used_at: nullableIsoTime,
  made_by: {
    type: ['string', 'null'],
    description:
      "The address of the invited member who made the key; null: the account's owner or the operator",
  },
  role: {
    type: ['string', 'null'],
    enum: ['admin', 'developer', 'viewer', null],
    description:
      "The role that bounds the key, its maker's (it follows the member's changes); null: full rights",
  },
} as const;

const listedKeyProperties = {
  ...keyProperties,
  may_revoke: {
    type: 'boolean',
    description: 'Whether the caller may revoke it: an owner or admin any key, a developer the keys it made',
  },
} as const;

const apiKey = {
  $id: 'ApiKey',
  type: 'object',
  additionalProperties: false,
  required: Object.keys(listedKeyProperties),
  properties: listedKeyProperties,
} as const;

const newApiKey = {
  $id: 'NewApiKey',
  type: 'object',
  additionalProperties: false,
  required: [...Object.keys(keyProperties), 'key'],
  properties: { ...keyProperties, key: { type: 'string', description: 'txm_…: shown in this answer only' } },
} as const;

export const authSchemas = [sessionAccount, apiKey, newApiKey];
