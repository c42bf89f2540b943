// Golden bounce and complaint messages (test/fixtures/inbound/*.eml) with placeholders for the
// addresses and ids of the message they report on.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface FixtureValues {
  verp: string;
  messageId: string;
  to: string;
  returnPathDomain: string;
}

export const FIXTURE_DIR = join(import.meta.dirname, '..', 'fixtures', 'inbound');

export function fixture(name: string, v: FixtureValues): Buffer {
  const text = readFileSync(join(FIXTURE_DIR, name), 'utf8')
    .replaceAll('{{VERP}}', v.verp)
    .replaceAll('{{MESSAGE_ID}}', v.messageId)
    .replaceAll('{{TO_DOMAIN}}', v.to.split('@')[1]!)
    .replaceAll('{{TO}}', v.to)
    .replaceAll('{{RETURN_PATH_DOMAIN}}', v.returnPathDomain);
  return Buffer.from(text.replace(/\r?\n/g, '\r\n'));
}
