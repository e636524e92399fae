/**
 * Which language a `lang` tag gets (`ru-RU` → `ru`, anything else → `en`), which `Intl`
 * locale formats its numbers, and where the element finds the page's `lang`. No strings here:
 * the element loads the one translation it needs on demand (`loadTranslation`), so its
 * first-render file carries neither.
 */
import type { Translation } from './translation.js';

/** The languages the element ships. */
export type Language = 'ru' | 'en';

/** The shipped language of the longest matching prefix of `lang` (`ru-RU` → `ru`), else English. */
export const languageOf = (lang: string | null | undefined): Language =>
  (lang ?? '').trim().toLowerCase().replace(/_/g, '-').split('-')[0] === 'ru' ? 'ru' : 'en';

/** The translation of `language`, from its own file. */
export const loadTranslation = (language: Language): Promise<Translation> =>
  language === 'ru' ? import('./ru.js').then((module) => module.ru) : import('./en.js').then((module) => module.en);

/**
 * What the element says while its strings load, and when they could not be loaded at all
 * (offline): the loading heading, and the error screen with its one way out.
 */
export const BOOT_STRINGS: Readonly<Record<Language, { loading: string; failed: string; reason: string; reload: string }>> = {
  en: {
    loading: 'Loading the payment…',
    failed: 'Could not load the payment',
    reason: 'No connection to the payment service. Check your internet connection.',
    reload: 'Reload the page',
  },
  ru: {
    loading: 'Загружаем платёж…',
    failed: 'Не удалось загрузить платёж',
    reason: 'Нет связи с платёжным сервисом. Проверьте подключение к интернету.',
    reload: 'Обновить страницу',
  },
};

/**
 * The locale for number formatting: the page's own tag when it is of the translation's
 * language (`en-GB` keeps British formatting with English text), else the translation's.
 */
export const intlLocale = (lang: string | null | undefined, translation: Pick<Translation, 'language'>): string => {
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
