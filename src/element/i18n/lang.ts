/**
 * Which language the payer gets, which `Intl` locale formats its numbers, and where the
 * element finds the page's `lang`. No strings here (the boot strings are boot.ts): the
 * element loads the one translation it needs on demand (`loadTranslation`), so its
 * first-render file carries none of them.
 */
import { numberFormat } from '../format.js';
import { type Language, LANGUAGES } from './languages.js';
import type { Translation } from './translation.js';

export { BOOT_STRINGS, type BootStrings } from './boot.js';
export { LANGUAGES, type Language } from './languages.js';

/** Languages the element does not ship whose readers are better served in Russian than in English. */
const VIA_RUSSIAN: readonly string[] = ['be', 'tt', 'ba', 'cv', 'ce', 'os', 'sah', 'tk', 'hy'];

/** The shipped language of one tag (`kk-KZ` → `kk`, `be` → `ru`), or undefined. */
const shippedLanguage = (tag: string): Language | undefined => {
  const primary = tag.trim().toLowerCase().replace(/_/g, '-').split('-')[0] ?? '';
  return (LANGUAGES as readonly string[]).includes(primary) ? (primary as Language) : VIA_RUSSIAN.includes(primary) ? 'ru' : undefined;
};

/**
 * The language for `lang` (the element's, its ancestors' or the page's), then for each of the
 * browser's languages in the order the payer set them, English last. Each tag falls back
 * along its own chain first: `kk-KZ` → `kk`; a language close to Russian readers (`be`, `tt`,
 * `hy`, …) → `ru`; any other tag gives way to the next one.
 */
export const languageOf = (lang: string | null | undefined): Language => {
  const browser = typeof navigator === 'undefined' ? [] : (navigator.languages ?? []);
  for (const tag of [lang ?? '', ...browser]) {
    const language = shippedLanguage(tag);
    if (language) return language;
  }
  return 'en';
};

/** Each translation's own file, one chunk each. */
const LOADERS: { readonly [L in Language]: () => Promise<Translation> } = {
  en: () => import('./en.js').then((module) => module.en),
  ru: () => import('./ru.js').then((module) => module.ru),
  bn: () => import('./bn.js').then((module) => module.bn),
  uz: () => import('./uz.js').then((module) => module.uz),
  az: () => import('./az.js').then((module) => module.az),
  es: () => import('./es.js').then((module) => module.es),
  ko: () => import('./ko.js').then((module) => module.ko),
  kk: () => import('./kk.js').then((module) => module.kk),
  tg: () => import('./tg.js').then((module) => module.tg),
  ky: () => import('./ky.js').then((module) => module.ky),
};

/** The translation of `language`, from its own file. */
export const loadTranslation = (language: Language): Promise<Translation> => LOADERS[language]();

/**
 * Where a browser's `Intl` has no number data for a language (Chromium ships a trimmed set of
 * CLDR locales), a locale that writes numbers and money the same way: kk, ky, tg and uz as
 * ru does (`1 500,50 ₸`), az as de does (`1.500,50 ₼`).
 */
const NUMBER_LOOKALIKE: Partial<Record<string, string>> = { kk: 'ru', ky: 'ru', tg: 'ru', uz: 'ru', az: 'de' };

/**
 * The locale for number formatting: the page's own tag when it is of the translation's
 * language (`en-GB` keeps British formatting with English text), else the translation's; its
 * lookalike where `Intl` cannot format the language itself.
 */
export const intlLocale = (lang: string | null | undefined, translation: Pick<Translation, 'language'>): string => {
  const { language } = translation;
  let locale = language;
  try {
    const [canonical] = Intl.getCanonicalLocales((lang ?? '').replace(/_/g, '-'));
    if (canonical?.split('-')[0]?.toLowerCase() === language) locale = canonical;
  } catch {
    // not a tag: the translation's language
  }
  const lookalike = NUMBER_LOOKALIKE[language];
  // These languages write 1,5: a browser that writes 1.5 for them fell back to CLDR's root.
  return lookalike && numberFormat(locale).format(1.5) === '1.5' ? lookalike : locale;
};

/** The `lang` of `start` or its nearest ancestor, crossing shadow roots; `<html lang>` last; `auto` is no language. */
export const closestLang = (start: Node | null): string | undefined => {
  let node = start;
  while (node) {
    if (node instanceof Element) {
      const lang = node.getAttribute('lang');
      if (lang && lang !== 'auto') return lang;
    }
    node = node instanceof ShadowRoot ? node.host : node.parentNode;
  }
  return undefined;
};
