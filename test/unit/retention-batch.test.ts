// The byte bound on retention's transactions (db/retention-repo.ts): the longest prefix within the
// budget, never empty while rows remain.
import { describe, expect, it } from 'vitest';
import { prefixWithin } from '../../src/db/retention-repo.js';

const rows = (...bytes: number[]) => bytes.map((b, i) => ({ id: String(i), bytes: b }));

describe('prefixWithin', () => {
  it('takes rows while their bytes add up to the budget', () => {
    expect(prefixWithin(rows(4, 4, 4, 4), 10).map((r) => r.id)).toEqual(['0', '1']);
    expect(prefixWithin(rows(4, 6, 1), 10).map((r) => r.id)).toEqual(['0', '1']);
    expect(prefixWithin(rows(1, 1, 1), 10)).toHaveLength(3);
  });

  it('takes a first row larger than the budget alone', () => {
    expect(prefixWithin(rows(50, 1), 10).map((r) => r.id)).toEqual(['0']);
  });

  it('stops at the first row past the budget, even if a later one would fit', () => {
    expect(prefixWithin(rows(5, 9, 1), 10).map((r) => r.id)).toEqual(['0']);
  });

  it('takes nothing from nothing', () => {
    expect(prefixWithin([], 10)).toEqual([]);
  });
});
