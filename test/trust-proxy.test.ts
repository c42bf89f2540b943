// TXMAIL_TRUST_PROXY: X-Forwarded-For names the client only when the peer is a trusted proxy; the
// address it gives is the one logged and the one per-IP limits count. A real listener on loopback.
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { databaseKinds } from './helpers/databases.js';
import { startTestEnv, type TestEnv } from './helpers/services.js';

// An HTTP concern: one database is enough.
const kind = databaseKinds[0]!;

describe('TXMAIL_TRUST_PROXY', () => {
  let env: TestEnv | undefined;
  afterEach(async () => {
    await env?.close();
    env = undefined;
  });

  /** Starts a listener with the setting; answers a function that requests and tells the logged address. */
  const start = async (trustProxy?: string) => {
    const lines: string[] = [];
    const logger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(line) });
    env = await startTestEnv(kind, {
      env: trustProxy === undefined ? {} : { TXMAIL_TRUST_PROXY: trustProxy },
      logger,
    });
    const url = await env.app.listen({ host: '127.0.0.1', port: 0 });
    const resetFrom = async (forwardedFor: string | undefined, email = 'nobody@example.org') => {
      lines.length = 0;
      const res = await fetch(`${url}/api/auth/password-reset`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}),
        },
        body: JSON.stringify({ email }),
      });
      const incoming = lines
        .map((l) => JSON.parse(l) as { msg: string; req?: { remoteAddress: string } })
        .find((l) => l.msg === 'incoming request');
      return { status: res.status, loggedIp: incoming?.req?.remoteAddress };
    };
    return resetFrom;
  };

  it('ignores X-Forwarded-For by default: the peer is the client, in the logs and the per-IP limit', async () => {
    const resetFrom = await start();
    expect(await resetFrom('203.0.113.7')).toEqual({ status: 202, loggedIp: '127.0.0.1' });
    // 20 reset requests per IP and hour: a forged header does not buy more.
    for (let i = 1; i < 20; i++) expect((await resetFrom(`203.0.113.${i + 7}`)).status).toBe(202);
    expect((await resetFrom('198.51.100.1')).status).toBe(429);
  });

  it('takes the client from X-Forwarded-For when the peer is a trusted proxy', async () => {
    const resetFrom = await start('10.0.0.0/8, loopback');
    expect(await resetFrom('203.0.113.7')).toEqual({ status: 202, loggedIp: '203.0.113.7' });
    // Each client behind the proxy has its own count: the proxy's address is not one shared bucket.
    for (let i = 0; i < 25; i++) expect((await resetFrom(`198.51.100.${i}`)).status).toBe(202);
    for (let i = 1; i < 20; i++) expect((await resetFrom('203.0.113.7')).status).toBe(202);
    expect((await resetFrom('203.0.113.7')).status).toBe(429);
    expect((await resetFrom(undefined)).loggedIp).toBe('127.0.0.1');
  });

  it('ignores X-Forwarded-For from a peer outside the trusted addresses', async () => {
    const resetFrom = await start('10.0.0.0/8,192.0.2.1');
    expect(await resetFrom('203.0.113.7')).toEqual({ status: 202, loggedIp: '127.0.0.1' });
  });

  it('trusts only as many hops as configured, so a client cannot forge the address before them', async () => {
    const resetFrom = await start('1');
    expect((await resetFrom('198.51.100.66, 203.0.113.7')).loggedIp).toBe('203.0.113.7');
    await env!.close();
    const trustAll = await start('true');
    expect((await trustAll('198.51.100.66, 203.0.113.7')).loggedIp).toBe('198.51.100.66');
  });
});
