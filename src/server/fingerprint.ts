/**
 * Small pure helpers for telling states apart: a short fingerprint of a text, and a timestamp
 * as epoch milliseconds. Shared by the store, the event streams and the merchant's books.
 */

/** `timestamp` in epoch ms, undefined when absent or unreadable. */
export const instant = (timestamp: string | null | undefined): number | undefined => {
  const ms = typeof timestamp === 'string' ? Date.parse(timestamp) : Number.NaN;
  return Number.isNaN(ms) ? undefined : ms;
};

/**
 * A short fingerprint of a text (two 32-bit FNV-1a hashes, 16 hex digits): tells two states
 * apart in event ids and in the store without a digest library.
 */
export const fingerprint = (text: string): string => {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    a = Math.imul(a ^ code, 0x01000193);
    b = Math.imul(b ^ code, 0x5bd1e995) ^ (b >>> 15);
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
};
