// Which categories suppress an address: only those that say the address is dead or unwanted.
import { describe, expect, it } from 'vitest';
import { BOUNCE_CATEGORIES, CATEGORY_MEANING, suppresses } from '../../src/bounce/categories.js';

describe('bounce categories', () => {
  it('suppress a permanent unknown recipient or domain, never a transient one', () => {
    for (const c of ['unknown_recipient', 'unknown_domain'] as const) {
      expect(suppresses(c, 'permanent', false)).toBe(true);
      expect(suppresses(c, 'transient', false)).toBe(false);
      expect(suppresses(c, 'undetermined', false)).toBe(false);
    }
  });

  it('suppress a disabled mailbox only when it is disabled again', () => {
    expect(suppresses('mailbox_disabled', 'permanent', false)).toBe(false);
    expect(suppresses('mailbox_disabled', 'permanent', true)).toBe(true);
    expect(suppresses('mailbox_disabled', 'transient', true)).toBe(false);
  });

  it('suppress every complaint and unsubscribe request', () => {
    expect(suppresses('complaint', 'undetermined', false)).toBe(true);
    expect(suppresses('unsubscribe', 'undetermined', false)).toBe(true);
  });

  it.each([
    'mailbox_full',
    'message_too_large',
    'content_rejected',
    'policy_rejected',
    'rate_limited',
    'expired',
    'network_error',
    'system_error',
    'auto_reply',
    'undetermined',
  ] as const)('never suppress for %s, however final and however often', (c) => {
    expect(suppresses(c, 'permanent', true)).toBe(false);
  });

  it('give every category a meaning for the docs', () => {
    for (const c of BOUNCE_CATEGORIES) expect(CATEGORY_MEANING[c].length).toBeGreaterThan(10);
  });
});
