import { assert } from '@open-wc/testing';
import { BANK_DIRECTORY, findBank } from '../../src/element/banks/directory.js';
import {
  bankAppLink,
  inAppBrowser,
  isSbpLink,
  loadSbpMembers,
  type MembersFetch,
  orderForPicker,
  parseSbpMembers,
  platform,
} from '../../src/element/banks/sbp.js';

const LINK = 'https://qr.nspk.ru/AS10003P3RH0LJ2A9ROO038L6NT5RU1M?type=01&bank=100000000111&sum=10000&cur=RUB&crc=C08B';
const ADDRESS = 'qr.nspk.ru/AS10003P3RH0LJ2A9ROO038L6NT5RU1M?type=01&bank=100000000111&sum=10000&cur=RUB&crc=C08B';

const UA = {
  iphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  ipadDesktop: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  android: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
  windows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  telegram:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/AP1A; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/124.0.0.0 Mobile Safari/537.36 Telegram-Android/10.11.2 (Google Pixel 8; Android 14; SDK 34; HIGH)',
  vk: 'Mozilla/5.0 (Linux; Android 13; SM-A525F Build/TP1A; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/123.0.0.0 Mobile Safari/537.36 VKAndroidApp/8.70-17458 (Android 13; SDK 33; arm64-v8a; samsung SM-A525F; ru; 2400x1080)',
  instagram:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 330.0.3.12.235 (iPhone15,2; iOS 17_4; ru_RU; ru; scale=3.00; 1179x2556; 594766718) FBAV/1.0',
  facebook:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/458.0.0.38.108;FBBV/577411434;FBDV/iPhone15,2;FBMD/iPhone;FBSN/iOS;FBSV/17.4;FBSS/3;FBID/phone;FBLC/ru_RU;FBOP/5]',
};

describe('banks: SBP links', () => {
  it('knows an SBP payment link', () => {
    assert.isTrue(isSbpLink(LINK));
    assert.isTrue(isSbpLink('https://sub.nspk.ru/AS1000ABC?type=01'));
    for (const url of [
      'http://qr.nspk.ru/AS1',
      'https://qr.nspk.ru/',
      'https://qr.nspk.ru',
      'https://qr.nspk.ru.evil.example/AS1',
      'https://evil.example/qr.nspk.ru/AS1',
      'https://user:pass@qr.nspk.ru/AS1',
      'https://qr.nspk.ru:8443/AS1',
      'javascript:alert(1)//qr.nspk.ru/AS1',
      'bank100000000111://qr.nspk.ru/AS1',
      'not a url',
      '',
      undefined,
      null,
    ]) {
      assert.isFalse(isSbpLink(url), String(url));
    }
  });

  it('tells iOS, Android and desktops apart, iPadOS included', () => {
    assert.equal(platform(UA.iphone, 5), 'ios');
    assert.equal(platform(UA.ipadDesktop, 5), 'ios', 'an iPad asking for desktop sites says Macintosh');
    assert.equal(platform(UA.ipadDesktop, 0), 'desktop', 'a Mac');
    assert.equal(platform(UA.android, 5), 'android');
    assert.equal(platform(UA.telegram, 5), 'android');
    assert.equal(platform(UA.windows, 0), 'desktop');
    assert.equal(platform(UA.windows, 10), 'desktop', 'a touch screen laptop');
    assert.equal(platform(''), 'desktop');
  });

  it("knows the apps' built-in browsers", () => {
    assert.equal(inAppBrowser(UA.telegram), 'telegram');
    assert.equal(inAppBrowser(UA.vk), 'vk');
    assert.equal(inAppBrowser(UA.instagram), 'instagram');
    assert.equal(inAppBrowser(UA.facebook), 'facebook');
    for (const ua of [UA.iphone, UA.android, UA.windows, '']) assert.isUndefined(inAppBrowser(ua));
  });

  it("builds the link that opens a bank's app", () => {
    const sber = findBank('sberbank');
    assert.equal(bankAppLink(sber, LINK, 'ios'), `bank100000000111://${ADDRESS}`);
    assert.equal(
      bankAppLink(sber, LINK, 'android'),
      `intent://${ADDRESS}#Intent;scheme=bank100000000111;package=ru.sberbankmobile;S.browser_fallback_url=${encodeURIComponent(LINK)};end`,
    );
    assert.equal(bankAppLink(sber, LINK, 'desktop'), LINK);
    assert.equal(
      bankAppLink(findBank('tinkoff'), LINK, 'android'),
      `intent://${ADDRESS}#Intent;scheme=bank100000000004;package=com.idamob.tinkoff.android;S.browser_fallback_url=${encodeURIComponent(LINK)};end`,
    );
  });

  it('leaves out what it cannot vouch for', () => {
    const ozon = findBank('ozonbank');
    assert.isUndefined(ozon?.package, 'the NSPK list names no package for Ozon Bank');
    assert.equal(
      bankAppLink(ozon, LINK, 'android'),
      `intent://${ADDRESS}#Intent;scheme=bank100000000273;S.browser_fallback_url=${encodeURIComponent(LINK)};end`,
    );
    assert.equal(bankAppLink(findBank('rosbank'), LINK, 'ios'), LINK, 'no member id: the plain link');
    assert.equal(bankAppLink(undefined, LINK, 'android'), LINK);
    assert.equal(bankAppLink({ schema: 'javascript', package: 'x' }, LINK, 'ios'), LINK);
    assert.equal(
      bankAppLink({ schema: 'bank100000000111', package: 'x;component=evil/.A' }, LINK, 'android'),
      `intent://${ADDRESS}#Intent;scheme=bank100000000111;S.browser_fallback_url=${encodeURIComponent(LINK)};end`,
    );
    assert.equal(
      bankAppLink(findBank('sberbank'), `${LINK}#Intent;scheme=evil;end`, 'ios'),
      `bank100000000111://${ADDRESS}`,
      'a fragment is dropped',
    );
    assert.isUndefined(bankAppLink(findBank('sberbank'), 'https://evil.example/AS1', 'ios'));
  });
});

/** The NSPK's format, by hand: three good entries (one with a bad package) and malformed ones. */
const NSPK_SAMPLE = {
  version: '1.0',
  dictionary: [
    {
      bankName: 'Сбербанк',
      logoURL: 'https://qr.nspk.ru/proxyapp/logo/bank100000000111.png',
      schema: 'bank100000000111',
      package_name: 'ru.sberbankmobile',
    },
    {
      bankName: 'Т-Банк',
      logoURL: 'https://qr.nspk.ru/proxyapp/logo/bank100000000004.png',
      schema: 'bank100000000004',
      package_name: 'com.idamob.tinkoff.android',
      webClientUrl: 'https://www.tbank.ru/mybank/payments/qr-pay',
      isWebClientActive: 'true',
      isDrActive: true,
    },
    {
      bankName: 'Банк Пример',
      logoURL: 'https://qr.nspk.ru/proxyapp/logo/bank100000000999.png',
      schema: 'bank100000000999',
      package_name: 'not a package;end',
    },
    { bankName: 'Сломанный банк', schema: 'bank123', package_name: 'ru.broken' },
    { bankName: 42, schema: 'bank100000000998' },
    null,
    'bank100000000997',
  ],
};

describe('banks: SBP member lists', () => {
  it('reads the NSPK format, skipping malformed entries and keeping no logo', () => {
    const members = parseSbpMembers(NSPK_SAMPLE);
    assert.deepEqual(
      members.map(({ code, ru, schema, package: pkg }) => ({ code, ru, schema, package: pkg })),
      [
        { code: 'bank100000000111', ru: 'Сбербанк', schema: 'bank100000000111', package: 'ru.sberbankmobile' },
        { code: 'bank100000000004', ru: 'Т-Банк', schema: 'bank100000000004', package: 'com.idamob.tinkoff.android' },
        { code: 'bank100000000999', ru: 'Банк Пример', schema: 'bank100000000999', package: undefined },
      ],
    );
    assert.notInclude(JSON.stringify(members), 'logo');
    assert.deepEqual(parseSbpMembers(JSON.stringify(NSPK_SAMPLE)), members, 'the same from JSON text');
  });

  it('reads a plain array of entries, strictly where links are made', () => {
    const members = parseSbpMembers([
      {
        code: 'mybank',
        ru: 'Мой\u202e банк',
        en: 'My Bank',
        aliases: ['мой', 7],
        color: '#0A7F5A',
        schema: 'bank100000000500',
        package: 'ru.my.bank',
        rank: 3,
        extra: { deep: true },
      },
      { code: 'other', ru: 'Другой', schema: 'bank1000000005001', package: 'ru', color: 'red' },
      { code: 'mybank', ru: 'Дубль' },
      { code: 'nameless' },
      { ru: 'No code, no schema' },
    ]);
    assert.deepEqual(members, [
      {
        code: 'mybank',
        ru: 'Мой банк',
        en: 'My Bank',
        aliases: ['мой'],
        color: '#0a7f5a',
        schema: 'bank100000000500',
        package: 'ru.my.bank',
        rank: 3,
      },
      {
        code: 'other',
        ru: 'Другой',
        en: undefined,
        aliases: undefined,
        color: undefined,
        schema: undefined,
        package: undefined,
        rank: undefined,
      },
    ]);
  });

  it('gives nothing for garbage, never throwing', () => {
    for (const garbage of [
      undefined,
      null,
      42,
      true,
      'not json',
      '{"dictionary":',
      '{}',
      { dictionary: 'x' },
      { dictionary: [1, [], null] },
      [null, 1, 'x', {}],
      () => 1,
    ]) {
      assert.deepEqual(parseSbpMembers(garbage), [], JSON.stringify(garbage) ?? typeof garbage);
    }
  });

  it('completes members from the directory and orders them: popular first, then alphabetically', () => {
    const members = parseSbpMembers({
      dictionary: [
        { bankName: 'Яблочный банк', schema: 'bank100000000901', package_name: 'ru.apple.bank' },
        { bankName: 'Т-Банк', schema: 'bank100000000004', package_name: 'com.idamob.tinkoff.android' },
        { bankName: 'АБВ Банк', schema: 'bank100000000902' },
        { bankName: 'Сбербанк ПАО', schema: 'bank100000000111', package_name: 'ru.sberbankmobile.new' },
      ],
    });
    const ordered = orderForPicker(members, BANK_DIRECTORY, 'ru');
    assert.deepEqual(
      ordered.map((entry) => entry.code),
      ['sberbank', 'tinkoff', 'bank100000000902', 'bank100000000901'],
    );
    const sber = ordered[0]!;
    assert.equal(sber.en, 'Sberbank');
    assert.equal(sber.rank, 1);
    assert.equal(sber.package, 'ru.sberbankmobile.new', "the list's package wins");
    assert.include(sber.aliases ?? [], 'Сбербанк ПАО', "the list's own name stays searchable");
    assert.deepEqual(
      orderForPicker(
        [
          { code: 'b', ru: 'Б', en: 'Alpha' },
          { code: 'a', ru: 'А', en: 'Beta' },
        ],
        BANK_DIRECTORY,
        'en',
      ).map((e) => e.code),
      ['b', 'a'],
      'alphabetical in the payer’s language',
    );
    assert.lengthOf(orderForPicker(BANK_DIRECTORY, BANK_DIRECTORY, 'xx-invalid-!!'), BANK_DIRECTORY.length);
  });
});

describe('banks: loading a merchant list', () => {
  const answer =
    (body: string, status = 200): MembersFetch =>
    () =>
      Promise.resolve({ ok: status < 300, status, text: () => Promise.resolve(body) });

  it('fetches and reads an https: list', async () => {
    const calls: { url: string; init: RequestInit }[] = [];
    const fetcher: MembersFetch = (url, init) => {
      calls.push({ url, init });
      return answer(JSON.stringify(NSPK_SAMPLE))(url, init);
    };
    const members = await loadSbpMembers('https://shop.example/sbp-banks.json', fetcher, { base: 'https://shop.example/pay' });
    assert.lengthOf(members, 3);
    assert.equal(calls[0]!.url, 'https://shop.example/sbp-banks.json');
    assert.equal(calls[0]!.init.credentials, 'omit');
    assert.instanceOf(calls[0]!.init.signal, AbortSignal);
    assert.lengthOf(await loadSbpMembers('/banks.json', fetcher, { base: 'http://localhost:8000/pay' }), 3, 'same origin');
  });

  it('takes an object as it is', async () => {
    assert.lengthOf(await loadSbpMembers(NSPK_SAMPLE, answer('')), 3);
  });

  it('refuses other URLs, failed answers and lists without banks', async () => {
    const rejects = async (promise: Promise<unknown>, what: string) => {
      let failed = false;
      await promise.catch(() => (failed = true));
      assert.isTrue(failed, what);
    };
    const good = answer(JSON.stringify(NSPK_SAMPLE));
    await rejects(loadSbpMembers('http://cdn.example/banks.json', good, { base: 'https://shop.example/' }), 'http: elsewhere');
    await rejects(loadSbpMembers('javascript:alert(1)', good, { base: 'https://shop.example/' }), 'javascript:');
    await rejects(loadSbpMembers('https://shop.example/banks.json', answer('', 404), { base: 'https://shop.example/' }), '404');
    await rejects(loadSbpMembers('https://shop.example/banks.json', answer('<html>'), { base: 'https://shop.example/' }), 'not JSON');
    await rejects(loadSbpMembers('https://shop.example/banks.json', answer('[]'), { base: 'https://shop.example/' }), 'no bank');
    await rejects(loadSbpMembers({ dictionary: [] }, good), 'an empty object');
  });

  it('gives up after its timeout, and on the caller’s abort', async () => {
    const hanging: MembersFetch = (_url, init) =>
      new Promise((_resolve, reject) => init.signal?.addEventListener('abort', () => reject(init.signal?.reason as Error)));
    const error = await loadSbpMembers('https://shop.example/banks.json', hanging, { base: 'https://shop.example/', timeout: 20 }).catch(
      (e: unknown) => e,
    );
    assert.equal((error as DOMException).name, 'TimeoutError');
    const controller = new AbortController();
    const pending = loadSbpMembers('https://shop.example/banks.json', hanging, {
      base: 'https://shop.example/',
      signal: controller.signal,
    });
    controller.abort(new DOMException('gone', 'AbortError'));
    assert.equal(((await pending.catch((e: unknown) => e)) as DOMException).name, 'AbortError');
  });
});
