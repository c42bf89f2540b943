// Which key signs a message, decided at delivery time from its From domain: a customer's own domain's
// key while that domain may send (verified, or in its grace period), the service's test-domain key only
// for the service's own mail. Mail queued from a domain that was deleted or failed verification since is
// failed with the reason in its history, never sent unsigned or signed with the test-domain key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DomainStatus } from '../src/db/schema.js';
import { databaseKinds } from './helpers/databases.js';
import { SmtpSink, type Received } from './helpers/smtp-sink.js';
import { until } from './helpers/wait.js';
import { createTenant, startTestEnv, validSend, type Tenant, type TestEnv } from './helpers/services.js';

interface Detail {
  status: string;
  next_attempt_at: string | null;
  events: { type: string; data: Record<string, unknown> }[];
  delivery_attempts: object[];
}

const TEST_DOMAIN = 'test.txmail.example';

/** The d= of every DKIM-Signature header of a received message. */
function signingDomains(r: Received): string[] {
  const head = r.raw
    .toString('utf8')
    .split('\r\n\r\n')[0]!
    .replace(/\r\n[ \t]+/g, ' ');
  return [...head.matchAll(/^DKIM-Signature:.*?\bd=([^;\s]+)/gim)].map((m) => m[1]!);
}

describe.each(databaseKinds)('sender domains at delivery on $name', (kind) => {
  let env: TestEnv;
  const relay = new SmtpSink();
  /** One account per sender domain, each with one message queued while its domain could send. */
  const tenants = new Map<string, Tenant>();
  const queued = new Map<string, string>();

  beforeAll(async () => {
    await relay.start();
    env = await startTestEnv(kind, {
      env: { TXMAIL_RELAY_URL: `smtp://127.0.0.1:${relay.port}`, TXMAIL_TEST_DOMAIN: TEST_DOMAIN },
    });
    for (const domain of ['gone.example', 'lapsed.example', 'grace.example', 'legacy.example']) {
      const tenant = await createTenant(env.services, { domain, dkim: domain !== 'legacy.example' });
      tenants.set(domain, tenant);
      const res = await api(tenant, 'POST', '/api/email/send', {
        ...validSend,
        from: `Acme <noreply@${domain}>`,
        to: `someone@${domain.replace('.example', '-dest.example')}`,
      });
      expect(res.statusCode, res.body).toBe(200);
      queued.set(domain, (res.json() as { id: string }).id);
    }
  });
  afterAll(async () => {
    await env.close();
    await relay.stop();
  });

  const api = (t: Tenant, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    env.app.inject({ method, url, headers: { 'x-api-key': t.apiKey }, ...(payload ? { payload } : {}) });
  const detail = async (t: Tenant, id: string) => (await api(t, 'GET', `/api/emails/${id}`)).json() as Detail;
  const settled = (t: Tenant, id: string) =>
    until(`${id} to settle`, async () => {
      const d = await detail(t, id);
      return d.status === 'delivered' || d.status === 'failed' ? d : undefined;
    });
  /** What the domain checker writes when a domain's status moves (db + the cache it drops). */
  const setStatus = async (domain: string, status: DomainStatus) => {
    const t = tenants.get(domain)!;
    await env.updateDomain(t.accountId, domain, {
      status,
      ...(status === 'failed' ? { next_check_at: null } : { failing_since: Date.now() }),
    });
    env.services.verifiedDomains.invalidate(t.accountId);
  };

  it('fails queued mail of a deleted or failed domain with the reason, and signs the rest with the right key', async () => {
    // After the sends were accepted: one domain deleted, one failed, one in its grace period.
    const gone = tenants.get('gone.example')!;
    const [goneDomain] = ((await api(gone, 'GET', '/api/domains')).json() as { data: { id: string }[] }).data;
    expect((await api(gone, 'DELETE', `/api/domains/${goneDomain!.id}`)).statusCode).toBe(200);
    await setStatus('lapsed.example', 'failed');
    await setStatus('grace.example', 'temporary_failure');
    // The service's own mail to the account whose domain is gone (from onboarding@<test domain>).
    const account = (await env.account(gone.accountId))!;
    const system = await env.services.systemMail.queue(account, {
      sender: 'onboarding',
      subject: 'Welcome',
      html: '<p>Hello</p>',
    });

    await env.services.startWorker({ pollMs: 50 });

    const failures = {
      'gone.example': {
        reason: 'sender domain gone.example was removed from this account; mail from it is no longer sent',
        domain_status: null,
      },
      'lapsed.example': {
        reason:
          'sender domain lapsed.example is no longer verified (its DNS records failed verification); verify it again to send from it',
        domain_status: 'failed',
      },
      'legacy.example': {
        reason: 'sender domain legacy.example has no DKIM key to sign with; verify it to get one',
        domain_status: 'verified',
      },
    };
    for (const [domain, expected] of Object.entries(failures)) {
      const d = await settled(tenants.get(domain)!, queued.get(domain)!);
      expect(d.status, domain).toBe('failed');
      expect(d.next_attempt_at).toBeNull();
      expect(d.events.map((e) => e.type)).toEqual(['email.failed', 'email.queued']);
      expect(d.events[0]!.data).toEqual({ ...expected, sender_domain: domain });
      expect(d.delivery_attempts).toEqual([]);
    }

    // The grace period still sends, signed with the domain's own key, bounces to send.<domain>.
    const grace = await settled(tenants.get('grace.example')!, queued.get('grace.example')!);
    expect(grace.status).toBe('delivered');
    const [graceMail] = relay.for('someone@grace-dest.example');
    expect(signingDomains(graceMail!)).toEqual(['grace.example']);
    expect(graceMail!.from).toMatch(/^b\+[0-9a-f]+@send\.grace\.example$/);

    // The service's own mail is the only mail signed with the test domain's key.
    expect((await settled(gone, system)).status).toBe('delivered');
    const [systemMail] = relay.for(account.email);
    expect(signingDomains(systemMail!)).toEqual([TEST_DOMAIN]);
    expect(systemMail!.from).toMatch(new RegExp(`^b\\+[0-9a-f]+@${TEST_DOMAIN.replaceAll('.', '\\.')}$`));

    // Nothing went out from the refused domains.
    for (const dest of ['gone-dest.example', 'lapsed-dest.example', 'legacy-dest.example']) {
      expect(relay.for(`someone@${dest}`)).toEqual([]);
    }
  });
});
