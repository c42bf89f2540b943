// One rate against its two thresholds: a bar filled to the rate, a dashed mark where the account is
// warned and a solid one where it is paused, coloured by the level the rate has reached. The numbers
// are also written out beside it (never colour or position alone).
import { formatLimit, formatPercent } from './format.js';

const WIDTH = 300;
const BAR_Y = 4;
const BAR_H = 14;

/** good below the warning mark, warn from it, bad from the pause mark. */
export function rateLevel(rate: number, warning: number, pause: number): 'good' | 'warn' | 'bad' {
  return rate >= pause ? 'bad' : rate >= warning ? 'warn' : 'good';
}

export function RateBar({
  label,
  rate,
  warning,
  pause,
  judged,
}: {
  label: string;
  rate: number;
  warning: number;
  pause: number;
  /** Whether the window holds enough messages for the rate to count. */
  judged: boolean;
}) {
  // The pause mark sits in the middle, so a rate twice the pause threshold fills the bar.
  const top = pause * 2;
  const x = (v: number) => Math.min(WIDTH, Math.max(0, (v / top) * WIDTH));
  const level = judged ? rateLevel(rate, warning, pause) : 'neutral';
  const summary = `${label} ${formatPercent(rate)}: warning at ${formatLimit(warning)}, paused at ${formatLimit(pause)}`;
  return (
    <div className="rate">
      <p className="rate-value">
        {label}: <strong>{formatPercent(rate)}</strong>
        {rate > top && <span className="muted"> (beyond the bar)</span>}
      </p>
      <svg
        className="rate-bar"
        viewBox={`0 0 ${WIDTH} 36`}
        role="img"
        aria-label={summary}
        preserveAspectRatio="none"
      >
        <title>{summary}</title>
        <rect className="rate-track" x={0} y={BAR_Y} width={WIDTH} height={BAR_H} rx={3} />
        {rate > 0 && (
          <rect
            className={`rate-fill ${level}`}
            x={0}
            y={BAR_Y}
            width={Math.max(2, x(rate))}
            height={BAR_H}
            rx={3}
          />
        )}
        <line
          className="mark warn"
          vectorEffect="non-scaling-stroke"
          x1={x(warning)}
          x2={x(warning)}
          y1={0}
          y2={BAR_H + 8}
        />
        <line
          className="mark bad"
          vectorEffect="non-scaling-stroke"
          x1={x(pause)}
          x2={x(pause)}
          y1={0}
          y2={BAR_H + 8}
        />
      </svg>
      <p className="rate-marks hint">
        <span className="mark-key warn">warning at {formatLimit(warning)}</span>
        <span className="mark-key bad">paused at {formatLimit(pause)}</span>
      </p>
    </div>
  );
}
