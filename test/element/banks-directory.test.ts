import { assert } from '@open-wc/testing';
import {
  BANK_DIRECTORY,
  directoryName,
  findBank,
  mergeBankOverrides,
  normalizeBankText,
  searchBanks,
} from '../../src/element/banks/directory.js';
import { humanizeBankCode } from '../../src/element/banks/humanize.js';

const codes = (entries: readonly { code: string }[]) => entries.map((entry) => entry.code);

describe('banks: humanizeBankCode', () => {
  const cases: [string, string][] = [
    ['alfabank', 'Alfabank'],
    ['ozon_bank', 'Ozon Bank'],
    ['ozon-bank', 'Ozon Bank'],
    ['mts-bank', 'MTS Bank'],
    ['vtb', 'VTB'],
    ['otp_bank', 'OTP Bank'],
    ['rshb', 'RSHB'],
    ['ubrd', 'UBRD'],
    ['ak-bars', 'AK Bars'],
    ['SOME_BANK', 'Some Bank'],
    ['  new--bank  ', 'New Bank'],
    ['', ''],
    ['_-_', ''],
  ];
  for (const [code, expected] of cases) {
    it(`${JSON.stringify(code)} → ${JSON.stringify(expected)}`, () => {
      assert.equal(humanizeBankCode(code), expected);
    });
  }
});

describe('banks: the bundled directory', () => {
  it('has at least 30 banks, each with a Russian and an English name, a colour and a rank', () => {
    assert.isAtLeast(BANK_DIRECTORY.length, 30);
    for (const entry of BANK_DIRECTORY) {
      assert.match(entry.code, /^[a-z][a-z0-9_]*$/, entry.code);
      assert.isNotEmpty(entry.ru, entry.code);
      assert.match(entry.ru, /[А-Яа-яЁё]/, `${entry.code}: the Russian name is in Cyrillic`);
      assert.isNotEmpty(entry.en, entry.code);
      assert.match(entry.color ?? '', /^#[0-9a-f]{6}$/, entry.code);
      assert.isAtLeast(entry.aliases?.length ?? 0, 1, entry.code);
    }
    assert.deepEqual(
      BANK_DIRECTORY.map((entry) => entry.rank),
      BANK_DIRECTORY.map((_, index) => index + 1),
      'ranks are 1, 2, … in the order of popularity',
    );
  });

  it('has unique codes, and no code or alias names two banks', () => {
    assert.equal(new Set(codes(BANK_DIRECTORY)).size, BANK_DIRECTORY.length);
    const owner = new Map<string, string>();
    for (const entry of BANK_DIRECTORY) {
      for (const key of new Set([entry.code, ...(entry.aliases ?? [])].map(normalizeBankText))) {
        assert.isUndefined(owner.get(key), `"${key}" names both ${owner.get(key)} and ${entry.code}`);
        owner.set(key, entry.code);
      }
    }
  });

  it('gives SBP member ids as bank apps register them, and Android package names', () => {
    const withSchema = BANK_DIRECTORY.filter((entry) => entry.schema);
    assert.isAtLeast(withSchema.length, 30);
    for (const entry of withSchema) assert.match(entry.schema!, /^bank\d{12}$/, entry.code);
    assert.equal(new Set(withSchema.map((entry) => entry.schema)).size, withSchema.length, 'one bank per member id');
    for (const entry of BANK_DIRECTORY.filter((e) => e.package)) {
      assert.match(entry.package!, /^[A-Za-z][\w]*(\.[A-Za-z][\w]*)+$/, entry.code);
    }
    assert.equal(findBank('sberbank')?.schema, 'bank100000000111');
    assert.equal(findBank('sberbank')?.package, 'ru.sberbankmobile');
    assert.equal(findBank('tinkoff')?.schema, 'bank100000000004');
    assert.equal(findBank('vtb')?.schema, 'bank110000000005');
    // The ten most used banks all open their app.
    for (const entry of BANK_DIRECTORY.slice(0, 10)) assert.ok(entry.schema, entry.code);
  });

  it('finds a bank by its code and by other spellings of it', () => {
    const cases: [string, string][] = [
      ['sberbank', 'sberbank'],
      ['SBERBANK', 'sberbank'],
      ['sber', 'sberbank'],
      ['ozonbank', 'ozonbank'],
      ['ozon_bank', 'ozonbank'],
      ['ozon-bank', 'ozonbank'],
      ['psb', 'psb'],
      ['promsvyazbank', 'psb'],
      ['promsvyaz', 'psb'],
      ['tbank', 'tinkoff'],
      ['t-bank', 'tinkoff'],
      ['mts-bank', 'mtsbank'],
      ['rosselhozbank', 'rshb'],
      ['bank_open', 'otkritie'],
      ['ubrib', 'ubrd'],
      ['raiffeisen', 'raiffeisenbank'],
    ];
    for (const [code, expected] of cases) assert.equal(findBank(code)?.code, expected, code);
    assert.isUndefined(findBank('nobank'));
    assert.isUndefined(findBank(''));
    assert.isUndefined(findBank('__proto__'));
  });
});

describe('banks: names', () => {
  it('names a bank in Russian or English, and no bank it does not know', () => {
    assert.equal(directoryName('tinkoff', 'ru'), 'Т-Банк');
    assert.equal(directoryName('tinkoff', 'ru-RU'), 'Т-Банк');
    assert.equal(directoryName('tinkoff', 'en'), 'T-Bank');
    assert.equal(directoryName('ozon_bank', 'en-GB'), 'Ozon Bank');
    assert.equal(directoryName('mts-bank', 'ru'), 'МТС Банк');
    assert.equal(directoryName('vtb', 'en'), 'VTB');
    // The screen makes such a code readable (humanizeBankCode, above).
    assert.isUndefined(directoryName('new_bank', 'ru'));
    assert.isUndefined(directoryName('', 'ru'));
  });

  it("merges the merchant's overrides over the directory", () => {
    const overrides = {
      tinkoff: { ru: 'Тинькофф', color: '#123' },
      mybank: { ru: 'Мой банк', en: 'My Bank', aliases: ['мой', 42 as unknown as string] },
      bad: { color: 'red; background: url(x)' },
      sberbank: { color: 'javascript:alert(1)' },
    };
    assert.equal(directoryName('tinkoff', 'ru', overrides), 'Тинькофф');
    assert.equal(directoryName('tinkoff', 'en', overrides), 'T-Bank', 'what the merchant did not say stays');
    assert.equal(directoryName('mybank', 'en', overrides), 'My Bank');
    assert.isUndefined(directoryName('bad', 'ru', overrides), 'an override without a name adds no bank');
    const merged = mergeBankOverrides(overrides);
    assert.equal(merged.find((entry) => entry.code === 'tinkoff')?.color, '#112233');
    assert.equal(merged.find((entry) => entry.code === 'sberbank')?.color, '#21a038', 'an invalid colour is ignored');
    assert.deepEqual(merged.find((entry) => entry.code === 'mybank')?.aliases, ['мой']);
    assert.deepEqual(codes(searchBanks(merged, 'мой')), ['mybank']);
    assert.equal(BANK_DIRECTORY.find((entry) => entry.code === 'tinkoff')?.ru, 'Т-Банк', 'the directory itself is not changed');
    assert.lengthOf(mergeBankOverrides(undefined), BANK_DIRECTORY.length);
    assert.lengthOf(mergeBankOverrides(JSON.parse('{"__proto__": {"ru": "x"}}') as Record<string, never>), BANK_DIRECTORY.length + 1);
  });
});

describe('banks: searchBanks', () => {
  const first = (query: string) => searchBanks(BANK_DIRECTORY, query)[0]?.code;

  it('finds by the Russian name, the English name and an alias, in any case', () => {
    assert.equal(first('сбер'), 'sberbank');
    assert.equal(first('Сбербанк'), 'sberbank');
    assert.equal(first('sber'), 'sberbank');
    assert.equal(first('SBERBANK'), 'sberbank');
    assert.equal(first('Т-банк'), 'tinkoff');
    assert.equal(first('т банк'), 'tinkoff');
    assert.equal(first('тбанк'), 'tinkoff');
    assert.equal(first('tinkoff'), 'tinkoff');
    assert.equal(first('Тинькофф'), 'tinkoff');
    assert.equal(first('t-bank'), 'tinkoff');
    assert.equal(first('альфа'), 'alfabank');
    assert.equal(first('Alfa-Bank'), 'alfabank');
    assert.equal(first('халва'), 'sovcombank');
    assert.equal(first('Райф'), 'raiffeisenbank');
  });

  it('takes ё as е, and a query typed with the other keyboard layout', () => {
    assert.equal(first('сбёр'), 'sberbank');
    const entries = [{ code: 'elka', ru: 'Ёлка-Банк', en: 'Yolka Bank' }];
    assert.deepEqual(codes(searchBanks(entries, 'елка')), ['elka']);
    assert.deepEqual(codes(searchBanks(entries, 'ЁЛКА')), ['elka']);
    assert.equal(first('c,th'), 'sberbank', '"сбер" typed on the English layout');
    assert.equal(first('ыиук'), 'sberbank', '"sber" typed on the Russian layout');
  });

  it('puts names that start with the query first, and keeps the popularity order', () => {
    const found = codes(searchBanks(BANK_DIRECTORY, 'банк'));
    assert.isAbove(found.length, 10);
    // "Банк ВТБ" starts with the query, "Сбербанк" only contains it.
    assert.isBelow(found.indexOf('vtb'), found.indexOf('sberbank'));
    assert.include(found, 'sberbank');
    assert.deepEqual(codes(searchBanks(BANK_DIRECTORY, 'мтс')), ['mtsbank']);
  });

  it('keeps everything for an empty query and nothing for an unknown one', () => {
    assert.lengthOf(searchBanks(BANK_DIRECTORY, ''), BANK_DIRECTORY.length);
    assert.lengthOf(searchBanks(BANK_DIRECTORY, '  - '), BANK_DIRECTORY.length);
    assert.deepEqual(searchBanks(BANK_DIRECTORY, 'zzzz'), []);
  });
});
