// The directly written message (delivery/direct-compose.ts) against MailComposer's (compose.ts): the
// same bytes, the multipart boundary's random part aside, for every message it writes; and it does
// write the common ones (the benchmark's message, a one-line HTML, accented Latin text).
import fc from 'fast-check';
import MailComposer from 'nodemailer/lib/mail-composer';
import { describe, expect, it, vi } from 'vitest';
import {
  composeByMailComposer,
  composeMessage,
  foldableSubject,
  messageIdHeader,
  plainText,
  type OutgoingMessage,
} from '../../src/delivery/compose.js';
import { composeDirect } from '../../src/delivery/direct-compose.js';

/** The benchmark's message (bench/lib/post.mjs). */
const HTML = `<p>Your sign-in code is <b>483920</b>.</p><p>${'It expires in ten minutes. '.repeat(40)}</p>`;

const base: OutgoingMessage = {
  id: '019ab000-0000-7000-8000-000000000001',
  fromName: 'Acme',
  fromEmail: 'noreply@acme.example',
  toName: '',
  toEmail: 'jane@recipient.example',
  subject: 'Your sign-in code',
  html: HTML,
  createdAt: Date.UTC(2026, 10, 24, 9, 30, 15),
  feedbackId: '019ab000-0000-7000-8000-00000000000a:acme.example:txmail',
};

const sameBoundary = (b: Buffer) => b.toString('latin1').replace(/--_NmP-[0-9a-f]{16}-Part_1/g, 'BOUNDARY');

/** Both ways of writing `m`; `direct` undefined when the direct writer declines it. */
async function both(m: OutgoingMessage) {
  const subject = foldableSubject(m.subject);
  const messageId = messageIdHeader(m.id, 'mta.txmail.test');
  const text = plainText(m.html);
  const direct = subject === m.subject ? composeDirect(m, messageId, text) : undefined;
  const composer = await composeByMailComposer(m, subject, messageId, text);
  return { direct: direct && sameBoundary(direct), composer: sameBoundary(composer) };
}

describe('composeDirect', () => {
  it('writes the common messages, byte for byte as MailComposer does', async () => {
    const common: Partial<OutgoingMessage>[] = [
      {},
      { html: '<p>Your code is <b>1234</b></p>', toName: 'Jane Doe', feedbackId: undefined },
      { html: '<p>Grüße aus Köln, à bientôt, café crème</p>', subject: "Bonjour (test) [1] it's" },
      { html: `<p>${'word '.repeat(60)}end</p>\n<p>second</p>` },
    ];
    for (const extra of common) {
      const { direct, composer } = await both({ ...base, ...extra });
      expect(direct, JSON.stringify(extra)).toBeDefined();
      expect(direct).toBe(composer);
    }
    // composeMessage takes that path: MailComposer is not asked, for the same bytes.
    const expected = (await both(base)).composer;
    const compile = vi.spyOn(MailComposer.prototype, 'compile');
    try {
      const composed = await composeMessage(base, 'mta.txmail.test');
      expect(sameBoundary(composed)).toBe(expected);
      expect(compile).not.toHaveBeenCalled();
      await composeMessage({ ...base, subject: 'Grüße' }, 'mta.txmail.test');
      expect(compile).toHaveBeenCalledTimes(1);
    } finally {
      compile.mockRestore();
    }
  });

  it('declines what MailComposer encodes or folds', async () => {
    const other: Partial<OutgoingMessage>[] = [
      { fromName: 'Acmé' },
      { toName: 'Doe, Jane' },
      { subject: 'Grüße' },
      { subject: 'A "quoted" word' },
      { subject: `A ${'long '.repeat(20)}subject` },
      { subject: 'x'.repeat(70) },
      { toEmail: 'jane@bücher.example' },
      { html: '<p>Код подтверждения: 1234</p>' },
      { html: '<p>trailing</p>  ' },
    ];
    for (const extra of other) expect((await both({ ...base, ...extra })).direct).toBeUndefined();
  });

  it('agrees with MailComposer on generated messages', async () => {
    const word = fc.stringMatching(/^[A-Za-z0-9]{1,12}$/);
    // Mostly shapes it writes, so that the property says something about many messages.
    const name = fc.oneof(
      { arbitrary: fc.constant(''), weight: 2 },
      { arbitrary: fc.array(word, { minLength: 1, maxLength: 4 }).map((w) => w.join(' ')), weight: 4 },
      { arbitrary: fc.string({ maxLength: 20 }), weight: 1 },
    );
    const local = fc.stringMatching(/^[A-Za-z0-9._+-]{1,20}$/);
    const domain = fc.constantFrom('acme.example', 'mail.recipient.example', 'x-y.example', 'Up.example');
    const subject = fc.oneof(
      {
        arbitrary: fc
          .array(fc.stringMatching(/^[!-~]{1,15}$/), { minLength: 1, maxLength: 8 })
          .map((w) => w.join(' ')),
        weight: 4,
      },
      { arbitrary: fc.stringMatching(/^[ -~]{0,90}$/), weight: 1 },
      { arbitrary: fc.string({ maxLength: 40 }), weight: 1 },
    );
    const fragment = fc.oneof(
      fc.constantFrom('<p>', '</p>', '<b>', '</b>', '\n', ' ', '  ', '\t', '.', '=', 'é', 'ü', '✓', '\r\n'),
      fc.stringMatching(/^[ -~]{1,120}$/),
      fc.string({ maxLength: 30 }),
    );
    const html = fc.array(fragment, { minLength: 1, maxLength: 30 }).map((a) => a.join(''));
    let written = 0;
    await fc.assert(
      fc.asyncProperty(
        name,
        name,
        local,
        domain,
        local,
        domain,
        subject,
        html,
        async (fromName, toName, fl, fd, tl, td, s, h) => {
          const m = {
            ...base,
            fromName,
            toName,
            fromEmail: `${fl}@${fd}`,
            toEmail: `${tl}@${td}`,
            subject: s,
            html: h,
          };
          const { direct, composer } = await both(m);
          if (direct === undefined) return;
          written++;
          expect(direct).toBe(composer);
        },
      ),
      { numRuns: 2000 },
    );
    // The property is about the messages it writes: many of them must be (about 240 of 2,000).
    expect(written).toBeGreaterThan(100);
  });
});
