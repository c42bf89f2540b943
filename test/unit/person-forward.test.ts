// A person's forward of a notice (bounce/person-forward.ts): its subject's tags, and who sent it.
import { describe, expect, it } from 'vitest';
import { forwardedByPerson, forwardSubject } from '../../src/bounce/person-forward.js';

const headers =
  (h: Record<string, string>) =>
  (name: string): string | undefined =>
    h[name.toLowerCase()];

describe('forwardSubject', () => {
  it.each([
    'Fwd: Undelivered Mail Returned to Sender',
    'FW: Undeliverable: Receipt',
    'Re: Fwd: Undelivered Mail Returned to Sender',
    'AW: WG: Unzustellbar: Rechnung',
    '[EXT] RE: FW: Undeliverable',
    'EXTERNAL: Fwd: Delivery Status Notification (Failure)',
    'TR : Non remis : Facture',
    '转发：退信',
  ])('reads %s as a forward', (subject) => {
    expect(forwardSubject(subject)).toBe(true);
  });

  it.each([
    'Undelivered Mail Returned to Sender',
    'Re: your receipt',
    'Mail delivery failed: returning message to sender',
    'Information about your order',
    'Iris: forwarded',
  ])('does not read %s as a forward', (subject) => {
    expect(forwardSubject(subject)).toBe(false);
  });
});

describe('forwardedByPerson', () => {
  const subject = 'Fwd: Undelivered Mail Returned to Sender';
  it('is a person writing from their own address', () => {
    expect(
      forwardedByPerson(headers({ from: 'Office Manager <om@x.example>' }), subject, 'om@x.example'),
    ).toBe(true);
  });
  it.each([
    ['the null sender', {}, ''],
    ['a mail system', { from: 'MAILER-DAEMON@x.example' }, 'x@x.example'],
    ['a bounce handler', { from: 'Relay <n@relay.example>' }, 'bounce-notify@relay.example'],
    ['a no-reply address', { from: 'Relay <notifications@relay.example>' }, 'notifications@relay.example'],
    [
      'an automatic message',
      { from: 'Relay <ops@relay.example>', 'auto-submitted': 'auto-generated' },
      'ops@relay.example',
    ],
  ])('is not %s', (_who, h, envelope) => {
    expect(forwardedByPerson(headers(h), subject, envelope)).toBe(false);
  });
});
