import { QUIET_ZONE, qrMatrix, qrPath } from './qr-matrix.js';

/** A QR code drawn as SVG (scales without blur; dark on white whatever the page's colours). */
export function QrCode({ value, label }: { value: string; label: string }) {
  const matrix = qrMatrix(value);
  const size = matrix.length + 2 * QUIET_ZONE;
  return (
    <svg
      className="qr-code"
      role="img"
      aria-label={label}
      viewBox={`0 0 ${size} ${size}`}
      width={size * 4}
      height={size * 4}
      shapeRendering="crispEdges"
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={qrPath(matrix)} fill="#000" />
    </svg>
  );
}
