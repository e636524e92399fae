/**
 * Types for the QR core of `qrcode` (CommonJS, no renderers): importing it instead of the
 * package's browser entry keeps the canvas, SVG-string and terminal renderers out of the bundle.
 */
declare module 'qrcode/lib/core/qrcode.js' {
  interface QRCodeCore {
    create(
      text: string,
      options?: { errorCorrectionLevel?: 'L' | 'M' | 'Q' | 'H' },
    ): { modules: { size: number; data: Uint8Array } };
  }
  const core: QRCodeCore;
  export default core;
}
