/**
 * The QR code of a deal's `qrCodeLink`, drawn locally: the QR matrix from `qrcode`'s core
 * becomes one SVG path, rendered as SVG nodes (never as markup text), so no third party sees
 * the link and Trusted Types have nothing to object to.
 */
import QRCodeCore from 'qrcode/lib/core/qrcode.js';

/** Light modules around the symbol that scanners need (the standard asks for 4). */
export const QUIET_ZONE = 4;

export interface QrMatrix {
  size: number;
  /** Row-major, `1` for a dark module. */
  data: ArrayLike<number>;
}

/**
 * The link as it may be drawn and opened: only an absolute `https:` URL, normalised by the URL
 * parser. `javascript:`, `data:`, `http:`, relative and malformed links give `undefined`: no
 * QR code and no link at all.
 */
export const safeQrLink = (link: unknown): string | undefined => {
  if (typeof link !== 'string' || link.length > 2048) return undefined;
  try {
    const url = new URL(link);
    return url.protocol === 'https:' && url.hostname ? url.href : undefined;
  } catch {
    return undefined;
  }
};

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
