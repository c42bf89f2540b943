// The overview's last 30 days (GET /api/account/activity?days=30): the emails per day, and the daily
// bounce and complaint rates against the account's thresholds when the server judges reputation.
import { useEffect, useState } from 'react';
import type { Activity, Reputation } from '../api.js';
import { ActivityChart, ActivityTable, RateChart } from './activity-chart.js';
import { formatNumber } from './format.js';
import { ErrorNotice } from './notice.js';
import { useApi } from './use-api.js';

export const ACTIVITY_DAYS = 30;
/** The days the chart shows on a narrow screen. */
const PHONE_DAYS = 14;

/** Whether the screen is a phone's width (40rem or less), followed as it changes. */
function useNarrow(): boolean {
  const query = '(max-width: 40rem)';
  const [narrow, setNarrow] = useState(() => window.matchMedia(query).matches);
  useEffect(() => {
    const list = window.matchMedia(query);
    const changed = () => setNarrow(list.matches);
    list.addEventListener('change', changed);
    return () => list.removeEventListener('change', changed);
  }, []);
  return narrow;
}

export function ActivityPanel({ reputation }: { reputation: Reputation | undefined }) {
  const { data, error, unavailable } = useApi<Activity>(`/api/account/activity?days=${ACTIVITY_DAYS}`);
  const narrow = useNarrow();
  // A server without the activity API: nothing to draw, and nothing to apologise for on the overview.
  if (unavailable) return null;
  const days = data?.days ?? [];
  const total = days.reduce((n, d) => n + d.sent + d.delivered + d.bounced + d.complained, 0);
  const t = reputation?.thresholds;
  return (
    <section className="card activity" aria-labelledby="activity-heading">
      <h2 id="activity-heading">Last {ACTIVITY_DAYS} days</h2>
      <ErrorNotice error={error} />
      {data &&
        (total === 0 ? (
          <p data-testid="activity-empty">
            No email in the last {ACTIVITY_DAYS} days yet. Each day’s sent, delivered, bounced and complained
            emails are drawn here once you send.
          </p>
        ) : (
          <>
            <p className="muted">
              {formatNumber(days.reduce((n, d) => n + d.sent, 0))} sent,{' '}
              {formatNumber(days.reduce((n, d) => n + d.delivered, 0))} delivered,{' '}
              {formatNumber(days.reduce((n, d) => n + d.bounced, 0))} bounced,{' '}
              {formatNumber(days.reduce((n, d) => n + d.complained, 0))} complained. Point at a day for its
              numbers.
            </p>
            {/* A phone shows the last two weeks: 30 days are wider than its screen, and the box
                scrolled to the oldest days looked empty beside "7 sent". The table has every day. */}
            <ActivityChart days={narrow ? days.slice(-PHONE_DAYS) : days} />
            {narrow && days.length > PHONE_DAYS && (
              <p className="hint">
                The chart shows the last {PHONE_DAYS} days; the table below has all {days.length}.
              </p>
            )}
            {t && (
              <>
                <h3>Daily rates</h3>
                <div className="rate-charts">
                  <RateChart
                    id="bounce-rate-chart"
                    label="Bounce rate"
                    days={days}
                    part="bad_bounces"
                    warning={t.bounce_warning}
                    pause={t.bounce_pause}
                  />
                  <RateChart
                    id="complaint-rate-chart"
                    label="Complaint rate"
                    days={days}
                    part="spam_complaints"
                    warning={t.complaint_warning}
                    pause={t.complaint_pause}
                  />
                </div>
                <p className="hint">
                  A day’s rate is counted as the status above counts it: bounces that say an address is bad,
                  and spam complaints, over the day’s emails that reached a final state (the service’s own
                  test mail left out). The status judges the last {reputation?.window_days ?? 7} days
                  together; days before the operator last resumed the account have no rate.
                </p>
              </>
            )}
            <ActivityTable days={days} />
          </>
        ))}
    </section>
  );
}
