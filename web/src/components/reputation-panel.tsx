// The account's sending reputation (GET /api/account `reputation`; ARCHITECTURE.md, "Reputation
// guardrails"): its status in words and colour, each rate against the thresholds that warn and pause
// it, how many messages the window holds, and the rates per sending domain.
import { ScrollBox } from './scroll-box.js';
import type { Reputation } from '../api.js';
import { formatLimit, formatNumber, formatPercent, formatTime } from './format.js';
import { Notice } from './notice.js';
import { RateBar, rateLevel } from './rate-bar.js';

const STATUS_TEXT: Record<Reputation['status'], string> = {
  healthy: 'Healthy',
  warning: 'Warning',
  paused: 'Sending paused',
};

/** What the account must know first, above everything else on the overview. */
export function ReputationNotice({ reputation }: { reputation: Reputation }) {
  if (reputation.status === 'paused')
    return (
      <Notice kind="error">
        <p>
          <strong>Sending is paused</strong>
          {reputation.reason ? `: ${reputation.reason}.` : '.'}
        </p>
        <p>
          Sends are refused with <code>403 account_paused</code> until the operator resumes the account; it
          cannot be resumed from here. Clean the list (remove the addresses that bounced or complained), then
          contact the operator. Test sends and the guided test still work.
        </p>
      </Notice>
    );
  if (reputation.status === 'warning')
    return (
      <Notice kind="warning">
        <p>
          <strong>Reputation warning</strong>
          {reputation.reason ? `: ${reputation.reason}.` : '.'}
        </p>
        <p>
          Sending is paused at {formatLimit(reputation.thresholds.bounce_pause)} bounces or{' '}
          {formatLimit(reputation.thresholds.complaint_pause)} complaints. Remove the addresses that bounce
          and send only to people who asked for your mail.
        </p>
      </Notice>
    );
  return null;
}

export function ReputationPanel({ reputation }: { reputation: Reputation }) {
  const t = reputation.thresholds;
  const judged = reputation.messages >= t.min_messages;
  const tone = { healthy: 'good', warning: 'warn', paused: 'bad' }[reputation.status];
  return (
    <section className="card reputation" aria-labelledby="reputation-heading">
      <h2 id="reputation-heading">Sending reputation</h2>
      <p className="reputation-status">
        <span className={`status-pill ${tone}`} data-testid="reputation-status">
          {STATUS_TEXT[reputation.status]}
        </span>
        {reputation.changed_at && <span className="muted"> since {formatTime(reputation.changed_at)}</span>}
      </p>
      {reputation.status === 'paused' && (
        <p>
          Nothing is sent until the operator resumes the account.
          {reputation.reason && ` Why: ${reputation.reason}.`}
        </p>
      )}
      <p>
        <strong>{formatNumber(reputation.messages)}</strong>{' '}
        {reputation.messages === 1 ? 'message' : 'messages'} reached a final state in the last{' '}
        {reputation.window_days} {reputation.window_days === 1 ? 'day' : 'days'}.
      </p>
      {!judged && (
        <p className="muted" data-testid="not-judged">
          Not judged until {formatNumber(t.min_messages)} messages: a few messages say little about a list.
        </p>
      )}
      <div className="rates">
        <RateBar
          label="Bounce rate"
          rate={reputation.bounce_rate}
          warning={t.bounce_warning}
          pause={t.bounce_pause}
          judged={judged}
        />
        <RateBar
          label="Complaint rate"
          rate={reputation.complaint_rate}
          warning={t.complaint_warning}
          pause={t.complaint_pause}
          judged={judged}
        />
      </div>
      <p className="hint">
        Bounces count when the address is bad (unknown recipient or domain, disabled mailbox); complaints when
        a recipient marked the mail as spam. Rates are over the messages that reached a final state.
      </p>
      <h3>By sending domain</h3>
      {reputation.domains.length === 0 ? (
        <p>No sending domain has messages in this window.</p>
      ) : (
        <ScrollBox label="Rates by sending domain">
          <table className="domain-rates">
            <caption className="visually-hidden">Rates by sending domain</caption>
            <thead>
              <tr>
                <th scope="col">Domain</th>
                <th scope="col">Messages</th>
                <th scope="col">Bounce rate</th>
                <th scope="col">Complaint rate</th>
              </tr>
            </thead>
            <tbody>
              {reputation.domains.map((d) => (
                <tr key={d.domain}>
                  <th scope="row">{d.domain}</th>
                  <td>{formatNumber(d.messages)}</td>
                  <td>
                    <Rate rate={d.bounce_rate} warning={t.bounce_warning} pause={t.bounce_pause} />
                  </td>
                  <td>
                    <Rate rate={d.complaint_rate} warning={t.complaint_warning} pause={t.complaint_pause} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollBox>
      )}
    </section>
  );
}

/** A rate in a table cell, in the colour of its level, with the level in words for the high ones. */
function Rate({ rate, warning, pause }: { rate: number; warning: number; pause: number }) {
  const level = rateLevel(rate, warning, pause);
  return (
    <span className={`rate-text ${level}`}>
      {formatPercent(rate)}
      {level === 'bad' ? ' (pause level)' : level === 'warn' ? ' (warning level)' : ''}
    </span>
  );
}
