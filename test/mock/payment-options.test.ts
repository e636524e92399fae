/**
 * Every documented payment option issues requisites of its own shape (README, "Choices where
 * the documentation is silent"), in its currency with that currency's decimals, and each is of
 * the kind the proxy tells the element (`requisitesKind`).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { BANKS, PAYMENT_OPTIONS } from '../../src/mock/banks.js';
import { qrTextOf } from '../../src/mock/requisites.js';
import { KNOWN_PAYMENT_OPTIONS } from '../../src/schemas/invoice.js';
import { requisitesKind } from '../../src/schemas/requisites-kind.js';
import { FROZEN, inProcessMock, type MockUnderTest } from './helpers.js';

interface Case {
  option: string;
  method: string;
  currency: string;
  amount: string;
  /** The requisites, as the service writes them. */
  requisites: RegExp;
  kind: string;
  /** `qrCodeLink`: the service's picture of the QR code, the bank's pay link, the requisites' own link, or none. */
  link: 'picture' | 'pay' | 'same' | null;
  /** The amount as the invoice states it. */
  sum: string;
}

const CASES: Case[] = [
  {
    option: 'SBP',
    method: 'sberbank',
    currency: 'RUB',
    amount: '1500',
    requisites: /^\+7\(9\d\d\)\d{3}-\d\d-\d\d$/,
    kind: 'phone',
    link: 'pay',
    sum: '1500.00',
  },
  {
    option: 'TO_CARD',
    method: 'tinkoff',
    currency: 'RUB',
    amount: '1500',
    requisites: /^2200 70\d\d( \d{4}){2}$/,
    kind: 'card',
    link: 'pay',
    sum: '1500.00',
  },
  {
    option: 'TO_ACCOUNT',
    method: 'tinkoff',
    currency: 'RUB',
    amount: '1500',
    requisites: /^40817810\d{12}$/,
    kind: 'account',
    link: 'pay',
    sum: '1500.00',
  },
  {
    option: 'TO_BANK_DETAILS',
    method: 'sberbank',
    currency: 'RUB',
    amount: '1500',
    requisites: /^40817810\d{12}$/,
    kind: 'account',
    link: 'pay',
    sum: '1500.00',
  },
  {
    option: 'CROSS_BORDER',
    method: 'dcbank',
    currency: 'TJS',
    amount: '150',
    requisites: /^5678 48\d\d( \d{4}){2}$/,
    kind: 'card',
    link: 'pay',
    sum: '150.00',
  },
  {
    option: 'TO_PHONE_NUMBER',
    method: 'alif',
    currency: 'TJS',
    amount: '150',
    requisites: /^\+992 \d\d \d{3} \d{4}$/,
    kind: 'phone',
    link: 'pay',
    sum: '150.00',
  },
  {
    option: 'TO_PHONE_NUMBER',
    method: 'kaspi',
    currency: 'KZT',
    amount: '15000',
    requisites: /^\+7\(7\d\d\)\d{3}-\d\d-\d\d$/,
    kind: 'phone',
    link: 'pay',
    sum: '15000.00',
  },
  {
    option: 'MOBILE_TOP_UP',
    method: 'mts_mobile',
    currency: 'RUB',
    amount: '1500',
    requisites: /^\+7\(9\d\d\)\d{3}-\d\d-\d\d$/,
    kind: 'topup',
    link: 'pay',
    sum: '1500.00',
  },
  {
    option: 'SBP_QR',
    method: 'sberbank',
    currency: 'RUB',
    amount: '1500',
    requisites: /^https:\/\/qr\.nspk\.ru\/AS1A\w{28}\?type=02&bank=\d{12}&sum=150000&cur=RUB&crc=\d{4}$/,
    kind: 'qr',
    link: 'picture',
    sum: '1500.00',
  },
  {
    option: 'MANUAL_SBP_QR',
    method: 'sberbank',
    currency: 'RUB',
    amount: '1500',
    requisites: /\/api\/public\/invoices\/[0-9a-f-]{36}\/qr-code$/,
    kind: 'qr-image',
    link: 'picture',
    sum: '1500.00',
  },
  {
    option: 'CLICK_UZ_QR',
    method: 'click',
    currency: 'UZS',
    amount: '150000',
    requisites: /^https:\/\/my\.click\.uz\/services\/pay\?service_id=\d{5}&merchant_id=\d{5}&amount=150000\.00&transaction_param=\d{10}$/,
    kind: 'qr',
    link: 'picture',
    sum: '150000.00',
  },
  {
    option: 'VIET_QR',
    method: 'vietcombank',
    currency: 'VND',
    amount: '250000',
    requisites: /^000201010212.*970436.*5303704540625000058\d\dVN6304[0-9A-F]{4}$/,
    kind: 'qr',
    link: 'picture',
    sum: '250000',
  },
  {
    option: 'UPI',
    method: 'hdfcbank',
    currency: 'INR',
    amount: '1499',
    requisites: /^[a-z]+\.[a-z]+\d\d@[a-z]+$/,
    kind: 'upi',
    link: 'picture',
    sum: '1499.00',
  },
  {
    option: 'QUASI_UPI',
    method: 'paytm',
    currency: 'INR',
    amount: '1499',
    requisites: /^[a-z]+\.[a-z]+\d\d@[a-z]+$/,
    kind: 'upi',
    link: 'picture',
    sum: '1499.00',
  },
  {
    option: 'IMPS',
    method: 'icicibank',
    currency: 'INR',
    amount: '1499',
    requisites: /^\d{14} IFSC ICIC0\d{6}$/,
    kind: 'imps',
    link: null,
    sum: '1499.00',
  },
  {
    option: 'CVU',
    method: 'mercadopago',
    currency: 'ARS',
    amount: '25000',
    requisites: /^0000003100\d{12}$/,
    kind: 'cvu',
    link: null,
    sum: '25000.00',
  },
  {
    option: 'TO_PHONE_NUMBER',
    method: 'bkash',
    currency: 'BDT',
    amount: '1500',
    requisites: /^\+880 1\d{3} \d{6}$/,
    kind: 'phone',
    link: 'pay',
    sum: '1500.00',
  },
  {
    option: 'TO_ACCOUNT',
    method: 'shinhan',
    currency: 'KRW',
    amount: '15000',
    requisites: /^110-\d{3}-\d{6}$/,
    kind: 'account',
    link: 'pay',
    sum: '15000',
  },
  {
    option: 'TO_CARD',
    method: 'kapitalbank',
    currency: 'AZN',
    amount: '50',
    requisites: /^4169 73\d\d( \d{4}){2}$/,
    kind: 'card',
    link: 'pay',
    sum: '50.00',
  },
  {
    option: 'TG_BOT',
    method: 'sberbank',
    currency: 'RUB',
    amount: '1500',
    requisites: /^https:\/\/t\.me\/\w+Bot\?start=\d{12}$/,
    kind: 'telegram',
    link: 'same',
    sum: '1500.00',
  },
  {
    option: 'TIPS',
    method: 'tinkoff',
    currency: 'RUB',
    amount: '1500',
    requisites: /^https:\/\/pay\.tinkoff\.example\/p\/\d{12}$/,
    kind: 'url',
    link: 'same',
    sum: '1500.00',
  },
  {
    option: 'P2C',
    method: 'alfabank',
    currency: 'RUB',
    amount: '1500',
    requisites: /^https:\/\/pay\.alfabank\.example\/p\/\d{12}$/,
    kind: 'url',
    link: 'same',
    sum: '1500.00',
  },
  {
    option: 'CARD_ACQUIRING',
    method: 'vtb',
    currency: 'RUB',
    amount: '1500',
    requisites: /^https:\/\/pay\.vtb\.example\/p\/\d{12}$/,
    kind: 'url',
    link: 'same',
    sum: '1500.00',
  },
  {
    option: 'MANUAL_ECOM',
    method: 'vtb',
    currency: 'RUB',
    amount: '1500',
    requisites: /^https:\/\/pay\.vtb\.example\/p\/\d{12}$/,
    kind: 'url',
    link: 'same',
    sum: '1500.00',
  },
];

/** CRC-16/CCITT-FALSE, as EMVCo QR codes end with it. */
const crc16 = (text: string): string => {
  let crc = 0xffff;
  for (const byte of Buffer.from(text)) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
};

describe('the requisites of every documented option', () => {
  let mock: MockUnderTest;
  before(() => {
    mock = inProcessMock({ ...FROZEN, seed: 28 });
  });
  after(() => mock.close());

  test('every documented option has a case here and a bank or a variant to come from', () => {
    const covered = new Set(CASES.map((each) => each.option));
    assert.deepEqual(
      KNOWN_PAYMENT_OPTIONS.filter((option) => !covered.has(option)),
      [],
      'an option without requisites of its own shape',
    );
    assert.deepEqual(PAYMENT_OPTIONS.map((option) => option.code).sort(), [...KNOWN_PAYMENT_OPTIONS].sort());
  });

  for (const each of CASES) {
    test(`${each.option} at ${each.method} (${each.currency}): ${each.kind}`, async () => {
      const invoice = await mock.client().createInvoice({
        type: 'in',
        amount: each.amount,
        currency: each.currency,
        notificationUrl: 'http://127.0.0.1:9/notify',
        notificationToken: 'token',
        internalId: `case-${each.option}`,
        paymentOption: each.option,
        paymentMethod: each.method,
        startDeal: true,
      });
      assert.equal(invoice.sum.amount, each.sum, 'the currency’s own decimals');
      assert.equal(invoice.sum.subunit, each.sum.split('.')[1]?.length ?? 0);
      const [deal] = invoice.deals;
      assert.ok(deal, 'a deal was started');
      const requisites = deal.requisites?.requisites ?? '';
      assert.match(requisites, each.requisites);
      assert.equal(requisitesKind(requisites, deal.paymentOption), each.kind);
      const picture = `${mock.baseUrl}/api/public/invoices/${invoice.id}/qr-code`;
      const expected = { picture, same: requisites, null: null, pay: deal.qrCodeLink }[String(each.link) as 'picture'];
      assert.equal(deal.qrCodeLink, expected);
      if (each.link === 'pay') assert.match(deal.qrCodeLink ?? '', /^https:\/\/\S+requisiteNumber=\d+$/);
    });
  }

  test('a VietQR payload ends with its EMV checksum, and names the bank and the amount', async () => {
    const invoice = await mock.client().createInvoice({
      type: 'in',
      amount: '250000',
      currency: 'VND',
      notificationUrl: 'http://127.0.0.1:9/n',
      notificationToken: 't',
      internalId: 'vn',
      paymentOption: 'VIET_QR',
      paymentMethod: 'techcombank',
      startDeal: true,
    });
    const payload = invoice.deals[0]!.requisites!.requisites!;
    assert.equal(payload.slice(-4), crc16(payload.slice(0, -4)));
    assert.ok(payload.includes('970407'), 'the BIN of Techcombank');
    assert.ok(payload.includes('5406250000'), 'the amount in dong, no decimals');
  });

  test('the picture of a QR code draws what a payer scans: the data, a UPI payment, or the manual QR’s SBP link', () => {
    const invoice = { amountMinor: 149_900n, currency: 'INR' };
    const deal = (paymentOption: string, requisites: string) => ({
      id: '9b2f6c1e-0000-4000-8000-000000000042',
      paymentOption,
      requisites: { requisites },
      qrCodeLink: 'https://x.example/p',
    });
    assert.equal(qrTextOf(deal('UPI', 'priya.verma12@ybl'), invoice), 'upi://pay?pa=priya.verma12@ybl&am=1499.00&cu=INR');
    assert.equal(qrTextOf(deal('SBP_QR', 'https://qr.nspk.ru/AS1'), invoice), 'https://qr.nspk.ru/AS1');
    assert.match(
      qrTextOf(deal('MANUAL_SBP_QR', 'https://x.example/qr-code'), { amountMinor: 150_000n, currency: 'RUB' })!,
      /^https:\/\/qr\.nspk\.ru\/AS1A9B2F6C1E000040008000\w{8}\?type=02&bank=\d{12}&sum=150000&cur=RUB&crc=[0-9A-F]{4}$/,
    );
    assert.equal(qrTextOf(deal('TO_CARD', '2200'), invoice), 'https://x.example/p');
    assert.equal(qrTextOf(undefined, invoice), undefined);
  });

  test('the banks of each currency offer only documented options', () => {
    for (const bank of BANKS) {
      for (const option of bank.options)
        assert.ok((KNOWN_PAYMENT_OPTIONS as readonly string[]).includes(option), `${bank.code}: ${option}`);
    }
    assert.deepEqual([...new Set(BANKS.map((bank) => bank.currency))].sort(), [
      'ARS',
      'AZN',
      'BDT',
      'INR',
      'KRW',
      'KZT',
      'RUB',
      'TJS',
      'UZS',
      'VND',
    ]);
  });
});
