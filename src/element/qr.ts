/**
 * The QR code of a deal's `qrCodeLink`, drawn locally: the QR matrix from `qrcode`'s core
 * becomes one SVG path, rendered as SVG nodes (never as markup text), so no third party sees
 * the link and Trusted Types have nothing to object to. The encoder (qr-matrix.ts) loads on
 * demand; what the first render needs (which links may be drawn) is here.
 */
import type * as QrMatrixModule from './qr-matrix.js';

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

/** The encoder's module, loaded once on demand. */
export type QrModule = typeof QrMatrixModule;
