// The content retention's grace after the upgrade that began it (retention/content-grace.ts).
import { describe, expect, it } from 'vitest';
import {
  CONTENT_GRACE_DAYS,
  contentRemovedAfterGrace,
  removableContent,
} from '../../src/retention/content-grace.js';

const DAY = 24 * 3_600_000;
const UPGRADE = Date.UTC(2026, 10, 1);
const GRACE_END = UPGRADE + CONTENT_GRACE_DAYS * DAY;

describe('the content retention grace', () => {
  it('removes by the setting alone on a database made with content retention', () => {
    expect(removableContent(UPGRADE, 30, undefined)).toEqual({ from: undefined, before: UPGRADE - 30 * DAY });
    expect(contentRemovedAfterGrace(UPGRADE, UPGRADE - 30 * DAY, undefined)).toBe(UPGRADE);
  });

  it('spares messages final before the upgrade until the grace ends', () => {
    // A day's setting, five days in: only what became final since the upgrade (and a day old) goes.
    expect(removableContent(UPGRADE + 5 * DAY, 1, UPGRADE)).toEqual({
      from: UPGRADE,
      before: UPGRADE + 4 * DAY,
    });
    // 30 days, a day in: nothing final since the upgrade is old enough yet.
    expect(removableContent(UPGRADE + DAY, 30, UPGRADE)).toBeUndefined();
    expect(removableContent(GRACE_END - 1, 30, UPGRADE)).toBeUndefined();
    expect(removableContent(GRACE_END, 30, UPGRADE)).toEqual({
      from: undefined,
      before: GRACE_END - 30 * DAY,
    });
  });

  it('says a message final before the upgrade goes when the grace ends, or later when its setting says so', () => {
    expect(contentRemovedAfterGrace(UPGRADE - 10 * DAY, UPGRADE - 40 * DAY, UPGRADE)).toBe(GRACE_END);
    expect(contentRemovedAfterGrace(UPGRADE + 29 * DAY, UPGRADE - DAY, UPGRADE)).toBe(UPGRADE + 29 * DAY);
    // Final since the upgrade: the setting alone.
    expect(contentRemovedAfterGrace(UPGRADE + 2 * DAY, UPGRADE + DAY, UPGRADE)).toBe(UPGRADE + 2 * DAY);
  });
});
