// The MX look-up with its TTL (dns/mx-query.ts), against dnsmasq, a real DNS server, on loopback: the
// records and the TTL it serves, NXDOMAIN and "no MX records" told apart from a failure, the same
// records as c-ares gives, an answer too large for UDP fetched again over TCP, and a server that never
// answers passed over for the next.
import { spawn, type ChildProcess } from 'node:child_process';
import dgram from 'node:dgram';
import packet from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryMx } from '../src/dns/mx-query.js';
import { DnsResolver } from '../src/dns/resolver.js';
import { freePort } from './helpers/process.js';
import { until } from './helpers/wait.js';

/** Enough MX records with long names that the answer passes UDP's 512 bytes. */
const BIG = Array.from(
  { length: 24 },
  (_, i) => `mx${i}.a-rather-long-mail-host-name-for-this-test.big.test`,
);

describe('the MX look-up with its TTL, against dnsmasq', () => {
  let dnsmasq: ChildProcess;
  let port: number;
  let silent: dgram.Socket;
  const server = () => ({ address: '127.0.0.1', port });

  beforeAll(async () => {
    port = await freePort();
    dnsmasq = spawn(
      '/usr/sbin/dnsmasq',
      [
        '--keep-in-foreground',
        '--conf-file=/dev/null',
        '--no-resolv',
        '--no-hosts',
        `--port=${port}`,
        '--listen-address=127.0.0.1',
        '--bind-interfaces',
        '--pid-file=',
        '--user=root',
        // Authoritative for these zones: an unknown name there is NXDOMAIN, not "ask upstream".
        '--local=/dest.test/',
        '--local=/big.test/',
        '--local-ttl=42',
        '--mx-host=dest.test,mx1.dest.test,10',
        '--mx-host=dest.test,mx2.dest.test,20',
        '--host-record=nomx.dest.test,192.0.2.7',
        ...BIG.map((name, i) => `--mx-host=big.test,${name},${i}`),
      ],
      { stdio: 'ignore' },
    );
    silent = dgram.createSocket('udp4');
    await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
    await until('dnsmasq to answer', async () => {
      try {
        return (await queryMx('dest.test', [server()], 200, 1)).records.length > 0 ? true : undefined;
      } catch {
        return undefined;
      }
    });
  });
  afterAll(() => {
    dnsmasq?.kill();
    silent?.close();
  });

  it('answers the records and the TTL served, as c-ares answers the records', async () => {
    const answer = await queryMx('dest.test', [server()], 2000, 1);
    expect(answer.ttl).toBe(42);
    const sorted = (r: { exchange: string; priority: number }[]) =>
      [...r].sort((a, b) => a.priority - b.priority);
    expect(sorted(answer.records)).toEqual([
      { exchange: 'mx1.dest.test', priority: 10 },
      { exchange: 'mx2.dest.test', priority: 20 },
    ]);
    const resolver = new DnsResolver([`127.0.0.1:${port}`]);
    expect(sorted(await resolver.mx('dest.test'))).toEqual(sorted(answer.records));
    expect(await resolver.mxTimed('DEST.test')).toMatchObject({ ttl: 42 });
  });

  it('tells NXDOMAIN and "no MX records" from a failure', async () => {
    await expect(queryMx('nowhere.dest.test', [server()], 2000, 1)).rejects.toMatchObject({
      failure: 'nxdomain',
    });
    await expect(queryMx('nomx.dest.test', [server()], 2000, 1)).rejects.toMatchObject({
      failure: 'nodata',
    });
  });

  it('asks again over TCP when the answer does not fit in UDP', async () => {
    const answer = await queryMx('big.test', [server()], 2000, 1);
    expect(answer.records.map((r) => r.exchange).sort()).toEqual([...BIG].sort());
    expect(answer.ttl).toBe(42);
  });

  it('passes a server that never answers over for the next, and fails as temporary when none answers', async () => {
    const mute = { address: '127.0.0.1', port: silent.address().port };
    expect((await queryMx('dest.test', [mute, server()], 300, 1)).records).toHaveLength(2);
    await expect(queryMx('dest.test', [mute], 200, 2)).rejects.toMatchObject({
      failure: 'temporary',
      message: 'MX look-up for dest.test failed (ETIMEOUT)',
    });
  });

  it('asks the server that answered last first: a silent one costs one look-up its wait, not each', async () => {
    let heard = 0;
    silent.on('message', () => heard++);
    const mute = { address: '127.0.0.1', port: silent.address().port };
    const memory = { first: 0 };
    await queryMx('dest.test', [mute, server()], 300, 1, memory);
    expect(heard).toBe(1);
    await queryMx('dest.test', [mute, server()], 300, 1, memory);
    await queryMx('dest.test', [mute, server()], 300, 1, memory);
    expect(heard).toBe(1);
    silent.removeAllListeners('message');
  });

  it('fails the try of a server it cannot reach (IPv6 link-local without its zone) and goes on, never throwing out of a callback', async () => {
    const unreachable = { address: 'fe80::1', port: 53 };
    expect((await queryMx('dest.test', [unreachable, server()], 500, 1)).records).toHaveLength(2);
    await expect(queryMx('dest.test', [unreachable], 500, 1)).rejects.toMatchObject({ failure: 'temporary' });
  });

  it('asks again without EDNS a server that answers FORMERR to it', async () => {
    // A server from before EDNS0: FORMERR for a query with an OPT record, an answer without one.
    const old = dgram.createSocket('udp4');
    const asked: boolean[] = [];
    old.on('message', (msg, from) => {
      const q = packet.decode(msg);
      const edns = (q.additionals ?? []).some((a) => a.type === 'OPT');
      asked.push(edns);
      const reply = edns
        ? packet.encode({ type: 'response', id: q.id, flags: 1, questions: q.questions })
        : packet.encode({
            type: 'response',
            id: q.id,
            questions: q.questions,
            answers: [
              { type: 'MX', name: 'old.test', ttl: 77, data: { preference: 5, exchange: 'mx.old.test' } },
            ],
          });
      old.send(reply, from.port, from.address);
    });
    await new Promise<void>((resolve) => old.bind(0, '127.0.0.1', resolve));
    try {
      const answer = await queryMx('old.test', [{ address: '127.0.0.1', port: old.address().port }], 1000, 1);
      expect(answer).toEqual({ records: [{ exchange: 'mx.old.test', priority: 5 }], ttl: 77 });
      expect(asked).toEqual([true, false]);
    } finally {
      old.close();
    }
  });
});
