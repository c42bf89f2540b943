// The log's time filters in the dashboard (web/src/components/local-time.ts): the page's address is
// anyone's to edit, and a value that is no time must leave the field empty, not throw (it blanked the
// whole dashboard).
import { describe, expect, it } from 'vitest';
import { isoToLocal, localToIso } from '../../web/src/components/local-time.js';

describe('the log page’s time fields', () => {
  it('leaves the field empty for an address value that is no time', () => {
    for (const bad of ['garbage', '2020-13-45', '99999999999999', '+275761-01-01T00:00:00Z', ''])
      expect(isoToLocal(bad), bad).toBe('');
    expect(localToIso('not a time')).toBeUndefined();
    expect(localToIso('')).toBeUndefined();
  });

  it('turns a time into the field’s value and back to the same instant', () => {
    const iso = '2026-12-02T09:15:00.000Z';
    const local = isoToLocal(iso);
    expect(local).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
    expect(localToIso(local)).toBe(iso);
  });
});
