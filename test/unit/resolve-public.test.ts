// The one resolution of hosts txmail reaches over HTTP(S) (webhooks, MTA-STS, TLS-RPT): every address
// public, an IP literal judged as itself, DNS failures told apart (temporary or not).
import { describe, expect, it } from 'vitest';
import { DnsError } from '../../src/dns/resolver.js';
import { resolvePublicAddresses } from '../../src/resolve-public.js';

function dns(a: string[] | DnsError, aaaa: string[] | DnsError = new DnsError('nodata', 'no AAAA')) {
  const answer = (x: string[] | DnsError) => () =>
    x instanceof DnsError ? Promise.reject(x) : Promise.resolve(x);
  return { a: answer(a), aaaa: answer(aaaa) };
}

describe('resolvePublicAddresses', () => {
  it('gives every address of a public host, A before AAAA', async () => {
    expect(
      await resolvePublicAddresses('h.example', dns(['8.8.8.8'], ['2001:4860:4860::8888']), false),
    ).toEqual({
      ok: true,
      addresses: ['8.8.8.8', '2001:4860:4860::8888'],
    });
  });

  it('refuses a host with one private address among public ones', async () => {
    expect(await resolvePublicAddresses('mixed.example', dns(['8.8.8.8', '10.0.0.7']), false)).toEqual({
      ok: false,
      reason: 'mixed.example resolves to 10.0.0.7, a loopback, private or otherwise non-public address',
      temporary: false,
    });
    expect(await resolvePublicAddresses('mixed.example', dns(['8.8.8.8', '10.0.0.7']), true)).toEqual({
      ok: true,
      addresses: ['8.8.8.8', '10.0.0.7'],
    });
  });

  it('judges an IP literal as itself, without asking the DNS', async () => {
    const never = {
      a: () => Promise.reject(new Error('asked')),
      aaaa: () => Promise.reject(new Error('asked')),
    };
    expect(await resolvePublicAddresses('127.0.0.1', never, false)).toMatchObject({
      ok: false,
      temporary: false,
    });
    expect(await resolvePublicAddresses('8.8.4.4', never, false)).toEqual({
      ok: true,
      addresses: ['8.8.4.4'],
    });
  });

  it('tells a DNS outage (try later) from a name without addresses', async () => {
    expect(
      await resolvePublicAddresses('down.example', dns(new DnsError('temporary', 'SERVFAIL')), false),
    ).toEqual({ ok: false, reason: 'down.example does not resolve (no AAAA)', temporary: true });
    expect(
      await resolvePublicAddresses(
        'gone.example',
        dns(new DnsError('nxdomain', 'NXDOMAIN'), new DnsError('nxdomain', 'NXDOMAIN')),
        false,
      ),
    ).toEqual({
      ok: false,
      reason: 'gone.example does not resolve (NXDOMAIN)',
      temporary: false,
    });
  });

  it('lets a programming error through', async () => {
    await expect(resolvePublicAddresses('h.example', dns(['8.8.8.8']), false)).resolves.toMatchObject({
      ok: true,
    });
    const broken = { a: () => Promise.reject(new TypeError('bug')), aaaa: () => Promise.resolve([]) };
    await expect(resolvePublicAddresses('h.example', broken, false)).rejects.toThrow('bug');
  });
});
