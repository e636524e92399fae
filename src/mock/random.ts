/**
 * Randomness of the mock: a seeded generator (mulberry32) so that a `seed` makes ids,
 * requisites, variants and quirks repeat exactly, and UUIDs drawn from it. Imports nothing.
 */
export type Random = () => number;

/** A generator of [0, 1) that repeats for the same seed. */
export const seededRandom = (seed: number): Random => {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

/** A stable 32-bit hash of text, to derive one generator per purpose from a seed. */
export const hash32 = (text: string): number => {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
};

export const pick = <T>(items: readonly T[], random: Random): T => items[Math.floor(random() * items.length) % items.length] as T;

export const digits = (count: number, random: Random): string => {
  let out = '';
  for (let i = 0; i < count; i++) out += String(Math.floor(random() * 10) % 10);
  return out;
};

export const hex = (count: number, random: Random): string => {
  let out = '';
  for (let i = 0; i < count; i++) out += (Math.floor(random() * 16) % 16).toString(16);
  return out;
};

/** A version-4 UUID from `random` (a seeded one makes it repeat). */
export const uuidFrom = (random: Random): string => {
  const h = hex(32, random);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${'89ab'[Math.floor(random() * 4) % 4]}${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

export const shuffled = <T>(items: readonly T[], random: Random): T[] => {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1)) % (i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
};
