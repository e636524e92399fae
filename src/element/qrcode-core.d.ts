/**
 * Types for the QR core of `qrcode` (CommonJS, no renderers): importing it instead of the
 * package's browser entry keeps the canvas, SVG-string and terminal renderers out of the bundle.
 */
declare module 'qrcode/lib/core/qrcode.js' {
  interface QRCodeCore {
    create(text: string, options?: { errorCorrectionLevel?: 'L' | 'M' | 'Q' | 'H' }): { modules: { size: number; data: Uint8Array } };
  }
  const core: QRCodeCore;
  export default core;
}

/** The data segments of `qrcode`'s core, for the CDN build's own splitter (qr-segments.ts). */
declare module 'qrcode/lib/core/numeric-data.js' {
  export default class NumericData {
    constructor(data: string);
    getBitsLength(): number;
  }
}
declare module 'qrcode/lib/core/alphanumeric-data.js' {
  export default class AlphanumericData {
    constructor(data: string);
    getBitsLength(): number;
  }
}
declare module 'qrcode/lib/core/byte-data.js' {
  export default class ByteData {
    constructor(data: string);
    getBitsLength(): number;
  }
}
