/**
 * The QR code of a deal's `qrCodeLink`, drawn locally: the QR matrix from `qrcode`'s core
 * becomes one SVG path, rendered as SVG nodes (never as markup text), so no third party sees
 * the link and Trusted Types have nothing to object to. The encoder (qr-matrix.ts) loads on
 * demand; what the first render needs (which links may be drawn) is here.
 */
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

/**
 * The encoder's module (qr-matrix.ts), loaded once on demand. Declared here rather than as
 * `typeof import('./qr-matrix.js')`: the encoder imports this module, and this one imports
 * nothing back, not even a type.
 */
export interface QrModule {
  /** The QR matrix of a text, or `undefined` if it does not fit in a QR code. */
  qrMatrix: (text: string) => QrMatrix | undefined;
  /** One SVG path for all dark modules, offset by the quiet zone (`QUIET_ZONE`). */
  qrPath: (matrix: QrMatrix, quietZone: number) => string;
}
