/**
 * Payment variants and deal requisites drawn from the bank list, in the shape of each option:
 * Luhn-valid card numbers in each bank's BIN range, phones written as the documentation shows
 * them (`+7(996)777-99-77`) or as their country writes them, account numbers, payment URLs,
 * QR data, UPI IDs, Indian accounts with their IFSC, CVUs, Telegram bot links and pictures of
 * QR codes, with the `qrCodeLink` of each kind (README, "Choices where the documentation is
 * silent"). Imports banks.ts, random.ts and options.ts.
 */
import { BANKS, PHONE_OPTIONS, PICTURE_OPTIONS, QR_OPTIONS, UPI_OPTIONS, URL_OPTIONS, bankByCode, banksOf } from './banks.js';
import { DEFAULTS, subunitOf } from './options.js';
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

/** Holders of the other currencies' accounts, as their banks write them. */
const HOLDERS_BY_CURRENCY: Readonly<Record<string, readonly string[]>> = {
  KZT: ['Айгерим Серикқызы Б.', 'Нұрлан Асқарұлы Т.', 'Dana Zhaksylykova'],
  TJS: ['Фирдавс Раҳимов', 'Мадина Назарова', 'Шерзод Қодиров'],
  UZS: ['Dilshod Karimov', 'Malika Yusupova', 'Jasur Toʻxtayev'],
  INR: ['Rahul Sharma', 'Priya Verma', 'Amit Kumar'],
  BDT: ['Md. Rakib Hasan', 'Nusrat Jahan', 'Tanvir Ahmed'],
  ARS: ['Martín Gómez', 'Lucía Fernández', 'Santiago Pérez'],
  VND: ['Nguyễn Văn An', 'Trần Thị Mai', 'Lê Minh Khoa'],
  KRW: ['김민준', '이서연', '박지훈'],
  AZN: ['Elvin Məmmədov', 'Aysel Əliyeva', 'Rauf Həsənov'],
};

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
export const drawVariants = (
  random: Random,
  currency: string,
  requested: { method?: string | null; option?: string | null } = {},
): Variant[] => {
  const pool = banksOf(currency).filter((bank) => !bank.options.includes('MOBILE_TOP_UP'));
  const candidates = pool.length ? pool : BANKS.filter((bank) => bank.currency === 'RUB');
  const { min, max } = DEFAULTS.variantBanks;
  const count = min + (Math.floor(random() * (max - min + 1)) % (max - min + 1));
  const multi = candidates.filter((bank) => bank.options.length > 1);
  const first = pick(multi.length ? multi : candidates, random);
  const banks = [
    first,
    ...shuffled(
      candidates.filter((bank) => bank !== first),
      random,
    ).slice(0, count - 1),
  ];
  const variants: Variant[] = banks.flatMap((bank) => bank.options.map((option) => ({ option, method: bank.code })));
  const has = (variant: Variant) => variants.some((v) => v.option === variant.option && v.method === variant.method);
  const { method, option } = requested;
  if (method && option) {
    if (!has({ method, option })) variants.unshift({ option, method });
  } else if (method) {
    for (const each of [...(bankByCode(method)?.options ?? ['TO_CARD'])].reverse())
      if (!has({ method, option: each })) variants.unshift({ option: each, method });
  } else if (option && !variants.some((v) => v.option === option)) {
    variants.unshift({ option, method: (BANKS.find((bank) => bank.options.includes(option)) ?? first).code });
  }
  return variants;
};

/** How the service writes a phone of each country: Russia's and Kazakhstan's as documented, the others in international groups. */
const PHONE_FORMATS: Readonly<Record<string, (random: Random) => string>> = {
  RUB: (random) => russianPhone(`9${digits(9, random)}`),
  KZT: (random) => russianPhone(`7${pick(['01', '05', '07', '47', '77'], random)}${digits(7, random)}`),
  TJS: (random) => `+992 ${pick(['90', '93', '98', '55'], random)} ${digits(3, random)} ${digits(4, random)}`,
  UZS: (random) => `+998 ${pick(['90', '91', '93', '97', '99'], random)} ${digits(3, random)} ${digits(2, random)} ${digits(2, random)}`,
  AZN: (random) => `+994 ${pick(['50', '51', '55', '70', '77'], random)} ${digits(3, random)} ${digits(2, random)} ${digits(2, random)}`,
  BDT: (random) => `+880 1${pick(['3', '7', '8', '9'], random)}${digits(2, random)} ${digits(6, random)}`,
};

const russianPhone = (d: string) => `+7(${d.slice(0, 3)})${d.slice(3, 6)}-${d.slice(6, 8)}-${d.slice(8, 10)}`;

const phone = (random: Random, currency: string): string => (PHONE_FORMATS[currency] ?? PHONE_FORMATS.RUB!)(random);

const cardNumber = (bin: string, random: Random): string => {
  const partial = bin + digits(9, random);
  return (partial + luhnCheckDigit(partial)).replace(/(\d{4})(?=\d)/g, '$1 ');
};

/** A bank's pay link for `number`, the form the documented examples show for Sberbank. */
const payLink = (method: string, number: string): string =>
  method === 'sberbank'
    ? `https://www.sberbank.com/sms/pbpn?requisiteNumber=${number}`
    : `https://pay.${method}.example/transfer?requisiteNumber=${number}`;

/** The IFSC prefix of an Indian bank (its four letters and the zero). */
const IFSC_PREFIX: Readonly<Record<string, string>> = { hdfcbank: 'HDFC0', icicibank: 'ICIC0', sbi: 'SBIN0' };
/** UPI providers' handles (`@okaxis`: Google Pay on Axis Bank, `@ybl`: PhonePe, …). */
const UPI_HANDLES: readonly string[] = ['okaxis', 'okhdfcbank', 'oksbi', 'ybl', 'paytm', 'ibl'];
const UPI_NAMES: readonly string[] = ['rahul.sharma', 'priya.verma', 'amit.kumar', 'neha.gupta', 'vikram.singh'];

/** A Korean account number as each bank prints it, dashes included. */
const koreanAccount = (method: string, random: Random): string =>
  method === 'shinhan'
    ? `110-${digits(3, random)}-${digits(6, random)}`
    : method === 'tossbank'
      ? `1000-${digits(4, random)}-${digits(4, random)}`
      : `${digits(6, random)}-${digits(2, random)}-${digits(6, random)}`;

/** CRC-16/CCITT-FALSE of an EMV QR payload (its last field). */
const crc16 = (text: string): string => {
  let crc = 0xffff;
  for (const byte of new TextEncoder().encode(text)) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
};

/** An EMV field: its id, its length in two digits, its value. */
const emv = (id: string, value: string) => `${id}${String(value.length).padStart(2, '0')}${value}`;

/** The VietQR (NAPAS) payload of a transfer to `account` at the bank of `bin`, for `amount` dong: EMVCo fields with their CRC. */
const vietQr = (bin: string, account: string, amount: string): string => {
  const payload = [
    emv('00', '01'),
    emv('01', '12'),
    emv('38', emv('00', 'A000000727') + emv('01', emv('00', bin) + emv('01', account)) + emv('02', 'QRIBFTTA')),
    emv('53', '704'),
    emv('54', amount),
    emv('58', 'VN'),
  ].join('');
  return `${payload}6304${crc16(`${payload}6304`)}`;
};

/** The amount in whole units of the currency's subunit, as a QR payload writes it (`1500.00`, `250000`). */
const amountText = (amountMinor: bigint, currency: string): string => {
  const subunit = subunitOf(currency);
  const text = amountMinor.toString().padStart(subunit + 1, '0');
  return subunit ? `${text.slice(0, -subunit)}.${text.slice(-subunit)}` : text;
};

/** The SBP QR link (NSPK) of a deal; for a manual QR, drawn from its id, so the picture can be drawn again. */
const nspkLink = (code: string, amountMinor: bigint, currency: string, crc: string) =>
  `https://qr.nspk.ru/AS1A${code}?type=02&bank=100000000111&sum=${amountMinor}&cur=${currency}&crc=${crc}`;

export interface RequisitesContext {
  amountMinor: bigint;
  currency: string;
  invoiceId: string;
  /** The service's `{base_url}`: its public API's pictures of QR codes are under it. */
  baseUrl: string;
}

/** The link to the service's picture of an invoice's QR code. */
const pictureOf = (context: RequisitesContext) => `${context.baseUrl}/api/public/invoices/${context.invoiceId}/qr-code`;

/** Requisites of a deal for `variant`, of the kind its option takes, and its `qrCodeLink`. */
export const drawRequisites = (variant: Variant, random: Random, context: RequisitesContext): DrawnRequisites => {
  const bank = bankByCode(variant.method);
  const holder = pick(HOLDERS_BY_CURRENCY[bank?.currency ?? context.currency] ?? HOLDER_NAMES, random);
  const { option, method } = variant;
  const drawn = (requisites: string, qrCodeLink: string | null): DrawnRequisites => ({ requisites: { requisites, holder }, qrCodeLink });
  if (option === 'VIET_QR') {
    return drawn(vietQr(bank?.bin ?? '970436', digits(13, random), amountText(context.amountMinor, context.currency)), pictureOf(context));
  }
  if (option === 'CLICK_UZ_QR') {
    const link = `https://my.click.uz/services/pay?service_id=${digits(5, random)}&merchant_id=${digits(5, random)}&amount=${amountText(context.amountMinor, context.currency)}&transaction_param=${digits(10, random)}`;
    return drawn(link, pictureOf(context));
  }
  if (QR_OPTIONS.includes(option))
    return drawn(nspkLink(digits(28, random), context.amountMinor, context.currency, digits(4, random)), pictureOf(context));
  // A manual QR: the trader's picture of it, as the requisites and as the link.
  if (PICTURE_OPTIONS.includes(option)) return drawn(pictureOf(context), pictureOf(context));
  if (option === 'TG_BOT') {
    const link = `https://t.me/${pick(['P2PCheckoutBot', 'FastTransferPayBot', 'CardToCardBot'], random)}?start=${digits(12, random)}`;
    return drawn(link, link);
  }
  if (URL_OPTIONS.includes(option)) {
    const url = `https://pay.${method}.example/p/${digits(12, random)}`;
    return drawn(url, url);
  }
  if (UPI_OPTIONS.includes(option)) {
    return drawn(`${pick(UPI_NAMES, random)}${digits(2, random)}@${pick(UPI_HANDLES, random)}`, pictureOf(context));
  }
  if (option === 'IMPS') {
    const account = `${pick(['50100', '00011', '39281'], random)}${digits(9, random)}`;
    return drawn(`${account} IFSC ${IFSC_PREFIX[method] ?? 'HDFC0'}${digits(6, random)}`, null);
  }
  if (option === 'CVU') return drawn(`0000003100${digits(12, random)}`, null);
  if (PHONE_OPTIONS.includes(option)) {
    const number = phone(random, bank?.currency ?? context.currency);
    return drawn(number, payLink(method, number.replace(/\D/g, '')));
  }
  if (option === 'TO_ACCOUNT' || option === 'TO_BANK_DETAILS') {
    const account = (bank?.currency ?? context.currency) === 'KRW' ? koreanAccount(method, random) : `40817810${digits(12, random)}`;
    return drawn(account, payLink(method, account.replace(/\D/g, '')));
  }
  const card = cardNumber(bank?.bin ?? '220000', random);
  return drawn(card, payLink(method, card.replace(/\D/g, '')));
};

/**
 * What the service's picture of an invoice's QR code shows (`GET /api/public/invoices/{id}/qr-code`):
 * a QR option's data; a UPI payment of the UPI ID; for a manual QR, an SBP link of the deal
 * (drawn from its id); else the deal's link; `undefined` without a deal.
 */
export const qrTextOf = (
  deal: { id: string; paymentOption: string; requisites: { requisites: string }; qrCodeLink: string | null } | undefined,
  invoice: { amountMinor: bigint; currency: string },
): string | undefined => {
  if (!deal) return undefined;
  if (QR_OPTIONS.includes(deal.paymentOption)) return deal.requisites.requisites;
  // What any UPI app scans: the UPI ID and the amount.
  if (UPI_OPTIONS.includes(deal.paymentOption))
    return `upi://pay?pa=${deal.requisites.requisites}&am=${amountText(invoice.amountMinor, invoice.currency)}&cu=${invoice.currency}`;
  if (PICTURE_OPTIONS.includes(deal.paymentOption)) {
    const code = deal.id.replace(/\W/g, '').toUpperCase().padEnd(28, '0').slice(0, 28);
    return nspkLink(code, invoice.amountMinor, invoice.currency, crc16(code));
  }
  return deal.qrCodeLink ?? undefined;
};
