/**
 * What the proxy takes as a payer's receipt: the declared type must be a receipt type and the
 * file must start as that type does (JPEG, PNG, WebP, HEIC/HEIF, PDF), whatever its name says.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CheckoutHttpError } from '../../src/server/node.js';
import { contentMatches, receiptOf } from '../../src/server/proxy/uploads.js';

const bytes = (...parts: (string | number[])[]): Uint8Array<ArrayBuffer> =>
  Uint8Array.from(parts.flatMap((part) => (typeof part === 'string' ? [...part].map((char) => char.charCodeAt(0)) : part)));

const SAMPLES = {
  jpeg: bytes([0xff, 0xd8, 0xff, 0xdb, 0, 0x43]),
  png: bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d], 'IHDR'),
  webp: bytes('RIFF', [0x24, 0, 0, 0], 'WEBPVP8L'),
  heic: bytes([0, 0, 0, 0x18], 'ftypheic', [0, 0, 0, 0], 'mif1heic'),
  /** iPhone-like: the major brand `mif1`, HEIC among the compatible brands. */
  heifMif1: bytes([0, 0, 0, 0x1c], 'ftypmif1', [0, 0, 0, 0], 'mif1', 'MiHE', 'heic'),
  pdf: bytes('%PDF-1.4\n'),
  /** Some writers put bytes before the header; readers look in the first 1024. */
  pdfLate: bytes('\n\n   ', '%PDF-1.7\n'),
  gif: bytes('GIF89a'),
  mp4: bytes([0, 0, 0, 0x18], 'ftypisom', [0, 0, 2, 0], 'isomiso2'),
  text: bytes('I paid'),
};

describe('contentMatches: the leading bytes of each receipt type', () => {
  test('each type recognises its own files', () => {
    assert.ok(contentMatches('image/jpeg', SAMPLES.jpeg));
    assert.ok(contentMatches('image/png', SAMPLES.png));
    assert.ok(contentMatches('image/webp', SAMPLES.webp));
    assert.ok(contentMatches('image/heic', SAMPLES.heic));
    assert.ok(contentMatches('image/heif', SAMPLES.heic));
    assert.ok(contentMatches('image/heic', SAMPLES.heifMif1));
    assert.ok(contentMatches('application/pdf', SAMPLES.pdf));
    assert.ok(contentMatches('application/pdf', SAMPLES.pdfLate));
  });

  test('and refuses the others', () => {
    for (const [type, sample] of [
      ['image/jpeg', SAMPLES.png],
      ['image/png', SAMPLES.jpeg],
      ['image/webp', bytes('RIFF', [0, 0, 0, 0], 'WAVEfmt ')],
      ['image/heic', SAMPLES.mp4],
      ['image/heif', SAMPLES.gif],
      ['application/pdf', SAMPLES.text],
      ['image/png', bytes([0x89, 0x50])],
      ['image/jpeg', new Uint8Array()],
    ] as const) {
      assert.equal(contentMatches(type, sample), false, `${type} ${[...sample.slice(0, 8)].join(' ')}`);
    }
  });
});

describe('receiptOf: the attachment of a form', () => {
  const formWith = (file: File | string) => {
    const form = new FormData();
    form.append('attachment', file);
    return form;
  };
  const refusal = async (form: FormData) => {
    try {
      await receiptOf(form);
    } catch (error) {
      assert.ok(error instanceof CheckoutHttpError);
      return { status: error.status, code: error.code, message: error.message };
    }
    throw new Error('expected a refusal');
  };

  test('a receipt goes on as `receipt.{ext}` with its type, whatever the payer named it; the type may carry parameters or capitals', async () => {
    const file = await receiptOf(formWith(new File([SAMPLES.heic], '../../etc/IMG 0001.HEIC', { type: 'Image/HEIC' })));
    assert.equal(file.name, 'receipt.heic');
    assert.equal(file.type, 'image/heic');
    assert.equal(file.size, SAMPLES.heic.length);
    assert.equal((await receiptOf(formWith(new File([SAMPLES.pdf], 'x', { type: 'application/pdf; name=x.pdf' })))).name, 'receipt.pdf');
  });

  test('refusals say which rule: 400 missing or empty, 415 type or content', async () => {
    assert.deepEqual(await refusal(new FormData()), { status: 400, code: 'bad_request', message: 'attachment: the receipt is required' });
    assert.equal((await refusal(formWith(new File([], 'a.png', { type: 'image/png' })))).status, 400);
    const svg = await refusal(formWith(new File(['<svg/>'], 'a.svg', { type: 'image/svg+xml' })));
    assert.equal(svg.status, 415);
    assert.match(
      svg.message,
      /must be image\/jpeg, image\/png, image\/webp, image\/heic, image\/heif, application\/pdf, got "image\/svg\+xml"/,
    );
    const disguised = await refusal(formWith(new File([SAMPLES.gif], 'a.png', { type: 'image/png' })));
    assert.deepEqual(disguised, {
      status: 415,
      code: 'unsupported_media_type',
      message: "attachment: the file's content is not image/png",
    });
  });
});
