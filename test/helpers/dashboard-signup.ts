// The dashboard's way in for tests: sign up, open the emailed link, and hold the browser's session.
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { TestEnv } from './services.js';
import { testFacade } from './test-env.js';

/** What the helpers need of a test instance. */
type Instance = Pick<TestEnv, 'app' | 'services'>;

export interface DashboardBrowser {
  cookie: string;
  csrf: string;
  accountId: string;
}

/** The Set-Cookie header of `name` in a response, whole (undefined when it sets no such cookie). */
export function setCookieOf(res: LightMyRequestResponse, name: string): string | undefined {
  const set = res.headers['set-cookie'];
  const headers = set === undefined ? [] : Array.isArray(set) ? set : [set];
  return headers.find((h) => h.startsWith(`${name}=`));
}

/** `txmail_session=…` from a response that starts a session. */
export function sessionCookieOf(res: LightMyRequestResponse): string {
  return setCookieOf(res, 'txmail_session')!.split(';')[0]!;
}

/** `txmail_device=…` from a response that remembers the browser (log-in, verification link). */
export function deviceCookieOf(res: LightMyRequestResponse): string {
  return setCookieOf(res, 'txmail_device')!.split(';')[0]!;
}

/** The browser a response that starts a session (verification link, log-in) leaves logged in. */
export function browserOf(res: LightMyRequestResponse): DashboardBrowser {
  const body = res.json() as { account: { id: string }; csrf_token: string };
  return { cookie: sessionCookieOf(res), csrf: body.csrf_token, accountId: body.account.id };
}

/** The token of the newest link to `path` mailed to `address` (the mail is queued like any other). */
export async function mailedToken(env: Instance, address: string, path: string): Promise<string> {
  // A reset request is answered before its mail is queued.
  await env.services.deferredWork.settled();
  const row = (await testFacade(env.services).mailTo(address)).reverse().find((r) => r.html.includes(path));
  expect(row, `a mail with a ${path} link to ${address}`).toBeDefined();
  expect(row!.from_email).toBe('onboarding@test.mta.txmail.test');
  return new RegExp(`${path}\\?token=([A-Za-z0-9_-]+)`).exec(row!.html)![1]!;
}

/** POST /api/auth/signup; answers the response (202 whether or not the address has an account). */
export function postSignup(
  env: Instance,
  email: string,
  password: string,
  remoteAddress?: string,
): Promise<LightMyRequestResponse> {
  return env.app.inject({
    method: 'POST',
    url: '/api/auth/signup',
    payload: { email, password },
    ...(remoteAddress ? { remoteAddress } : {}),
  });
}

/** Signs up, opens the emailed verification link, and answers the browser it logged in. */
export async function signUpAndVerify(
  env: Instance,
  email: string,
  password: string,
): Promise<DashboardBrowser> {
  const res = await postSignup(env, email, password);
  expect(res.statusCode, res.body).toBe(202);
  const token = await mailedToken(env, email, '/verify-email');
  const verified = await env.app.inject({ method: 'POST', url: '/api/auth/verify', payload: { token } });
  expect(verified.statusCode, verified.body).toBe(200);
  return browserOf(verified);
}
