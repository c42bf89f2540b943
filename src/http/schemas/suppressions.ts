// The suppression list's entry (docs/API.md, Suppressions), shared by $ref.
import { isoTime } from './responses.js';

const suppression = {
  $id: 'Suppression',
  type: 'object',
  additionalProperties: false,
  required: ['id', 'address', 'origin', 'reason', 'enhanced_code', 'source_email_id', 'created_at'],
  properties: {
    id: { type: 'string' },
    address: { type: 'string', description: 'Lower case, the domain in ASCII' },
    origin: { type: 'string', enum: ['bounce', 'complaint', 'manual'] },
    reason: { type: 'string' },
    enhanced_code: { type: ['string', 'null'] },
    source_email_id: { type: ['string', 'null'], description: 'The message that caused it' },
    created_at: isoTime,
  },
} as const;

export const suppressionSchemas = [suppression];
