// Headless Chromium for the browser tests: Debian's `chromium` package (TXMAIL_CHROMIUM overrides the
// path) driven by playwright-core, which downloads no browser of its own. Every /api answer its pages
// get is checked against the server's /openapi.json, as every answer of the tests' in-process apps is.
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import jsQR from 'jsqr';
import { chromium, type Browser, type BrowserContext, type Page, type Response } from 'playwright-core';
import type { MailFixture } from '../test/helpers/mail-fixture.js';
import type { RunningServer } from '../test/helpers/process.js';
import type { Answer } from '../test/helpers/openapi-contract.js';
import { checkAnswer, contractOf, settleContract, textual } from '../test/helpers/server-contract.js';

export { apiFetch } from '../test/helpers/server-contract.js';

export const CHROMIUM = process.env.TXMAIL_CHROMIUM ?? '/usr/bin/chromium';
export const SCREENSHOTS = join(import.meta.dirname, '..', 'docs', 'screenshots');

/** Whether the browser is installed; without it the suite is skipped with a notice, but never under CI. */
export function chromiumAvailable(): boolean {
  if (existsSync(CHROMIUM)) return true;
  if (process.env.CI)
    throw new Error(`Chromium is not installed at ${CHROMIUM} under CI (.ci/run installs it)`);
  console.warn(`Chromium is not installed at ${CHROMIUM}: the browser tests are skipped`);
  return false;
}

const browserServers = new WeakMap<Browser, { url: string }>();

/**
 * Chromium for a test of `server` (a running `txmail serve`): every /api answer any page of any of its
 * contexts gets from the server is checked against the server's own /openapi.json; one the document
 * does not describe fails the test file (test/openapi-contract-file.ts). Close it with closeChromium.
 */
export async function launchChromium(server: { url: string }): Promise<Browser> {
  const state = await contractOf(server);
  const watch = (context: BrowserContext) =>
    context.on('response', (response) => {
      // A failed check stays pending: closeChromium (settleContract) throws it.
      checkAnswer(state, new URL(response.url()), (route) => answerOf(response, route)).catch(
        () => undefined,
      );
    });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // Containers run tests as root, where Chromium's sandbox cannot start.
    args: ['--no-sandbox', '--disable-dev-shm-usage'],
  });
  // Emitted as each context is made, before any of its pages exist: browser.newPage's contexts too.
  browser.on('context', watch);
  browserServers.set(browser, server);
  return browser;
}

/** Waits for the checks of the answers the pages got, then closes the browser. */
export async function closeChromium(browser: Browser | undefined): Promise<void> {
  if (!browser) return;
  await settleContract(browserServers.get(browser));
  await browser.close();
}

/**
 * An answer as the contract check takes it. JSON and text bodies are checked; others (the raw message)
 * by status and media type only, as the in-process check does with bytes. A body the browser can no
 * longer give (its page closed first) is left out the same way.
 */
async function answerOf(response: Response, route: string | undefined): Promise<Answer> {
  const contentType = response.headers()['content-type'];
  return {
    method: response.request().method(),
    route,
    status: response.status(),
    contentType,
    body: textual(contentType) ? await response.text().catch(() => undefined) : undefined,
  };
}

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The page's serious and critical accessibility violations (axe-core), each `<rule> at <targets>`. */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run(
            context: Document,
            options: { resultTypes: string[] },
          ): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }>;
        };
      }
    ).axe;
    // Every rule still runs; only the violations are worked out in full (axe-core's advice for speed:
    // the selectors of the passing nodes, which nobody reads here, are most of a page's time).
    return (await axe.run(document, { resultTypes: ['violations'] })).violations;
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

const PAGES_AT_ONCE = 3;

/**
 * The serious and critical accessibility problems (axe-core) of each of `paths` on `server`, each
 * `<path>: <rule> at <targets>`, seen with the cookies of `as` (signed out without), each page once
 * `ready` says it is drawn (default: its first h1). axe is injected as a script: the context made for it
 * lets it past the CSP, which the pages keep otherwise.
 */
export async function accessibilityProblems(
  browser: Browser,
  server: { url: string },
  paths: string[],
  options: {
    as?: Page;
    ready?: (page: Page) => Promise<void>;
    /** A phone's: the tables then scroll in their boxes (or turn to cards), which axe judges too. */
    viewport?: { width: number; height: number };
  } = {},
): Promise<string[]> {
  const ready = options.ready ?? ((p: Page) => p.getByRole('heading', { level: 1 }).first().waitFor());
  const context = await browser.newContext({
    bypassCSP: true,
    ...(options.viewport ? { viewport: options.viewport, isMobile: true } : {}),
  });
  try {
    if (options.as) await context.addCookies(await options.as.context().cookies());
    const check = async (path: string) => {
      const p = await context.newPage();
      await p.goto(`${server.url}${path}`, { waitUntil: 'networkidle' });
      await ready(p);
      const found = (await seriousViolations(p)).map((v) => `${path}: ${v}`);
      await p.close();
      return found;
    };
    // A few pages at once: each waits half a second for the network to go quiet, which the others'
    // checks fill.
    const found: string[][] = [];
    let next = 0;
    const lane = async () => {
      for (let i = next++; i < paths.length; i = next++) found[i] = await check(paths[i]!);
    };
    await Promise.all(Array.from({ length: PAGES_AT_ONCE }, lane));
    if (found.length !== paths.length) throw new Error(`checked ${found.length} of ${paths.length} pages`);
    return found.flat();
  } finally {
    await context.close();
  }
}

/** Logs `page` in on `server`'s log-in page with a password (no second factor), up to the overview. */
export async function logIn(
  page: Page,
  server: { url: string },
  email: string,
  password: string,
): Promise<void> {
  await page.goto(`${server.url}/login`);
  await page.getByRole('heading', { level: 1, name: 'Log in' }).waitFor();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
}

/**
 * Ends what a browser test started, each part that was started, in order: the browser (after the
 * contract checks of its answers: closeChromium), the server (SIGTERM, then its exit), the mail
 * fixture, the folder. Every part is stopped even when one fails; the first failure is thrown.
 */
export async function stopAll(parts: {
  browser?: Browser | undefined;
  server?: RunningServer | undefined;
  mail?: MailFixture;
  dir?: string;
}): Promise<void> {
  const failures: unknown[] = [];
  const step = async (stop: () => Promise<unknown>) => {
    try {
      await stop();
    } catch (err) {
      failures.push(err);
    }
  };
  await step(() => closeChromium(parts.browser));
  // The test's own calls (apiFetch) to a server it drove without a browser, or after closing it.
  await step(() => settleContract(parts.server));
  await step(async () => {
    if (!parts.server) return;
    parts.server.child.kill('SIGTERM');
    await parts.server.exited;
  });
  await step(async () => parts.mail?.stop());
  await step(async () => {
    if (parts.dir) rmSync(parts.dir, { recursive: true, force: true });
  });
  if (failures.length > 0) throw failures[0];
}

/** Saves docs/screenshots/<name>.png of the whole page. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true, animations: 'disabled' });
}

/**
 * The environment of the `txmail serve` a browser test drives, on SQLite in `dir`: its mail for
 * inbox.example and dest.example goes to the mail fixture's sink through its DNS server (whose records
 * this adds).
 */
export function serveEnvironment(
  dir: string,
  mail: MailFixture,
  httpPort: number,
  inboundPort: number,
): Record<string, string> {
  mail.addDomain('inbox.example').addDomain('dest.example', 'mx.inbox.example');
  return {
    ...mail.env,
    TXMAIL_DATABASE_URL: `sqlite:${join(dir, 'txmail.db')}`,
    TXMAIL_HOSTNAME: 'mta.txmail.test',
    TXMAIL_PUBLIC_URL: `http://127.0.0.1:${httpPort}`,
    TXMAIL_SECRET_KEY: 'e'.repeat(64),
    TXMAIL_INBOUND_PORT: String(inboundPort),
    TXMAIL_LOG_LEVEL: 'warn',
  };
}

/**
 * What a camera reads from the page's QR code: the SVG as the browser draws it, on a canvas, decoded
 * by jsQR in this process. Undefined when no symbol can be read.
 */
export async function scannedQr(page: Page): Promise<string | undefined> {
  const svg = page.locator('svg.qr-code');
  await svg.waitFor();
  const { pixels, width, height } = await svg.evaluate(async (el) => {
    const image = new Image();
    image.src = 'data:image/svg+xml,' + encodeURIComponent(new XMLSerializer().serializeToString(el));
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = image.naturalWidth;
    canvas.height = image.naturalHeight;
    const context = canvas.getContext('2d')!;
    context.drawImage(image, 0, 0);
    const data = context.getImageData(0, 0, canvas.width, canvas.height).data;
    return { pixels: Array.from(data), width: canvas.width, height: canvas.height };
  });
  // A CommonJS module: its function is also its `default` export, which is what its types describe.
  return jsQR.default(new Uint8ClampedArray(pixels), width, height)?.data;
}
