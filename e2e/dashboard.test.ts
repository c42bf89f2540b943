// The newcomer's path through the dashboard in real headless Chromium, against the real `txmail serve`
// with a real SMTP sink found through a real DNS server: sign up → "check your inbox" → open the emailed
// link, which logs in → the same screen for a second sign-up with that address → create a key → guided test delivered → send with the key from a server → find it in the logs. Domain
// and webhook steps run when this txmail has those APIs. Every page is saved to docs/screenshots/.
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATEGORY_MEANING } from '../src/bounce/categories.js';
import { openDatabase } from '../src/db/database.js';
import { InboundRepo } from '../src/db/inbound-repo.js';
import { newId } from '../src/ids.js';
import { MailFixture } from '../test/helpers/mail-fixture.js';
import { freePort, runCli, startServer, type RunningServer } from '../test/helpers/process.js';
import { until } from '../test/helpers/wait.js';
import {
  accessibilityProblems,
  apiFetch,
  chromiumAvailable,
  launchChromium,
  logIn,
  screenshot,
  seriousViolations,
  serveEnvironment,
  stopAll,
} from './browser.js';

const EMAIL = 'newcomer@inbox.example';
const PASSWORD = 'a long enough password';

describe.runIf(chromiumAvailable())('the dashboard in a browser', () => {
  const mail = new MailFixture();
  const { dns, sink } = mail;
  const dir = mkdtempSync(join(tmpdir(), 'txmail-e2e-'));
  let env: Record<string, string>;
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let apiKey = '';
  let bouncedId = '';
  let hooks: Server | undefined;
  const hookRequests: string[] = [];

  beforeAll(async () => {
    await mail.start();
    const port = await freePort();
    env = {
      ...serveEnvironment(dir, mail, port, await freePort()),
    };
    server = await startServer('serve', env, port);
    browser = await launchChromium(server);
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.setDefaultTimeout(15_000);
  });

  afterAll(async () => {
    hooks?.close();
    await stopAll({ browser, server, mail, dir });
  });

  const heading = (name: string) => page.getByRole('heading', { level: 1, name });
  const nav = async (name: string) => {
    await page
      .getByRole('navigation', { name: 'Dashboard' })
      .getByRole('link', { name, exact: true })
      .click();
    await heading(name).waitFor();
  };
  const mailTo = async (to: string, subject: RegExp) =>
    until(`a message "${subject.source}" to ${to}`, async () => {
      for (const m of sink.for(to)) {
        const parsed = await simpleParser(m.raw);
        if (subject.test(parsed.subject ?? '')) return parsed;
      }
      return undefined;
    });

  /** Sends from acme.example with the API key made below, as a customer's server would. */
  const sendByApi = (to: string, subject: string, message: string) =>
    apiFetch(server, `/api/email/send`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ from: 'Acme <hello@acme.example>', to, subject, message }),
    });

  /** The text of the card a sign-up leaves on screen, with the address it names taken out. */
  const signUp = async (p: Page, email: string, password: string) => {
    await p.goto(`${server.url}/signup`);
    await p.getByRole('heading', { level: 1, name: 'Create your account' }).waitFor();
    await p.getByLabel('Email').fill(email);
    await p.getByLabel('Password').fill(password);
    await p.getByRole('button', { name: 'Create account' }).click();
    await p.getByRole('heading', { level: 1, name: 'Check your inbox' }).waitFor();
    return (await p.locator('.auth-card').innerText()).replaceAll(email, '<address>');
  };
  let firstSignupScreen = '';

  it('signs up and is asked to check the inbox, not logged in yet', async () => {
    await page.goto(`${server.url}/signup`);
    await heading('Create your account').waitFor();
    await screenshot(page, 'signup');
    firstSignupScreen = await signUp(page, EMAIL, PASSWORD);
    expect(firstSignupScreen).toContain('We sent a message to <address>.');
    await screenshot(page, 'signup-check-inbox');
    const session = await page.evaluate(async () => (await fetch('/api/auth/session')).json());
    expect((session as { account: unknown }).account).toBeNull();
  });

  it('opens the link emailed through txmail itself and lands on the overview, logged in, in the sandbox', async () => {
    const mail = await mailTo(EMAIL, /Verify your email/);
    expect(mail.from?.value[0]?.address).toBe('onboarding@test.mta.txmail.test');
    const link = /href="([^"]+\/verify-email\?token=[^"]+)"/.exec(String(mail.html))![1]!;
    expect(link.startsWith(env.TXMAIL_PUBLIC_URL!)).toBe(true);
    await page.goto(link);
    await heading('Overview').waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    await page.getByText('Leave the sandbox').waitFor();
    // Verified by the link itself: no banner asking for it.
    expect(await page.getByText('we sent a link to').count()).toBe(0);
    await screenshot(page, 'overview');
  });

  it('signs up again with the same address and sees the same screen; the owner is told by email', async () => {
    const context = await browser.newContext();
    try {
      const again = await signUp(await context.newPage(), EMAIL, 'somebody else entirely');
      expect(again).toBe(firstSignupScreen);
      const fresh = await signUp(await context.newPage(), 'stranger@inbox.example', PASSWORD);
      expect(fresh).toBe(firstSignupScreen);
    } finally {
      await context.close();
    }
    const notice = await mailTo(EMAIL, /Someone tried to sign up/);
    expect(notice.from?.value[0]?.address).toBe('onboarding@test.mta.txmail.test');
    expect(String(notice.html)).not.toContain('token=');
    // Nothing changed for the owner: still logged in here.
    await page.goto(`${server.url}/`);
    await heading('Overview').waitFor();
  });

  it('logs out and back in', async () => {
    await page.goto(`${server.url}/`);
    await heading('Overview').waitFor();
    await page.getByRole('button', { name: 'Log out' }).click();
    await heading('Log in').waitFor();
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByText('The email or the password is wrong. (invalid_credentials)').waitFor();
    await screenshot(page, 'login');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await heading('Overview').waitFor();
    expect(await page.getByText('we sent a link to').count()).toBe(0);
  });

  it('creates an API key, shown once', async () => {
    await nav('API keys');
    await page.getByLabel('Name of the new key').fill('production server');
    // A double click creates one key, not two of which only one is ever shown.
    const posts: string[] = [];
    const count = (r: { method(): string; url(): string }) => {
      if (r.method() === 'POST' && r.url().endsWith('/api/api-keys')) posts.push(r.url());
    };
    page.on('request', count);
    await page.getByRole('button', { name: 'Create key' }).dblclick();
    apiKey = (await page.getByTestId('new-api-key').textContent()) ?? '';
    page.off('request', count);
    expect(posts).toHaveLength(1);
    expect(apiKey).toMatch(/^txm_[A-Za-z0-9_-]{43}$/);
    await page.getByRole('cell', { name: 'production server', exact: true }).waitFor();
    await screenshot(page, 'api-keys');
    // The page's sample works as shown, with this key in place of $TXMAIL_API_KEY.
    const sample = (await page.locator('pre.code').textContent()) ?? '';
    const url = /curl -X POST (\S+)/.exec(sample)![1]!;
    const body = /-d '(.*)'/.exec(sample)![1]!;
    const sent = await fetch(url, {
      method: 'POST',
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
      body,
    });
    expect(sent.status, await sent.clone().text()).toBe(200);
  });

  it('runs the guided test and shows it delivered', async () => {
    await nav('Guided test');
    // Two clicks in one turn of the page, before it can draw the button disabled: one email.
    await page.getByRole('button', { name: 'Send a test email' }).waitFor();
    await page.evaluate(() => {
      const button = [...document.querySelectorAll('button')].find(
        (b) => b.textContent === 'Send a test email',
      )!;
      button.click();
      button.click();
    });
    await page.getByTestId('guided-status').getByText('delivered').waitFor({ timeout: 30_000 });
    await page.getByText('It arrived.').waitFor();
    const subjects = await page.evaluate(async () =>
      ((await (await fetch('/api/emails?limit=100')).json()) as { data: { subject: string }[] }).data.map(
        (m) => m.subject,
      ),
    );
    expect(subjects.filter((s) => s === 'Your first email from txmail')).toHaveLength(1);
    await screenshot(page, 'guided-test');
    const mail = await mailTo(EMAIL, /Your first email from txmail/);
    expect(mail.from?.value[0]?.address).toBe('onboarding@test.mta.txmail.test');
    // The sandbox's checklist marks what is done: the guided test now, and the key made before it.
    await nav('Overview');
    const step = (name: string) => page.locator('ol.steps li').filter({ hasText: name });
    await page.locator('ol.steps li.done').filter({ hasText: 'Run the guided test' }).waitFor();
    expect(await step('Create an API key').getAttribute('class')).toBe('done');
    expect(await step('Add your domain').getAttribute('class')).toBe('');
  });

  it('adds a domain and verifies it against the DNS server', async () => {
    await nav('Domains');
    await page.getByLabel('Domain').fill('acme.example');
    await page.getByRole('button', { name: 'Add domain' }).click();
    await heading('acme.example').waitFor();
    // The RSA-2048 DKIM value (410 characters) comes with how to enter it where strings are asked for.
    await page.getByText('The value is longer than 255 characters', { exact: false }).waitFor();
    await screenshot(page, 'domain-records');
    const id = page.url().split('/').pop()!;
    const detail = await page.evaluate(async (i) => (await fetch(`/api/domains/${i}`)).json(), id);
    for (const r of (
      detail as { records: { type: string; name: string; value: string; priority?: number }[] }
    ).records) {
      if (r.type === 'TXT') dns.add(r.name, 'TXT', r.value);
      if (r.type === 'MX') dns.add(r.name, 'MX', { preference: r.priority ?? 10, exchange: r.value });
      // The service's own SPF domain, which customers' SPF records include.
      const include = /include:(\S+)/.exec(r.value);
      if (include) dns.add(include[1]!, 'TXT', 'v=spf1 ip4:127.0.0.1 -all');
    }
    await page.getByRole('button', { name: 'Verify now' }).click();
    await page.getByText('acme.example is verified.').waitFor({ timeout: 30_000 });
    // acme.example itself has neither MX nor address: verified all the same, with the warning shown.
    await page.getByRole('heading', { name: 'Warnings' }).waitFor();
    await page.getByText('acme.example has no MX record and no A or AAAA record').waitFor();
    await screenshot(page, 'domain-verified');
  });

  it('sets how long the domain’s mail is tried, and sees it saved', async () => {
    const id = page.url().split('/').pop()!;
    const expiry = page.getByLabel('Give up after');
    expect(await expiry.inputValue()).toBe(''); // the default: 2 days
    await expiry.selectOption({ label: '10 minutes' });
    await page.getByRole('button', { name: 'Save expiry' }).click();
    await page
      .getByText('Saved: mail from acme.example that is not delivered within 10 minutes fails as expired.')
      .waitFor();
    const saved = await page.evaluate(async (i) => (await fetch(`/api/domains/${i}`)).json(), id);
    expect((saved as { expire_after: number | null }).expire_after).toBe(600);
    // Still there after a reload, and in the list.
    await page.reload();
    await heading('acme.example').waitFor();
    expect(await page.getByLabel('Give up after').inputValue()).toBe('600');
    await nav('Domains');
    await page.getByText('gives up after 10 minutes').waitFor();
    await page.getByRole('link', { name: 'acme.example' }).click();
    await heading('acme.example').waitFor();
    // Back to the default, so the rest of the walk-through sends as before.
    await page.getByLabel('Give up after').selectOption({ label: '2 days (default)' });
    await page.getByRole('button', { name: 'Save expiry' }).click();
    await page.getByText('not delivered within 2 days fails as expired.', { exact: false }).waitFor();
    const reset = await page.evaluate(async (i) => (await fetch(`/api/domains/${i}`)).json(), id);
    expect((reset as { expire_after: number | null }).expire_after).toBeNull();
  });

  it('requires TLS for the domain’s mail, and sees it saved', async () => {
    const id = page.url().split('/').pop()!;
    const tls = page.getByLabel('TLS', { exact: true });
    expect(await tls.inputValue()).toBe('opportunistic');
    await tls.selectOption({ label: 'Required' });
    await page.getByRole('button', { name: 'Save TLS policy' }).click();
    await page.getByText('Saved: mail from acme.example is sent only over TLS', { exact: false }).waitFor();
    const saved = await page.evaluate(async (i) => (await fetch(`/api/domains/${i}`)).json(), id);
    expect((saved as { tls: string }).tls).toBe('required');
    await nav('Domains');
    await page.getByText('TLS required').waitFor();
    await page.getByRole('link', { name: 'acme.example' }).click();
    await heading('acme.example').waitFor();
    expect(await page.getByLabel('TLS', { exact: true }).inputValue()).toBe('required');
    // Back to the default: the walk-through's receiving server has no certificate txmail can verify.
    await page.getByLabel('TLS', { exact: true }).selectOption({ label: 'Opportunistic (default)' });
    await page.getByRole('button', { name: 'Save TLS policy' }).click();
    await page.getByText('Saved: mail from acme.example is encrypted when', { exact: false }).waitFor();
  });

  it('rotates the DKIM key from the domain page: the new record is shown, then takes over', async () => {
    const id = page.url().split('/').pop()!;
    type Keys = { dkim_keys: { selector: string; status: string; name: string; value: string }[] };
    const keys = async () =>
      ((await page.evaluate(async (i) => (await fetch(`/api/domains/${i}`)).json(), id)) as Keys).dkim_keys;
    const [old] = await keys();
    await page.getByRole('button', { name: 'Rotate DKIM key' }).click();
    await page.getByText('Rotation started: publish the new record below.', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Rotation in progress' }).waitFor();
    const pending = (await keys()).find((k) => k.status === 'pending')!;
    await page.getByText(pending.value).waitFor();
    await screenshot(page, 'domain-dkim-rotation');

    dns.add(pending.name, 'TXT', pending.value);
    await page.getByRole('button', { name: 'Verify now' }).click();
    await page.getByText('acme.example is verified.').waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Rotate DKIM key' }).waitFor();
    const after = await keys();
    expect(after.find((k) => k.selector === pending.selector)!.status).toBe('active');
    expect(after.find((k) => k.selector === old!.selector)!.status).toBe('retired');
    await page.getByText('No longer signs. Its record may be removed after', { exact: false }).waitFor();

    // Ed25519: on shows its record to publish; off again, so the rest signs as before.
    await page.getByLabel('Also sign with Ed25519').check();
    await page.getByText('Ed25519 turned on', { exact: false }).waitFor();
    const ed = (await keys()).find((k) => k.status === 'pending')!;
    expect(ed.value).toMatch(/^v=DKIM1; k=ed25519; p=/);
    await page.getByText(ed.value).waitFor();
    await page.getByLabel('Also sign with Ed25519').uncheck();
    await page.getByText('Ed25519 turned off', { exact: false }).waitFor();
  });

  it('sends through the API with the key, from a server, and finds the email in the logs', async () => {
    const account = await (
      await apiFetch(server, `/api/account`, { headers: { 'x-api-key': apiKey } })
    ).json();
    // Before a domain is verified only the test route takes mail; after, a real send.
    const production = (account as { state: string }).state === 'production';
    const res = await apiFetch(server, `/api/email/send${production ? '' : '/test'}`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({
        from: 'Acme <hello@acme.example>',
        to: 'jane@dest.example',
        subject: 'Your receipt #1042',
        message: '<p>Thanks for your order.</p>',
      }),
    });
    expect(res.status).toBe(200);
    const { id } = (await res.json()) as { id: string };
    await nav('Logs');
    await page.getByRole('link', { name: 'Your receipt #1042' }).waitFor();
    await page.getByLabel('Recipient').fill('jane@dest.example');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('1 email', { exact: true }).waitFor();
    await screenshot(page, 'logs');
    await page.getByRole('link', { name: 'Your receipt #1042' }).click();
    await heading('Email').waitFor();
    await page.getByText(id).waitFor();
    await page.getByRole('list', { name: 'Event timeline' }).waitFor();
    if (production) {
      await page.getByText('Delivered').first().waitFor({ timeout: 30_000 });
      // The attempt's TLS: the receiving server offers STARTTLS with a certificate nobody trusts.
      await page
        .getByText(/^TLS 1\.[23] · TLS_\w+ · certificate invalid \(.+\) · policy opportunistic$/)
        .waitFor();
    }
    await screenshot(page, 'email-detail');
  });

  it('sends an email to any address from the dashboard, and records one without delivering it', async () => {
    await nav('Guided test');
    const form = page.getByRole('form', { name: 'Send an email' });
    // The From starts at the verified domain.
    expect(await form.getByLabel('From').inputValue()).toBe('hello@acme.example');
    await form.getByLabel('To').fill('sam@dest.example');
    await form.getByLabel('Subject').fill('Sent from the form');
    await form.getByRole('button', { name: 'Send' }).click();
    await page.getByText('Queued for delivery.').waitFor();
    await screenshot(page, 'send-form');
    await page.getByRole('link', { name: 'Follow it in the logs' }).click();
    await heading('Email').waitFor();
    await page.getByText('Sent from the form').first().waitFor();
    await page.getByText('sam@dest.example').first().waitFor();
    await nav('Guided test');
    // Addresses as the API takes them: a display name, a Unicode name (the browser's own check of an
    // email field refused both before a byte was sent).
    await form.getByLabel('From').fill('Acme Büro <hello@acme.example>');
    await form.getByLabel('To').fill('Sam Dest <sam@dest.example>');
    await form.getByLabel('Subject').fill('Recorded only');
    await form.getByLabel('Record it in the logs only, without delivering it').check();
    await form.getByRole('button', { name: 'Send' }).click();
    await page.getByText('Recorded, not delivered.').waitFor();
    const recorded = await apiFetch(server, `/api/emails?limit=1`, { headers: { 'x-api-key': apiKey } });
    expect(((await recorded.json()) as { data: { from: string; to: string }[] }).data[0]).toMatchObject({
      from: 'Acme Büro <hello@acme.example>',
      to: 'Sam Dest <sam@dest.example>',
    });
  });

  it('finds a bounced email by its category in the logs, and not under another category', async () => {
    const res = await sendByApi('gone@dest.example', 'Your invoice #77', '<p>Attached.</p>');
    // A real send: the domain was verified above.
    expect(res.status).toBe(200);
    bouncedId = ((await res.json()) as { id: string }).id;
    await until('the invoice delivered', async () => {
      const m = await apiFetch(server, `/api/emails/${bouncedId}`, { headers: { 'x-api-key': apiKey } });
      return ((await m.json()) as { status: string }).status === 'delivered' ? true : undefined;
    });
    // Later the recipient's server reports the mailbox unknown. Recorded here as the receiver records
    // a report (db/inbound-repo.ts complete(): the event with its category, the status), on the
    // server's own database.
    const db = openDatabase(env.TXMAIL_DATABASE_URL!);
    try {
      const inbound = new InboundRepo(db.kysely, db.dialect);
      const now = Date.now();
      const reportId = newId();
      await inbound.store({
        id: reportId,
        received_at: now,
        remote_ip: '127.0.0.1',
        helo: 'mx.dest.example',
        mail_from: '',
        rcpt_to: '[]',
        size: 1,
        raw: '',
        status: 'pending',
        attempts: 1,
        lease_expires_at: now + 60_000,
        processed_at: null,
        outcome: null,
      });
      const account = (await (
        await apiFetch(server, `/api/account`, { headers: { 'x-api-key': apiKey } })
      ).json()) as { id: string };
      const event = {
        id: newId(),
        type: 'email.bounced' as const,
        data: {
          bounce_type: 'permanent',
          enhanced_code: '5.1.1',
          reason: 'the mailbox does not exist (5.1.1)',
          diagnostic_code: 'smtp; 550 5.1.1 <gone@dest.example>: Recipient address rejected: User unknown',
          category: 'unknown_recipient',
        },
      };
      const effect = { messageId: bouncedId, accountId: account.id, event, status: 'bounced' as const };
      expect(await inbound.complete(reportId, {}, [{ ...effect, suppression: undefined }], now)).toBe(true);
    } finally {
      await db.close();
    }

    await nav('Logs');
    await page.getByLabel('Category').selectOption('unknown_recipient');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('1 email', { exact: true }).waitFor();
    await page.getByRole('link', { name: 'Your invoice #77' }).waitFor();
    await page.getByRole('cell', { name: /bounced\s+unknown recipient/ }).waitFor();
    expect(new URL(page.url()).searchParams.get('category')).toBe('unknown_recipient');
    await screenshot(page, 'logs-category');

    await page.getByLabel('Category').selectOption('mailbox_full');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('No emails match.').waitFor();
    expect(await page.getByRole('link', { name: 'Your invoice #77' }).count()).toBe(0);

    // The detail says what the category means.
    await page.goto(`${server.url}/logs/${bouncedId}`);
    await heading('Email').waitFor();
    await page.getByText(CATEGORY_MEANING.unknown_recipient).first().waitFor();
    // A table, not cards, on a wide screen: each column's header above its cells.
    const attempts = page.getByRole('table', { name: 'Delivery attempts' });
    const left = (cell: ReturnType<Page['locator']>) => cell.evaluate((c) => c.getBoundingClientRect().left);
    expect(await left(attempts.locator('tbody td').first())).toBe(await left(attempts.locator('th').first()));
    await screenshot(page, 'email-detail-bounced');
  });

  it('opens the guided test email with its SMTP reply', async () => {
    await nav('Logs');
    await page.getByRole('link', { name: 'Your first email from txmail' }).first().click();
    await heading('Email').waitFor();
    await page.getByRole('heading', { name: 'Delivery attempts' }).waitFor();
    const reply = page.getByRole('cell', { name: /^250 / }).first();
    await reply.waitFor();
    // The server's reply as it was given, once (it already starts with its codes).
    expect(await reply.textContent()).toMatch(/^250 2\.0\.0 (?!250)/);
  });

  it('creates a webhook on a Pro account and sees a delivery attempt', async () => {
    // The free plan has no webhooks: the page says so instead of offering the form.
    await nav('Webhooks');
    await page.getByText('Your plan (free) includes no webhook endpoints.', { exact: false }).waitFor();
    expect(await page.getByLabel('Endpoint URL').count()).toBe(0);
    const plan = await runCli(['plan', 'set', '--account', EMAIL, '--plan', 'pro'], env);
    expect(plan.code, plan.stderr).toBe(0);
    await page.reload();
    await page.getByText('0 of 3 endpoints on your plan.').waitFor();
    const hookPort = await freePort();
    hooks = createServer((req, res) => {
      hookRequests.push(String(req.headers['webhook-id']));
      req.resume();
      res.writeHead(204).end();
    }).listen(hookPort, '127.0.0.1');
    // The server's refusal names the field as the form labels it, not as the API does ("url").
    await page.getByLabel('Endpoint URL').fill('ftp://files.example/events');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByText('“Endpoint URL” must start with https://', { exact: false }).waitFor();
    // The field itself says it is wrong, and why, to a screen reader.
    const url = page.getByLabel('Endpoint URL');
    expect(await url.getAttribute('aria-invalid')).toBe('true');
    await expect
      .poll(async () =>
        url.evaluate((el) =>
          el
            .getAttribute('aria-describedby')
            ?.split(' ')
            .map((i) => document.getElementById(i)?.textContent ?? '')
            .join(' '),
        ),
      )
      .toContain('must start with https://');
    await page.getByLabel('Endpoint URL').fill(`http://127.0.0.1:${hookPort}/events`);
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByText('Endpoint added.').waitFor();
    expect(await url.getAttribute('aria-invalid')).toBeNull();
    // Cleared, as the key form is: a second click makes no second endpoint for the same URL.
    expect(await page.getByLabel('Endpoint URL').inputValue()).toBe('');
    await page.getByRole('link', { name: 'Send it a test event' }).click();
    await page.getByRole('button', { name: 'Send test event' }).click();
    await page.getByText(/Test event delivered/).waitFor({ timeout: 30_000 });
    await page.getByRole('cell', { name: /webhook\.test/ }).waitFor();
    expect(hookRequests.length).toBeGreaterThan(0);
    await screenshot(page, 'webhook-endpoint');
    await page.getByRole('button', { name: 'Reveal' }).click();
    const secret = await page.getByText(/^whsec_/).innerText();
    // Edited in place: the description shows, the secret stays the same.
    await page.getByText('Edit the endpoint').click();
    await page.getByLabel('Description', { exact: true }).fill('orders service');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Saved; the secret is unchanged.').waitFor();
    await page.getByRole('definition').filter({ hasText: 'orders service' }).waitFor();
    const after = await page.evaluate(
      async (u) => (await fetch(u)).json(),
      new URL(page.url()).pathname.replace('/webhooks/', '/api/webhooks/') + '/secret',
    );
    expect((after as { secret: string }).secret).toBe(secret);
  });

  it('shows suppressions', async () => {
    await nav('Suppressions');
    await page.getByText('No suppressed addresses.').waitFor();
    // A refused address marks its own field, not the search box of the same name.
    await page.getByLabel('Suppress an address').fill('nope');
    await page.getByRole('button', { name: 'Suppress', exact: true }).click();
    await page.getByText('is not an email address', { exact: false }).waitFor();
    expect(await page.getByLabel('Suppress an address').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('Find addresses starting with').getAttribute('aria-invalid')).toBeNull();
    // By hand, as a customer who was asked not to mail someone; then removed again.
    await page.getByLabel('Suppress an address').fill('asked-not-to@dest.example');
    await page.getByLabel('Why (optional)').fill('asked by phone');
    await page.getByRole('button', { name: 'Suppress', exact: true }).click();
    await page.getByText('asked-not-to@dest.example is suppressed: sends to it are refused.').waitFor();
    await page.getByRole('cell', { name: 'asked-not-to@dest.example', exact: true }).waitFor();
    // Found by the start of the address, in any case.
    const find = page.getByLabel('Find addresses starting with');
    await find.fill('ASKED-');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('cell', { name: 'asked-not-to@dest.example', exact: true }).waitFor();
    // The form stays in place: the focus is still on its button, not dropped to the page.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Search');
    // Kept in the page's address: a reload keeps the search.
    await page.reload();
    await page.getByRole('cell', { name: 'asked-not-to@dest.example', exact: true }).waitFor();
    expect(await find.inputValue()).toBe('ASKED-');
    await find.fill('nobody');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('No suppressed address starts with nobody.').waitFor();
    await page.getByRole('button', { name: 'Show all' }).click();
    await page.getByRole('cell', { name: 'asked-not-to@dest.example', exact: true }).waitFor();
    await screenshot(page, 'suppressions');
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: 'Remove asked-not-to@dest.example' }).click();
    await page.getByText('asked-not-to@dest.example is no longer suppressed.').waitFor();
    // Its row, and the button that had the focus, are gone: the focus is back on the page's heading.
    await until('the focus on the heading', async () =>
      (await page.evaluate(() => document.activeElement?.tagName)) === 'H1' ? true : undefined,
    );
    // A long list: an entry removed from its second page leaves both pages on the screen.
    const accountId = await page.evaluate(
      async () =>
        ((await (await fetch('/api/auth/session')).json()) as { account: { id: string } }).account.id,
    );
    const db = openDatabase(env.TXMAIL_DATABASE_URL!);
    try {
      const created = Date.now();
      await db.kysely
        .insertInto('suppressions')
        .values(
          Array.from({ length: 105 }, (_, i) => ({
            id: newId(),
            account_id: accountId,
            address: `bulk-${String(i).padStart(3, '0')}@bulk.example`,
            origin: 'manual' as const,
            reason: 'added by hand',
            enhanced_code: null,
            source_message_id: null,
            created_at: created + i,
          })),
        )
        .execute();
    } finally {
      await db.close();
    }
    await page.reload();
    const rows = page.getByRole('table').getByRole('row');
    await page.getByRole('button', { name: 'Load more' }).click();
    await page.getByRole('cell', { name: 'bulk-000@bulk.example', exact: true }).waitFor();
    expect(await rows.count()).toBe(1 + 105);
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: 'Remove bulk-001@bulk.example' }).click();
    await page.getByText('bulk-001@bulk.example is no longer suppressed.').waitFor();
    await until('the row gone', async () => ((await rows.count()) === 1 + 104 ? true : undefined));
    await page.getByRole('cell', { name: 'bulk-000@bulk.example', exact: true }).waitFor();
  });

  it('keeps a subject of 300 letters without a space inside the page, in the log and in the detail', async () => {
    const subject = 'x'.repeat(300);
    const res = await sendByApi('long@dest.example', subject, '<p>x</p>');
    expect(res.status).toBe(200);
    const wide = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    await nav('Logs');
    await page.getByRole('link', { name: subject }).waitFor();
    expect(await wide()).toBeLessThanOrEqual(0);
    await page.getByRole('link', { name: subject }).click();
    await heading('Email').waitFor();
    expect(await wide()).toBeLessThanOrEqual(0);
  });

  it('says "No such page" for a link no page has, inside the dashboard', async () => {
    for (const path of [
      '/logs/%E0%A4%A',
      `/logs/${'a'.repeat(5000)}`,
      `/webhooks/${'b'.repeat(100)}`,
      '/logs/a/b',
      '/api-keys/123',
      '/settings/extra',
      '/logs/%00',
      '/nothing',
    ]) {
      await page.goto(`${server.url}${path}`);
      await heading('No such page')
        .waitFor({ timeout: 5000 })
        .catch(() => {
          throw new Error(`no "No such page" at ${path.slice(0, 40)}`);
        });
      // The dashboard's frame, not a bare refusal: its navigation is there.
      expect(await page.getByRole('link', { name: 'Logs' }).count(), path).toBeGreaterThan(0);
    }
    // A search that is the same as before asks the server again: the newest email appears.
    await page.goto(`${server.url}/logs`);
    await heading('Logs').waitFor();
    const subject = `Refreshed ${Date.now()}`;
    const res = await sendByApi('r@dest.example', subject, '<p>x</p>');
    expect(res.status).toBe(200);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('link', { name: subject }).waitFor();
  });

  it('works on a 375 px wide phone screen', async () => {
    const phone = await browser.newPage({ viewport: { width: 375, height: 740 }, isMobile: true });
    try {
      await phone.context().addCookies(await page.context().cookies());
      await phone.goto(`${server.url}/`);
      await phone.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
      // No sideways scrolling: the page fits the screen.
      expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      const menu = phone.getByRole('button', { name: 'Menu' });
      // Escape closes the open menu and leaves the focus on its button.
      await menu.click();
      expect(await menu.getAttribute('aria-expanded')).toBe('true');
      await phone.keyboard.press('Escape');
      await until('the menu closed', async () =>
        (await menu.getAttribute('aria-expanded')) === 'false' ? true : undefined,
      );
      expect(await phone.evaluate(() => document.activeElement?.textContent)).toBe('Menu');
      await menu.click();
      await phone.getByRole('link', { name: 'Logs', exact: true }).click();
      await phone.getByRole('heading', { level: 1, name: 'Logs' }).waitFor();
      await screenshot(phone, 'mobile-logs');
      // Tables whose buttons carry hidden labels once widened the whole page past the screen.
      for (const [path, title] of [
        ['/api-keys', 'API keys'],
        ['/members', 'Members'],
      ] as const) {
        await phone.goto(`${server.url}${path}`);
        await phone.getByRole('heading', { level: 1, name: title }).waitFor();
        await phone.getByRole('table').first().waitFor();
        expect(await phone.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(
          375,
        );
      }
    } finally {
      await phone.close();
    }
  });

  it('serves the pages under a strict CSP with nothing blocked', async () => {
    const errors: string[] = [];
    const fresh = await browser.newPage();
    fresh.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    fresh.on('pageerror', (e) => errors.push(e.message));
    const res = await fresh.goto(`${server.url}/login`);
    expect(res!.headers()['content-security-policy']).toContain("script-src 'self'");
    await fresh.getByRole('heading', { level: 1, name: 'Log in' }).waitFor();
    await fresh.close();
    expect(errors).toEqual([]);
  });

  it('has an accessibility check that finds serious problems (axe-core, on a page made with two)', async () => {
    const context = await browser.newContext();
    const p = await context.newPage();
    try {
      await p.setContent(
        '<html lang="en"><title>t</title><main><img src="x.png"><button></button></main></html>',
      );
      const found = await seriousViolations(p);
      expect(found.map((f) => f.split(' ')[0]).sort()).toEqual(['button-name', 'image-alt']);
    } finally {
      await context.close();
    }
  });

  // The pages in groups, a test each: all eighteen in one test took 13 s on a quiet machine and more
  // than the 60 s a test is given while the rest of the suite ran beside it.
  const phone = { width: 375, height: 740 };
  it.each<{ pages: string; paths: string[]; signedIn?: boolean; viewport?: typeof phone }>([
    {
      pages: 'the signed-in pages',
      paths: ['/', '/guided-test', '/api-keys', '/domains', '/logs'],
      signedIn: true,
    },
    {
      pages: 'more signed-in pages',
      paths: [
        '/webhooks',
        '/suppressions',
        '/settings',
        '/logs?category=unknown_recipient',
        '/logs/:bounced',
      ],
      signedIn: true,
    },
    {
      pages: 'the pages before signing in',
      paths: ['/login', '/signup', '/forgot-password', '/reset-password?token=x'],
    },
    // At a phone's width, where wide tables scroll in their boxes or turn into cards.
    {
      pages: 'the pages at a phone’s width',
      paths: ['/', '/logs', '/webhooks', '/logs/:bounced'],
      signedIn: true,
      viewport: phone,
    },
  ])(
    'has no serious or critical accessibility problems (axe-core) on $pages',
    async ({ paths, signedIn, viewport }) => {
      const problems = await accessibilityProblems(
        browser,
        server,
        paths.map((path) => path.replace(':bounced', bouncedId)),
        { ...(signedIn ? { as: page } : {}), ...(viewport ? { viewport } : {}) },
      );
      expect(problems.map((p) => (viewport ? `${viewport.width} px: ${p}` : p))).toEqual([]);
    },
  );

  it('works by keyboard alone: skip link first, then the form, submitted with Enter', async () => {
    const context = await browser.newContext();
    const p = await context.newPage();
    try {
      await p.goto(`${server.url}/login`);
      await p.getByRole('heading', { level: 1, name: 'Log in' }).waitFor();
      await p.keyboard.press('Tab');
      expect(await p.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
      await p.keyboard.press('Tab');
      expect(await p.evaluate(() => (document.activeElement as HTMLInputElement).name)).toBe('email');
      // The focus is visible: an outline is drawn around the focused field.
      expect(await p.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle)).not.toBe('none');
      await p.keyboard.type(EMAIL);
      await p.keyboard.press('Tab');
      await p.keyboard.type(PASSWORD);
      await p.keyboard.press('Enter');
      await p.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    } finally {
      await context.close();
    }
  });

  it('remembers this browser for log-ins: a stranger on the same network who guesses wrong ten times is kept out, the owner is not', async () => {
    // The device cookie the verification link and the log-ins gave: no script reads it, and only the
    // log-in route receives it.
    const device = (await page.context().cookies()).find((c) => c.name === 'txmail_device');
    expect(device).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/api/auth/login', secure: false });
    const stranger = await browser.newContext();
    try {
      const p = await stranger.newPage();
      await p.goto(`${server.url}/login`);
      await p.getByRole('heading', { level: 1, name: 'Log in' }).waitFor();
      const statuses = await p.evaluate(async (email) => {
        const out: number[] = [];
        for (let i = 0; i < 10; i++) {
          const res = await fetch('/api/auth/login', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ email, password: `wrong guess ${i}` }),
          });
          out.push(res.status);
        }
        return out;
      }, EMAIL);
      expect(statuses).toEqual(Array.from({ length: 10 }, () => 401));
      await p.getByLabel('Email').fill(EMAIL);
      await p.getByLabel('Password').fill(PASSWORD);
      await p.getByRole('button', { name: 'Log in' }).click();
      await p.getByText(/^Too many failed log-in attempts.*\(rate_limit_exceeded\)$/).waitFor();
    } finally {
      await stranger.close();
    }
    // The owner's browser, on the same network, logs out and back in as before: nothing to see.
    await page.goto(`${server.url}/`);
    await heading('Overview').waitFor();
    await page.getByRole('button', { name: 'Log out' }).click();
    await heading('Log in').waitFor();
    await logIn(page, server, EMAIL, PASSWORD);
  });
});
