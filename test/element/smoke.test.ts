import { expect } from '@open-wc/testing';
import QRCode from 'qrcode';
import { GetInvoiceResponseSchema, safeParse } from '../../src/schemas/index.js';
import { exampleLookupInvoice } from '../fixtures/dto.js';

// Proves the browser toolchain: TypeScript through esbuild, zod/mini schemas and the
// CommonJS `qrcode` package all load and work in real Chromium.
describe('browser toolchain', () => {
  it('validates an invoice with the shared schemas', () => {
    const result = safeParse(GetInvoiceResponseSchema, [exampleLookupInvoice()]);
    expect(result.success).to.be.true;
    const refused = safeParse(GetInvoiceResponseSchema, exampleLookupInvoice({ sum: { amount: 1, currency: 'RUB', subunit: 2 } }));
    expect(refused.success).to.be.false;
    if (!refused.success) expect(refused.message).to.match(/^sum\.amount: must be a decimal number/);
  });

  it('builds a QR matrix with qrcode', () => {
    const qr = QRCode.create('https://qr.nspk.ru/AS1000670LSS7DN18SJQDNP4B05KLJL2', { errorCorrectionLevel: 'M' });
    expect(qr.modules.size).to.be.greaterThan(20);
  });
});
