import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { requisitesKind } from '../../src/schemas/requisites-kind.js';

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
    [null, 'TO_CARD', 'other'],
  ];
  for (const [requisites, option, kind] of cases) {
    test(`${JSON.stringify(requisites)} under ${option} is ${kind}`, () => assert.equal(requisitesKind(requisites, option), kind));
  }
});
