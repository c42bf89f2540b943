// The dashboard's sign-in routes (/api/auth/*). Sign-up, log-in, verification and reset need no
// session; they take JSON only (the app has no form parser), so a cross-site HTML form cannot post
// to them. Log-out, password change and a new verification link are behind the session hook.
import type { Audit } from '../../audit/audit.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DashboardAuth, SignedIn } from '../../accounts/dashboard-auth.js';
import type { ActiveSession, Sessions } from '../../accounts/sessions.js';
import type { Account, MemberRow } from '../../db/schema.js';
import type { ErrorCode } from '../../errors.js';
import { sessionOf } from '../authenticate.js';
import { AUTHENTICATED, json, ref, responses, SESSION_ONLY, STATE_CHANGING } from '../schemas/responses.js';
import {
  clearedSessionCookie,
  DEVICE_COOKIE,
  deviceCookie,
  readCookie,
  sessionOrigin,
  SESSION_COOKIE,
  sessionCookie,
} from '../session-cookie.js';

const email = { type: 'string', minLength: 3, maxLength: 320 } as const;
const password = { type: 'string', minLength: 1, maxLength: 1024 } as const;
const token = { type: 'string', minLength: 1, maxLength: 200 } as const;

const object = (required: string[], properties: Record<string, unknown>) =>
  ({ type: 'object', additionalProperties: false, required, properties }) as const;

/** `{"status": "<value>"}` */
const status = (value: string) => object(['status'], { status: { type: 'string', enum: [value] } });
/** `{"<flag>": true}` */
const done = (flag: string) => object([flag], { [flag]: { type: 'boolean', enum: [true] } });

/** A log-in, or a verification link that logs in: the account and the CSRF token of the new session. */
const signedIn = json(
  'Logged in: the session and device cookies are set',
  object(['account', 'member', 'csrf_token'], {
    account: ref('SessionAccount'),
    member: ref('SessionMember'),
    csrf_token: { type: 'string' },
  }),
);

/** Every public route takes a JSON body. */
export const PUBLIC_BODY: ErrorCode[] = [
  'invalid_json',
  'unsupported_media_type',
  'payload_too_large',
  'server_busy',
  'service_unavailable',
  'validation_error',
];

export interface AuthRouteDeps {
  auth: DashboardAuth;
  sessions: Sessions;
  secureCookies: boolean;
  /** For what no session makes: a password reset by the mailed link. */
  audit: Audit;
}

function accountJson(a: Account) {
  return {
    id: a.id,
    email: a.email,
    email_verified: a.email_verified_at !== null,
    plan: a.plan,
    state: a.state,
    require_totp: a.require_totp_at !== null,
  };
}

/** Who is signed in: the member, its role and whether it has (and must set up) two-factor sign-in. */
function memberJson(m: MemberRow, a: Account) {
  const totpEnabled = m.totp_enabled_at !== null;
  return {
    id: m.id,
    email: m.email,
    role: m.role,
    totp_enabled: totpEnabled,
    must_enrol_totp: a.require_totp_at !== null && !totpEnabled,
  };
}

/** The answer of everything that starts a session (log-in, verification and invitation links). */
export function signedInJson(session: ActiveSession, csrfToken: string) {
  return {
    account: accountJson(session.account),
    member: memberJson(session.member, session.account),
    csrf_token: csrfToken,
  };
}

/** Routes that work without a session (registered outside the authentication hook). */
export function registerPublicAuthRoutes(app: FastifyInstance, deps: AuthRouteDeps): void {
  const started = (reply: FastifyReply, { session, device }: SignedIn, status: number) =>
    reply
      .code(status)
      .header('Set-Cookie', [
        sessionCookie(session.id, deps.secureCookies),
        // Invited members are not remembered (dashboard-auth.ts): no device cookie.
        ...(device ? [deviceCookie(device.id, deps.secureCookies)] : []),
      ])
      .header('Cache-Control', 'no-store')
      .send(signedInJson(session, deps.sessions.csrfToken(session.id)));

  app.get(
    '/api/auth/session',
    {
      schema: {
        summary: 'Dashboard: who is logged in (account: null when nobody), the CSRF token, sign-up',
        response: responses(
          {
            200: json(
              'Never 401',
              object(['account', 'csrf_token', 'signup'], {
                account: { anyOf: [ref('SessionAccount'), { type: 'null' }] },
                member: { ...ref('SessionMember'), description: 'Only with a session' },
                csrf_token: { type: ['string', 'null'] },
                signup: { type: 'string', enum: ['open', 'closed'] },
              }),
            ),
          },
          [],
        ),
      },
    },
    async (request: FastifyRequest, reply) => {
      const cookie = readCookie(request.headers.cookie, SESSION_COOKIE);
      const session = cookie ? await deps.sessions.authenticate(cookie) : undefined;
      reply.header('Cache-Control', 'no-store');
      if (cookie && !session) reply.header('Set-Cookie', clearedSessionCookie(deps.secureCookies));
      if (session?.extended) {
        reply.header(
          'Set-Cookie',
          sessionCookie(session.id, deps.secureCookies, session.expiresAt - Date.now()),
        );
      }
      return {
        account: session ? accountJson(session.account) : null,
        // Only with a session: the signed-out answer stays as it was.
        ...(session ? { member: memberJson(session.member, session.account) } : {}),
        csrf_token: session ? deps.sessions.csrfToken(session.id) : null,
        signup: deps.auth.signupOpen ? 'open' : 'closed',
      };
    },
  );

  // The same answer, byte for byte, whether or not the address has an account (accounts/signup.ts);
  // no session: that starts at the emailed link.
  app.post<{ Body: { email: string; password: string } }>(
    '/api/auth/signup',
    {
      schema: {
        summary:
          'Dashboard: sign up; emails a verification link that logs in (answers the same whether the address has an account or not)',
        body: object(['email', 'password'], { email, password }),
        response: responses({ 202: json('The same answer for every address', status('check_inbox')) }, [
          ...PUBLIC_BODY,
          'signup_closed',
          'rate_limit_exceeded',
        ]),
      },
    },
    async (request, reply) => {
      await deps.auth.signup(request.body.email, request.body.password, request.ip);
      return reply.code(202).header('Cache-Control', 'no-store').send({ status: 'check_inbox' });
    },
  );

  app.post<{ Body: { email: string; password: string; code?: string } }>(
    '/api/auth/login',
    {
      schema: {
        summary:
          'Dashboard: log in (failures per 15 minutes: 10 per remembered browser and address; otherwise 10 per network and address, 100 per address, 30 per network); with two-factor sign-in on, `code` too',
        body: object(['email', 'password'], {
          email,
          password,
          code: { type: 'string', maxLength: 20 },
        }),
        response: responses({ 200: signedIn }, [
          ...PUBLIC_BODY,
          'invalid_credentials',
          'totp_required',
          'invalid_code',
          'rate_limit_exceeded',
        ]),
      },
    },
    async (request, reply) =>
      started(
        reply,
        await deps.auth.login(
          request.body.email,
          request.body.password,
          sessionOrigin(request),
          readCookie(request.headers.cookie, DEVICE_COOKIE),
          request.body.code,
        ),
        200,
      ),
  );

  app.post<{ Body: { token: string } }>(
    '/api/auth/verify',
    {
      schema: {
        summary: 'Dashboard: use the emailed verification link: confirms the signup address and logs in',
        body: object(['token'], { token }),
        response: responses({ 200: signedIn }, [...PUBLIC_BODY, 'invalid_token']),
      },
    },
    async (request, reply) =>
      started(reply, await deps.auth.verifyEmail(request.body.token, sessionOrigin(request)), 200),
  );

  app.post<{ Body: { email: string } }>(
    '/api/auth/password-reset',
    {
      schema: {
        summary:
          'Dashboard: email a password reset link (answers the same whether the account exists or not)',
        body: object(['email'], { email }),
        response: responses(
          {
            202: json('The same answer whether the account exists or not', status('sent_if_account_exists')),
          },
          [...PUBLIC_BODY, 'rate_limit_exceeded'],
        ),
      },
    },
    async (request, reply) => {
      await deps.auth.requestPasswordReset(request.body.email, request.ip);
      return reply.code(202).send({ status: 'sent_if_account_exists' });
    },
  );

  app.post<{ Body: { token: string; password: string } }>(
    '/api/auth/password-reset/confirm',
    {
      schema: {
        summary:
          "Dashboard: set a new password with the token of the emailed link; logs out that password's sessions",
        body: object(['token', 'password'], { token, password }),
        response: responses(
          { 200: json("Done; that password's sessions are logged out", done('password_reset')) },
          [...PUBLIC_BODY, 'invalid_token'],
        ),
      },
    },
    async (request, reply) => {
      const { accountId, member } = await deps.auth.resetPassword(request.body.token, request.body.password);
      // No session made this change, so the audit hook does not see it: recorded here, as the member's
      // own (the link came to the member's inbox).
      await deps.audit.record({
        accountId,
        actor: { type: 'member', id: member.id, email: member.email },
        action: 'member.password_reset',
        target: member.id,
        targetLabel: member.email,
        ip: request.ip,
      });
      return reply
        .header('Set-Cookie', clearedSessionCookie(deps.secureCookies))
        .send({ password_reset: true });
    },
  );
}

/** Routes of a logged-in dashboard user (registered behind the authentication hook: cookie + CSRF). */
export function registerSessionAuthRoutes(app: FastifyInstance, deps: AuthRouteDeps): void {
  app.post(
    '/api/auth/logout',
    {
      schema: {
        summary: 'Dashboard: log out (ends this session)',
        response: responses(
          { 204: { description: 'Logged out; the session cookie is cleared', type: 'null' } },
          [...AUTHENTICATED, ...STATE_CHANGING, ...SESSION_ONLY],
        ),
      },
    },
    async (request, reply) => {
      await deps.sessions.revoke(sessionOf(request).idHash);
      return reply.code(204).header('Set-Cookie', clearedSessionCookie(deps.secureCookies)).send();
    },
  );

  app.post<{ Body: { current_password: string; new_password: string } }>(
    '/api/auth/password',
    {
      schema: {
        summary: 'Dashboard: change your password; your other sessions are logged out',
        body: object(['current_password', 'new_password'], {
          current_password: password,
          new_password: password,
        }),
        response: responses(
          { 200: json('Changed; your other sessions are logged out', done('password_changed')) },
          [...AUTHENTICATED, ...STATE_CHANGING, ...SESSION_ONLY, 'validation_error', 'invalid_credentials'],
        ),
      },
    },
    async (request, reply) => {
      const device = await deps.auth.changePassword(
        sessionOf(request),
        request.body.current_password,
        request.body.new_password,
      );
      // The other browsers were forgotten with the old password; this one proved the current password.
      if (device) reply.header('Set-Cookie', deviceCookie(device.id, deps.secureCookies));
      return reply.send({ password_changed: true });
    },
  );

  app.post(
    '/api/auth/resend-verification',
    {
      schema: {
        summary: 'Dashboard: email a new verification link',
        response: responses({ 202: json('Sent', status('sent')) }, [
          ...AUTHENTICATED,
          ...STATE_CHANGING,
          ...SESSION_ONLY,
        ]),
      },
    },
    async (request, reply) => {
      await deps.auth.sendVerification(sessionOf(request).account);
      return reply.code(202).send({ status: 'sent' });
    },
  );
}
