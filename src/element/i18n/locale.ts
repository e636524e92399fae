/**
 * Which translation and which `Intl` locale a `lang` tag gets: `ru-RU` → `ru` → `en`. Both
 * translations are imported here, for pages and tests that want one at once; the element
 * itself loads only the one it needs (lang.ts).
 */
import { en } from './en.js';
import { ru } from './ru.js';
import { own, type Translation } from './translation.js';

export { closestLang, intlLocale } from './lang.js';

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
