import { describe, expect, it } from 'vitest';
import { routeSegment, urlPath } from '../../web/src/url-path.js';

describe('urlPath', () => {
  it('encodes each value as one segment', () => {
    expect(urlPath`/api/domains/${'a/../b'}/verify`).toBe('/api/domains/a%2F..%2Fb/verify');
    expect(urlPath`/api/suppressions/${'jane+x@example.com'}`).toBe(
      '/api/suppressions/jane%2Bx%40example.com',
    );
    expect(urlPath`/api/webhooks/${'%3C'}`).toBe('/api/webhooks/%253C');
    expect(urlPath`/api/a/${1}/b/${'c?d#e'}`).toBe('/api/a/1/b/c%3Fd%23e');
  });
  it('leaves a path without values as written', () => {
    expect(urlPath`/api/domains`).toBe('/api/domains');
  });
});

describe('routeSegment', () => {
  it('decodes once, so encoding it again gives the address bar back', () => {
    expect(routeSegment('%3Cx%3E')).toBe('<x>');
    expect(urlPath`/domains/${routeSegment('%3Cx%3E') ?? ''}`).toBe('/domains/%3Cx%3E');
    expect(routeSegment('0193-abc')).toBe('0193-abc');
  });
  it('is nothing for an empty or malformed segment', () => {
    expect(routeSegment(undefined)).toBeUndefined();
    expect(routeSegment('')).toBeUndefined();
    expect(routeSegment('%E0%A4%A')).toBeUndefined();
  });
});
