// Ids (src/ids.ts): what newId makes, isId accepts; anything else from outside is not an id.
import { describe, expect, it } from 'vitest';
import { v7 } from 'uuid';
import { firstIdAt, ID_PATTERN, isId, newId } from '../../src/ids.js';

describe('ids', () => {
  it('accepts what newId makes', () => {
    for (let i = 0; i < 20; i++) expect(isId(newId())).toBe(true);
  });

  it('makes version 7 ids that sort in the order they were made, distinct across pool refills', () => {
    // Enough for several refills of the random pool (256 ids each) and many ids a millisecond.
    const ids = Array.from({ length: 5000 }, () => newId());
    expect(new Set(ids).size).toBe(ids.length);
    for (let i = 1; i < ids.length; i++)
      expect(ids[i]! > ids[i - 1]!, `${ids[i - 1]} then ${ids[i]}`).toBe(true);
    for (const id of ids)
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    // The time the id begins with is when it was made.
    const made = parseInt(newId().replaceAll('-', '').slice(0, 12), 16);
    expect(Math.abs(made - Date.now())).toBeLessThan(1000);
  });

  it('refuses anything else', () => {
    const id = newId();
    for (const value of [
      '',
      'x',
      id.toUpperCase(),
      `${id}\n`,
      ` ${id}`,
      `${id}0`,
      id.slice(1),
      id.replaceAll('-', ''),
      `<${id}@mta.example>`,
      '00000000-0000-4000-8000-00000000000g',
    ])
      expect(isId(value), JSON.stringify(value)).toBe(false);
    expect(isId('00000000-0000-4000-8000-000000000000')).toBe(true);
  });
});

describe('firstIdAt', () => {
  it('sorts above every id made before its time and below none made at it or after', () => {
    const t = Date.UTC(2026, 10, 30, 3, 0, 0);
    const bound = firstIdAt(t);
    for (let i = 0; i < 50; i++) {
      expect(v7({ msecs: t - 1 - i * 997 }) < bound).toBe(true);
      expect(v7({ msecs: t + i * 997 }) >= bound).toBe(true);
    }
    expect(firstIdAt(t)).toMatch(new RegExp(`^${ID_PATTERN}$`));
  });
});
