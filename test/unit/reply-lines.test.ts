import { describe, expect, it } from 'vitest';
import { joinedReply } from '../../src/bounce/reply-lines.js';

describe('joinedReply', () => {
  it('takes out the later lines of a multi-line reply', () => {
    expect(
      joinedReply(
        '421-4.7.28 [198.51.100.7 15] Our system has detected an unusual rate of 421-4.7.28 unsolicited mail originating from your IP address. 421 4.7.28 rate limited.',
      ),
    ).toBe(
      '421-4.7.28 [198.51.100.7 15] Our system has detected an unusual rate of unsolicited mail originating from your IP address. rate limited.',
    );
    expect(
      joinedReply('smtp; 550-Requested action not taken: mailbox unavailable 550-For explanation visit'),
    ).toBe('smtp; 550-Requested action not taken: mailbox unavailable For explanation visit');
  });
  it('leaves other codes and numbers alone', () => {
    expect(joinedReply('550 5.1.1 user unknown; the server said 452 4.2.2 earlier')).toBe(
      '550 5.1.1 user unknown; the server said 452 4.2.2 earlier',
    );
    expect(joinedReply('550 Message of 550 KB refused')).toBe('550 Message of 550 KB refused');
    expect(joinedReply('Host or domain name not found')).toBe('Host or domain name not found');
  });
});

describe('joinedReply across line breaks', () => {
  it('joins the lines of a reply as the session gets it, so a phrase split by a break reads whole', () => {
    const reply = [
      '421-4.7.0 [198.51.100.7 15] Our system has detected an unusual rate',
      '421-4.7.0 of unsolicited mail originating from your IP address.',
      '421 4.7.0 Try again later.',
    ].join('\n');
    expect(joinedReply(reply)).toBe(
      '421-4.7.0 [198.51.100.7 15] Our system has detected an unusual rate of unsolicited mail originating from your IP address. Try again later.',
    );
    expect(joinedReply(reply)).toContain('unusual rate of unsolicited');
  });
});
