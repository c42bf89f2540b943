// The small HTTP listener of a role without the API (txmail inbound, txmail worker), as probes and
// scrapers see it.
import { expect } from 'vitest';
import type { RunningServer } from './process.js';
import { until } from './wait.js';

/** /healthz and /readyz answer, and nothing of the API does. */
export async function expectHealthOnly(url: string): Promise<void> {
  expect(await (await fetch(`${url}/healthz`)).json()).toEqual({ status: 'ok' });
  expect(await (await fetch(`${url}/readyz`)).json()).toEqual({ status: 'ready' });
  const api = await fetch(`${url}/api/account`);
  expect(api.status).toBe(404);
  // It echoes the path in text/plain: marked so that no browser takes it for anything else.
  expect(api.headers.get('x-content-type-options')).toBe('nosniff');
  expect(await api.text()).toMatch(/^not_found: /);
}

/** The /metrics text once it contains `line`. */
export function metricsWith(url: string, line: string): Promise<string> {
  return until(`${line} in /metrics`, async () => {
    const text = await (await fetch(`${url}/metrics`)).text();
    return text.includes(line) ? text : undefined;
  });
}

/** SIGTERM stops the role with exit code 0, and its listener with it. */
export async function expectCleanStop(server: RunningServer): Promise<void> {
  server.child.kill('SIGTERM');
  expect(await server.exited).toBe(0);
  await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
}
