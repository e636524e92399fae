/**
 * The QR matrix and its SVG path: the part of the QR code that needs `qrcode`'s encoder, so
 * it is loaded on demand (qr.ts `loadQr`) and stays out of the first-render file.
 */
import QRCodeCore from 'qrcode/lib/core/qrcode.js';
import { QUIET_ZONE, type QrMatrix } from './qr.js';

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
 * quiet zone. The viewBox is `0 0 N N` with `N = size + 2 × QUIET_ZONE`.
 */
export const qrPath = (matrix: QrMatrix): string => {
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
      path += `M${start + QUIET_ZONE} ${row + QUIET_ZONE}h${col - start}v1h${start - col}z`;
    }
  }
  return path;
};
