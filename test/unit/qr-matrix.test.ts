// The Security page's QR code (web/src/components/qr-matrix.ts), read back by an independent decoder
// (jsQR, as a phone's camera app would): what an authenticator app scans is the URL it was given.
import fc from 'fast-check';
import jsQR from 'jsqr';
import { describe, expect, it } from 'vitest';
import { QUIET_ZONE, qrMatrix, qrPath } from '../../web/src/components/qr-matrix.js';

/** The path's squares painted black on white, `scale` pixels a module, as RGBA for the decoder. */
function render(path: string, modules: number, scale = 4): { data: Uint8ClampedArray; size: number } {
  const size = (modules + 2 * QUIET_ZONE) * scale;
  const data = new Uint8ClampedArray(size * size * 4).fill(255);
  // Each command is `M x y h w v1 h-w z`: a run of w dark modules from (x, y).
  for (const [, x, y, w] of path.matchAll(/M(\d+) (\d+)h(\d+)v1h-\d+z/g)) {
    for (let py = Number(y) * scale; py < (Number(y) + 1) * scale; py++) {
      for (let px = Number(x) * scale; px < (Number(x) + Number(w)) * scale; px++) {
        const i = (py * size + px) * 4;
        data[i] = data[i + 1] = data[i + 2] = 0;
      }
    }
  }
  return { data, size };
}

const decode = (text: string) => {
  const matrix = qrMatrix(text);
  const { data, size } = render(qrPath(matrix), matrix.length);
  return jsQR.default(data, size, size)?.data;
};

describe('the two-factor QR code', () => {
  it('reads back as the otpauth:// URL it encodes', () => {
    const url =
      'otpauth://totp/txmail:ops%40acme.example?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=txmail&algorithm=SHA1&digits=6&period=30';
    expect(decode(url)).toBe(url);
  });

  it('keeps an address outside ASCII, as UTF-8', () => {
    const url = 'otpauth://totp/txmail:józef@bücher.example?secret=JBSWY3DPEHPK3PXP&issuer=txmail';
    expect(decode(url)).toBe(url);
  });

  it('is square, with runs that stay inside it', () => {
    const matrix = qrMatrix('otpauth://totp/x?secret=AAAA');
    expect(matrix.every((row) => row.length === matrix.length)).toBe(true);
    // Version 1 and up: 21 modules and 4 more a version.
    expect((matrix.length - 21) % 4).toBe(0);
    const end = matrix.length + QUIET_ZONE;
    for (const [, x, y, w] of qrPath(matrix).matchAll(/M(\d+) (\d+)h(\d+)/g)) {
      expect(Number(x) + Number(w)).toBeLessThanOrEqual(end);
      expect(Number(y)).toBeLessThan(end);
    }
  });

  it('reads back whatever key and label it is given', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Z2-7]{16,64}$/), fc.emailAddress(), (secret, email) => {
        const url = `otpauth://totp/txmail:${encodeURIComponent(email)}?secret=${secret}&issuer=txmail`;
        return decode(url) === url;
      }),
      { numRuns: 40 },
    );
  });
});
