/**
 * The QR matrix and its SVG path: the part of the QR code that needs `qrcode`'s encoder, so
 * it is loaded on demand (qr.ts `loadQr`) and stays out of the first-render file.
 */
import QRCodeCore from 'qrcode/lib/core/qrcode.js';
import type { QrMatrix } from './qr.js';

/** The QR matrix of a text (error correction M), or `undefined` if it does not fit in a QR code. */
export const qrMatrix = (text: string): QrMatrix | undefined => {
  try {
    return QRCodeCore.create(text, { errorCorrectionLevel: 'M' }).modules;
  } catch {
    return undefined;
  }
};

/**
 * One SVG path for all dark modules, each horizontal run of them one rectangle, offset by the
 * quiet zone (`quietZone` modules, qr.ts `QUIET_ZONE`, which the views draw it with: this
 * module imports nothing of qr.ts at run time, so that qr.ts stays in the views' chunk). The
 * viewBox is `0 0 N N` with `N = size + 2 × quietZone`.
 */
export const qrPath = (matrix: QrMatrix, quietZone: number): string => {
  const { size, data } = matrix;
  let path = '';
  for (let row = 0; row < size; row++) {
    let col = 0;
    while (col < size) {
      if (!data[row * size + col]) {
        col++;
        continue;
      }
      const start = col;
      while (col < size && data[row * size + col]) col++;
      path += `M${start + quietZone} ${row + quietZone}h${col - start}v1h${start - col}z`;
    }
  }
  return path;
};
