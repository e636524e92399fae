/**
 * Every translation at once, for pages and tests that want one without waiting: the element
 * itself loads only the one it needs (lang.ts), one chunk per language.
 */
import { az } from './az.js';
import { bn } from './bn.js';
import { en } from './en.js';
import { es } from './es.js';
import { kk } from './kk.js';
import { ko } from './ko.js';
import { ky } from './ky.js';
import { type Language, languageOf } from './lang.js';
import { ru } from './ru.js';
import { tg } from './tg.js';
import type { Translation } from './translation.js';
import { uz } from './uz.js';

export { closestLang, intlLocale } from './lang.js';

/** The translation of each language the element ships. */
export const TRANSLATIONS: { readonly [L in Language]: Translation } = { en, ru, bn, uz, az, es, ko, kk, tg, ky };

/**
 * The translation the element would show for `lang` (`kk-KZ` → `kk`, `be` → `ru`), the
 * browser's languages next, English last.
 */
export const translationFor = (lang: string | null | undefined): Translation => TRANSLATIONS[languageOf(lang)];
