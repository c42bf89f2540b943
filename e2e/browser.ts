// Headless Chromium for the browser tests: Debian's `chromium` package (TXMAIL_CHROMIUM overrides the
// path) driven by playwright-core, which downloads no browser of its own.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

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

/** Saves docs/screenshots/<name>.png of the whole page. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true, animations: 'disabled' });
}
