#!/usr/bin/env node
// bench/dkim-sign: messages signed per second on one thread by txmail's own DKIM signer (dkim/sign.ts)
// against the nodemailer signer it replaced (relaxed/relaxed rsa-sha256, headers listed once), on the
// same composed messages, in alternating rounds in the same run: RSA-2048 alone, RSA-2048 + Ed25519,
// and the nodemailer path. Composing is done beforehand: only signing is timed. Needs a current build
// (npm run build).
//   node bench/dkim-sign.mjs [--rounds 5] [--messages 2000] [--html-kib 8]
import { generateKeyPairSync } from 'node:crypto';
import { Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import DKIM from 'nodemailer/lib/dkim/index.js';
import { composeMessage } from '../dist/delivery/compose.js';
import { signMessage } from '../dist/dkim/sign.js';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    messages: { type: 'string', default: '2000' },
    'html-kib': { type: 'string', default: '8' },
  },
});
const rounds = Number(values.rounds);
const count = Number(values.messages);
const htmlBytes = Number(values['html-kib']) * 1024;

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
const ed = generateKeyPairSync('ed25519').privateKey;
const domain = 'acme.example';

const paragraph =
  '<p>Your order <b>#1234</b> has shipped. Track it at <a href="https://acme.example/t">acme</a>.</p>\n';
const html = paragraph.repeat(Math.max(1, Math.ceil(htmlBytes / paragraph.length)));
const messages = await Promise.all(
  Array.from({ length: Math.min(count, 200) }, (_, i) =>
    composeMessage(
      {
        id: `0190a0b0-0000-7000-8000-${String(i).padStart(12, '0')}`,
        fromName: 'Acme',
        fromEmail: 'noreply@acme.example',
        toName: 'Jane',
        toEmail: `jane${i}@recipient.example`,
        subject: `Your order ${i} has shipped`,
        html,
        createdAt: Date.UTC(2026, 10, 24, 12),
        feedbackId: `t:acct${i % 7}:acme.example:txmail`,
      },
      'mta.txmail.example',
    ),
  ),
);

// The signer txmail used before (nodemailer's, as dkim/sign.ts called it).
const OLD_HEADERS =
  'From:To:Subject:Date:Message-ID:MIME-Version:Content-Type:Content-Transfer-Encoding:Reply-To:Feedback-ID';
async function nodemailerSign(raw) {
  const signer = new DKIM({
    domainName: domain,
    keySelector: 'txm202611',
    privateKey: rsa,
    headerFieldNames: OLD_HEADERS,
    cacheDir: false,
  });
  const chunks = [];
  for await (const chunk of signer.sign(Readable.from([raw]))) chunks.push(chunk);
  return Buffer.concat(chunks);
}

const kinds = {
  'nodemailer rsa-sha256': (raw) => nodemailerSign(raw),
  'txmail rsa-sha256': (raw) => signMessage(raw, { domain, selector: 'txm202611', privateKey: rsa }),
  'txmail rsa-sha256 + ed25519-sha256': (raw) =>
    signMessage(raw, {
      domain,
      selector: 'txm202611',
      privateKey: rsa,
      beside: [{ selector: 'txm202611e', privateKey: ed }],
    }),
};

const rates = Object.fromEntries(Object.keys(kinds).map((k) => [k, []]));
for (let round = 0; round < rounds; round++) {
  for (const [name, fn] of Object.entries(kinds)) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < count; i++) await fn(messages[i % messages.length]);
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    rates[name].push(count / seconds);
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(
  `DKIM signing on one thread, ${count} messages of ${messages[0].length} bytes per round, ${rounds} rounds (median msgs/s):`,
);
const base = median(rates['nodemailer rsa-sha256']);
for (const [name, xs] of Object.entries(rates)) {
  const m = median(xs);
  console.log(
    `  ${name.padEnd(36)} ${m.toFixed(0).padStart(7)} msgs/s  (${(m / base).toFixed(2)}× nodemailer)`,
  );
}
