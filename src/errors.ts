// Every error a client can see: a stable code, its HTTP status and what it means.
// The HTTP layer turns an AppError into `<status>` with the one-line text body `code: message`.
// docs/API.md lists every code; a test fails when one is missing there.

export const ERROR_CODES = {
  bad_request: { status: 400, meaning: 'The HTTP request itself is malformed (headers, URL, length).' },
  invalid_json: { status: 400, meaning: 'The body is not valid JSON.' },
  validation_error: { status: 400, meaning: 'A field is missing, unknown, of the wrong type or malformed.' },
  invalid_idempotency_key: {
    status: 400,
    meaning: 'The Idempotency-Key header is empty, too long, not printable, or sent more than once.',
  },
  invalid_token: {
    status: 400,
    meaning: 'The email verification, password reset or invitation link is unknown, used already or expired.',
  },
  invalid_code: {
    status: 400,
    meaning: 'The two-factor code (or recovery code) is wrong, expired or used already.',
  },
  missing_api_key: { status: 401, meaning: 'No x-api-key header (nor a dashboard session) was sent.' },
  invalid_credentials: { status: 401, meaning: 'Dashboard log-in: the email or the password is wrong.' },
  session_expired: {
    status: 401,
    meaning: 'The dashboard session is unknown, expired or logged out; log in again.',
  },
  invalid_api_key: { status: 401, meaning: 'The API key is unknown or revoked.' },
  totp_required: {
    status: 401,
    meaning: 'Dashboard log-in: the password is right; send it again with the two-factor "code".',
  },
  account_sandboxed: {
    status: 403,
    meaning: 'The account has no verified domain yet; only test sends and the guided test work.',
  },
  domain_not_verified: {
    status: 403,
    meaning: 'The from address is not on a verified domain of this account.',
  },
  plan_limit: { status: 403, meaning: 'The plan does not allow more of this resource.' },
  account_suspended: { status: 403, meaning: 'The account is suspended by the operator.' },
  account_paused: {
    status: 403,
    meaning:
      'Sending is paused: the bounce or complaint rate reached its pause threshold; the operator resumes the account.',
  },
  browser_request_refused: {
    status: 403,
    meaning: 'An API key was sent from a web page (Origin header); keys must stay on servers.',
  },
  signup_closed: {
    status: 403,
    meaning: 'Sign-up is closed on this server (TXMAIL_SIGNUP=closed); the operator creates accounts.',
  },
  csrf_token_invalid: {
    status: 403,
    meaning: 'A state-changing dashboard request lacks the x-csrf-token header of its session.',
  },
  session_required: {
    status: 403,
    meaning: 'This route is for the dashboard (session cookie), not for API keys.',
  },
  email_not_verified: {
    status: 403,
    meaning: 'The signup address is not verified yet; open the link emailed at sign-up.',
  },
  metrics_forbidden: {
    status: 403,
    meaning:
      'GET /metrics: without TXMAIL_METRICS_TOKEN it answers requests from the host itself only; with it, only a request bearing the token.',
  },
  forbidden: {
    status: 403,
    meaning: "The member's role does not allow this (owner, admin, developer, viewer: see the roles).",
  },
  totp_enrolment_required: {
    status: 403,
    meaning: 'The account requires two-factor sign-in: set it up (POST /api/auth/totp/setup) first.',
  },
  request_timeout: {
    status: 408,
    meaning: "The request (its head and body) did not arrive whole within the server's request timeout.",
  },
  not_found: { status: 404, meaning: 'No such route or resource (or it belongs to another account).' },
  domain_exists: { status: 409, meaning: 'The account already has a domain with this name.' },
  member_exists: {
    status: 409,
    meaning: 'The address already has a txmail account or membership.',
  },
  invitation_accepted: {
    status: 409,
    meaning: 'The member has joined already: there is no invitation to mail again.',
  },
  idempotency_in_progress: {
    status: 409,
    meaning: 'A request with the same Idempotency-Key is still being processed.',
  },
  payload_too_large: { status: 413, meaning: 'The request body is over 10 MiB.' },
  headers_too_large: {
    status: 431,
    meaning: "The request's head (request line and headers) is over 16 KiB.",
  },
  unsupported_media_type: {
    status: 415,
    meaning: 'The body must be sent as Content-Type: application/json, in UTF-8 (no other charset).',
  },
  recipient_suppressed: { status: 422, meaning: 'The recipient is on the suppression list of this account.' },
  idempotency_key_reused: {
    status: 422,
    meaning: 'The Idempotency-Key was used in the last 24 hours with a different request.',
  },
  rate_limit_exceeded: {
    status: 429,
    meaning: 'Too many requests (per API key, account, or dashboard log-in attempts); see Retry-After.',
  },
  monthly_quota_exceeded: {
    status: 429,
    meaning: "The plan's emails per month are used up; see Retry-After.",
  },
  test_quota_exceeded: {
    status: 429,
    meaning: "The plan's test sends per day (UTC) are used up; see Retry-After.",
  },
  replay_limit_exceeded: {
    status: 429,
    meaning: 'The webhook endpoint already has the most replays waiting to be sent (1,000 by default).',
  },
  server_busy: {
    status: 429,
    meaning:
      'The server already holds as many large request bodies (declared over 64 KiB, or sent chunked) as it allows, from this client network or in all; nothing was done. Retry after Retry-After.',
  },
  service_unavailable: {
    status: 503,
    meaning:
      'The database is unavailable for a moment (a send: the message could not be stored), or a large body could not be read this time; nothing was accepted, retry later.',
  },
  shutting_down: {
    status: 503,
    meaning: 'This server is shutting down and did nothing with the request; retry it.',
  },
  internal_error: { status: 500, meaning: 'A bug in txmail; the request may be retried.' },
} as const satisfies Record<string, { status: number; meaning: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Extra response headers, e.g. Retry-After. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.status = ERROR_CODES[code].status;
  }
}

/**
 * The answer to a request over one of the limits (`rate_limit_exceeded`, 429): what was limited, and
 * Retry-After in whole seconds, as every limit answers it.
 */
export function rateLimited(message: string, retryAfterSeconds: number): AppError {
  return new AppError('rate_limit_exceeded', message, {
    'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))),
  });
}

/**
 * The one-line text body of an error response. A message may quote what the client sent (a path, a
 * field): line breaks and tabs become a space, other control characters U+FFFD, as peers' text is kept
 * (peer-text.ts), so the body stays one line of printable text.
 */
export function errorBody(code: ErrorCode, message: string): string {
  const text = message.replace(/[\r\n\t\u2028\u2029]+/g, ' ').replace(/\p{Cc}/gu, '\ufffd');
  return `${code}: ${text}`;
}
