/**
 * The list of languages alone, imported by lang.ts (which loads each translation on demand)
 * and by boot.ts (which each translation imports): neither imports the other.
 */

/**
 * The languages the element ships: every language of the service's own payment page (`ru`,
 * `en`, `bn`, `uz` in Latin script, `az`, `es`, `ko`) and of its CIS currencies (`kk`, `tg`,
 * `ky`, in Cyrillic).
 */
export const LANGUAGES = ['en', 'ru', 'bn', 'uz', 'az', 'es', 'ko', 'kk', 'tg', 'ky'] as const;
/** A language the element speaks. */
export type Language = (typeof LANGUAGES)[number];
