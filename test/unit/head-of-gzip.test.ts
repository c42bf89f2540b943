// The header block of a kept copy, read by inflating no more of it than asked (db/messages-repo.ts
// headOfGzip): a report anyone may send names a message whose copy may be 16 MiB.
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { headOfGzip } from '../../src/db/messages-repo.js';

describe('headOfGzip', () => {
  const head = 'From: a@acme.example\r\nDKIM-Signature: v=1; b=abc\r\nSubject: hi';

  it('answers the header block of a large message', async () => {
    const raw = Buffer.concat([Buffer.from(`${head}\r\n\r\n`), Buffer.alloc(16 * 1024 * 1024, 'x')]);
    expect(await headOfGzip(gzipSync(raw), 64 * 1024)).toBe(head);
  });

  it('answers nothing when the headers run past the bound, or there is no blank line, or no gzip', async () => {
    const long = `X-Long: ${'y'.repeat(100_000)}\r\n\r\nbody`;
    expect(await headOfGzip(gzipSync(Buffer.from(long)), 64 * 1024)).toBeUndefined();
    expect(await headOfGzip(gzipSync(Buffer.from(head)), 64 * 1024)).toBeUndefined();
    expect(await headOfGzip(Buffer.from('not gzip at all'), 64 * 1024)).toBeUndefined();
  });
});
