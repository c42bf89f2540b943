// What an account is told when its reputation state changes (ARCHITECTURE.md, "Reputation guardrails"):
// the dashboard notice, the webhook event's data (docs/API.md, `account.warning` / `account.paused`) and
// the email from notifications@. Pure: the caller gives ids and times.
import type { AccountNoticeRow, NewEvent } from '../db/schema.js';
import { percent, type ReputationStatus } from './judge.js';
import type { ReputationThresholds } from './thresholds.js';

/** The window that earned a status, as the guard judged it. */
export interface ReputationFacts {
  accountId: string;
  status: ReputationStatus;
  reason: string;
  bounceRate: number;
  complaintRate: number;
  messages: number;
  windowDays: number;
}

/** The data of an `account.warning` / `account.paused` event, as pushed to webhooks. */
export function reputationEventData(f: ReputationFacts): Record<string, unknown> {
  return {
    account_id: f.accountId,
    status: f.status,
    reason: f.reason,
    bounce_rate: f.bounceRate,
    complaint_rate: f.complaintRate,
    messages: f.messages,
    window_days: f.windowDays,
  };
}

/** The event row of a move to warning or paused: about the account, so no message. */
export function reputationEvent(f: ReputationFacts, id: string, now: number): NewEvent {
  return {
    id,
    message_id: null,
    account_id: f.accountId,
    type: f.status === 'paused' ? 'account.paused' : 'account.warning',
    created_at: now,
    data: JSON.stringify(reputationEventData(f)),
  };
}

export function reputationNotice(f: ReputationFacts, id: string, now: number): AccountNoticeRow {
  const message =
    f.status === 'paused'
      ? `Sending is paused: ${f.reason}. Sends are refused (403 account_paused) and queued mail is held until the operator resumes the account.`
      : `Reputation warning: ${f.reason}. Clean the list before sending more; at the pause thresholds sending stops.`;
  return {
    id,
    account_id: f.accountId,
    kind: `reputation_${f.status}`,
    message,
    data: JSON.stringify(reputationEventData(f)),
    created_at: now,
  };
}

export function resumedNotice(accountId: string, id: string, now: number): AccountNoticeRow {
  return {
    id,
    account_id: accountId,
    kind: 'reputation_resumed',
    message: 'The operator resumed sending. A fresh reputation window starts now.',
    data: '{}',
    created_at: now,
  };
}

function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The email to the account's signup address: what happened, the rates against the thresholds, what to do. */
export function reputationMail(
  f: ReputationFacts,
  t: ReputationThresholds,
  publicUrl: string,
): { subject: string; html: string } {
  const paused = f.status === 'paused';
  const subject = paused
    ? 'txmail: sending from your account is paused'
    : 'txmail: your bounce or complaint rate is high';
  const rates = [
    `<li>Bounce rate (addresses that do not exist or are disabled): ${percent(f.bounceRate)}; warning at ${percent(t.bounceWarn)}, pause at ${percent(t.bouncePause)}</li>`,
    `<li>Complaint rate (marked as spam): ${percent(f.complaintRate)}; warning at ${percent(t.complaintWarn)}, pause at ${percent(t.complaintPause)}</li>`,
    `<li>Over the last ${f.windowDays} days: ${f.messages} messages that reached a final state</li>`,
  ].join('');
  const what = paused
    ? [
        '<p>Every account of this service sends from the same addresses, so a list that bounces or draws complaints harms everyone&#39;s mail. ',
        'Sends (<code>POST /api/email/send</code>) now answer <code>403 account_paused</code>; mail already queued is held, not lost (it still expires at its deadline). ',
        'Test sends and the guided test still work.</p>',
        '<p>What to do: remove the addresses that bounced (they are on your suppression list already) and anyone who did not ask for your mail, then ask the operator of this service to resume your account. ',
        'A resumed account starts a fresh window.</p>',
      ].join('')
    : [
        '<p>Nothing is blocked yet. If the rates reach the pause thresholds, sending stops until the operator resumes the account.</p>',
        '<p>What to do: stop sending to addresses that bounced (they are on your suppression list already) and to anyone who did not ask for your mail; check where your list comes from.</p>',
      ].join('');
  return {
    subject,
    html: [
      '<p>Hello,</p>',
      `<p>${esc(paused ? 'Sending from your txmail account is paused' : 'Your txmail account has a reputation warning')}: ${esc(f.reason)}.</p>`,
      `<ul>${rates}</ul>`,
      what,
      `<p>The rates per day are on the dashboard: <a href="${esc(publicUrl)}/">${esc(publicUrl)}</a> (and <code>GET /api/account</code>).</p>`,
      '<p>— txmail</p>',
    ].join('\n'),
  };
}
