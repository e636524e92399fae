/**
 * Which translation and which `Intl` locale a `lang` tag gets: `ru-RU` → `ru` → `en`.
 */
import { en } from './en.js';
import { ru } from './ru.js';
import { own, type Translation } from './translation.js';

const TRANSLATIONS: Record<string, Translation> = { en, ru };

/** The translation of the longest matching prefix of `lang` (`ru-RU` → `ru`), else English. */
export const translationFor = (lang: string | null | undefined): Translation => {
  const subtags = (lang ?? '').trim().toLowerCase().replace(/_/g, '-').split('-');
  for (let length = subtags.length; length > 0; length--) {
    const found = own(TRANSLATIONS, subtags.slice(0, length).join('-'));
    if (found) return found;
  }
  return en;
};

/**
 * The locale for number formatting: the page's own tag when it is of the translation's
 * language (`en-GB` keeps British formatting with English text), else the translation's.
 */
export const intlLocale = (lang: string | null | undefined, translation: Translation): string => {
  if (!lang) return translation.language;
  try {
    const [canonical] = Intl.getCanonicalLocales(lang.replace(/_/g, '-'));
    return canonical?.split('-')[0]?.toLowerCase() === translation.language ? canonical : translation.language;
  } catch {
    return translation.language;
  }
};

/** The `lang` of `start` or its nearest ancestor, crossing shadow roots; `<html lang>` last. */
export const closestLang = (start: Element): string | undefined => {
  let node: Node | null = start;
  while (node) {
    if (node instanceof Element) {
      const lang = node.getAttribute('lang');
      if (lang) return lang;
    }
    node = node instanceof ShadowRoot ? node.host : node.parentNode;
  }
  return undefined;
};
