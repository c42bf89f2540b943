// The Deliverer's side of the simulator (docs/design.md §16): which mail it answers (one test of the
// recipient domain), and how that mail is signed and addressed, with only the cached look-ups a real
// send makes first: never the uncached read of the From domain's status. And, through the same path,
// what the Deliverer does with a sealed message's HTML (messages/sealed-html.ts).
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import type { BuildRequest } from '../../src/delivery/build-message.js';
import { Deliverer } from '../../src/delivery/deliver-message.js';
import type { DeliveryJob, Transport } from '../../src/delivery/transport.js';
import { sealedHtmlBox } from '../../src/messages/sealed-html.js';
import { Verp } from '../../src/delivery/verp.js';
import type { DkimKeys, SigningKey } from '../../src/dkim/dkim-keys.js';
import { simulatorTest } from '../../src/simulator/simulator-addresses.js';
import { SimulatorTransport } from '../../src/simulator/simulator-transport.js';
import { claimedMessage } from '../helpers/message-row.js';

const TEST_DOMAIN = 'txmail.test';
const KEY = { selector: 'sel' } as unknown as SigningKey;

describe('simulatorTest', () => {
  it('takes the simulator label under the test domain, in any case, and nothing else', () => {
    const isSimulated = simulatorTest('TXMail.test');
    expect(isSimulated('simulator.txmail.test')).toBe(true);
    expect(isSimulated('SIMULATOR.TXMAIL.TEST')).toBe(true);
    expect(isSimulated('txmail.test')).toBe(false);
    expect(isSimulated('x.simulator.txmail.test')).toBe(false);
    expect(isSimulated('simulator.txmail.test.example')).toBe(false);
  });
});

function setup(sendable: string[]) {
  const asked = { status: 0, keys: [] as string[] };
  const built: BuildRequest[] = [];
  const kept: Buffer[] = [];
  const verp = new Verp(Buffer.alloc(32, 1));
  const simulator = new SimulatorTransport({
    testDomain: TEST_DOMAIN,
    storeReport: async () => undefined,
    wakeReceiver: () => undefined,
    clock: new ManualClock(0),
  });
  const delivered: DeliveryJob[] = [];
  const deliver = simulator.deliver.bind(simulator);
  simulator.deliver = (job, before) => (delivered.push(job), deliver(job, before));
  const unused = () => {
    throw new Error('a simulated delivery has no route, limits or connection');
  };
  const deliverer = new Deliverer(
    {
      hostname: 'mta.txmail.test',
      testDomain: TEST_DOMAIN,
      returnPathLabel: 'send',
      relay: undefined,
      mxPort: 25,
      allowPrivateNetworks: true,
    },
    {
      dns: { mx: unused, a: unused, aaaa: unused },
      dkim: {
        signingKey: async (domain: string) => (asked.keys.push(domain), KEY),
        forget: () => undefined,
      } as unknown as DkimKeys,
      verp,
      sealedHtml: sealedHtmlBox('test'),
      transport: { deliver: unused } as unknown as Transport,
      builder: {
        build: async (req) => (
          built.push(req),
          { bytes: Buffer.from('Subject: s\r\n\r\nhello\r\n'), gzipped: undefined }
        ),
        close: async () => undefined,
      },
      limits: { pausedUntil: unused, acquire: unused } as never,
      sources: { take: unused } as never,
      verifiedDomains: async () => sendable,
      domainStatus: async () => (asked.status++, 'pending'),
      keepRaw: async (signed) => (kept.push(signed), undefined),
      simulator,
      clock: new ManualClock(0),
    },
  );
  return { deliverer, asked, built, delivered, verp, kept };
}
const toSimulator = (from: string) =>
  claimedMessage('acct', {
    from_email: `noreply@${from}`,
    from_domain: from,
    to_email: `delivered@simulator.${TEST_DOMAIN}`,
    to_domain: `simulator.${TEST_DOMAIN}`,
  });

describe('a simulated delivery', () => {
  it('from a domain not yet verified: unsigned, bounces to the test domain, no look-up of its status', async () => {
    const { deliverer, asked, built, delivered, verp } = setup([]);
    const m = toSimulator('new.example');
    const outcome = await deliverer.deliver(m);
    expect(outcome).toMatchObject({ kind: 'attempted', result: { outcome: 'delivered' } });
    expect(built.map((b) => b.key)).toEqual([undefined]);
    expect(delivered.map((j) => j.from)).toEqual([verp.address(m.id, TEST_DOMAIN)]);
    expect(asked).toEqual({ status: 0, keys: [] });
  });

  it('from a domain the account may send from: signed with its own key, bounces to send.<domain>', async () => {
    const { deliverer, asked, built, delivered, verp } = setup(['acme.example']);
    const m = toSimulator('acme.example');
    await deliverer.deliver(m);
    expect(built.map((b) => b.key)).toEqual([KEY]);
    expect(delivered.map((j) => j.from)).toEqual([verp.address(m.id, 'send.acme.example')]);
    expect(asked).toEqual({ status: 0, keys: ['acme.example'] });
  });

  it("from the test domain: never signed with the service's key", async () => {
    const { deliverer, asked, built } = setup([]);
    await deliverer.deliver(toSimulator(TEST_DOMAIN));
    expect(built.map((b) => b.key)).toEqual([undefined]);
    expect(asked).toEqual({ status: 0, keys: [] });
  });
});

describe('a sealed message', () => {
  it('is built from its HTML opened, and none of its bytes are kept', async () => {
    const { deliverer, built, kept } = setup([]);
    const link = '<a href="https://txmail.test/reset-password?token=tok">Reset</a>';
    const sealed = { ...toSimulator(TEST_DOMAIN), html: sealedHtmlBox('test').seal(link), sealed: true };
    const plain = { ...toSimulator(TEST_DOMAIN), html: '<p>plain</p>' };
    for (const m of [sealed, plain]) {
      expect(await deliverer.deliver(m)).toMatchObject({
        kind: 'attempted',
        result: { outcome: 'delivered' },
      });
    }
    expect(built.map((b) => b.message.html)).toEqual([link, '<p>plain</p>']);
    // No compressed copy asked for, and nothing handed to be kept: only the plain message's bytes.
    expect(built.map((b) => b.keepUpTo !== undefined)).toEqual([false, true]);
    expect(kept).toHaveLength(1);
  });

  it('is not built at all when its HTML does not open with the key', async () => {
    const { deliverer, built } = setup([]);
    const m = {
      ...toSimulator(TEST_DOMAIN),
      html: sealedHtmlBox('another key').seal('<p>x</p>'),
      sealed: true,
    };
    await expect(deliverer.deliver(m)).rejects.toThrow();
    expect(built).toEqual([]);
  });
});
