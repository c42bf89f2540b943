// Greylisting is not throttling, at the level of one delivery (deliver-message.ts with the real SMTP
// transport and destination limits, against a scripted server): a greylisting reply leaves the
// destination's concurrency and pause as they were and keeps the session (RSET, then QUIT when it
// ends); a real throttle halves the concurrency and pauses the destination.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DkimKeys } from '../src/dkim/dkim-keys.js';
import type { DnsResolver } from '../src/dns/resolver.js';
import { Deliverer } from '../src/delivery/deliver-message.js';
import { DestinationLimits } from '../src/delivery/destination-limits.js';
import { SmtpTransport } from '../src/delivery/smtp-transport.js';
import type { SourceIpPool } from '../src/delivery/source-ip-pool.js';
import type { AttemptResult } from '../src/delivery/transport.js';
import { sealedHtmlBox } from '../src/messages/sealed-html.js';
import { Verp } from '../src/delivery/verp.js';
import { claimedMessage } from './helpers/message-row.js';
import { ScriptedSmtpServer } from './helpers/scripted-smtp.js';
import { until } from './helpers/wait.js';

const DESTINATION = 'mx:mx.dest.example';
const CONNECTIONS = 6;

describe('a greylisting reply during the session', () => {
  const server = new ScriptedSmtpServer();
  let transport: SmtpTransport;
  let limits: DestinationLimits;
  let deliverer: Deliverer;
  let now = Date.UTC(2026, 10, 23, 12);

  beforeAll(async () => {
    await server.start();
    // What real servers answer at RCPT: Postfix with an access map, Postgrey, a bare greylister; and
    // a rate limit for contrast.
    server.reply = (step, recipient) => {
      if (step !== 'rcpt') return undefined;
      if (recipient.startsWith('grey-postfix@'))
        return `450 4.7.1 <${recipient}>: Recipient address rejected: Greylisted, please try again later\r\n`;
      if (recipient.startsWith('grey-postgrey@'))
        return `450 4.2.0 <${recipient}>: Recipient address rejected: Greylisted, see http://postgrey.schweikert.ch/help/dest.example.html\r\n`;
      if (recipient.startsWith('grey-bare@')) return '451 4.7.1 Please try again later\r\n';
      if (recipient.startsWith('throttle@'))
        return '451 4.7.28 Rate limited due to IP reputation, slow down\r\n';
      return undefined;
    };
  });
  afterAll(() => server.stop());

  function setUp(): void {
    transport = new SmtpTransport({ hostname: 'mta.txmail.test' });
    limits = new DestinationLimits({ rules: { default: { connections: CONNECTIONS } } }, () => now);
    const dns = {
      mx: async () => [{ exchange: 'mx.dest.example', priority: 10 }],
      a: async () => ['127.0.0.1'],
      aaaa: async () => [],
    } as unknown as DnsResolver;
    deliverer = new Deliverer(
      {
        hostname: 'mta.txmail.test',
        testDomain: 'acme.example',
        returnPathLabel: 'send',
        relay: undefined,
        mxPort: server.port,
        allowPrivateNetworks: true,
      },
      {
        dns,
        // The service's own mail (from the test domain) is signed with the test domain's key; the
        // builder is replaced, so any key will do.
        dkim: { signingKey: async () => ({}) } as unknown as DkimKeys,
        verp: new Verp(Buffer.alloc(32, 1)),
        sealedHtml: sealedHtmlBox('test'),
        transport,
        builder: {
          build: async () => ({ bytes: Buffer.from('Subject: s\r\n\r\nhello\r\n'), gzipped: undefined }),
          close: async () => {},
        },
        limits,
        sources: { take: () => ({ address: undefined }) } as unknown as SourceIpPool,
        verifiedDomains: async () => [],
        domainStatus: async () => undefined,
        clock: { now: () => now },
      },
    );
  }
  afterEach(() => transport.close());

  async function attempt(to: string): Promise<AttemptResult> {
    const outcome = await deliverer.deliver(
      claimedMessage('acct', { to_email: to, to_domain: 'dest.example', to_name: '' }),
    );
    if (outcome.kind !== 'attempted') throw new Error(`expected an attempt, got ${JSON.stringify(outcome)}`);
    return outcome.result;
  }

  it.each(['grey-postfix', 'grey-postgrey', 'grey-bare'])(
    '%s: defers this message only, keeps the concurrency and the pace, and ends the session with QUIT',
    async (local) => {
      setUp();
      const sessionsBefore = server.sessions.length;
      const grey = await attempt(`${local}@dest.example`);
      expect(grey).toMatchObject({ outcome: 'deferred', greylisted: true, throttled: false });
      expect(grey.category).not.toBe('rate_limited');
      expect(limits.concurrency(DESTINATION)).toBe(CONNECTIONS);
      expect(limits.pausedUntil(DESTINATION, now)).toBeUndefined();

      // The next message goes out at once.
      const next = await attempt('jane@dest.example');
      expect(next).toMatchObject({ outcome: 'delivered' });

      // The greylisted session was kept (RSET: the refusal was about one recipient), and every session
      // ends politely: QUIT when the pooled connections are closed, never a dropped connection.
      const sessions = server.sessions.slice(sessionsBefore);
      expect(sessions[0]!.commands.slice(0, 4)).toEqual(['EHLO', 'MAIL', 'RCPT', 'RSET']);
      await transport.close();
      await until('the sessions to end', async () => (sessions.every((s) => s.ended) ? true : undefined));
      for (const s of sessions) expect(s.commands.at(-1)).toBe('QUIT');
    },
  );

  it('throttles the destination on a rate limit, as before', async () => {
    setUp();
    const throttled = await attempt('throttle@dest.example');
    expect(throttled).toMatchObject({
      outcome: 'deferred',
      greylisted: false,
      throttled: true,
      category: 'rate_limited',
    });
    expect(limits.concurrency(DESTINATION)).toBe(CONNECTIONS / 2);
    expect(limits.pausedUntil(DESTINATION, now)).toBeGreaterThan(now);
    // The paused destination is not tried: the next message is rescheduled without an attempt.
    const outcome = await deliverer.deliver(claimedMessage('acct', { to_email: 'jane@dest.example' }));
    expect(outcome).toMatchObject({ kind: 'paused' });
    now += 1; // keep the clock moving for the next test's limits
  });
});
