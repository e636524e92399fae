import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isRequisitesKind, REQUISITES_KINDS, requisitesKind } from '../../src/schemas/requisites-kind.js';

describe('requisitesKind: what the requisites of a deal are', () => {
  const cases: [string | null, string | null, string][] = [
    ['4444 4444 4444 4444', 'TO_CARD', 'card'],
    ['2202206712345678', 'TO_CARD', 'card'],
    ['2202206712345678', null, 'card'],
    ['+7(996)777-99-77', 'SBP', 'phone'],
    ['+79967779977', 'TO_CARD', 'phone'],
    ['89967779977', 'SBP', 'phone'],
    ['992 900 123 456', 'TO_PHONE_NUMBER', 'phone'],
    ['40817810099910004312', 'TO_ACCOUNT', 'account'],
    ['40817810099910004312', null, 'account'],
    ['https://pay.bank.example/p/123', 'TO_CARD', 'url'],
    ['https://qr.nspk.ru/AD10006M8KH7FQ1A8U2P1LN6KJT0DLTB', 'SBP_QR', 'qr'], // scanned, though a link
    ['00020101021226...', 'SBP_QR', 'qr'],
    ['ST00012|Name=ООО Ромашка|PersonalAcc=40702810', 'MANUAL_SBP_QR', 'qr'],
    ['Иванов И. И.', 'TO_BANK_DETAILS', 'other'],
    // The options beyond Russia: what each is, whichever option a proxy or the service names.
    ['shop.payments@okaxis', 'UPI', 'upi'],
    ['rahul1985@ybl', 'QUASI_UPI', 'upi'],
    ['rahul1985@ybl', null, 'upi'],
    ['buyer@mail.example', 'UPI', 'other'], // an e-mail address, not a UPI ID: its provider has a dot
    ['50100248163579 IFSC HDFC0001234', 'IMPS', 'imps'],
    ['Account 50100248163579, IFSC: hdfc0001234', null, 'imps'],
    ['50100248163579', 'IMPS', 'account'], // no IFSC: an account, not half of an IMPS pair
    ['0000003100012345678901', 'CVU', 'cvu'],
    ['0000003100012345678901', null, 'cvu'],
    ['+7(916)555-01-23', 'MOBILE_TOP_UP', 'topup'],
    ['https://t.me/SamovarPayBot?start=inv_42', 'TG_BOT', 'telegram'],
    ['https://t.me/SamovarPayBot', 'TIPS', 'telegram'],
    ['@SamovarPayBot', 'TG_BOT', 'telegram'],
    ['https://pay.example/qr/7f3a.png', 'VIET_QR', 'qr-image'],
    ['https://pay.example/api/public/invoices/9b2f/qr-code', 'CLICK_UZ_QR', 'qr-image'],
    ['https://pay.example/qr/7f3a.png?size=300', null, 'qr-image'],
    ['00020101021238570010A00000072701270006970436011310234567890208QRIBFTTA53037045802VN6304ABCD', 'VIET_QR', 'qr'],
    ['https://my.click.uz/services/pay?service_id=1&merchant_id=2&amount=150000', 'CLICK_UZ_QR', 'qr'],
    ['110-123-456789', 'TO_ACCOUNT', 'account'],
    [null, 'TO_CARD', 'other'],
  ];
  for (const [requisites, option, kind] of cases) {
    test(`${JSON.stringify(requisites)} under ${option} is ${kind}`, () => assert.equal(requisitesKind(requisites, option), kind));
  }
});

test('every kind is known, and a kind added later is not', () => {
  for (const kind of REQUISITES_KINDS) assert.ok(isRequisitesKind(kind), kind);
  for (const kind of ['iban', '', 'CARD', null, 1]) assert.equal(isRequisitesKind(kind), false, String(kind));
});
