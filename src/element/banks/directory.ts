/**
 * The bundled directory of Russian SBP banks: names in Russian and English, search aliases, a
 * brand colour for the lettermark, the NSPK SBP member id and Android package that open the
 * bank's app, and a popularity rank. Lazy: imported with `import()` when names or the bank
 * picker are needed, never by the first render.
 *
 * Member ids (`bankNNNNNNNNNNNN`) and packages are those of the NSPK's public list of SBP
 * members (its `schema` and `package_name`); a bank that list does not name (any more) has
 * neither, and gets the plain payment link. Nothing here points at a logo.
 */
import { plainText } from '../format.js';

/**
 * One bank: of the bundled directory (every field but `schema` and `package` present), of a
 * merchant's list, or of the NSPK's list (`parseSbpMembers` in sbp.ts).
 */
export interface BankEntry {
  /** The service's bank code (`paymentMethod`), e.g. `sberbank`; an NSPK entry not in the directory uses its schema. */
  readonly code: string;
  /** The Russian name. */
  readonly ru: string;
  /** The English name (the Russian one is used when absent). */
  readonly en?: string | undefined;
  /** Other codes and what payers type for it, Latin and Cyrillic (`sber`, `сбер`, `т-банк`). */
  readonly aliases?: readonly string[] | undefined;
  /** Brand colour for the lettermark, `#rrggbb`. */
  readonly color?: string | undefined;
  /** NSPK SBP member id as bank apps register it as a URL scheme: `bank100000000111`. */
  readonly schema?: string | undefined;
  /** Android package name of the bank's app. */
  readonly package?: string | undefined;
  /** 1 for the most used bank; ranked banks come first in the picker. */
  readonly rank?: number | undefined;
}

/** What a merchant may say about a bank (the element's `banks` property, per bank code). */
export interface BankOverride {
  /** Russian name. */
  readonly ru?: string | undefined;
  /** English name. */
  readonly en?: string | undefined;
  /** Lettermark colour, `#rgb` or `#rrggbb` (anything else is ignored). */
  readonly color?: string | undefined;
  /** More search words; added to the directory's. */
  readonly aliases?: readonly string[] | undefined;
}

/**
 * The merchant's `banks` property: per bank code, names, colour and aliases merged over the
 * directory entry of that code (or a new entry when the directory does not know the code):
 *
 * ```js
 * checkout.banks = {
 *   tinkoff: { ru: 'Т-Банк', en: 'T-Bank' },
 *   mybank: { ru: 'Мой банк', en: 'My Bank', color: '#0a7f5a', aliases: ['мой'] },
 * };
 * ```
 */
export type BankOverrides = Readonly<Record<string, BankOverride | undefined>>;

type Row = readonly [
  code: string,
  ru: string,
  en: string,
  color: string,
  memberId: string,
  androidPackage: string,
  aliases: readonly string[],
];

/**
 * By popularity (rank = position). Member id and package: the NSPK list's, `''` where it names
 * none. Rosbank, Otkritie (merged into VTB), Home Bank and RNCB are not in the current list.
 */
const ROWS: readonly Row[] = [
  [
    'sberbank',
    'Сбербанк',
    'Sberbank',
    '#21a038',
    '100000000111',
    'ru.sberbankmobile',
    ['sber', 'сбер', 'sberbank online', 'сбербанк онлайн', 'сбол'],
  ],
  [
    'tinkoff',
    'Т-Банк',
    'T-Bank',
    '#ffdd2d',
    '100000000004',
    'com.idamob.tinkoff.android',
    ['tbank', 'т-банк', 'тинькофф', 'тинькоф', 'tinkoff bank', 'tinkoffbank'],
  ],
  ['vtb', 'ВТБ', 'VTB', '#002882', '110000000005', 'ru.vtb24.mobilebanking.android', ['втб', 'vtb24', 'втб24', 'vtbbank', 'банк втб']],
  ['alfabank', 'Альфа-Банк', 'Alfa-Bank', '#ef3124', '100000000008', 'ru.alfabank.mobile.android', ['alfa', 'альфа', 'альфабанк']],
  ['ozonbank', 'Озон Банк', 'Ozon Bank', '#005bff', '100000000273', '', ['ozon', 'озон', 'озонбанк']],
  [
    'gazprombank',
    'Газпромбанк',
    'Gazprombank',
    '#0b3b8c',
    '100000000001',
    'ru.gazprombank.android.mobilebank.app',
    ['gpb', 'гпб', 'газпром', 'gazprom'],
  ],
  ['yandexbank', 'Яндекс Банк', 'Yandex Bank', '#fc3f1d', '100000000150', 'com.yandex.bank', ['yandex', 'яндекс', 'яндексбанк']],
  [
    'raiffeisenbank',
    'Райффайзенбанк',
    'Raiffeisenbank',
    '#fee600',
    '100000000007',
    'ru.raiffeisennews',
    ['raiffeisen', 'райффайзен', 'raif', 'райф'],
  ],
  ['sovcombank', 'Совкомбанк', 'Sovcombank', '#00428d', '100000000013', 'ru.sovcomcard.halva.v1', ['sovcom', 'совком', 'халва', 'halva']],
  [
    'psb',
    'ПСБ',
    'PSB',
    '#f26722',
    '100000000010',
    'logo.com.mbanking',
    ['promsvyazbank', 'promsvyaz', 'промсвязьбанк', 'псб', 'psbank', 'банк псб'],
  ],
  ['mtsbank', 'МТС Банк', 'MTS Bank', '#e30611', '100000000017', 'ru.mts.money', ['mts', 'мтс', 'мтс-банк', 'мтсбанк']],
  ['pochtabank', 'Почта Банк', 'Pochta Bank', '#27348b', '100000000016', 'ru.letobank.Prometheus', ['pochta', 'почта', 'почтабанк']],
  [
    'wildberries',
    'Вайлдберриз Банк',
    'Wildberries Bank',
    '#cb11ab',
    '100000000259',
    '',
    ['wb', 'вб', 'wbbank', 'вб банк', 'вайлдберриз', 'wildberriesbank'],
  ],
  [
    'rshb',
    'Россельхозбанк',
    'Rosselkhozbank',
    '#007a3e',
    '100000000020',
    'ru.rshb.dbo',
    ['rosselhozbank', 'rosselkhozbank', 'россельхоз', 'рсхб'],
  ],
  [
    'rsb',
    'Банк Русский Стандарт',
    'Russian Standard Bank',
    '#1f1f1f',
    '100000000014',
    'ru.simpls.brs2.mobbank',
    ['russianstandard', 'русский стандарт', 'рсб'],
  ],
  [
    'mkb',
    'МКБ',
    'MKB',
    '#e31e24',
    '100000000025',
    'ru.mkb.mobile',
    ['московский кредитный банк', 'credit bank of moscow', 'мкб', 'mkbbank'],
  ],
  ['rosbank', 'Росбанк', 'Rosbank', '#e2001a', '', '', ['росбанк']],
  ['otkritie', 'Банк Открытие', 'Otkritie Bank', '#00bef0', '', '', ['otkrytie', 'открытие', 'bank_open', 'openbank']],
  ['homecredit', 'Хоум Банк', 'Home Bank', '#e41e26', '', '', ['home credit', 'хоум кредит', 'хоум банк', 'homebank', 'хкф']],
  ['akbars', 'Ак Барс Банк', 'Ak Bars Bank', '#00a651', '100000000006', 'ru.akbars.mobile', ['ак барс', 'akbarsbank', 'акбарс']],
  ['uralsib', 'Банк Уралсиб', 'Uralsib Bank', '#4a2c84', '100000000026', 'ru.bankuralsib.mb.android', ['уралсиб']],
  ['ubrd', 'УБРиР', 'UBRD', '#c8102e', '100000000031', 'cb.ibank', ['ubrr', 'ubrib', 'убрир', 'уральский банк реконструкции и развития']],
  [
    'bspb',
    'Банк «Санкт-Петербург»',
    'Bank Saint Petersburg',
    '#d51f28',
    '100000000029',
    'ru.bspb',
    ['банк спб', 'bank spb', 'бспб', 'санкт-петербург'],
  ],
  ['otpbank', 'ОТП Банк', 'OTP Bank', '#52ae30', '100000000018', 'ru.otpbank.mobile', ['otp', 'отп']],
  [
    'renaissance',
    'Ренессанс Банк',
    'Renaissance Bank',
    '#7b2d8e',
    '100000000032',
    'cz.bsc.rc',
    ['ренессанс', 'ренессанс кредит', 'renaissance credit', 'rencredit'],
  ],
  ['dombank', 'Банк ДОМ.РФ', 'DOM.RF Bank', '#0b4ea2', '100000000082', 'com.bssys.roscapretail', ['domrf', 'дом.рф', 'домрф']],
  ['unicredit', 'ЮниКредит Банк', 'UniCredit Bank', '#e2001a', '100000000030', 'ru.unicredit.android', ['юникредит', 'unicreditbank']],
  ['sinara', 'Банк Синара', 'Sinara Bank', '#1e3a8a', '100000000003', 'ru.skbbank.ib', ['синара', 'скб-банк', 'skbbank']],
  ['zenit', 'Банк Зенит', 'Bank Zenit', '#00a0af', '100000000045', 'ru.zenit.android', ['зенит', 'zenitbank']],
  ['yoomoney', 'ЮMoney', 'YooMoney', '#8b3ffd', '100000000022', 'ru.yoo.money', ['юмани', 'yumoney', 'яндекс деньги']],
  ['tochka', 'Точка Банк', 'Tochka Bank', '#6a3ce1', '100000000284', 'ru.zhuck.webapp', ['точка', 'tochkabank']],
  ['absolutbank', 'Абсолют Банк', 'Absolut Bank', '#f58220', '100000000047', 'ru.ftc.faktura.absolutbank', ['absolut', 'абсолют']],
  ['expobank', 'Экспобанк', 'Expobank', '#e2231a', '100000000044', 'ru.ftc.faktura.expobank', ['экспо']],
  ['lockobank', 'Локо-Банк', 'Locko-Bank', '#f39200', '100000000161', 'com.idamobile.android.LockoBank', ['loko', 'локо', 'lokobank']],
  ['bcsbank', 'БКС Банк', 'BCS Bank', '#253a8e', '100000000041', 'ru.bcs.bcsbank', ['bcs', 'бкс']],
  [
    'centrinvest',
    'Центр-инвест',
    'Center-invest',
    '#00843d',
    '100000000059',
    'ru.centrinvest.mobilebanking2018',
    ['центр инвест', 'centerinvest'],
  ],
  [
    'abr',
    'Банк «Россия»',
    'Bank Rossiya',
    '#1d3f8f',
    '100000000095',
    'ru.artsofte.russiafl',
    ['аб россия', 'ab russia', 'bank russia', 'abrbank'],
  ],
  ['atb', 'Азиатско-Тихоокеанский Банк', 'Asia-Pacific Bank', '#005a9c', '100000000108', '', ['атб', 'atbbank']],
  ['novikombank', 'Новикомбанк', 'Novikombank', '#0e4c92', '100000000177', 'com.bssys.novikomretail', ['новиком', 'novikom']],
  ['kubankredit', 'Кубань Кредит', 'Kuban Kredit', '#00783e', '100000000050', 'com.isimplelab.ibank.kubankredit', ['кубань', 'kuban']],
  ['finambank', 'Банк Финам', 'Finam Bank', '#202020', '100000000040', 'ru.finambank.app', ['finam', 'финам']],
  ['ingobank', 'Инго Банк', 'Ingo Bank', '#0072bc', '100000000078', 'com.banksoyuz.artsofte', ['ingo', 'инго']],
  ['rncb', 'РНКБ', 'RNCB', '#e30613', '', '', ['рнкб', 'rncbbank']],
];

/** The bundled directory, most used first (`rank` 1, 2, …). */
export const BANK_DIRECTORY: readonly BankEntry[] = ROWS.map(([code, ru, en, color, memberId, androidPackage, aliases], index) => ({
  code,
  ru,
  en,
  aliases,
  color,
  schema: memberId ? `bank${memberId}` : undefined,
  package: androidPackage || undefined,
  rank: index + 1,
}));

/**
 * Text as search and code lookup compare it: lower case, `ё` as `е`, letters and digits only
 * (`Т-Банк` → `тбанк`, `ozon_bank` → `ozonbank`).
 */
export const normalizeBankText = (text: string): string =>
  text
    .toLowerCase()
    .replace(/ё/g, 'е')
    .replace(/[^\p{L}\p{N}]+/gu, '');

/** Every normalized code and alias of an entry. */
const keysOf = (entry: BankEntry): string[] => [entry.code, ...(entry.aliases ?? [])].map(normalizeBankText).filter(Boolean);

let directoryIndex: Map<string, BankEntry> | undefined;

/**
 * The entry of a bank code, or of another spelling of it (`ozon_bank`, `promsvyazbank`,
 * `tbank`): matched on the normalized code and aliases. `entries` defaults to the directory.
 */
export const findBank = (code: string, entries: readonly BankEntry[] = BANK_DIRECTORY): BankEntry | undefined => {
  const key = normalizeBankText(code);
  if (!key) return undefined;
  if (entries === BANK_DIRECTORY) {
    if (!directoryIndex) {
      directoryIndex = new Map();
      // The first entry to claim a key keeps it (more popular banks come first).
      for (const entry of BANK_DIRECTORY) for (const k of keysOf(entry)) if (!directoryIndex.has(k)) directoryIndex.set(k, entry);
    }
    return directoryIndex.get(key);
  }
  return entries.find((entry) => keysOf(entry).includes(key));
};

/** `#rgb` / `#rrggbb` → `#rrggbb` in lower case; undefined for anything else. */
export const hexColor = (color: unknown): string | undefined => {
  if (typeof color !== 'string') return undefined;
  const match = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color.trim());
  if (!match?.[1]) return undefined;
  const hex = match[1].toLowerCase();
  return `#${hex.length === 3 ? hex.replace(/./g, '$&$&') : hex}`;
};

/** A merchant's name or alias: a trimmed non-empty string of at most 100 characters. */
const word = (value: unknown): string | undefined => {
  if (typeof value !== 'string') return undefined;
  const text = plainText(value).trim();
  return text && text.length <= 100 ? text : undefined;
};

/**
 * The directory (or `entries`) with the merchant's `banks` merged over it: per code, the names
 * and colour replace the entry's, aliases are added; a code no entry knows becomes a new
 * unranked entry (it needs a name). Invalid values are ignored, never thrown.
 */
export const mergeBankOverrides = (overrides: BankOverrides | undefined, entries: readonly BankEntry[] = BANK_DIRECTORY): BankEntry[] => {
  const merged = [...entries];
  if (!overrides || typeof overrides !== 'object') return merged;
  for (const [code, override] of Object.entries(overrides)) {
    if (!override || typeof override !== 'object' || !normalizeBankText(code)) continue;
    const ru = word(override.ru);
    const en = word(override.en);
    const color = hexColor(override.color);
    const aliases = Array.isArray(override.aliases) ? override.aliases.slice(0, 20).flatMap((alias) => word(alias) ?? []) : [];
    const known = findBank(code, merged);
    if (known) {
      merged[merged.indexOf(known)] = {
        ...known,
        ru: ru ?? known.ru,
        en: en ?? known.en,
        color: color ?? known.color,
        aliases: [...(known.aliases ?? []), ...aliases],
      };
    } else if (ru ?? en) {
      merged.push({ code, ru: ru ?? en ?? code, en, color, aliases });
    }
  }
  return merged;
};

/** The primary language subtag: `ru-RU` → `ru`. */
const primary = (lang: string): string => lang.toLowerCase().split(/[-_]/)[0] ?? '';

/** An entry's name in `lang`: Russian for `ru`, else English (or Russian when it has none). */
export const entryName = (entry: BankEntry, lang: string): string => (primary(lang) === 'ru' ? entry.ru : (entry.en ?? entry.ru));

/**
 * The name of `code` in `lang` from the merchant's `overrides` merged over the directory;
 * undefined when neither knows the code.
 */
export const directoryName = (code: string, lang: string, overrides?: BankOverrides): string | undefined => {
  const entry = overrides ? findBank(code, mergeBankOverrides(overrides)) : findBank(code);
  return entry && entryName(entry, lang);
};

/** The English keys of the Russian ЙЦУКЕН layout, in the same order as {@link CYRILLIC_KEYS}. */
const LATIN_KEYS = "qwertyuiop[]asdfghjkl;'zxcvbnm,.`";
const CYRILLIC_KEYS = 'йцукенгшщзхъфывапролджэячсмитьбюё';

/** The query as typed with the other keyboard layout (`c,th` → `сбер`, `ыиук` → `sber`). */
const otherLayout = (query: string): string =>
  [...query.toLowerCase()]
    .map((char) => {
      const latin = LATIN_KEYS.indexOf(char);
      if (latin >= 0) return CYRILLIC_KEYS[latin];
      const cyrillic = CYRILLIC_KEYS.indexOf(char);
      return cyrillic >= 0 ? LATIN_KEYS[cyrillic] : char;
    })
    .join('');

/** What a search looks at: the names and aliases of a bank. */
export interface SearchableBank {
  readonly code: string;
  readonly ru: string;
  readonly en?: string | undefined;
  readonly aliases?: readonly string[] | undefined;
}

/** The entries matching any of the normalized queries, those with a key starting with one first. */
const matching = <T extends SearchableBank>(entries: readonly T[], wanted: string): T[] => {
  const scored: { entry: T; starts: boolean }[] = [];
  for (const entry of entries) {
    const keys = [entry.ru, entry.en ?? '', entry.code, ...(entry.aliases ?? [])].map(normalizeBankText);
    if (keys.some((key) => key.includes(wanted))) scored.push({ entry, starts: keys.some((key) => key.startsWith(wanted)) });
  }
  // Array#sort is stable: the order of `entries` (popularity) stays within each group.
  return scored.sort((a, b) => Number(b.starts) - Number(a.starts)).map(({ entry }) => entry);
};

/**
 * The entries whose code, Russian or English name or an alias contains the query, ignoring
 * case, `ё`/`е`, spaces and punctuation (`Т-банк` finds `т-банк`); when nothing matches, the
 * query as typed with the other keyboard layout (`c,th` finds Сбербанк). Entries whose name or
 * alias starts with the query come first; otherwise the order of `entries` is kept. An empty
 * query keeps every entry.
 */
export const searchBanks = <T extends SearchableBank>(entries: readonly T[], query: string): T[] => {
  const wanted = normalizeBankText(query);
  if (!wanted) return [...entries];
  const found = matching(entries, wanted);
  const swapped = normalizeBankText(otherLayout(query));
  return found.length || !swapped ? found : matching(entries, swapped);
};
