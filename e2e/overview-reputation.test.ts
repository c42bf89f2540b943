// The overview's reputation panel and 30-day chart in real headless Chromium, against the real
// `txmail serve` (API, worker, SMTP client) delivering to a real SMTP sink found through a real DNS
// server: nothing sent yet shows the empty state; real sends, some of which the sink refuses with
// 550 5.1.1, show on the chart as today's numbers and in the rates; once the window holds
// min_messages, the account pauses itself and the overview says so, with the reason. Saves
// docs/screenshots/overview-reputation.png.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
  serveEnvironment,
  stopAll,
} from './browser.js';

const EMAIL = 'owner@inbox.example';
const PASSWORD = 'a long enough password';
/** Small enough for a test to reach with real sends; the rates and states are the defaults'. */
const MIN_MESSAGES = 10;

interface Account {
  reputation: { status: string; messages: number; bounce_rate: number; reason: string | null };
}

describe.runIf(chromiumAvailable())('the overview’s reputation and activity in a browser', () => {
  const mail = new MailFixture();
  const { dns } = mail;
  const dir = mkdtempSync(join(tmpdir(), 'txmail-e2e-rep-'));
  let env: Record<string, string>;
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let apiKey = '';

  const api = async (method: string, path: string, body?: unknown) =>
    apiFetch(server, path, {
      method,
      headers: { 'x-api-key': apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const account = async () => (await (await api('GET', '/api/account')).json()) as Account;
  /**
   * Sends one real email to each `local`@dest.example and waits until each reaches its status. The log
   * is read a few times a second, not in a tight loop: the API's rate limit counts those reads too.
   */
  const sendAndSettle = async (sends: [local: string, status: 'delivered' | 'bounced'][]) => {
    const expected = new Map<string, string>();
    for (const [local, status] of sends) {
      const res = await api('POST', '/api/email/send', {
        from: 'Acme <hello@acme.example>',
        to: `${local}@dest.example`,
        subject: `Order update for ${local}`,
        message: '<p>Your order shipped.</p>',
      });
      expect(res.status, await res.clone().text()).toBe(200);
      expected.set(((await res.json()) as { id: string }).id, status);
    }
    await until(`${sends.map(([l, s]) => `${l} ${s}`).join(', ')}`, async () => {
      await new Promise((r) => setTimeout(r, 250));
      const res = await api('GET', '/api/emails?limit=100');
      if (res.status !== 200) return undefined;
      const rows = ((await res.json()) as { data: { id: string; status: string }[] }).data;
      const done = [...expected].every(([id, status]) => rows.find((r) => r.id === id)?.status === status);
      return done ? true : undefined;
    });
  };
  const today = () => new Date().toISOString().slice(0, 10);
  const heading = (name: string) => page.getByRole('heading', { level: 1, name });
  const openOverview = async () => {
    await page.goto(`${server.url}/`);
    await heading('Overview').waitFor();
  };

  beforeAll(async () => {
    await mail.start();
    const port = await freePort();
    env = {
      ...serveEnvironment(dir, mail, port, await freePort()),
      TXMAIL_REPUTATION: `min_messages=${MIN_MESSAGES}`,
    };
    const migrated = await runCli(['migrate'], env);
    expect(migrated.code, migrated.stderr).toBe(0);
    const created = await runCli(['account', 'create', '--email', EMAIL, '--password', PASSWORD], env);
    expect(created.code, created.stderr).toBe(0);
    const key = await runCli(['key', 'create', '--account', EMAIL, '--json'], env);
    expect(key.code, key.stderr).toBe(0);
    apiKey = (JSON.parse(key.stdout) as { key: string }).key;
    server = await startServer('serve', env, port);

    // A verified sending domain, so that sends are real sends: its records published as the API gives them.
    const added = await api('POST', '/api/domains', { name: 'acme.example' });
    expect(added.status, await added.clone().text()).toBe(201);
    const domain = (await added.json()) as {
      id: string;
      records: { type: string; name: string; value: string; priority?: number }[];
    };
    for (const r of domain.records) {
      if (r.type === 'TXT') dns.add(r.name, 'TXT', r.value);
      if (r.type === 'MX') dns.add(r.name, 'MX', { preference: r.priority ?? 10, exchange: r.value });
      const include = /include:(\S+)/.exec(r.value);
      if (include) dns.add(include[1]!, 'TXT', 'v=spf1 ip4:127.0.0.1 -all');
    }
    const verified = await api('POST', `/api/domains/${domain.id}/verify`);
    expect(verified.status, await verified.clone().text()).toBeLessThan(300);
    await until('the domain verified', async () =>
      ((await (await api('GET', `/api/domains/${domain.id}`)).json()) as { status: string }).status ===
      'verified'
        ? true
        : undefined,
    );

    browser = await launchChromium(server);
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.setDefaultTimeout(15_000);
    await logIn(page, server, EMAIL, PASSWORD);
  });

  afterAll(() => stopAll({ browser, server, mail, dir }));

  it('shows an empty state and a healthy account not judged yet before anything is sent', async () => {
    await openOverview();
    await page.getByTestId('activity-empty').waitFor();
    expect(await page.getByTestId('reputation-status').textContent()).toBe('Healthy');
    await page.getByText(`Not judged until ${MIN_MESSAGES} messages`).waitFor();
    expect(await page.locator('svg.activity-chart').count()).toBe(0);
  });

  it('draws today’s real sends on the chart and the rates against their thresholds', async () => {
    await sendAndSettle([
      ...Array.from({ length: 6 }, (_, i) => [`reader${i}`, 'delivered'] as [string, 'delivered']),
      ['bounce-a', 'bounced'],
    ]);
    await openOverview();
    // Today is the last of 30 days, and its tooltip holds its numbers.
    const chart = page.locator('svg.activity-chart');
    await chart.waitFor();
    expect(await chart.locator('g.day').count()).toBe(30);
    const day = chart.locator(`g.day[data-date="${today()}"]`);
    expect(await day.locator('title').textContent()).toMatch(
      /: 7 sent, 6 delivered, 1 bounced, 0 complained$/,
    );
    expect(await chart.locator('g.day').last().getAttribute('data-date')).toBe(today());
    // The other days are drawn empty, not left out.
    expect(await chart.locator('g.day').first().locator('title').textContent()).toMatch(
      /: 0 sent, 0 delivered, 0 bounced, 0 complained$/,
    );
    // The daily bounce rate against the default thresholds, with today's point: 1 bad-address bounce
    // of 7 final messages (the guard's window columns of the day).
    const bounceChart = page.getByRole('img', { name: /^Bounce rate per day/ });
    await bounceChart.waitFor();
    expect(await bounceChart.locator('g.point title').last().textContent()).toMatch(
      /bounce rate 14\.3 % \(1 of 7\)$/,
    );
    // The panel: the window's rate, both thresholds, the message count, still below min_messages.
    const panel = page.getByRole('region', { name: 'Sending reputation' });
    await panel.getByText('Bounce rate: 14.3 %').waitFor();
    await panel.getByRole('img', { name: 'Bounce rate 14.3 %: warning at 5 %, paused at 10 %' }).waitFor();
    await panel.getByRole('img', { name: 'Complaint rate 0 %: warning at 0.1 %, paused at 0.5 %' }).waitFor();
    await panel.locator('.mark-key', { hasText: 'warning at 5 %' }).waitFor();
    await panel.locator('.mark-key', { hasText: 'paused at 10 %' }).waitFor();
    await panel.getByText(/^7\s+messages reached a final state in the last 7 days/).waitFor();
    await panel.getByText(`Not judged until ${MIN_MESSAGES} messages`).waitFor();
    expect(await panel.getByTestId('reputation-status').textContent()).toBe('Healthy');
    await panel.getByRole('rowheader', { name: 'acme.example' }).waitFor();
    // The numbers, day by day, for those who would rather read.
    await page.getByText('The numbers, day by day').click();
    await page.getByRole('rowheader', { name: today() }).waitFor();
  });

  it('shows the account paused by its own bounces, with the reason, once the window is judged', async () => {
    // The delivery first: a bounce has its account judged a second later (reputation/guard.ts), and a
    // delivery that ends after that judgement, bringing the window to MIN_MESSAGES, waits for the
    // five-minute sweep (a loaded run once had the two bounces judged at 9 messages).
    await sendAndSettle([['reader6', 'delivered']]);
    await sendAndSettle([
      ['bounce-b', 'bounced'],
      ['bounce-c', 'bounced'],
    ]);
    // 10 final messages, 3 of them unknown recipients: 30 %, above the 10 % pause threshold.
    const paused = await until('the account paused', async () => {
      await new Promise((r) => setTimeout(r, 250));
      const a = await account();
      return a.reputation.status === 'paused' ? a : undefined;
    });
    expect(paused.reputation.messages).toBe(MIN_MESSAGES);
    // The account is told by email, from the service's own domain: that message counts in the activity
    // (not in the rates), so the day's numbers are read once it has been delivered.
    await until('the pause notice delivered and counted', async () => {
      await new Promise((r) => setTimeout(r, 250));
      const res = await api('GET', '/api/account/activity?days=1');
      const d = ((await res.json()) as { days: { delivered: number }[] }).days[0];
      return d?.delivered === 8 ? true : undefined;
    });
    await openOverview();
    expect(await page.getByTestId('reputation-status').textContent()).toBe('Sending paused');
    const alert = page.getByRole('alert').filter({ hasText: 'Sending is paused' });
    await alert.waitFor();
    expect(await alert.textContent()).toContain(paused.reputation.reason!);
    expect(paused.reputation.reason).toMatch(/30\.0 %/);
    await alert.getByText('until the operator resumes the account').waitFor();
    expect(await page.getByText('Production: you can send').count()).toBe(0);
    // Said once: the account's notice of the same move is not listed beside the live banner.
    expect(await page.getByText(/Sending is paused/).count()).toBe(1);
    const panel = page.getByRole('region', { name: 'Sending reputation' });
    await panel.getByText('Bounce rate: 30.0 %').waitFor();
    expect(await panel.getByText('Not judged until').count()).toBe(0);
    await panel.getByText('30.0 % (pause level)').waitFor();
    const day = page.locator(`svg.activity-chart g.day[data-date="${today()}"] title`);
    expect(await day.textContent()).toMatch(/: 11 sent, 8 delivered, 3 bounced, 0 complained$/);
    // The day's bounce rate is the guard's: the 3 bad-address bounces over the day's 10 final messages,
    // the service's own notice (in the 8 delivered above) left out: 30 %, as the panel says, not 3 of 11.
    const bounceChart = page.getByRole('img', { name: /^Bounce rate per day/ });
    expect(await bounceChart.locator('g.point title').last().textContent()).toMatch(
      /bounce rate 30\.0 % \(3 of 10\)$/,
    );
    await screenshot(page, 'overview-reputation');
    // And the send route says so.
    const refused = await api('POST', '/api/email/send', {
      from: 'hello@acme.example',
      to: 'reader7@dest.example',
      subject: 'Refused',
      message: '<p>x</p>',
    });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toMatch(/^account_paused: /);
  });

  it('fits a 375 px wide phone screen: the chart and the table scroll inside their boxes, not the page', async () => {
    const phone = await browser.newPage({ viewport: { width: 375, height: 740 }, isMobile: true });
    try {
      await phone.context().addCookies(await page.context().cookies());
      await phone.goto(`${server.url}/`);
      await phone.locator('svg.activity-chart').waitFor();
      await phone.getByTestId('reputation-status').waitFor();
      expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      // The last two weeks, today among them, fit the screen: nothing to scroll to find today.
      await phone.getByText('The chart shows the last 14 days; the table below has all 30.').waitFor();
      expect(await phone.locator('svg.activity-chart g.day').count()).toBe(14);
      expect(await phone.locator(`svg.activity-chart g.day[data-date="${today()}"]`).count()).toBe(1);
      const fits = await phone
        .locator('.chart-wrap')
        .first()
        .evaluate((el) => el.scrollWidth <= el.clientWidth);
      expect(fits).toBe(true);
      await screenshot(phone, 'mobile-overview');
    } finally {
      await phone.close();
    }
  });

  it('has no serious or critical accessibility problems (axe-core) on the overview with its charts', async () => {
    for (const viewport of [undefined, { width: 375, height: 740 }]) {
      const problems = await accessibilityProblems(browser, server, ['/'], {
        as: page,
        ready: (p) => p.locator('svg.activity-chart').waitFor(),
        ...(viewport ? { viewport } : {}),
      });
      expect(problems, `at ${viewport?.width ?? 'the default'} px`).toEqual([]);
    }
  });
});
