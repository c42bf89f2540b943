// A logger at the most talkative level (trace: access logs included) whose every line is kept, for tests
// that read what the process writes.
import { Writable } from 'node:stream';
import pino, { type Logger } from 'pino';

export interface CapturedLog {
  logger: Logger;
  /** Everything logged so far, one JSON line each. */
  text(): string;
}

export function capturedLog(): CapturedLog {
  let text = '';
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { logger: pino({ level: 'trace' }, sink), text: () => text };
}
