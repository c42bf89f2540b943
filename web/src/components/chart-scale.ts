// Axes people can read: a top value and ticks on round numbers (1, 2, 5 × 10ⁿ), counts written short
// (12k, 1.5M), and days named as a calendar does. Pure, so the charts stay plain drawing.

/** The smallest 1, 2 or 5 × 10ⁿ at or above `raw` (raw > 0). */
function roundStep(raw: number): number {
  const power = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) if (m * power >= raw - power * 1e-9) return m * power;
  return 10 * power;
}

export interface Axis {
  /** The value at the top of the plot. */
  top: number;
  /** Tick values from 0 to top, ascending. */
  ticks: number[];
}

/**
 * An axis from 0 that holds `max` in about `count` round steps. `whole` keeps steps at whole numbers
 * (counts of emails); otherwise steps may be fractions (rates). An empty plot gets 0..1.
 */
export function axisFor(max: number, count = 4, whole = true): Axis {
  if (!(max > 0)) return { top: whole ? count : 1, ticks: whole ? range(count, 1) : [0, 0.25, 0.5, 0.75, 1] };
  let step = roundStep(max / count);
  if (whole) step = Math.max(1, Math.round(step));
  const steps = Math.max(1, Math.ceil(max / step - 1e-9));
  return { top: steps * step, ticks: range(steps, step) };
}

function range(steps: number, step: number): number[] {
  return Array.from({ length: steps + 1 }, (_, i) => i * step);
}

/** 950, 1.2k, 15k, 1.5M: counts on an axis, where space is short. */
export function compactNumber(n: number): string {
  const short = (v: number, unit: string) => `${v >= 10 ? Math.round(v) : Math.round(v * 10) / 10}${unit}`;
  if (n >= 1e6) return short(n / 1e6, 'M');
  if (n >= 1e3) return short(n / 1e3, 'k');
  return String(Math.round(n * 100) / 100);
}

/** `Nov 24` for the UTC day `2026-11-24` (the API's days are UTC days). */
export function dayLabel(date: string, long = false): string {
  const d = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(d.getTime())) return date;
  return d.toLocaleDateString('en-US', {
    timeZone: 'UTC',
    month: 'short',
    day: 'numeric',
    ...(long ? { weekday: 'short', year: 'numeric' } : {}),
  });
}
