/**
 * Every language of the element, in the browser whose `Intl` the payer has: each translation
 * complete, each counted string in CLDR's plural forms at 1, 2, 5, 11, 21 and 101, money and
 * countdowns in the locale's own format, and which language a page and a browser get.
 */
import { assert } from '@open-wc/testing';
import { PICKER_STRINGS } from '../../src/element/banks/picker-view.js';
import { formatDuration, formatMoney } from '../../src/element/format.js';
import { BOOT_STRINGS } from '../../src/element/i18n/boot.js';
import { type Language, LANGUAGES, intlLocale, languageOf } from '../../src/element/i18n/lang.js';
import { TRANSLATIONS, translationFor } from '../../src/element/i18n/locale.js';
import type { Translation } from '../../src/element/i18n/translation.js';
import { JOURNEY_STRINGS } from '../../src/element/journey/strings.js';
import { KNOWN_PAYMENT_OPTIONS } from '../../src/schemas/invoice.js';
import { REQUISITES_KINDS } from '../../src/schemas/requisites-kind.js';
import { plain } from './helpers.js';

const { en, ru } = TRANSLATIONS;

// A missing key is a type error (`npm run typecheck` fails if this line type-checks).
const { retry: _retry, ...withoutRetry } = en;
// @ts-expect-error a translation without `retry` is not a Translation
const incomplete: Translation = withoutRetry;
void incomplete;

/** The counts every counted string is checked at: CLDR's categories differ between them (ru: one, few, many, many, one, one). */
const COUNTS = [1, 2, 5, 11, 21, 101] as const;

interface Counted {
  /** `timeLeftAnnouncement` in minutes, at each of {@link COUNTS}. */
  minutes: readonly string[];
  /** In seconds, at each count below a minute (101 s is read in minutes). */
  seconds: readonly string[];
  /** `checkingExplanation`: the check may take up to N minutes. */
  checking: readonly string[];
  /** `autoReturn` in seconds. */
  autoReturn: readonly string[];
  /** The bank picker's `found`. */
  found: readonly string[];
}

/** `word` after each count, as languages write a noun that keeps one form after a number. */
const after = (word: string, digits: (count: number) => string = String, space = ' ') =>
  COUNTS.map((count) => `${digits(count)}${space}${word}`);
const bengali = (count: number) => count.toLocaleString('bn');

/** What the payer reads, in part, at each count: the number with its word in the right form. */
const COUNTED: Record<Language, Counted> = {
  en: {
    minutes: ['1 minute left', '2 minutes left', '5 minutes left', '11 minutes left', '21 minutes left', '101 minutes left'],
    seconds: ['1 second left', '2 seconds left', '5 seconds left', '11 seconds left', '21 seconds left'],
    checking: ['up to 1 minute.', 'up to 2 minutes.', 'up to 5 minutes.', 'up to 11 minutes.', 'up to 21 minutes.', 'up to 101 minutes.'],
    autoReturn: after('s'),
    found: ['1 bank found', '2 banks found', '5 banks found', '11 banks found', '21 banks found', '101 banks found'],
  },
  ru: {
    minutes: [
      'Осталась 1 минута',
      'Осталось 2 минуты',
      'Осталось 5 минут',
      'Осталось 11 минут',
      'Осталась 21 минута',
      'Осталась 101 минута',
    ],
    seconds: ['Осталась 1 секунда', 'Осталось 2 секунды', 'Осталось 5 секунд', 'Осталось 11 секунд', 'Осталась 21 секунда'],
    // «до» takes the genitive: до 1 минуты, до 2 минут.
    checking: ['до 1 минуты.', 'до 2 минут.', 'до 5 минут.', 'до 11 минут.', 'до 21 минуты.', 'до 101 минуты.'],
    autoReturn: after('с'),
    found: ['Найден 1 банк', 'Найдено 2 банка', 'Найдено 5 банков', 'Найдено 11 банков', 'Найден 21 банк', 'Найден 101 банк'],
  },
  es: {
    minutes: ['Queda 1 minuto', 'Quedan 2 minutos', 'Quedan 5 minutos', 'Quedan 11 minutos', 'Quedan 21 minutos', 'Quedan 101 minutos'],
    seconds: ['Queda 1 segundo', 'Quedan 2 segundos', 'Quedan 5 segundos', 'Quedan 11 segundos', 'Quedan 21 segundos'],
    checking: ['hasta 1 minuto.', 'hasta 2 minutos.', 'hasta 5 minutos.', 'hasta 11 minutos.', 'hasta 21 minutos.', 'hasta 101 minutos.'],
    autoReturn: after('s'),
    found: [
      'Se encontró 1 banco',
      'Se encontraron 2 bancos',
      'Se encontraron 5 bancos',
      'Se encontraron 11 bancos',
      'Se encontraron 21 bancos',
      'Se encontraron 101 bancos',
    ],
  },
  bn: {
    minutes: after('মিনিট বাকি', bengali),
    seconds: after('সেকেন্ড বাকি', bengali).slice(0, 5),
    checking: after('মিনিট পর্যন্ত', bengali),
    autoReturn: after('সেকেন্ডে', bengali),
    found: after('টি ব্যাংক', bengali, ''),
  },
  uz: {
    minutes: after('daqiqa qoldi'),
    seconds: after('soniya qoldi').slice(0, 5),
    checking: after('daqiqagacha'),
    autoReturn: after('soniyadan keyin'),
    found: after('ta bank topildi'),
  },
  az: {
    minutes: after('dəqiqə qalıb'),
    seconds: after('saniyə qalıb').slice(0, 5),
    checking: after('dəqiqəyə qədər'),
    autoReturn: after('san. sonra'),
    found: after('bank tapıldı'),
  },
  ko: {
    minutes: after('분 남았습니다', String, ''),
    seconds: after('초 남았습니다', String, '').slice(0, 5),
    checking: after('분이 걸릴 수', String, ''),
    autoReturn: after('초 후', String, ''),
    found: COUNTS.map((count) => `은행 ${count}곳을 찾았습니다`),
  },
  kk: {
    minutes: after('минут қалды'),
    seconds: after('секунд қалды').slice(0, 5),
    checking: after('минутқа дейін'),
    autoReturn: after('с кейін'),
    found: after('банк табылды'),
  },
  tg: {
    minutes: after('дақиқа монд'),
    seconds: after('сония монд').slice(0, 5),
    checking: after('дақиқа вақт'),
    autoReturn: after('с ба мағоза'),
    found: after('бонк ёфт шуд'),
  },
  ky: {
    minutes: after('мүнөт калды'),
    seconds: after('секунд калды').slice(0, 5),
    checking: after('мүнөткө чейин'),
    autoReturn: after('сек. кийин'),
    found: after('банк табылды'),
  },
};

describe('every language', () => {
  it('ships the languages of the service’s page and of its CIS currencies', () => {
    assert.sameMembers([...LANGUAGES], ['ru', 'en', 'bn', 'uz', 'az', 'es', 'ko', 'kk', 'tg', 'ky']);
    assert.sameMembers(Object.keys(TRANSLATIONS), [...LANGUAGES]);
    assert.sameMembers(Object.keys(BOOT_STRINGS), [...LANGUAGES]);
    assert.sameMembers(Object.keys(JOURNEY_STRINGS), [...LANGUAGES]);
    assert.sameMembers(Object.keys(PICKER_STRINGS), [...LANGUAGES]);
  });

  for (const language of LANGUAGES) {
    const t = TRANSLATIONS[language];

    describe(language, () => {
      it('has every entry, in its own words', () => {
        assert.equal(t.language, language);
        assert.deepEqual(Object.keys(t).sort(), Object.keys(en).sort());
        for (const [key, value] of Object.entries({
          ...t,
          ...BOOT_STRINGS[language],
          ...JOURNEY_STRINGS[language],
          ...PICKER_STRINGS[language],
        })) {
          if (typeof value === 'string') assert.isNotEmpty(value.trim(), key);
        }
        for (const kind of REQUISITES_KINDS) assert.isNotEmpty(t.requisitesLabel(kind), kind);
        // Names no option as its code but the brand names (UPI, IMPS, VietQR, …): a payer reads words.
        const asCode = KNOWN_PAYMENT_OPTIONS.filter((option) => t.option(option) === option);
        assert.deepEqual(asCode, ['UPI'], `${language} names every option`);
        assert.equal(t.option('SOMETHING_NEW'), 'SOMETHING_NEW');
        assert.equal(t.option('constructor'), 'constructor');
        assert.isString(t.errorMessage('toString'));
        if (language !== 'en') {
          // Translated, not English left behind.
          const sample = (translation: Translation) => [
            translation.title('waiting'),
            translation.guidance('X'),
            translation.cancel,
            translation.confirmPaid,
            translation.retry,
          ];
          const english = sample(en);
          sample(t).forEach((value, index) => assert.notEqual(value, english[index], `${language}: ${value}`));
        }
      });

      it('says every counted string in CLDR’s plural forms at 1, 2, 5, 11, 21 and 101', () => {
        const expected = COUNTED[language];
        const forms = PICKER_STRINGS[language];
        COUNTS.forEach((count, index) => {
          assert.include(t.timeLeftAnnouncement(count * 60_000), expected.minutes[index]!, `${count} min`);
          assert.include(t.checkingExplanation(count), expected.checking[index]!, `checking ${count}`);
          assert.include(t.autoReturn(count), expected.autoReturn[index]!, `auto-return ${count}`);
          assert.include(forms.found(count), expected.found[index]!, `found ${count}`);
          if (count < 60) assert.include(t.timeLeftAnnouncement(count * 1000), expected.seconds[index]!, `${count} s`);
        });
        // 101 seconds is read in minutes (2, rounded up), never as a count of seconds.
        assert.equal(t.timeLeftAnnouncement(101_000), t.timeLeftAnnouncement(120_000));
        assert.notEqual(forms.found(0), forms.found(1));
      });
    });
  }
});

describe('which language', () => {
  it('follows the tag, its own chain, then the browser, English last', () => {
    const browser = languageOf(undefined);
    assert.include([...LANGUAGES], browser, 'the browser’s languages give a shipped one');
    const cases: [string, Language][] = [
      ['kk-KZ', 'kk'],
      ['KK', 'kk'],
      ['uz-Latn-UZ', 'uz'],
      ['uz-Cyrl', 'uz'],
      ['az_AZ', 'az'],
      ['es-AR', 'es'],
      ['ko-KR', 'ko'],
      ['bn-IN', 'bn'],
      ['tg-TJ', 'tg'],
      ['ky-KG', 'ky'],
      ['ru-KZ', 'ru'],
      // Close to Russian readers: Russian before the browser's language.
      ['be-BY', 'ru'],
      ['tt', 'ru'],
    ];
    for (const [tag, language] of cases) assert.equal(languageOf(tag), language, tag);
    // Not shipped, not on a chain: the browser's languages decide.
    for (const tag of ['de-DE', 'zh', 'auto', '', 'constructor']) assert.equal(languageOf(tag), browser, tag);
    assert.equal(translationFor('kk-KZ'), TRANSLATIONS.kk);
  });

  it('falls back to the browser’s languages in their order', () => {
    const languages = Object.getOwnPropertyDescriptor(Navigator.prototype, 'languages')!;
    try {
      Object.defineProperty(navigator, 'languages', { configurable: true, get: () => ['de-DE', 'ky-KG', 'ru'] });
      assert.equal(languageOf('fr'), 'ky');
      Object.defineProperty(navigator, 'languages', { configurable: true, get: () => ['de', 'fr'] });
      assert.equal(languageOf(undefined), 'en');
    } finally {
      delete (navigator as { languages?: unknown }).languages;
      assert.deepEqual(Object.getOwnPropertyDescriptor(Navigator.prototype, 'languages'), languages);
    }
  });
});

describe('money and countdowns in each locale', () => {
  it('formats numbers in the page locale of the same language', () => {
    assert.equal(intlLocale('en-GB', en), 'en-GB');
    assert.equal(intlLocale('de-DE', en), 'en');
    assert.equal(intlLocale('ru-RU', ru), 'ru-RU');
    assert.equal(intlLocale('not a tag!', en), 'en');
  });

  // Each currency in a language of its payers, as CLDR writes it: the digits exact, the decimals
  // the amount has, the symbol where it is the currency's own (a bare `$` is the US dollar's).
  const cases: [string, string, Language, string][] = [
    ['1500.00', 'KZT', 'kk', '1 500,00 ₸'],
    ['1500.00', 'TJS', 'tg', '1 500,00'],
    ['150000.00', 'UZS', 'uz', '150 000,00'],
    ['1500.00', 'INR', 'en', '₹1,500.00'],
    ['1500.00', 'BDT', 'bn', '১,৫০০.০০৳'],
    ['1500.00', 'ARS', 'es', '1500,00 ARS'],
    ['1500.00', 'ARS', 'en', 'ARS 1,500.00'],
    ['250000', 'VND', 'en', '₫250,000'],
    ['15000', 'KRW', 'ko', '₩15,000'],
    ['150.00', 'AZN', 'az', '150,00'],
    ['1500.00', 'USD', 'es', '1500,00 US$'],
    ['1500.00', 'USD', 'en', '$1,500.00'],
  ];
  for (const [amount, currency, language, expected] of cases) {
    it(`${amount} ${currency} for a ${language} payer reads ${expected}`, () => {
      const shown = plain(formatMoney({ amount, currency }, intlLocale(language, TRANSLATIONS[language])));
      assert.include(shown, expected);
    });
  }

  it('counts down in the locale’s digits', () => {
    assert.equal(formatDuration(125_000, 'bn'), '২:০৫');
    assert.equal(formatDuration(3_723_000, 'bn'), '১:০২:০৩');
    assert.equal(formatDuration(125_000, intlLocale('kk', TRANSLATIONS.kk)), '2:05');
    assert.include(TRANSLATIONS.bn.timeLeftAnnouncement(300_000), '৫ মিনিট');
  });
});
