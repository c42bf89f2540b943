// Headless Chromium for the browser tests: Debian's `chromium` package (TXMAIL_CHROMIUM overrides the
// path) driven by playwright-core, which downloads no browser of its own.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { MailFixture } from '../test/helpers/mail-fixture.js';

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

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // Containers run tests as root, where Chromium's sandbox cannot start.
    args: ['--no-sandbox', '--disable-dev-shm-usage'],
  });
}

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The page's serious and critical accessibility violations (axe-core), each `<rule> at <targets>`. */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run(): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }>;
        };
      }
    ).axe;
    return (await axe.run()).violations;
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
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
