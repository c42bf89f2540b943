// The Deliverer starts no attempt at or after the message's deadline (its expire_after), however the
// time went (the look-ups, the signature, the line for a connection), and a message so stopped does
// not use up a warming source address's allowance for the day (delivery/deliver-message.ts).
import { expect, it } from 'vitest';
import type { DkimKeys } from '../../src/dkim/dkim-keys.js';
import type { RouteDns } from '../../src/dns/dns-cache.js';
import { Deliverer } from '../../src/delivery/deliver-message.js';
import { DestinationLimits } from '../../src/delivery/destination-limits.js';
import { SourceIpPool } from '../../src/delivery/source-ip-pool.js';
import type { Transport } from '../../src/delivery/transport.js';
import { Verp } from '../../src/delivery/verp.js';
import { sealedHtmlBox } from '../../src/messages/sealed-html.js';
import { claimedMessage } from '../helpers/message-row.js';

it('stops a message whose signing took it past its deadline, and keeps the warming address its send', async () => {
  let now = Date.UTC(2026, 10, 23, 12);
  // A warming address allowed one message today.
  const pool = new SourceIpPool([{ address: '192.0.2.1', warmingSince: '2026-11-23' }], [1], () => now);
  let transportCalls = 0;
  const deliverer = new Deliverer(
    {
      hostname: 'mta.txmail.test',
      testDomain: 'txmail.test',
      returnPathLabel: 'send',
      relay: undefined,
      mxPort: 25,
      allowPrivateNetworks: true,
    },
    {
      dns: {
        mx: async () => [{ exchange: 'mx.dest.example', priority: 10 }],
        a: async () => ['192.0.2.25'],
        aaaa: async () => [],
      } satisfies RouteDns,
      dkim: { signingKey: async () => ({}) } as unknown as DkimKeys,
      verp: new Verp(Buffer.alloc(32, 1)),
      sealedHtml: sealedHtmlBox('test'),
      transport: {
        deliver: async () => {
          transportCalls++;
          throw new Error('no attempt may start');
        },
      } as unknown as Transport,
      // The signature takes five seconds of the message's last one.
      builder: {
        build: async () => {
          now += 5_000;
          return { bytes: Buffer.from('Subject: s\r\n\r\nx\r\n'), gzipped: undefined };
        },
        close: async () => undefined,
      },
      limits: new DestinationLimits({}, () => now),
      sources: pool,
      verifiedDomains: async () => ['acme.example'],
      domainStatus: async () => 'verified',
      clock: { now: () => now },
    },
  );
  const m = claimedMessage('acct', { to_email: 'jane@dest.example', to_domain: 'dest.example' });
  const deadline = now + 1_000;
  expect(await deliverer.deliver(m, undefined, deadline)).toEqual({ kind: 'paused', until: deadline });
  expect(transportCalls).toBe(0);
  // The day's one message is still the address's to send.
  expect(pool.take()).toEqual({ address: '192.0.2.1' });
});
