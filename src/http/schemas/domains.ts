// The sending domains' shapes (docs/API.md, Domains), shared by $ref.
import { isoTime, nullable, nullableIsoTime, ref } from './responses.js';

const stringList = { type: 'array', items: { type: 'string' } } as const;

const summaryProperties = {
  id: { type: 'string' },
  name: { type: 'string', description: 'In ASCII (punycode)' },
  unicode_name: { type: 'string' },
  status: { type: 'string', enum: ['pending', 'verified', 'temporary_failure', 'failed'] },
  created_at: isoTime,
  verified_at: nullableIsoTime,
  last_checked_at: nullableIsoTime,
  next_check_at: nullableIsoTime,
  fails_at: {
    ...nullableIsoTime,
    description: 'When a pending or failing domain fails unless its records are found',
  },
  expire_after: {
    type: ['integer', 'null'],
    description: "Seconds after acceptance when txmail stops trying the domain's mail; null: 2 days",
  },
  tls: { type: 'string', enum: ['opportunistic', 'required'] },
} as const;

const domain = {
  $id: 'Domain',
  type: 'object',
  additionalProperties: false,
  required: Object.keys(summaryProperties),
  properties: summaryProperties,
} as const;

const domainRecord = {
  $id: 'DomainRecord',
  type: 'object',
  additionalProperties: false,
  required: [
    'record',
    'type',
    'name',
    'value',
    'required',
    'purpose',
    'status',
    'seen',
    'problems',
    'warnings',
  ],
  properties: {
    record: { type: 'string', enum: ['dkim', 'return_path_mx', 'spf', 'dmarc'] },
    type: { type: 'string', enum: ['TXT', 'MX'] },
    name: { type: 'string' },
    value: { type: 'string' },
    priority: { type: 'integer', description: 'MX preference' },
    required: { type: 'boolean', description: 'false: reported, but verification does not wait for it' },
    purpose: { type: 'string' },
    status: { type: 'string', enum: ['found', 'missing', 'wrong', 'error', 'not_checked'] },
    seen: { ...stringList, description: 'What DNS answered at that name' },
    problems: stringList,
    warnings: stringList,
  },
} as const;

const dkimKey = {
  $id: 'DkimKey',
  type: 'object',
  additionalProperties: false,
  required: [
    'selector',
    'algorithm',
    'status',
    'type',
    'name',
    'value',
    'created_at',
    'activated_at',
    'retired_at',
    'removable_after',
    'record_status',
    'record_checked_at',
    'record_problem',
  ],
  properties: {
    selector: { type: 'string' },
    algorithm: { type: 'string', enum: ['rsa-sha256', 'ed25519-sha256'] },
    status: { type: 'string', enum: ['active', 'pending', 'retired'] },
    type: { type: 'string', enum: ['TXT'] },
    name: { type: 'string' },
    value: { type: 'string' },
    created_at: isoTime,
    activated_at: nullableIsoTime,
    retired_at: nullableIsoTime,
    removable_after: { ...nullableIsoTime, description: "When a retired key's record may be removed" },
    record_status: { type: ['string', 'null'], enum: ['found', 'missing', 'wrong', 'error', null] },
    record_checked_at: nullableIsoTime,
    record_problem: { type: ['string', 'null'] },
  },
} as const;

const domainWarning = {
  $id: 'DomainWarning',
  type: 'object',
  additionalProperties: false,
  required: ['code', 'severity', 'message'],
  properties: {
    code: { type: 'string', enum: ['no_mail_host', 'null_mx', 'dmarc_missing'] },
    severity: { type: 'string', enum: ['warning'] },
    message: { type: 'string' },
    suggested: {
      type: 'object',
      additionalProperties: false,
      required: ['type', 'name', 'value'],
      description: 'The record that fixes it',
      properties: { type: { type: 'string' }, name: { type: 'string' }, value: { type: 'string' } },
    },
  },
} as const;

const domainCheck = {
  $id: 'DomainCheck',
  type: 'object',
  additionalProperties: false,
  required: ['checked_at', 'outcome', 'spf_lookups', 'dmarc', 'warnings'],
  properties: {
    checked_at: isoTime,
    outcome: { type: 'string', enum: ['pass', 'fail', 'inconclusive'] },
    spf_lookups: { type: ['integer', 'null'] },
    dmarc: {
      type: 'object',
      additionalProperties: false,
      required: ['policy', 'guidance'],
      properties: {
        policy: { type: ['string', 'null'], enum: ['none', 'quarantine', 'reject', null] },
        guidance: { type: 'string' },
      },
    },
    warnings: { type: 'array', items: ref('DomainWarning') },
  },
} as const;

const detailProperties = {
  ...summaryProperties,
  dkim_ed25519: { type: 'boolean', description: 'An Ed25519 key is active or pending' },
  records: { type: 'array', items: ref('DomainRecord') },
  dkim_keys: {
    type: 'array',
    items: ref('DkimKey'),
    description: 'Active and pending, then the latest retired',
  },
  last_check: nullable(ref('DomainCheck')),
} as const;

const domainDetail = {
  $id: 'DomainDetail',
  type: 'object',
  additionalProperties: false,
  required: Object.keys(detailProperties),
  properties: detailProperties,
} as const;

export const domainSchemas = [domain, domainRecord, dkimKey, domainWarning, domainCheck, domainDetail];
