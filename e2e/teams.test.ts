// Teams in real headless Chromium against the real `txmail serve` (docs/design.md §2): the owner signs
// up and invites a viewer and an admin by email; each opens the mailed link and joins; the viewer is
// refused a key (403) where the admin gets one; the owner turns on two-factor sign-in and requires it,
// after which the admin can use nothing but the Security page until enrolled; the owner logs in again
// with a recovery code, ends the admin's session from the Members page; the viewer resets a forgotten
// password by the mailed link; the owner finds every step in the audit log. New pages are saved to
// docs/screenshots/.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import type { Browser, BrowserContext, Dialog, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../src/accounts/totp.js';
import { openDatabase } from '../src/db/database.js';
import { newId } from '../src/ids.js';
import { MailFixture } from '../test/helpers/mail-fixture.js';
import { freePort, startServer, type RunningServer } from '../test/helpers/process.js';
import { until } from '../test/helpers/wait.js';
import {
  accessibilityProblems,
  apiFetch,
  chromiumAvailable,
  launchChromium,
  scannedQr,
  screenshot,
  serveEnvironment,
  stopAll,
} from './browser.js';

const OWNER = 'owner@inbox.example';
const VIEWER = 'viewer@inbox.example';
const ADMIN = 'admin@inbox.example';
const PASSWORD = 'a long enough password';

describe.runIf(chromiumAvailable())('teams in a browser', () => {
  const mail = new MailFixture();
  const dir = mkdtempSync(join(tmpdir(), 'txmail-e2e-teams-'));
  let env: Record<string, string>;
  let server: RunningServer;
  let browser: Browser;
  let owner: Page;
  let viewer: Page;
  let admin: Page;
  let adminContext: BrowserContext;
  let recoveryCodes: string[] = [];

  beforeAll(async () => {
    await mail.start();
    const port = await freePort();
    env = serveEnvironment(dir, mail, port, await freePort());
    server = await startServer('serve', env, port);
    browser = await launchChromium(server);
    owner = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    owner.setDefaultTimeout(15_000);
  });

  afterAll(() => stopAll({ browser, server, mail, dir }));

  const heading = (p: Page, name: string) => p.getByRole('heading', { level: 1, name }).waitFor();
  const nav = (p: Page) => p.getByRole('navigation', { name: 'Dashboard' });
  const go = async (p: Page, name: string, title = name) => {
    await nav(p).getByRole('link', { name, exact: true }).click();
    await heading(p, title);
  };
  /** The link to `path` in the newest message to `to`. */
  const mailedLink = (to: string, path: string) =>
    until(`a ${path} link to ${to}`, async () => {
      for (const m of sink().for(to).reverse()) {
        const html = String((await simpleParser(m.raw)).html);
        const link = new RegExp(`href="([^"]+${path}\\?token=[^"]+)"`).exec(html)?.[1];
        if (link) return link;
      }
      return undefined;
    });
  const sink = () => mail.sink;
  const navLinks = async (p: Page) => (await nav(p).getByRole('link').allInnerTexts()).map((t) => t.trim());

  /** A new browser opens the invitation mailed to `email` and joins with a password. */
  const joinAccount = async (email: string): Promise<Page> => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const p = await context.newPage();
    p.setDefaultTimeout(15_000);
    await p.goto(await mailedLink(email, '/accept-invite'));
    await heading(p, 'Join the account');
    // The page names the account and the role before a password is chosen.
    const said = await p.getByTestId('invitation').innerText();
    expect(said).toContain(`the txmail account of ${OWNER} as`);
    expect(said).toContain(`with the address ${email}`);
    await p.getByLabel('Password').fill(PASSWORD);
    await p.getByRole('button', { name: 'Join' }).click();
    await heading(p, 'Overview');
    return p;
  };

  /** Sets up two-factor sign-in on the Security page; answers the secret and the recovery codes. */
  const enrol = async (p: Page, shot?: string): Promise<{ secret: string; codes: string[] }> => {
    await p.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    const secret = (await p.getByTestId('totp-secret').innerText()).trim();
    const url = await p.getByTestId('totp-url').innerText();
    expect(url).toMatch(/^otpauth:\/\/totp\/txmail%3A.*secret=/);
    expect(await scannedQr(p)).toBe(url);
    if (shot) await screenshot(p, 'security-setup');
    await p.getByLabel('Code from the app').fill(totpCode(secret, Date.now()));
    await p.getByRole('button', { name: 'Turn on' }).click();
    const list = p.getByTestId('recovery-codes');
    await list.waitFor();
    const codes = (await list.getByRole('listitem').allInnerTexts()).map((c) => c.trim());
    expect(codes).toHaveLength(10);
    if (shot) await screenshot(p, shot);
    await p.getByRole('button', { name: 'I saved them' }).click();
    await p.getByText('Two-factor sign-in is on.').waitFor();
    return { secret, codes };
  };

  it('signs the owner up and invites a viewer and an admin from the Members page', async () => {
    await owner.goto(`${server.url}/signup`);
    await owner.getByLabel('Email').fill(OWNER);
    await owner.getByLabel('Password').fill(PASSWORD);
    await owner.getByRole('button', { name: 'Create account' }).click();
    await heading(owner, 'Check your inbox');
    await owner.goto(await mailedLink(OWNER, '/verify-email'));
    await heading(owner, 'Overview');
    await go(owner, 'Members');
    for (const [email, role] of [
      [VIEWER, 'viewer'],
      [ADMIN, 'admin'],
    ] as const) {
      await owner.getByLabel('Email of the person to invite').fill(email);
      await owner.getByLabel('Role', { exact: true }).selectOption(role);
      await owner.getByRole('button', { name: 'Invite' }).click();
      await owner.getByText(`An invitation is on its way to ${email}.`).waitFor();
    }
    const invite = await until('the invitation mail', async () => {
      for (const m of sink().for(VIEWER)) return simpleParser(m.raw);
      return undefined;
    });
    expect(invite.from?.value[0]?.address).toBe('onboarding@test.mta.txmail.test');
    const viewerRow = owner.getByRole('row').filter({ hasText: VIEWER });
    expect(await viewerRow.innerText()).toContain('invited (link valid until');
    // A role change is asked first: declined, nothing changes.
    // Choosing alone changes nothing (a keyboard's arrows pass through the roles): its button does.
    const role = owner.getByLabel(`Role of ${VIEWER}`);
    let asked = 0;
    const decline = (d: Dialog) => {
      asked++;
      void d.dismiss();
    };
    owner.on('dialog', decline);
    await role.focus();
    await owner.keyboard.press('ArrowUp');
    await role.selectOption('developer');
    expect(asked).toBe(0);
    await owner.getByRole('button', { name: `Change the role of ${VIEWER}` }).click();
    await until('the question', async () => (asked === 1 ? true : undefined));
    owner.off('dialog', decline);
    expect(await role.inputValue()).toBe('viewer');
    expect(await owner.getByRole('button', { name: `Change the role of ${VIEWER}` }).count()).toBe(0);
    // Its button gone, the focus is back on the list, not on the page.
    expect(await role.evaluate((el) => el === document.activeElement)).toBe(true);
    // Mailed again at once: the server keeps a minute between two mails, and the page says so.
    await viewerRow.getByRole('button', { name: `Mail again to ${VIEWER}` }).click();
    await owner.getByText(/mailed less than a minute ago.*\(rate_limit_exceeded\)/i).waitFor();
    await screenshot(owner, 'members');
  });

  it('says in words when a mailed link is used, expired or cut: invitation, reset, verification', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      const p = await context.newPage();
      p.setDefaultTimeout(15_000);
      await p.goto(`${server.url}/accept-invite?token=not-a-live-token`);
      await p.getByText('This invitation link is used already, has expired, or is not whole').waitFor();
      expect(await p.getByLabel('Password').count()).toBe(0);
      await p.goto(`${server.url}/reset-password?token=not-a-live-token`);
      await p.getByLabel('New password').fill('a new horse battery');
      await p.getByRole('button', { name: 'Set password' }).click();
      await p.getByText('This reset link was used already or has expired').waitFor();
      expect(await p.getByRole('link', { name: 'Ask for a new one' }).getAttribute('href')).toBe(
        '/forgot-password',
      );
      await p.goto(`${server.url}/verify-email?token=not-a-live-token`);
      // Not the browser that signed up: asked first (a login CSRF would otherwise need no click).
      await p.getByRole('button', { name: 'Verify and log in' }).click();
      await p.getByText('This verification link was used already or has expired').waitFor();
      // Cut before its token: said at once, with no form for a password that could never be set.
      await p.goto(`${server.url}/reset-password`);
      await p.getByText('This reset link is not whole.').waitFor();
      expect(await p.getByLabel('New password').count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('lets the viewer join and refuses it a key with 403; the admin joins and gets one', async () => {
    viewer = await joinAccount(VIEWER);
    expect(await navLinks(viewer)).toEqual(['Overview', 'Logs', 'Security', 'Settings']);
    // Typed in: the page says the role does not reach it, and offers no form.
    await viewer.goto(`${server.url}/api-keys`);
    await viewer.getByText('Your role (viewer) does not give access to API keys.').waitFor();
    expect(await viewer.getByRole('button', { name: 'Create key' }).count()).toBe(0);
    // The server refuses the request all the same, made from the viewer's own session.
    const session = (await (await viewer.request.get(`${server.url}/api/auth/session`)).json()) as {
      csrf_token: string;
    };
    const answer = await viewer.request.post(`${server.url}/api/api-keys`, {
      headers: { 'x-csrf-token': session.csrf_token },
      data: {},
    });
    expect(answer.status()).toBe(403);
    expect(await answer.text()).toMatch(/forbidden: the viewer role cannot do this/);
    expect(await viewer.getByTestId('new-api-key').count()).toBe(0);

    admin = await joinAccount(ADMIN);
    adminContext = admin.context();
    expect(await navLinks(admin)).toContain('Members');
    await go(admin, 'API keys');
    await admin.getByLabel('Name of the new key').fill('from the admin');
    const [created] = await Promise.all([
      admin.waitForResponse((r) => r.url().endsWith('/api/api-keys') && r.request().method() === 'POST'),
      admin.getByRole('button', { name: 'Create key' }).click(),
    ]);
    expect(created.status()).toBe(201);
    expect(await admin.getByTestId('new-api-key').innerText()).toMatch(/^txm_/);
  });

  it('shows each member only the settings its role may change', async () => {
    for (const [p, email] of [
      [viewer, VIEWER],
      [admin, ADMIN],
    ] as const) {
      await go(p, 'Settings');
      await p.getByText(`Signed in as ${email}.`).waitFor();
      await p.getByRole('heading', { name: 'Change password' }).waitFor();
      // The account's content setting is said, not offered: PATCH /api/account is the owner's.
      await p.getByText('Content removed after 30 days.', { exact: false }).waitFor();
      await p.getByText('Only the account’s owner can change this.').waitFor();
      expect(await p.getByLabel('Remove content after').count()).toBe(0);
      expect(await p.getByRole('button', { name: 'Email me a new verification link' }).count()).toBe(0);
      // Nor the owner's two-factor requirement on the Security page.
      await go(p, 'Security');
      await p.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor();
      expect(await p.getByRole('heading', { name: 'For every member' }).count()).toBe(0);
    }
    // Webhooks, for a while as a developer: the page is read, and no endpoint to add is offered (nor the
    // plan's allowance for them); as admin again, it is.
    const setAdminRole = async (role: string) => {
      const session = (await (await owner.request.get(`${server.url}/api/auth/session`)).json()) as {
        csrf_token: string;
      };
      const members = (await (await owner.request.get(`${server.url}/api/members`)).json()) as {
        data: { id: string; email: string }[];
      };
      const id = members.data.find((m) => m.email === ADMIN)!.id;
      const changed = await owner.request.patch(`${server.url}/api/members/${id}`, {
        headers: { 'x-csrf-token': session.csrf_token },
        data: { role },
      });
      expect(changed.status()).toBe(200);
    };
    // Demoted while the page is open: the first refusal reads the session again, and the pages follow.
    await go(admin, 'Members');
    await setAdminRole('developer');
    await nav(admin).getByRole('link', { name: 'Audit log' }).click();
    await admin.getByText('Your role (developer) does not give access to', { exact: false }).waitFor();
    await until('the navigation of a developer', async () =>
      (await navLinks(admin)).includes('Members') ? undefined : true,
    );
    await admin.goto(`${server.url}/webhooks`);
    await heading(admin, 'Webhooks');
    await admin.getByText('No endpoints yet.').waitFor();
    expect(await admin.getByRole('heading', { name: 'Add an endpoint' }).count()).toBe(0);
    expect(await admin.getByText('includes no webhook endpoints', { exact: false }).count()).toBe(0);
    await setAdminRole('admin');
    await admin.reload();
    await heading(admin, 'Webhooks');
    await admin
      .getByText('includes no webhook endpoints', { exact: false })
      .or(admin.getByRole('heading', { name: 'Add an endpoint' }))
      .first()
      .waitFor();
    await go(owner, 'Settings');
    await owner.getByText(`Signed in as ${OWNER} (verified).`).waitFor();
    await owner.getByLabel('Remove content after').waitFor();
    expect(await owner.getByText('Only the account’s owner can change this.').count()).toBe(0);
  });

  it('has the owner turn on two-factor sign-in and require it; the admin can only enrol until it does', async () => {
    await go(owner, 'Security');
    recoveryCodes = (await enrol(owner, 'security-recovery-codes')).codes;
    await owner.getByRole('button', { name: 'Require two-factor sign-in' }).click();
    await owner.getByText('Every member must now use two-factor sign-in.').waitFor();
    await screenshot(owner, 'security');

    // The admin's next page load: only the Security page, whatever the address.
    await admin.goto(`${server.url}/logs`);
    await heading(admin, 'Security');
    await admin.getByText('This account requires two-factor sign-in.').waitFor();
    expect(await navLinks(admin)).toEqual(['Security']);
    const blocked = await admin.evaluate(async () => (await fetch('/api/emails')).status);
    expect(blocked).toBe(403);
    await screenshot(admin, 'security-enrolment-required');
    expect(new URL(admin.url()).pathname).toBe('/security');
    // A mailed link still opens its own page meanwhile (an invitation to another account, a reset):
    // the gate closes this account's pages, not the links' public ones.
    await admin.goto(`${server.url}/accept-invite?token=not-a-real-one`);
    await heading(admin, 'Join the account');
    expect(new URL(admin.url()).pathname).toBe('/accept-invite');
    await admin.goto(`${server.url}/security`);
    await heading(admin, 'Security');
    await enrol(admin);
    // Enrolled: the whole dashboard is back.
    await nav(admin).getByRole('link', { name: 'Logs', exact: true }).waitFor();
    await go(admin, 'Logs');
    expect(await admin.evaluate(async () => (await fetch('/api/emails')).status)).toBe(200);
  });

  it('logs the owner in again with the password and a recovery code', async () => {
    await nav(owner).getByRole('button', { name: 'Log out' }).click();
    await heading(owner, 'Log in');
    await owner.getByLabel('Email').fill(OWNER);
    await owner.getByLabel('Password').fill(PASSWORD);
    await owner.getByRole('button', { name: 'Log in' }).click();
    // The password alone starts nothing: the code is asked for.
    await owner.getByLabel('Two-factor code').fill(recoveryCodes[0]!);
    await owner.getByRole('button', { name: 'Log in' }).click();
    await heading(owner, 'Overview');
  });

  it("ends the admin's session from the Members page", async () => {
    await go(owner, 'Members');
    await owner.getByRole('button', { name: `Sessions of ${ADMIN}` }).click();
    await owner.getByRole('heading', { level: 2, name: `Sessions of ${ADMIN}` }).waitFor();
    const table = owner.getByRole('table', { name: 'Live sessions of the member' });
    // The table is drawn once the sessions are in: counted before, it has no rows yet.
    await table.waitFor();
    expect(await table.getByRole('row').count()).toBe(2);
    await table.getByRole('button', { name: /End session/ }).click();
    await owner.getByText('The session is ended.').waitFor();
    // The admin's next step, without a reload: the log-in page, saying why.
    await nav(admin).getByRole('link', { name: 'Overview', exact: true }).click();
    await heading(admin, 'Log in');
    await admin.getByText('Your session has ended', { exact: false }).waitFor();
    await adminContext.close();
  });

  it('lets the viewer reset a forgotten password from the log-in page, by the mailed link, and log in with it', async () => {
    const NEW_PASSWORD = 'the viewer chose anew';
    await nav(viewer).getByRole('button', { name: 'Log out' }).click();
    await heading(viewer, 'Log in');
    await viewer.getByRole('link', { name: 'Forgot your password?' }).click();
    await heading(viewer, 'Reset your password');
    await viewer.getByLabel('Email').fill(VIEWER);
    await viewer.getByRole('button', { name: 'Email me a reset link' }).click();
    await viewer.getByText(`If ${VIEWER} can log in to txmail, a link is on its way.`).waitFor();
    await viewer.goto(await mailedLink(VIEWER, '/reset-password'));
    await heading(viewer, 'Choose a new password');
    await viewer.getByLabel('New password').fill(NEW_PASSWORD);
    await viewer.getByRole('button', { name: 'Set password' }).click();
    await viewer.getByText('Your password is changed.').waitFor();
    await viewer.getByRole('link', { name: 'Log in' }).click();
    await heading(viewer, 'Log in');
    await viewer.getByLabel('Email').fill(VIEWER);
    await viewer.getByLabel('Password').fill(NEW_PASSWORD);
    await viewer.getByRole('button', { name: 'Log in' }).click();
    // In, as the viewer: the account requires two-factor sign-in, so the Security page first.
    await heading(viewer, 'Security');
    await viewer.getByText('This account requires two-factor sign-in.').waitFor();
    // The owner was not logged out by the viewer's reset.
    expect(await owner.evaluate(async () => (await fetch('/api/auth/session')).json())).toMatchObject({
      member: { email: OWNER },
    });
  });

  it('shows every change in the audit log, with who and from where', async () => {
    const accountId = await owner.evaluate(
      async () =>
        ((await (await fetch('/api/auth/session')).json()) as { account: { id: string } }).account.id,
    );
    const db = openDatabase(env.TXMAIL_DATABASE_URL!);
    try {
      // A move of the sending state, as the reputation guard writes it (in its own transaction):
      // txmail's. And a key revoked by another key: neither is in the account's lists any more, both are
      // named as they were called when the entry was written.
      const entry = { account_id: accountId, created_at: Date.now() };
      await db.kysely
        .insertInto('audit_log')
        .values([
          {
            ...entry,
            id: newId(),
            actor_type: 'system',
            actor_id: 'reputation_guard',
            actor_label: null,
            action: 'account.reputation_changed',
            target: 'warning',
            target_label: null,
            ip: null,
          },
          {
            ...entry,
            id: newId(),
            actor_type: 'api_key',
            actor_id: 'gone-key-1',
            actor_label: 'ci (txm_live_ab12cd…)',
            action: 'api_key.revoked',
            target: 'gone-key-2',
            target_label: 'deploy bot (txm_live_ef34gh…)',
            ip: '127.0.0.1',
          },
        ])
        .execute();
    } finally {
      await db.close();
    }
    await go(owner, 'Audit log');
    const table = owner.getByRole('table', { name: 'Changes, newest first' });
    await table.waitFor();
    const text = await table.innerText();
    for (const action of [
      'member.invited',
      'member.joined',
      'api_key.created',
      'member.totp_enabled',
      'account.security_changed',
      'session.revoked',
    ])
      expect(text).toContain(action);
    expect(await table.getByRole('row').filter({ hasText: 'api_key.created' }).innerText()).toContain(ADMIN);
    // Each action in words, its code beside.
    expect(await table.getByRole('row').filter({ hasText: 'member.invited' }).first().innerText()).toContain(
      'Invited a member',
    );
    const moved = await table.getByRole('row').filter({ hasText: 'account.reputation_changed' }).innerText();
    expect(moved).toContain('txmail (the reputation guard)');
    expect(moved).toContain('sending state: warning');
    const revoked = await table.getByRole('row').filter({ hasText: 'deploy bot' }).innerText();
    expect(revoked).toContain('API key ci (txm_live_ab12cd…)');
    expect(revoked).toContain('key deploy bot (txm_live_ef34gh…)');
    expect(text).toContain('127.0.0.1');
    // The viewer may not read it.
    expect(await viewer.evaluate(async () => (await fetch('/api/audit')).status)).toBe(403);
    await screenshot(owner, 'audit-log');
  });

  it('pages the audit log: a hundred entries, then the rest with "Load more"', async () => {
    type Page1 = { data: unknown[]; next_cursor: string | null };
    const before = (await owner.evaluate(async () => (await fetch('/api/audit?limit=100')).json())) as Page1;
    expect(before.next_cursor).toBeNull();
    // 120 more changes, newer than the walk-through's, written to the server's database as the audit
    // hook writes them.
    const session = (await owner.evaluate(async () => (await fetch('/api/auth/session')).json())) as {
      account: { id: string };
    };
    const db = openDatabase(env.TXMAIL_DATABASE_URL!);
    try {
      for (let i = 0; i < 120; i++) {
        await db.kysely
          .insertInto('audit_log')
          .values({
            id: newId(),
            account_id: session.account.id,
            created_at: Date.now(),
            actor_type: 'api_key',
            actor_id: 'k1',
            actor_label: null,
            action: 'suppression.added',
            target: `paged-${i}@inbox.example`,
            ip: '127.0.0.1',
          })
          .execute();
      }
    } finally {
      await db.close();
    }
    await owner.goto(`${server.url}/audit`);
    const rows = owner.getByRole('table', { name: 'Changes, newest first' }).locator('tbody tr');
    await owner.getByRole('cell', { name: 'paged-119@inbox.example' }).waitFor();
    expect(await rows.count()).toBe(100);
    expect(await owner.getByRole('cell', { name: 'member.invited' }).count()).toBe(0);
    await owner.getByRole('button', { name: 'Load more' }).click();
    await owner.getByRole('cell', { name: 'paged-0@inbox.example' }).waitFor();
    await owner.getByRole('cell', { name: 'member.invited' }).first().waitFor();
    expect(await rows.count()).toBe(120 + before.data.length);
    expect(await owner.getByRole('button', { name: 'Load more' }).count()).toBe(0);
  });

  it("asks before a sign-up link opened in another browser logs it in: a page cannot put someone in its maker's account", async () => {
    // Someone signs up with an address of their own and sends another browser to their link.
    const signup = await apiFetch(server, '/api/auth/signup', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'mallory@inbox.example', password: 'a long enough password' }),
    });
    expect(signup.status).toBe(202);
    const link = await mailedLink('mallory@inbox.example', '/verify-email');
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      const victim = await context.newPage();
      await victim.goto(link);
      await victim.getByText('Go on only if you asked for that account', { exact: false }).waitFor();
      // Nothing was posted: no session here, and the link still works for the one who asked for it.
      expect((await context.cookies()).map((c) => c.name)).not.toContain('txmail_session');
      await victim.getByRole('link', { name: 'Not now' }).click();
      await heading(victim, 'Log in');
      await victim.goto(link);
      await victim.getByRole('button', { name: 'Verify and log in' }).click();
      await heading(victim, 'Overview');
    } finally {
      await context.close();
    }
  });

  it('asks before a mailed sign-up link moves a logged-in browser into another account; /login leads home', async () => {
    // A link someone else mailed, opened while logged in: nothing is posted until the person says so.
    await owner.goto(`${server.url}/verify-email?token=someone-elses-link`);
    await owner
      .getByText(`You are logged in as ${OWNER}. This link finishes a sign-up`, { exact: false })
      .waitFor();
    await owner.getByRole('button', { name: `Stay as ${OWNER}` }).click();
    await heading(owner, 'Overview');
    // The link is gone from the history: Back leads past it, not to it (nor its token).
    await owner.goBack();
    await owner.waitForLoadState();
    expect(new URL(owner.url()).pathname).not.toBe('/verify-email');
    await owner.goto(`${server.url}/`);
    await heading(owner, 'Overview');
    // Logged in, the log-in page is the overview, never "No such page" on the way.
    await owner.goto(`${server.url}/login`);
    await heading(owner, 'Overview');
    expect(new URL(owner.url()).pathname).toBe('/');
    expect(await owner.getByText('No such page').count()).toBe(0);
    // A log-out the server never got is said, and the page stays (the session is still live).
    await owner.route('**/api/auth/logout', (r) => r.abort());
    await owner.getByRole('button', { name: 'Log out' }).click();
    await owner.getByRole('alert').filter({ hasText: 'could not be reached' }).waitFor();
    expect(new URL(owner.url()).pathname).toBe('/');
    await owner.unroute('**/api/auth/logout');
  });

  it('invites an address of an internationalised domain as typed, and shows it so', async () => {
    await go(owner, 'Members');
    await owner.getByLabel('Email of the person to invite').fill('ana@bücher.example');
    await owner.getByRole('button', { name: 'Invite' }).click();
    // Stored and shown in Unicode: the field once handed the server punycode (Chromium's email field).
    await owner.getByText('An invitation is on its way to ana@bücher.example.').waitFor();
    await owner.getByRole('row').filter({ hasText: 'ana@bücher.example' }).waitFor();
    expect(await owner.getByText('xn--bcher-kva').count()).toBe(0);
  });

  it('has no serious or critical accessibility problems (axe-core) on the new pages', async () => {
    const problems = await accessibilityProblems(
      browser,
      server,
      ['/members', '/security', '/audit', '/accept-invite?token=x'],
      { as: owner },
    );
    expect(problems).toEqual([]);
  });
});
