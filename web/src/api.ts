// The dashboard's only way to the server: same-origin fetch with the session cookie, the CSRF header on
// state-changing requests, and txmail's one-line `code: message` errors turned into ApiError.
import type { paths, Reputation } from './api-types.js';

/**
 * The JSON body an operation answers with `status`, as /openapi.json describes it (api-types.ts is
 * generated from it): `ApiBody<'/api/webhooks', 'get'>` is `{ data: Webhook[] }`.
 */
export type ApiBody<
  P extends keyof paths,
  M extends keyof paths[P],
  S extends number = 200,
> = paths[P][M] extends { responses: infer R }
  ? S extends keyof R
    ? R[S] extends { content: { 'application/json': infer B } }
      ? B
      : never
    : never
  : never;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** The server has no such route: the feature is not in this txmail version yet. */
  get routeMissing(): boolean {
    return this.status === 404 && this.message.startsWith('no route ');
  }

  /** What a person reads: the server's own `code: message` line. */
  override toString(): string {
    return `${this.code}: ${this.message}`;
  }
}

let csrfToken: string | null = null;
const expiredListeners = new Set<() => void>();

export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

const refusedListeners = new Set<() => void>();

/**
 * Called when the server refuses a request for the session's rights (`forbidden`, or two-factor set-up
 * now required): they may have changed since the page read them (a role changed by an admin), so the
 * session is read again and the pages follow it.
 */
export function onRightsRefused(listener: () => void): () => void {
  refusedListeners.add(listener);
  return () => refusedListeners.delete(listener);
}

/** Called when the server says the session is gone (logged out elsewhere, expired). */
export function onSessionExpired(listener: () => void): () => void {
  expiredListeners.add(listener);
  return () => expiredListeners.delete(listener);
}

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/**
 * The one request: the session cookie, the CSRF header on a change, a JSON body, and an answer other
 * than 2xx thrown as ApiError (from the server's `code: message` line; session_expired also tells the
 * listeners). Answers the body as text with the answer's headers.
 */
async function request(
  method: Method,
  path: string,
  options: { body?: unknown; accept: string },
): Promise<{ status: number; text: string; headers: Headers }> {
  const headers: Record<string, string> = { accept: options.accept };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['x-csrf-token'] = csrfToken;
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
  } catch {
    throw new ApiError(0, 'network_error', 'the server could not be reached; check your connection');
  }
  const text = await res.text();
  if (!res.ok) {
    const m = /^([a-z_]+): (.*)$/s.exec(text.trim());
    const error = m
      ? new ApiError(res.status, m[1]!, m[2]!)
      : new ApiError(res.status, 'http_error', `the server answered ${res.status}`);
    // No session at all is the same to the dashboard: a log-out in another tab removed its cookie, and
    // the server, seeing neither a session nor a key, answers missing_api_key.
    if (error.code === 'session_expired' || error.code === 'missing_api_key')
      expiredListeners.forEach((l) => l());
    if (error.code === 'forbidden' || error.code === 'totp_enrolment_required')
      refusedListeners.forEach((l) => l());
    throw error;
  }
  return { status: res.status, text, headers: res.headers };
}

/** A JSON request; answers the JSON body (undefined for 204 or an empty body). */
export async function api<T>(method: Method, path: string, body?: unknown): Promise<T> {
  const { status, text } = await request(method, path, { body, accept: 'application/json' });
  return (status === 204 || text === '' ? undefined : JSON.parse(text)) as T;
}

/**
 * A GET answered as text rather than JSON (`accept`: the raw message, the log's CSV), with the same
 * session and errors as api().
 */
export async function apiText(path: string, accept: string): Promise<string> {
  return (await apiTextPage(path, accept)).text;
}

/** apiText with the answer's headers (a CSV export's `x-next-cursor`). */
export async function apiTextPage(path: string, accept: string): Promise<{ text: string; headers: Headers }> {
  const { text, headers } = await request('GET', path, { accept });
  return { text, headers };
}

/** Builds a query string from the set values only. */
export function query(params: Record<string, string | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') q.set(k, v);
  const s = q.toString();
  return s === '' ? '' : `?${s}`;
}

// The account's sending reputation and daily activity (docs/API.md, GET /api/account and
// GET /api/account/activity). Rates are fractions (0.052 = 5.2 %).

export type { ActivityDay, Reputation } from './api-types.js';
export type ReputationStatus = Reputation['status'];
export type ReputationRates = Pick<Reputation, 'bounce_rate' | 'complaint_rate' | 'messages'>;

/** GET /api/account/activity?days=N: N days, oldest first, the last one today (UTC). */
export type Activity = ApiBody<'/api/account/activity', 'get'>;
