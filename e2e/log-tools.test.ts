// The log as an investigation tool in real headless Chromium, against the real `txmail serve` (API,
// worker, receiver): a sandboxed account with no domain rehearses with the simulator's addresses, finds
// its messages by subject words, recipient domain and Message-ID, exports the filtered log as CSV,
// reads a message's raw bytes and what the content retention will do, and sets the retention in
// Settings. Saves docs/screenshots/log-search.png and email-raw.png.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database.js';
import { MailFixture } from '../test/helpers/mail-fixture.js';
import { messageRow } from '../test/helpers/message-row.js';
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
/** TXMAIL_TEST_DOMAIN's default: test.<TXMAIL_HOSTNAME>. */
const SIM = 'simulator.test.mta.txmail.test';

describe.runIf(chromiumAvailable())('the log’s tools in a browser', () => {
  const mail = new MailFixture();
  const dir = mkdtempSync(join(tmpdir(), 'txmail-e2e-log-'));
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let apiKey = '';
  let databaseUrl = '';
  const ids: Record<string, string> = {};

  const api = async (method: string, path: string, body?: unknown) =>
    apiFetch(server, path, {
      method,
      headers: { 'x-api-key': apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const status = async (id: string) => {
    const d = (await (await api('GET', `/api/emails/${id}`)).json()) as {
      status: string;
      raw_bytes: number | null;
    };
    // Attempted means its bytes are kept too (they follow the attempt's record by a moment).
    return d.raw_bytes === null ? 'not kept yet' : d.status;
  };
  const heading = (name: string) => page.getByRole('heading', { level: 1, name });
  /** No serious or critical axe-core finding on what `path` shows once `ready` is on it. */
  const accessible = async (path: string, ready: string) =>
    expect(
      await accessibilityProblems(browser, server, [path], {
        as: page,
        ready: (p) => p.getByText(ready).first().waitFor(),
      }),
    ).toEqual([]);

  beforeAll(async () => {
    await mail.start();
    const port = await freePort();
    const env = serveEnvironment(dir, mail, port, await freePort());
    databaseUrl = env.TXMAIL_DATABASE_URL!;
    const migrated = await runCli(['migrate'], env);
    expect(migrated.code, migrated.stderr).toBe(0);
    const created = await runCli(['account', 'create', '--email', EMAIL, '--password', PASSWORD], env);
    expect(created.code, created.stderr).toBe(0);
    const key = await runCli(['key', 'create', '--account', EMAIL, '--json'], env);
    expect(key.code, key.stderr).toBe(0);
    apiKey = (JSON.parse(key.stdout) as { key: string }).key;
    server = await startServer('serve', env, port);

    // In the sandbox, from a domain never added: only the simulator takes these.
    for (const [kind, subject] of [
      ['delivered', 'Your sign-in code'],
      ['bounce', 'Reset your password'],
      ['delivered', 'Receipt for order 1001'],
      ['delayed', 'Your delayed statement'],
    ] as const) {
      const res = await api('POST', '/api/email/send', {
        from: 'Acme <hello@acme.example>',
        to: `${kind}@${SIM}`,
        subject,
        message: `<p>${subject}: 424242</p>`,
      });
      expect(res.status, await res.clone().text()).toBe(200);
      ids[subject] = ((await res.json()) as { id: string }).id;
    }
    await until('the simulated answers', async () => {
      await new Promise((r) => setTimeout(r, 200));
      const states = await Promise.all(Object.values(ids).map(status));
      return states.every((s) => s === 'delivered' || s === 'bounced' || s === 'deferred') ? true : undefined;
    });
    expect(mail.sink.received).toEqual([]);

    browser = await launchChromium(server);
    page = await browser.newPage({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    page.setDefaultTimeout(15_000);
    await logIn(page, server, EMAIL, PASSWORD);
  });

  afterAll(() => stopAll({ browser, server, mail, dir }));

  const rowsShown = async () => {
    await page.getByText(/^(No emails match\.|\d+\+? emails?)$/).waitFor();
    return page.locator('table.logs tbody tr').allTextContents();
  };

  it('searches the log by subject words, recipient domain and Message-ID, and exports CSV', async () => {
    await page.goto(`${server.url}/logs`);
    await heading('Logs').waitFor();
    const all = await rowsShown();
    expect(all).toHaveLength(4);
    // The deferred one says what happens next; the others have nothing next.
    expect(all.filter((r) => /Retry: attempt 2 at .*; expires /.test(r))).toHaveLength(1);

    await page.getByLabel('Search').fill('reset password');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/q=reset/);
    const found = await rowsShown();
    expect(found).toHaveLength(1);
    expect(found[0]).toContain('Reset your password');
    await screenshot(page, 'log-search');
    await accessible(`/logs${new URL(page.url()).search}`, 'Reset your password');

    await page.getByLabel('Search').fill(`<${ids['Receipt for order 1001']}@mta.txmail.test>`);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/q=%3C/);
    expect((await rowsShown()).map((r) => r.includes('Receipt for order 1001'))).toEqual([true]);

    await page.getByLabel('Search').fill('');
    await page.getByLabel('To domain').fill(SIM);
    await page.getByLabel('Status').selectOption('delivered');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/status=delivered/);
    expect(await rowsShown()).toHaveLength(2);

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('emails.csv');
    const csv = readFileSync(await file.path(), 'utf8').split('\r\n');
    expect(csv[0]).toBe('id,created_at,status,category,from,to,subject,attempts,updated_at');
    expect(csv.slice(1, -1).map((l) => l.split(',')[0])).toEqual([
      ids['Receipt for order 1001'],
      ids['Your sign-in code'],
    ]);
  });

  it('shows the log with the API’s refusal for a time in its address that is no time, not a blank page', async () => {
    for (const search of ['since=garbage', 'until=2020-13-45', 'since=99999999999999']) {
      await page.goto(`${server.url}/logs?${search}`);
      await heading('Logs').waitFor();
      await page.getByText(/must be an ISO 8601 time/).waitFor();
      expect(await page.getByLabel('From time').inputValue()).toBe('');
    }
  });

  it('keeps the focus on Search after a search by keyboard, and an email leads back to the filtered log', async () => {
    await page.goto(`${server.url}/logs`);
    await heading('Logs').waitFor();
    await page.getByLabel('Status').selectOption('delivered');
    await page.getByRole('button', { name: 'Search' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/status=delivered/);
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Search');
    // From later than until: said in words, and not searched.
    await page.getByLabel('From time').fill('2030-01-02T10:00');
    await page.getByLabel('Until').fill('2030-01-01T10:00');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('“From time” is after “Until”').waitFor();
    expect(page.url()).not.toMatch(/since=/);
    // A refused filter names the field as the form labels it.
    await page.getByLabel('From time').fill('');
    await page.getByLabel('Until').fill('');
    await page.getByLabel('Recipient').fill('jane');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('“Recipient”', { exact: false }).waitFor();
    // An email of the filtered log leads back to it, filters and all.
    await page.goto(`${server.url}/logs?status=delivered`);
    await page.getByRole('link', { name: 'Receipt for order 1001' }).click();
    await heading('Email').waitFor();
    await page.getByRole('link', { name: '← Back to the logs' }).click();
    await page.waitForURL(/\/logs\?status=delivered$/);
    expect(await rowsShown()).toHaveLength(2);
  });

  it('shows the raw message as sent and when its content goes', async () => {
    await page.goto(`${server.url}/logs/${ids['Your sign-in code']}`);
    await heading('Email').waitFor();
    // A free plan's log (48 hours) goes before the content's 30 days: the page gives the log's date.
    await page
      .getByText(
        /^The whole email leaves the log on .+ \(your plan keeps it 48 hours\), before its content’s 30 days have passed\.$/,
      )
      .waitFor();
    await page.getByText(/^Raw message as sent \([\d,]+ bytes\)$/).click();
    const raw = page.locator('details[open] pre.code');
    await raw.waitFor();
    const text = await raw.textContent();
    // From a domain this sandboxed account may not send from: the simulator signs nothing.
    expect(text).not.toMatch(/^DKIM-Signature: /m);
    expect(text).toContain(`Message-ID: <${ids['Your sign-in code']}@mta.txmail.test>`);
    expect(text).toContain('424242');
    await screenshot(page, 'email-raw');
    await accessible(new URL(page.url()).pathname, 'The whole email leaves the log on');
  });

  it('says what happens next to a deferred email', async () => {
    await page.goto(`${server.url}/logs/${ids['Your delayed statement']}`);
    await heading('Email').waitFor();
    const next = page.locator('li.event.pending');
    await next.waitFor();
    expect(await next.textContent()).toMatch(/^Next Retry: attempt 2 at .+; expires .+$/);
    expect(await next.locator('.next-step').getAttribute('title')).toMatch(
      /^retry 1 \(attempt 2\) at .* after a temporary failure \(mailbox_full\); it expires at /,
    );
    await screenshot(page, 'email-next');
  });

  it('re-sends an email as a new one, linked both ways', async () => {
    await page.goto(`${server.url}/logs/${ids['Receipt for order 1001']}`);
    await heading('Email').waitFor();
    await page.getByRole('button', { name: 'Re-send as a new email' }).click();
    await page.getByRole('link', { name: 'open the new email' }).click();
    await page.getByText('Re-sent from').waitFor();
    const copy = new URL(page.url()).pathname.split('/').pop()!;
    expect(copy).not.toBe(ids['Receipt for order 1001']);
    // The copy's page is its own: nothing of the original's page (its "Queued a copy" notice, linking
    // to this very page) is carried over.
    expect(await page.getByText('Queued a copy').count()).toBe(0);
    await page.getByRole('link', { name: 'the original email' }).click();
    await page.getByRole('link', { name: 'copy 1' }).waitFor();
    await until('the copy delivered by the simulator', async () => {
      await new Promise((r) => setTimeout(r, 200));
      return (await status(copy)) === 'delivered' ? true : undefined;
    });
  });

  it('sets how long content is kept', async () => {
    await page.goto(`${server.url}/settings`);
    await heading('Settings').waitFor();
    await page.getByText('Content removed after 30 days.').waitFor();
    await page.getByLabel('Remove content after').selectOption('7');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Content is removed 7 days after an email is final.').waitFor();
    expect(
      ((await (await api('GET', '/api/account')).json()) as { content_retention_days: number })
        .content_retention_days,
    ).toBe(7);
    await page.getByLabel('Remove content after').selectOption('keep');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Content is kept as long as the log.', { exact: true }).first().waitFor();
    expect(
      ((await (await api('GET', '/api/account')).json()) as { content_retention_days: number | null })
        .content_retention_days,
    ).toBeNull();
    await page.goto(`${server.url}/logs/${ids['Your sign-in code']}`);
    await page
      .getByText('Content kept as long as the log (no content retention).', { exact: false })
      .waitFor();
  });

  it('shows a long log again as far as it was, and where, when the browser comes back from an email', async () => {
    const { id: accountId } = (await (await api('GET', '/api/account')).json()) as { id: string };
    const db = openDatabase(databaseUrl);
    try {
      const created = Date.now() - 60_000;
      const rows = Array.from({ length: 120 }, (_, i) =>
        messageRow(accountId, {
          subject: `Bulk ${String(i).padStart(3, '0')}`,
          to_email: `b${i}@bulk.example`,
          to_domain: 'bulk.example',
          status: 'delivered',
          next_attempt_at: null,
          created_at: created + i,
          updated_at: created + i,
        }),
      );
      await db.kysely.insertInto('messages').values(rows).execute();
      await db.kysely
        .insertInto('message_bodies')
        .values(rows.map((r) => ({ message_id: r.id, html: '<p>x</p>' })))
        .execute();
    } finally {
      await db.close();
    }
    await page.goto(`${server.url}/logs?domain=bulk.example`);
    const links = page.getByRole('table').getByRole('link');
    await until('the first page', async () => ((await links.count()) === 50 ? true : undefined));
    await page.getByRole('button', { name: 'Load more' }).click();
    await until('the second page', async () => ((await links.count()) === 100 ? true : undefined));
    // Newest first: the 90th row is "Bulk 030".
    const target = page.getByRole('link', { name: 'Bulk 030', exact: true });
    await target.scrollIntoViewIfNeeded();
    const scrolled = await page.evaluate(() => window.scrollY);
    expect(scrolled).toBeGreaterThan(0);
    await target.click();
    await heading('Email').waitFor();
    await page.goBack();
    await until('both pages again', async () => ((await links.count()) === 100 ? true : undefined));
    await until('the scroll where it was', async () =>
      Math.abs((await page.evaluate(() => window.scrollY)) - scrolled) < 5 ? true : undefined,
    );
    // Another search starts at its first page.
    await page.goto(`${server.url}/logs?domain=bulk.example&status=delivered`);
    await until('one page', async () => ((await links.count()) === 50 ? true : undefined));
  });
});
