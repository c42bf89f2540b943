// The send request: its JSON schema (checked by the HTTP layer, also the OpenAPI source) and the
// checks a schema cannot express (address syntax, header safety, lengths).
import { AppError } from '../errors.js';
import { MAX_ADDRESS_FIELD_LENGTH, parseAddress, type Address } from './address.js';

export const MAX_SUBJECT_LENGTH = 998; // RFC 5322 §2.1.1 line length limit
/**
 * The subject as sent may carry spaces around it (they are trimmed), but not megabytes of them: the
 * schema refuses a longer field before anything is parsed.
 */
export const MAX_SUBJECT_FIELD_LENGTH = 2048;

export const sendRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['from', 'to', 'subject', 'message'],
  properties: {
    // maxLength: a huge field is refused by the schema, in one pass, before any parsing.
    from: {
      type: 'string',
      maxLength: MAX_ADDRESS_FIELD_LENGTH,
      description: 'Sender: addr@domain or Name <addr@domain>, on a verified domain.',
    },
    to: {
      type: 'string',
      maxLength: MAX_ADDRESS_FIELD_LENGTH,
      description: 'One recipient: addr@domain or Name <addr@domain>.',
    },
    subject: {
      type: 'string',
      maxLength: MAX_SUBJECT_FIELD_LENGTH,
      description: '1–998 characters after trimming, one line.',
    },
    message: { type: 'string', description: 'HTML body, sent as given.' },
  },
} as const;

export const sendResponseSchema = {
  type: 'object',
  required: ['id', 'status'],
  properties: {
    id: { type: 'string', description: 'Message id; GET /api/emails/:id shows its history.' },
    status: { type: 'string', enum: ['queued', 'test'] },
    warnings: {
      type: 'array',
      items: { type: 'string' },
      description: 'Test route only: what a real send would have been refused for.',
    },
  },
} as const;

/** The body as the schema admits it. */
export interface SendRequestBody {
  from: string;
  to: string;
  subject: string;
  message: string;
}

export interface SendResponse {
  id: string;
  status: 'queued' | 'test';
  warnings?: string[];
}

/** A send request whose every field has been checked and normalised. */
export interface ValidSend {
  from: Address;
  to: Address;
  subject: string;
  html: string;
}

/** String.prototype.isWellFormed (Node 20 has it; TypeScript's lib for ES2022 does not name it). */
export const isWellFormed = (s: string): boolean =>
  (s as unknown as { isWellFormed(): boolean }).isWellFormed();

/** Checks what the schema cannot; throws `validation_error` naming the field. */
export function validateSend(body: SendRequestBody): ValidSend {
  // JSON lets a string hold half of a UTF-16 pair ("\ud800"), which is no character at all: UTF-8 has
  // none for it, so it went out as U+FFFD, three of them. Refused, naming the field.
  for (const field of ['from', 'to', 'subject', 'message'] as const) {
    if (!isWellFormed(body[field]))
      throw invalid(`"${field}" holds half of a UTF-16 surrogate pair, not a character`);
  }
  const from = parseAddress(body.from);
  if (!from.ok) throw invalid(`"from" ${from.reason}`);
  const to = parseAddress(body.to);
  if (!to.ok) throw invalid(`"to" ${to.reason}`);

  if (/[\r\n\0]/.test(body.subject))
    throw invalid('"subject" must not contain line breaks or NUL characters');
  const subject = body.subject.trim();
  if (subject === '') throw invalid('"subject" must not be empty');
  // Counted in code points, spelled out only when the UTF-16 length leaves the question open (a code
  // point is one or two units): a huge subject is refused without making an array of its characters.
  if (
    subject.length > MAX_SUBJECT_LENGTH &&
    (subject.length > 2 * MAX_SUBJECT_LENGTH || [...subject].length > MAX_SUBJECT_LENGTH)
  ) {
    throw invalid(`"subject" must be at most ${MAX_SUBJECT_LENGTH} characters`);
  }

  // \S stops at the first character that is not white space (the set trim() removes); trim() would copy
  // a body of megabytes on the event loop to find it is not empty.
  if (!/\S/.test(body.message)) throw invalid('"message" must not be empty');
  if (body.message.includes('\0')) throw invalid('"message" must not contain NUL characters');
  return { from: from.address, to: to.address, subject, html: body.message };
}

function invalid(message: string): AppError {
  return new AppError('validation_error', message);
}
