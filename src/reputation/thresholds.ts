// When an account's rolling bounce and complaint rates make it `warning` or `paused`
// (ARCHITECTURE.md, "Reputation guardrails"). The defaults are Amazon SES's: review at 5 % bounces or
// 0.1 % complaints, pause at 10 % / 0.5 %; judged only once the window holds enough final messages for a
// rate to mean something. TXMAIL_REPUTATION overrides any of them.

import { exactText, numberText } from '../number-text.js';

export interface ReputationThresholds {
  /** Rates as fractions (0.05 = 5 %). */
  bounceWarn: number;
  bouncePause: number;
  complaintWarn: number;
  complaintPause: number;
  /** Final messages the window must hold before the account is judged at all. */
  minMessages: number;
  /** Length of the rolling window, in days (today and the days before it). */
  windowDays: number;
}

export const DEFAULT_REPUTATION: ReputationThresholds = {
  bounceWarn: 0.05,
  bouncePause: 0.1,
  complaintWarn: 0.001,
  complaintPause: 0.005,
  minMessages: 500,
  windowDays: 7,
};

/** The setting names of TXMAIL_REPUTATION (percentages for the rates) and the field each sets. */
const SETTINGS = {
  bounce_warn: 'bounceWarn',
  bounce_pause: 'bouncePause',
  complaint_warn: 'complaintWarn',
  complaint_pause: 'complaintPause',
  min_messages: 'minMessages',
  window_days: 'windowDays',
} as const satisfies Record<string, keyof ReputationThresholds>;

/** The settings that are whole counts; the others are rates, written in percent. */
const isCount = (field: keyof ReputationThresholds) => field === 'minMessages' || field === 'windowDays';

/**
 * Parses TXMAIL_REPUTATION: `name=value,…` with rates in percent (`bounce_warn=5,complaint_pause=0.5`),
 * `min_messages` and `window_days` whole numbers; any setting left out keeps its default. Throws a
 * message naming what is wrong.
 */
export function parseReputation(text: string): ReputationThresholds {
  const t: ReputationThresholds = { ...DEFAULT_REPUTATION };
  for (const part of text.split(',').map((p) => p.trim())) {
    if (part === '') continue;
    const m = /^([a-z_]+)\s*=\s*(\d+(?:\.\d+)?)$/.exec(part);
    const field = m ? SETTINGS[m[1] as keyof typeof SETTINGS] : undefined;
    if (!m || !field) {
      throw new Error(`"${part}" is not one of ${Object.keys(SETTINGS).join(', ')} with =number`);
    }
    const value = Number(m[2]);
    if (isCount(field)) {
      if (!Number.isInteger(value) || value < 1) throw new Error(`${m[1]} must be a whole number ≥ 1`);
      if (field === 'windowDays' && value > 90) throw new Error('window_days must be at most 90');
      t[field] = value;
    } else {
      if (value <= 0 || value > 100) throw new Error(`${m[1]} must be a percentage above 0 and at most 100`);
      t[field] = value / 100;
    }
  }
  if (t.bounceWarn > t.bouncePause) throw new Error('bounce_warn must not be above bounce_pause');
  if (t.complaintWarn > t.complaintPause) throw new Error('complaint_warn must not be above complaint_pause');
  return t;
}

/** TXMAIL_REPUTATION's text for `t`: every setting, rates in percent (what parseReputation reads). */
export function reputationText(t: ReputationThresholds): string {
  return Object.entries(SETTINGS)
    .map(([name, field]) => {
      const v = t[field];
      return `${name}=${isCount(field) ? numberText(v) : exactText(v, 100)}`;
    })
    .join(',');
}

/**
 * A held message is looked at again this much later (resuming the account makes the mail held due at
 * once: db/account-reputation-repo.ts, which touches only messages due within this long), so a large
 * paused backlog costs one claim per message per period.
 */
export const HOLD_MS = 5 * 60_000;
