#!/usr/bin/env node
// bench/build-steps: CPU per message of each step a build thread runs for bench/e2e's message, on one
// thread, in alternating rounds: the text alternative (html-to-text), composing with nodemailer's
// MailComposer, composing as txmail does (direct-compose.ts for this message, the text included),
// the DKIM signature (dkim/sign.ts, RSA-2048) and Node's crypto.sign alone. Needs a current build.
//   node bench/build-steps.mjs [--rounds 3] [--messages 3000]
import { generateKeyPairSync, sign } from 'node:crypto';
import { parseArgs } from 'node:util';
import {
  composeByMailComposer,
  composeMessage,
  messageIdHeader,
  plainText,
} from '../dist/delivery/compose.js';
import { signMessage } from '../dist/dkim/sign.js';
import { HTML } from './lib/post.mjs';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    messages: { type: 'string', default: '3000' },
  },
});
const N = Number(values.messages);
const privateKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
const key = { domain: 'acme.example', selector: 'bench', privateKey };
const message = {
  id: '019ab000-0000-7000-8000-000000000001',
  fromName: 'Acme',
  fromEmail: 'noreply@acme.example',
  toName: '',
  toEmail: 'jane@recipient.example',
  subject: 'Your sign-in code',
  html: HTML,
  createdAt: Date.now(),
  feedbackId: '019ab000-0000-7000-8000-00000000000a:acme.example:txmail',
};
const HOST = 'mta.bench.example';
const composed = await composeMessage(message, HOST);
const signedData = composed.subarray(0, 600);

const steps = {
  'text alternative': () => plainText(HTML),
  'MailComposer + text': () =>
    composeByMailComposer(message, message.subject, messageIdHeader(message.id, HOST), plainText(HTML)),
  composeMessage: () => composeMessage(message, HOST),
  signMessage: () => signMessage(composed, key),
  'crypto.sign alone': () => sign('sha256', signedData, privateKey),
};

console.log(`bench/build-steps — ${composed.length} bytes composed; µs of CPU per message, ${N} a round`);
for (let round = 0; round < Number(values.rounds); round++) {
  const line = [];
  for (const [name, step] of Object.entries(steps)) {
    for (let i = 0; i < N / 10; i++) await step();
    const before = process.cpuUsage();
    for (let i = 0; i < N; i++) await step();
    const used = process.cpuUsage(before);
    line.push(`${name} ${((used.user + used.system) / N).toFixed(0)}`);
  }
  console.log(`round ${round + 1}: ${line.join(', ')}`);
}
