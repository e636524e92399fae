/**
 * A smaller stand-in for `qrcode`'s `lib/core/segments.js` and `lib/core/regex.js`, used by the
 * CDN build only (scripts/build.js): it splits a text into numeric, alphanumeric and byte segments with one
 * pass of dynamic programming, where `qrcode` builds a graph and runs Dijkstra's algorithm over
 * it (with the Kanji tables and the `dijkstrajs` package): about 1 KB brotli less in the CDN
 * file for the same kind of split. Kanji mode is off in both (no Shift JIS function is set), so
 * anything outside the alphanumeric set is UTF-8 bytes, as in `qrcode`.
 *
 * Costs are counted in sixths of a bit, so that a numeric character (10 bits per 3) and an
 * alphanumeric one (11 bits per 2) are whole numbers; a segment costs its 4-bit mode indicator
 * and its character count field on top.
 */
import AlphanumericData from 'qrcode/lib/core/alphanumeric-data.js';
import ByteData from 'qrcode/lib/core/byte-data.js';
import NumericData from 'qrcode/lib/core/numeric-data.js';

type Segment = NumericData | AlphanumericData | ByteData;

const ALPHANUMERIC = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:';

/** numeric, alphanumeric, byte: the data class, the character count bits by version range, and who may hold a character. */
const MODES = [
  { Data: NumericData, countBits: [10, 12, 14], holds: (char: string) => char >= '0' && char <= '9' },
  { Data: AlphanumericData, countBits: [9, 11, 13], holds: (char: string) => ALPHANUMERIC.includes(char) },
  { Data: ByteData, countBits: [8, 16, 16], holds: () => true },
] as const;

const utf8Length = (char: string): number => {
  const code = char.codePointAt(0) ?? 0;
  return code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
};

/** Sixths of a bit for one character in each mode (Infinity where the mode cannot hold it). */
const charCost = (char: string): number[] =>
  MODES.map((mode, index) => (mode.holds(char) ? [20, 33, 48 * utf8Length(char)][index]! : Number.POSITIVE_INFINITY));

/** The cheapest split of `text` for a symbol of `version` (1–40). */
export const fromString = (text: string, version: number): Segment[] => {
  const chars = Array.from(text);
  if (chars.length === 0) return [];
  const range = version < 10 ? 0 : version < 27 ? 1 : 2;
  const header = MODES.map((mode) => (4 + mode.countBits[range]) * 6);
  // cost[m]: the cheapest encoding of the characters so far that ends in mode m;
  // from[i][m]: the mode before character i in that encoding.
  let cost = MODES.map(() => 0);
  const from: number[][] = [];
  chars.forEach((char, i) => {
    const each = charCost(char);
    const previous = cost;
    const modes: number[] = [];
    cost = MODES.map((_, mode) => {
      let best = Number.POSITIVE_INFINITY;
      let bestFrom = mode;
      previous.forEach((before, prior) => {
        const total = before + (i > 0 && prior === mode ? 0 : header[mode]!);
        if (total < best) {
          best = total;
          bestFrom = prior;
        }
      });
      modes.push(bestFrom);
      return best + each[mode]!;
    });
    from.push(modes);
  });
  let mode = cost.indexOf(Math.min(...cost));
  const modeOf: number[] = [];
  for (let i = chars.length - 1; i >= 0; i--) {
    modeOf[i] = mode;
    mode = from[i]![mode]!;
  }
  const segments: Segment[] = [];
  let start = 0;
  for (let i = 1; i <= chars.length; i++) {
    if (i === chars.length || modeOf[i] !== modeOf[start]) {
      segments.push(new MODES[modeOf[start]!]!.Data(chars.slice(start, i).join('')));
      start = i;
    }
  }
  return segments;
};

/** What `qrcode` estimates the version from before it splits the text for that version. */
export const rawSplit = (text: string): Segment[] => fromString(text, 1);

/** Segments given as texts or `{ data }` objects: each split as a text of its own. */
export const fromArray = (items: (string | { data: string })[]): Segment[] =>
  items.flatMap((item) => fromString(typeof item === 'string' ? item : item.data, 40));

// What `qrcode`'s mode.js asks of regex.js (only for its own splitter, which this one replaces):
// the same answers without the Kanji tables, as Kanji mode is off.
export const testNumeric = (text: string): boolean => /^[0-9]+$/.test(text);
export const testAlphanumeric = (text: string): boolean => /^[A-Z0-9 $%*+\-./:]+$/.test(text);
export const testKanji = (): boolean => false;
