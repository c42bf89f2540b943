import { describe, expect, it } from 'vitest';
import { factsOfAnswer, keyLabel, targetKindOf, targetLabel } from '../../src/audit/target-label.js';

describe('what an audit entry calls its target', () => {
  it('knows the kind of target a route names, and only those', () => {
    expect(targetKindOf('/api/api-keys/:id')).toBe('api_key');
    expect(targetKindOf('/api/api-keys')).toBe('api_key');
    expect(targetKindOf('/api/domains/:id/dkim/rotate')).toBe('domain');
    expect(targetKindOf('/api/webhooks/:id/secret')).toBe('webhook');
    expect(targetKindOf('/api/members/:id/sessions/:sid')).toBe('member');
    expect(targetKindOf('/api/suppressions/:address')).toBeUndefined();
    expect(targetKindOf('/api/auth/sessions/:id')).toBeUndefined();
    expect(targetKindOf('/api/emails/:id/resend')).toBeUndefined();
    // A route that only begins like one is not one.
    expect(targetKindOf('/api/domainsx')).toBeUndefined();
    expect(targetKindOf(undefined)).toBeUndefined();
  });

  it('names a key by its name and first characters, a domain in Unicode, a member by address', () => {
    expect(keyLabel({ name: 'ci', prefix: 'txm_live_ab12cd' })).toBe('ci (txm_live_ab12cd…)');
    expect(targetLabel('api_key', { name: 'ci', prefix: 'txm_live_ab12cd' })).toBe('ci (txm_live_ab12cd…)');
    expect(targetLabel('api_key', { name: 'ci' })).toBeUndefined();
    expect(targetLabel('domain', { name: 'xn--bcher-kva.example' })).toBe('bücher.example');
    expect(targetLabel('member', { email: 'ann@example.org' })).toBe('ann@example.org');
    expect(targetLabel('member', { email: 'ann@example.org', role: 'viewer' })).toBe(
      'ann@example.org as viewer',
    );
    expect(targetLabel('member', {})).toBeUndefined();
  });

  it("names a member's role before the change when the change moved it, and only then", () => {
    const ann = { email: 'ann@example.org', role: 'viewer' };
    expect(targetLabel('member', ann, { email: 'ann@example.org', role: 'developer' })).toBe(
      'ann@example.org as viewer (was developer)',
    );
    expect(targetLabel('member', ann, { email: 'ann@example.org', role: 'viewer' })).toBe(
      'ann@example.org as viewer',
    );
    expect(targetLabel('member', ann, {})).toBe('ann@example.org as viewer');
    // Other kinds have nothing "before" to say: a renamed key is named as it is now.
    expect(
      targetLabel('api_key', { name: 'new', prefix: 'txm_live_ab' }, { name: 'old', prefix: 'txm_live_ab' }),
    ).toBe('new (txm_live_ab…)');
  });

  it("keeps no part of an endpoint's URL that may be the receiver's secret: only its origin", () => {
    const label = (url: string, description = '') => targetLabel('webhook', { url, description });
    expect(label('https://user:pw@hooks.example.net:8443/in?token=s3cret#frag')).toBe(
      'https://hooks.example.net:8443/…',
    );
    // A token in the path, as Slack's hooks carry theirs.
    expect(label('https://hooks.example.net/services/T0/B0/PathS3cret', 'orders')).toBe(
      'orders (https://hooks.example.net/…)',
    );
    expect(label('https://hooks.example.net/')).toBe('https://hooks.example.net');
    expect(label('not a url')).toBe('an endpoint');
  });

  it("reads only the naming fields of a route's answer, never a secret beside them", () => {
    expect(
      factsOfAnswer({ id: 'k1', name: 'ci', prefix: 'txm_live_ab12cd', key: 'txm_live_ab12cdSECRET', n: 3 }),
    ).toEqual({ name: 'ci', prefix: 'txm_live_ab12cd' });
    expect(factsOfAnswer({ secret: 'whsec_x', url: 7 })).toEqual({});
  });
});
