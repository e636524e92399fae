/**
 * The CDN build's own text splitter (src/element/qr-segments.ts) against `qrcode`'s: never
 * more bits for a text, so never a larger QR code, on payment links and on random texts.
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import fc from 'fast-check';
import { fromArray, fromString, rawSplit } from '../../src/element/qr-segments.js';

interface Segment {
  mode: { id: string; ccBits: number[] };
  data: string | Uint8Array;
  getBitsLength(): number;
}
const require = createRequire(import.meta.url);
const reference = require('qrcode/lib/core/segments.js') as { fromString(text: string, version: number): Segment[] };
const Version = require('qrcode/lib/core/version.js') as { getBestVersionForData(segments: unknown, level: unknown): number | undefined };
const ECLevel = require('qrcode/lib/core/error-correction-level.js') as { M: unknown };

const bits = (segments: unknown[], version: number): number =>
  (segments as Segment[]).reduce(
    (sum, segment) => sum + 4 + segment.mode.ccBits[version < 10 ? 0 : version < 27 ? 1 : 2]! + segment.getBitsLength(),
    0,
  );

const LINKS = [
  'https://qr.nspk.ru/AD10006M8KH3TUL98I1RVVBT4FH2NE0N?type=02&bank=100000000111&sum=150000&cur=RUB&crc=AB12',
  'https://qr.nspk.ru/BS1A003LQ8BSNQ1R8VDPNE2D5OL2JHDJ',
  'https://qr.nspk.ru/AS1000670LSS7DN18SJQDNP4B05KLJL2?type=01&bank=100000000111',
  'HTTPS://QR.NSPK.RU/AS1000670LSS7DN18SJQDNP4B05KLJL2',
  '0123456789012345678901234567890123456789',
  'https://pay.example/оплата?заказ=№7',
];

test('payment links: as few bits as qrcode, so the same QR version', () => {
  for (const link of LINKS) {
    for (const version of [1, 10, 27])
      assert.ok(bits(fromString(link, version), version) <= bits(reference.fromString(link, version), version), `${link} at v${version}`);
    assert.equal(
      Version.getBestVersionForData(fromString(link, 40), ECLevel.M),
      Version.getBestVersionForData(reference.fromString(link, 40), ECLevel.M),
      link,
    );
  }
});

test('random texts: never more bits than qrcode, and the segments hold the whole text', () => {
  const alphabet = fc.constantFrom(...'0123456789ABCDEFXYZ abcxyz$%*+-./:?&=_~Жё€😀'.split(/(?:)/u));
  fc.assert(
    fc.property(fc.array(alphabet, { minLength: 1, maxLength: 120 }), fc.constantFrom(1, 9, 10, 26, 27, 40), (chars, version) => {
      const text = chars.join('');
      const ours = fromString(text, version) as unknown as Segment[];
      assert.ok(bits(ours, version) <= bits(reference.fromString(text, version), version));
      const decoded = ours.map((segment) => (typeof segment.data === 'string' ? segment.data : new TextDecoder().decode(segment.data)));
      assert.equal(decoded.join(''), text);
      for (const segment of ours) {
        if (segment.mode.id === 'Numeric') assert.match(segment.data as string, /^[0-9]+$/);
        if (segment.mode.id === 'Alphanumeric') assert.match(segment.data as string, /^[0-9A-Z $%*+\-./:]+$/);
      }
    }),
    { numRuns: 500, seed: 7 },
  );
});

test('the helpers qrcode calls: rawSplit and fromArray', () => {
  assert.deepEqual(rawSplit(''), []);
  assert.equal(fromArray(['ABC123', { data: 'abc' }]).length >= 2, true);
});
