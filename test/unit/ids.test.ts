// Ids (src/ids.ts): what newId makes, isId accepts; anything else from outside is not an id.
import { describe, expect, it } from 'vitest';
import { v7 } from 'uuid';
import { firstIdAt, ID_PATTERN, isId, newId } from '../../src/ids.js';

describe('ids', () => {
  it('accepts what newId makes', () => {
    for (let i = 0; i < 20; i++) expect(isId(newId())).toBe(true);
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
