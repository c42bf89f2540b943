// The account's days drawn by hand in SVG (no chart library: nothing to load, nothing the CSP must
// allow): per day four bars side by side — sent, delivered, bounced, complained — and below, the daily
// bounce and complaint rates against the thresholds the account is judged by. Every day carries a
// <title> with its numbers (the browser's tooltip), and the same numbers are in a table for screen
// readers and for anyone who would rather read them.
import { ScrollBox } from './scroll-box.js';
import type { ActivityDay } from '../api.js';
import { axisFor, compactNumber, dayLabel } from './chart-scale.js';
import { formatLimit, formatNumber, formatPercent } from './format.js';

export const SERIES = [
  { key: 'sent', label: 'Sent' },
  { key: 'delivered', label: 'Delivered' },
  { key: 'bounced', label: 'Bounced' },
  { key: 'complained', label: 'Complained' },
] as const satisfies readonly { key: keyof ActivityDay; label: string }[];

const M = { top: 10, right: 10, bottom: 34, left: 52 };
/** A day's width in the drawing: 30 days fill 720 units. */
const DAY_W = (720 - M.left - M.right) / 30;
/**
 * How wide the drawing is shown at least, a share of its own width: its 11-unit labels stay about 8 px
 * (34rem for 30 days, as before; fewer days, narrower).
 */
const LEAST_SCALE = 0.755;

/** A day's numbers in words: the tooltip of its bars and the accessible name of its group. */
export function dayTitle(d: ActivityDay): string {
  return `${dayLabel(d.date, true)}: ${formatNumber(d.sent)} sent, ${formatNumber(d.delivered)} delivered, ${formatNumber(d.bounced)} bounced, ${formatNumber(d.complained)} complained`;
}

/** Which days get a date under the axis: about one a week, always the last (today). */
function labelled(i: number, n: number): boolean {
  const every = n <= 10 ? 1 : n <= 31 ? 5 : 10;
  return i === n - 1 || ((n - 1 - i) % every === 0 && n - 1 - i >= every / 2);
}

export function ActivityChart({ days }: { days: ActivityDay[] }) {
  const H = 240;
  const W = M.left + M.right + DAY_W * Math.max(1, days.length);
  const plotW = W - M.left - M.right;
  const plotH = H - M.top - M.bottom;
  const max = Math.max(0, ...days.map((d) => Math.max(d.sent, d.delivered, d.bounced, d.complained)));
  // At least 0..4: one email on an otherwise empty month is a short bar, not a full-height one.
  const axis = axisFor(Math.max(max, 4));
  const band = plotW / Math.max(1, days.length);
  const barW = (band * 0.84) / SERIES.length;
  const y = (v: number) => M.top + plotH - (v / axis.top) * plotH;
  // A day with a few emails next to one with a million still shows a sliver: never round a count to nothing.
  const h = (v: number) => (v > 0 ? Math.max(1.5, (v / axis.top) * plotH) : 0);
  const first = days[0]?.date ?? '';
  const last = days[days.length - 1]?.date ?? '';
  return (
    <div className="chart-wrap">
      <svg
        className="chart activity-chart"
        viewBox={`0 0 ${W} ${H}`}
        style={{ minWidth: `${Math.round(W * LEAST_SCALE)}px` }}
        role="img"
        aria-labelledby="activity-title activity-desc"
      >
        <title id="activity-title">
          Emails per day, {SERIES.map((s) => s.label.toLowerCase()).join(', ')}
        </title>
        <desc id="activity-desc">
          {days.length} days from {dayLabel(first, true)} to {dayLabel(last, true)}; the most on one day:{' '}
          {formatNumber(max)}. The table below lists every day.
        </desc>
        {axis.ticks.map((t) => (
          <g key={t} className="tick">
            <line className="grid" x1={M.left} x2={W - M.right} y1={y(t)} y2={y(t)} />
            <text className="axis-label" x={M.left - 6} y={y(t)} dy="0.32em" textAnchor="end">
              {compactNumber(t)}
            </text>
          </g>
        ))}
        <text
          className="axis-title"
          transform={`translate(12 ${M.top + plotH / 2}) rotate(-90)`}
          textAnchor="middle"
        >
          emails
        </text>
        {days.map((d, i) => {
          const x0 = M.left + i * band + band * 0.08;
          return (
            <g key={d.date} className="day" data-date={d.date}>
              <title>{dayTitle(d)}</title>
              {SERIES.map((s, j) => (
                <rect
                  key={s.key}
                  className={`bar ${s.key}`}
                  x={x0 + j * barW}
                  y={y(0) - h(d[s.key])}
                  width={Math.max(1, barW - 0.5)}
                  height={h(d[s.key])}
                />
              ))}
              {/* The whole column answers the pointer, so the tooltip does not need a bar hit exactly. */}
              <rect className="hit" x={M.left + i * band} y={M.top} width={band} height={plotH} />
              {labelled(i, days.length) && (
                <text
                  className="axis-label"
                  x={M.left + (i + 0.5) * band}
                  y={H - M.bottom + 16}
                  textAnchor="middle"
                >
                  {dayLabel(d.date)}
                </text>
              )}
            </g>
          );
        })}
        <line className="axis" x1={M.left} x2={W - M.right} y1={y(0)} y2={y(0)} />
        <text className="axis-title" x={M.left + plotW / 2} y={H - 2} textAnchor="middle">
          day (UTC)
        </text>
      </svg>
      <Legend items={SERIES.map((s) => ({ key: s.key, label: s.label }))} />
    </div>
  );
}

function Legend({ items }: { items: { key: string; label: string }[] }) {
  return (
    <ul className="legend" aria-label="Legend">
      {items.map((s) => (
        <li key={s.key}>
          <svg className="swatch" viewBox="0 0 12 12" aria-hidden="true">
            <rect className={`bar ${s.key}`} width={12} height={12} rx={2} />
          </svg>
          {s.label}
        </li>
      ))}
    </ul>
  );
}

/**
 * One daily rate as the guard computes it over its window (db/reputation-repo.ts): bounces that say the
 * address is bad, or spam complaints, over the day's messages that reached a final state, the service's
 * test-domain mail left out of both. Points joined by a line, with the warning threshold dashed and the
 * pause threshold solid. Days without a final message have no rate and no point; so do the days before
 * the operator last resumed the account, whose window columns the resume zeroed.
 */
export function RateChart({
  id,
  label,
  days,
  part,
  warning,
  pause,
}: {
  id: string;
  label: string;
  days: ActivityDay[];
  part: 'bad_bounces' | 'spam_complaints';
  warning: number;
  pause: number;
}) {
  const RW = 360;
  const H = 170;
  const m = { top: 14, right: 64, bottom: 26, left: 52 };
  const plotW = RW - m.left - m.right;
  const plotH = H - m.top - m.bottom;
  const points = days.map((d, i) => ({ d, i, rate: d.final > 0 ? d[part] / d.final : null }));
  // Drawn in the colour of the activity chart's bounced or complained bars.
  const tone = part === 'bad_bounces' ? 'bounced' : 'complained';
  // The thresholds stay readable: the axis stops at three times the pause threshold, and a day above it
  // is drawn at the top as an arrow (its tooltip still says its rate).
  const max = Math.max(pause * 1.25, ...points.map((p) => p.rate ?? 0));
  const axis = axisFor(Math.min(1, max, pause * 3), 4, false);
  const band = plotW / Math.max(1, days.length);
  const x = (i: number) => m.left + (i + 0.5) * band;
  const y = (v: number) => m.top + plotH - (Math.min(v, axis.top) / axis.top) * plotH;
  // Runs of consecutive days that have a rate, each drawn as one line.
  const runs: { i: number; rate: number }[][] = [];
  for (const p of points) {
    if (p.rate === null) continue;
    const run = runs[runs.length - 1];
    const prev = run?.[run.length - 1];
    if (run && prev && prev.i === p.i - 1) run.push({ i: p.i, rate: p.rate });
    else runs.push([{ i: p.i, rate: p.rate }]);
  }
  const withRate = points.filter((p) => p.rate !== null);
  return (
    <figure className="rate-chart">
      <svg className="chart" viewBox={`0 0 ${RW} ${H}`} role="img" aria-labelledby={`${id}-title ${id}-desc`}>
        <title id={`${id}-title`}>{label} per day</title>
        <desc id={`${id}-desc`}>
          Warning at {formatLimit(warning)}, paused at {formatLimit(pause)}.{' '}
          {withRate.length === 0
            ? 'No day in this period has a message that reached a final state.'
            : `Highest: ${formatPercent(Math.max(...withRate.map((p) => p.rate ?? 0)))}.`}
        </desc>
        {axis.ticks.map((t) => (
          <g key={t} className="tick">
            <line className="grid" x1={m.left} x2={RW - m.right} y1={y(t)} y2={y(t)} />
            <text className="axis-label" x={m.left - 6} y={y(t)} dy="0.32em" textAnchor="end">
              {formatLimit(t)}
            </text>
          </g>
        ))}
        {/* Two labels closer than a line of text apart: the warning one moves below. */}
        <line className="threshold warn" x1={m.left} x2={RW - m.right} y1={y(warning)} y2={y(warning)} />
        <text
          className="threshold-label warn"
          x={RW - m.right + 4}
          y={Math.max(y(warning), y(pause) + 12)}
          dy="0.32em"
        >
          warning
        </text>
        <line className="threshold bad" x1={m.left} x2={RW - m.right} y1={y(pause)} y2={y(pause)} />
        <text className="threshold-label bad" x={RW - m.right + 4} y={y(pause)} dy="0.32em">
          pause
        </text>
        {runs.map((run) => (
          <polyline
            key={run[0]!.i}
            className={`rate-line ${tone}`}
            points={run.map((p) => `${x(p.i)},${y(p.rate)}`).join(' ')}
          />
        ))}
        {withRate.map((p) => (
          <g key={p.d.date} className="point">
            <title>
              {`${dayLabel(p.d.date, true)}: ${label.toLowerCase()} ${formatPercent(p.rate ?? 0)} (${formatNumber(p.d[part])} of ${formatNumber(p.d.final)})`}
            </title>
            {(p.rate ?? 0) > axis.top ? (
              <path className={`dot off-scale ${tone}`} d={`M${x(p.i)},${m.top - 4} l-4,7 h8 z`} />
            ) : (
              <circle className={`dot ${tone}`} cx={x(p.i)} cy={y(p.rate ?? 0)} r={3} />
            )}
            <rect className="hit" x={x(p.i) - band / 2} y={m.top} width={band} height={plotH} />
          </g>
        ))}
        {withRate.length === 0 && (
          <text className="axis-label" x={m.left + plotW / 2} y={m.top + plotH / 2} textAnchor="middle">
            no final messages yet
          </text>
        )}
        <line className="axis" x1={m.left} x2={RW - m.right} y1={y(0)} y2={y(0)} />
        {days.length > 0 && (
          <>
            <text className="axis-label" x={x(0)} y={H - 8} textAnchor="start">
              {dayLabel(days[0]!.date)}
            </text>
            <text className="axis-label" x={x(days.length - 1)} y={H - 8} textAnchor="end">
              {dayLabel(days[days.length - 1]!.date)}
            </text>
          </>
        )}
      </svg>
      <figcaption className="hint">
        {label}: <span className="mark-key warn">warning at {formatLimit(warning)}</span>{' '}
        <span className="mark-key bad">paused at {formatLimit(pause)}</span>
      </figcaption>
    </figure>
  );
}

/** The chart's numbers as a table, in a disclosure: for screen readers, and for reading exact values. */
export function ActivityTable({ days }: { days: ActivityDay[] }) {
  return (
    <details className="activity-numbers">
      <summary>The numbers, day by day</summary>
      <ScrollBox label="Emails per day">
        <table>
          <caption className="visually-hidden">Emails per day</caption>
          <thead>
            <tr>
              <th scope="col">Day (UTC)</th>
              {SERIES.map((s) => (
                <th key={s.key} scope="col">
                  {s.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {[...days].reverse().map((d) => (
              <tr key={d.date}>
                <th scope="row">{d.date}</th>
                {SERIES.map((s) => (
                  <td key={s.key}>{formatNumber(d[s.key])}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollBox>
    </details>
  );
}
