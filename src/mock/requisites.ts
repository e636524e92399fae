/**
 * Payment variants and deal requisites drawn from the assumed bank list: Luhn-valid card
 * numbers in each bank's BIN range, Russian mobile numbers for SBP, NSPK-style QR links.
 */
import { BANKS, HOLDER_NAMES, QR_CODE_OPTIONS, SBP_PHONE_PREFIX, VARIANT_BANKS_PER_INVOICE, type MockBank } from './assumptions.js';

export type Random = () => number;

export interface Variant {
  option: string;
  method: string;
}

export interface GeneratedRequisites {
  paymentMethodName: string;
  requisites: { requisites: string; holder: string };
  qrCodeLink: string | null;
}

const pick = <T>(items: readonly T[], random: Random): T => items[Math.floor(random() * items.length) % items.length] as T;

const digits = (count: number, random: Random): string => {
  let out = '';
  for (let i = 0; i < count; i++) out += String(Math.floor(random() * 10) % 10);
  return out;
};

export const bankByCode = (code: string): MockBank | undefined => BANKS.find((bank) => bank.code === code);

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

export const isLuhnValid = (number: string): boolean =>
  /^\d{2,}$/.test(number) && luhnCheckDigit(number.slice(0, -1)) === number.slice(-1);

const shuffled = <T>(items: readonly T[], random: Random): T[] => {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1)) % (i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
};

/**
 * The payment variants of a new invoice: every option of a few banks, in the order a payment
 * page would list them. At least one bank offers several options; a variant the merchant asked
 * for (`paymentMethod`/`paymentOption` of the create request) is always among them.
 */
export const drawVariants = (random: Random, requested: { method?: string | undefined; option?: string | undefined } = {}): Variant[] => {
  const { min, max } = VARIANT_BANKS_PER_INVOICE;
  const count = min + (Math.floor(random() * (max - min + 1)) % (max - min + 1));
  const multi = BANKS.filter((bank) => bank.options.length > 1);
  const first = pick(multi, random);
  const banks = [first, ...shuffled(BANKS.filter((bank) => bank !== first), random).slice(0, count - 1)];
  const variants: Variant[] = banks.flatMap((bank) => bank.options.map((option) => ({ option, method: bank.code })));
  const has = (variant: Variant) => variants.some((v) => v.option === variant.option && v.method === variant.method);
  const { method, option } = requested;
  if (method && option) {
    if (!has({ method, option })) variants.unshift({ option, method });
  } else if (method) {
    const options = bankByCode(method)?.options ?? ['TO_CARD'];
    for (const each of [...options].reverse()) if (!has({ method, option: each })) variants.unshift({ option: each, method });
  } else if (option && !variants.some((v) => v.option === option)) {
    const bank = BANKS.find((each) => each.options.includes(option));
    variants.unshift({ option, method: bank?.code ?? first.code });
  }
  return variants;
};

/** Requisites of a deal for `variant`: a card number for `TO_CARD` (and unknown options), a phone and a QR link for SBP. */
export const drawRequisites = (variant: Variant, random: Random, amountMinor: bigint, currency: string): GeneratedRequisites => {
  const bank = bankByCode(variant.method);
  const holder = pick(HOLDER_NAMES, random);
  const paymentMethodName = bank?.name ?? variant.method;
  const requisites =
    variant.option === 'SBP'
      ? `${SBP_PHONE_PREFIX}${digits(9, random)}`
      : (() => {
          const partial = (bank?.bin ?? '220000') + digits(9, random);
          return partial + luhnCheckDigit(partial);
        })();
  let qrCodeLink: string | null = null;
  if (QR_CODE_OPTIONS.includes(variant.option)) {
    const alphabet = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'];
    let qrId = '';
    for (let i = 0; i < 32; i++) qrId += pick(alphabet, random);
    const query = new URLSearchParams({
      type: '02',
      bank: bank?.sbpMemberId ?? '100000000000',
      sum: amountMinor.toString(),
      cur: currency,
      crc: digits(4, random),
    });
    qrCodeLink = `https://qr.nspk.ru/${qrId}?${query.toString()}`;
  }
  return { paymentMethodName, requisites: { requisites, holder }, qrCodeLink };
};
