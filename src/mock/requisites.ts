/**
 * Payment variants and deal requisites drawn from the bank list: Luhn-valid card numbers in
 * each bank's BIN range, phones written as the documentation shows them (`+7(996)777-99-77`),
 * account numbers, payment URLs and QR data, with the `qrCodeLink` of each kind.
 * Imports banks.ts, random.ts and options.ts.
 */
import { BANKS, PHONE_OPTIONS, QR_OPTIONS, URL_OPTIONS, bankByCode, banksOf } from './banks.js';
import { DEFAULTS } from './options.js';
import { digits, pick, shuffled, type Random } from './random.js';

export interface Variant {
  option: string;
  method: string;
}

export interface DrawnRequisites {
  requisites: { requisites: string; holder: string };
  qrCodeLink: string | null;
}

/** Realistic holder names as payment pages show them (first name, patronymic, initial). */
const HOLDER_NAMES: readonly string[] = [
  'Иван Петрович С.',
  'Анна Сергеевна К.',
  'Дмитрий Алексеевич В.',
  'Елена Викторовна М.',
  'Сергей Николаевич П.',
  'Ольга Андреевна Л.',
];

/** The Luhn check digit that makes `partial` + digit a valid card number. */
export const luhnCheckDigit = (partial: string): string => {
  let sum = 0;
  for (let i = 0; i < partial.length; i++) {
    let digit = Number(partial[partial.length - 1 - i]);
    if (i % 2 === 0) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return String((10 - (sum % 10)) % 10);
};

export const isLuhnValid = (number: string): boolean => /^\d{2,}$/.test(number) && luhnCheckDigit(number.slice(0, -1)) === number.slice(-1);

/**
 * The variants of a new invoice: every option of a few banks of its currency, in the order a
 * payment page lists them; the first bank has several options (documented: one bank code may
 * occur with several options). A variant the merchant asked for is always among them.
 */
export const drawVariants = (random: Random, currency: string, requested: { method?: string | null; option?: string | null } = {}): Variant[] => {
  const pool = banksOf(currency).filter((bank) => !bank.options.includes('MOBILE_TOP_UP'));
  const candidates = pool.length ? pool : BANKS.filter((bank) => bank.currency === 'RUB');
  const { min, max } = DEFAULTS.variantBanks;
  const count = min + (Math.floor(random() * (max - min + 1)) % (max - min + 1));
  const multi = candidates.filter((bank) => bank.options.length > 1);
  const first = pick(multi.length ? multi : candidates, random);
  const banks = [first, ...shuffled(candidates.filter((bank) => bank !== first), random).slice(0, count - 1)];
  const variants: Variant[] = banks.flatMap((bank) => bank.options.map((option) => ({ option, method: bank.code })));
  const has = (variant: Variant) => variants.some((v) => v.option === variant.option && v.method === variant.method);
  const { method, option } = requested;
  if (method && option) {
    if (!has({ method, option })) variants.unshift({ option, method });
  } else if (method) {
    for (const each of [...(bankByCode(method)?.options ?? ['TO_CARD'])].reverse()) if (!has({ method, option: each })) variants.unshift({ option: each, method });
  } else if (option && !variants.some((v) => v.option === option)) {
    variants.unshift({ option, method: (BANKS.find((bank) => bank.options.includes(option)) ?? first).code });
  }
  return variants;
};

const phone = (random: Random): string => {
  const d = `9${digits(9, random)}`;
  return `+7(${d.slice(0, 3)})${d.slice(3, 6)}-${d.slice(6, 8)}-${d.slice(8, 10)}`;
};

const cardNumber = (bin: string, random: Random): string => {
  const partial = bin + digits(9, random);
  return (partial + luhnCheckDigit(partial)).replace(/(\d{4})(?=\d)/g, '$1 ');
};

/** A bank's pay link for `number`, the form the documented examples show for Sberbank. */
const payLink = (method: string, number: string): string =>
  method === 'sberbank'
    ? `https://www.sberbank.com/sms/pbpn?requisiteNumber=${number}`
    : `https://pay.${method}.example/transfer?requisiteNumber=${number}`;

/** Requisites of a deal for `variant`, of the kind its option takes, and its `qrCodeLink`. */
export const drawRequisites = (variant: Variant, random: Random, context: { amountMinor: bigint; currency: string; invoiceId: string; baseUrl: string }): DrawnRequisites => {
  const bank = bankByCode(variant.method);
  const holder = pick(HOLDER_NAMES, random);
  const { option, method } = variant;
  if (QR_OPTIONS.includes(option)) {
    const payload = `https://qr.nspk.ru/AS1A${digits(4, random)}${digits(24, random)}?type=02&bank=100000000111&sum=${context.amountMinor}&cur=${context.currency}&crc=${digits(4, random)}`;
    return { requisites: { requisites: payload, holder }, qrCodeLink: `${context.baseUrl}/api/public/invoices/${context.invoiceId}/qr-code` };
  }
  if (URL_OPTIONS.includes(option)) {
    const url = `https://pay.${method}.example/p/${digits(12, random)}`;
    return { requisites: { requisites: url, holder }, qrCodeLink: url };
  }
  if (PHONE_OPTIONS.includes(option)) {
    const number = phone(random);
    return { requisites: { requisites: number, holder }, qrCodeLink: payLink(method, number.replace(/\D/g, '')) };
  }
  if (option === 'TO_ACCOUNT' || option === 'TO_BANK_DETAILS') {
    const account = `40817810${digits(12, random)}`;
    return { requisites: { requisites: account, holder }, qrCodeLink: payLink(method, account) };
  }
  const card = cardNumber(bank?.bin ?? '220000', random);
  return { requisites: { requisites: card, holder }, qrCodeLink: payLink(method, card.replace(/\D/g, '')) };
};
