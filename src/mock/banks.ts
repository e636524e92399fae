/**
 * Bank codes, their names and the payment options, as the service's lists answer them
 * (`GET /payment-methods`, `GET /payment-options`). The codes and names are the service's own
 * where its documentation shows them (Russian banks); the banks of the other currencies
 * (INR, BDT, ARS, VND, KRW, AZN) are real banks under codes of our choosing; the BIN ranges
 * only make requisites look real. Imports nothing.
 */

export interface MockBank {
  /** Bank code (`paymentMethod`). */
  code: string;
  /** The name the service gives it. */
  name: string;
  currency: string;
  /** The options its requisites come in. */
  options: readonly string[];
  /** First six digits of its card numbers. */
  bin: string;
}

const rub = (code: string, name: string, bin: string, options: readonly string[] = ['TO_CARD', 'SBP']): MockBank => ({
  code,
  name,
  currency: 'RUB',
  options,
  bin,
});

/** The banks the mock knows: code, Russian name, currency, card prefix and payment options. */
export const BANKS: readonly MockBank[] = [
  rub('sberbank', 'Сбербанк', '220220', ['TO_CARD', 'SBP', 'SBP_QR']),
  rub('tinkoff', 'Т-Банк', '220070', ['TO_CARD', 'SBP', 'TO_ACCOUNT']),
  rub('alfabank', 'Альфа-Банк', '220015'),
  rub('vtb', 'ВТБ', '220024'),
  rub('raiffeisenbank', 'Райффайзенбанк', '220030', ['SBP', 'TO_ACCOUNT']),
  rub('gazprombank', 'Газпромбанк', '220056'),
  rub('ozonbank', 'Озон Банк', '220038', ['SBP', 'SBP_QR']),
  rub('rosselhozbank', 'Россельхозбанк', '220003'),
  rub('rsb', 'Русский Стандарт', '220004', ['TO_CARD']),
  rub('promsvyaz', 'Промсвязьбанк', '220002'),
  rub('bank_open', 'Банк Открытие', '220029', ['TO_CARD']),
  rub('ubrib', 'Банк УБРиР', '220050', ['TO_CARD']),
  rub('mkb', 'Московский кредитный банк', '220019'),
  rub('sovcombank', 'Совкомбанк', '220100'),
  rub('pochtabank', 'Почта Банк', '220073'),
  rub('rosbank', 'Росбанк', '220012', ['TO_CARD']),
  rub('yandexbank', 'Яндекс Банк', '220239', ['SBP']),
  rub('mtsbank', 'МТС Банк', '220026'),
  rub('homecredit', 'Хоум Банк', '220021', ['TO_CARD']),
  rub('otpbank', 'ОТП Банк', '220039', ['TO_CARD']),
  rub('akbars', 'Ак Барс Банк', '220028'),
  rub('uralsib', 'Банк Уралсиб', '220037', ['TO_CARD']),
  rub('bspb', 'Банк Санкт-Петербург', '220009', ['TO_CARD']),
  rub('wildberries', 'Вайлдберриз Банк', '220248', ['SBP']),
  rub('dombank', 'Дом.РФ', '220048', ['SBP']),
  rub('renaissance', 'Ренессанс Кредит', '220046', ['TO_CARD']),
  rub('mts_mobile', 'МТС', '220000', ['MOBILE_TOP_UP']),
  { code: 'kaspi', name: 'Kaspi Bank', currency: 'KZT', options: ['TO_CARD', 'TO_PHONE_NUMBER'], bin: '440043' },
  { code: 'halykbank', name: 'Halyk Bank', currency: 'KZT', options: ['TO_CARD'], bin: '440563' },
  { code: 'jusanbank', name: 'Jusan Bank', currency: 'KZT', options: ['TO_CARD'], bin: '539545' },
  { code: 'dcbank', name: 'Душанбе Сити', currency: 'TJS', options: ['CROSS_BORDER', 'TO_CARD'], bin: '567848' },
  { code: 'alif', name: 'Алиф Банк', currency: 'TJS', options: ['CROSS_BORDER', 'TO_PHONE_NUMBER'], bin: '406890' },
  { code: 'eskhata', name: 'Эсхата', currency: 'TJS', options: ['CROSS_BORDER'], bin: '402913' },
  { code: 'humo', name: 'Humo', currency: 'UZS', options: ['TO_CARD', 'CROSS_BORDER'], bin: '986001' },
  { code: 'uzcard', name: 'Uzcard', currency: 'UZS', options: ['TO_CARD', 'CROSS_BORDER'], bin: '860002' },
  { code: 'click', name: 'Click', currency: 'UZS', options: ['CLICK_UZ_QR'], bin: '860049' },
  // Beyond the CIS: the options of the documentation's other markets, with banks of each.
  { code: 'hdfcbank', name: 'HDFC Bank', currency: 'INR', options: ['UPI', 'IMPS'], bin: '485498' },
  { code: 'icicibank', name: 'ICICI Bank', currency: 'INR', options: ['UPI', 'QUASI_UPI', 'IMPS'], bin: '447746' },
  { code: 'sbi', name: 'State Bank of India', currency: 'INR', options: ['UPI', 'IMPS'], bin: '607153' },
  { code: 'paytm', name: 'Paytm Payments Bank', currency: 'INR', options: ['QUASI_UPI'], bin: '652150' },
  { code: 'bkash', name: 'bKash', currency: 'BDT', options: ['TO_PHONE_NUMBER'], bin: '000000' },
  { code: 'nagad', name: 'Nagad', currency: 'BDT', options: ['TO_PHONE_NUMBER'], bin: '000000' },
  { code: 'mercadopago', name: 'Mercado Pago', currency: 'ARS', options: ['CVU'], bin: '000000' },
  { code: 'uala', name: 'Ualá', currency: 'ARS', options: ['CVU'], bin: '000000' },
  { code: 'brubank', name: 'Brubank', currency: 'ARS', options: ['CVU'], bin: '000000' },
  { code: 'vietcombank', name: 'Vietcombank', currency: 'VND', options: ['VIET_QR'], bin: '970436' },
  { code: 'techcombank', name: 'Techcombank', currency: 'VND', options: ['VIET_QR'], bin: '970407' },
  { code: 'mbbank', name: 'MB Bank', currency: 'VND', options: ['VIET_QR'], bin: '970422' },
  { code: 'kbstar', name: 'KB Kookmin Bank', currency: 'KRW', options: ['TO_ACCOUNT'], bin: '000000' },
  { code: 'shinhan', name: 'Shinhan Bank', currency: 'KRW', options: ['TO_ACCOUNT'], bin: '000000' },
  { code: 'tossbank', name: 'Toss Bank', currency: 'KRW', options: ['TO_ACCOUNT'], bin: '000000' },
  { code: 'kapitalbank', name: 'Kapital Bank', currency: 'AZN', options: ['TO_CARD', 'TO_PHONE_NUMBER'], bin: '416973' },
  { code: 'abb', name: 'ABB', currency: 'AZN', options: ['TO_CARD'], bin: '402719' },
  { code: 'leobank', name: 'Leobank', currency: 'AZN', options: ['TO_CARD'], bin: '517691' },
];

/** The payment options with the names the service lists them under. */
export const PAYMENT_OPTIONS: readonly { code: string; name: string }[] = [
  { code: 'SBP', name: 'СБП' },
  { code: 'TO_CARD', name: 'Перевод на карту' },
  { code: 'TO_ACCOUNT', name: 'Перевод по номеру счета' },
  { code: 'CROSS_BORDER', name: 'Трансграничный' },
  { code: 'SBP_QR', name: 'Оплата по нспк QR коду' },
  { code: 'TO_BANK_DETAILS', name: 'Перевод по реквизитам' },
  { code: 'MOBILE_TOP_UP', name: 'Пополнение моб. телефона' },
  { code: 'TIPS', name: 'Оплата через сервис чаевых' },
  { code: 'CLICK_UZ_QR', name: 'Оплата по Click UZ QR' },
  { code: 'TO_PHONE_NUMBER', name: 'Перевод по номеру телефона' },
  { code: 'TG_BOT', name: 'Оплата через Telegram bot' },
  { code: 'P2C', name: 'P2C' },
  { code: 'UPI', name: 'UPI' },
  { code: 'QUASI_UPI', name: 'Quasi UPI' },
  { code: 'IMPS', name: 'IMPS' },
  { code: 'CVU', name: 'CVU' },
  { code: 'CARD_ACQUIRING', name: 'Эквайринг' },
  { code: 'MANUAL_ECOM', name: 'Ручной ecom' },
  { code: 'VIET_QR', name: 'VIET QR' },
  { code: 'MANUAL_SBP_QR', name: 'Ручной QR' },
];

/** Options whose requisites are QR data and whose `qrCodeLink` is a link to a QR image. */
export const QR_OPTIONS: readonly string[] = ['SBP_QR', 'CLICK_UZ_QR', 'VIET_QR'];

/** Options whose requisites are the link to a picture of the QR code (a trader's own, for a manual QR), as is `qrCodeLink`. */
export const PICTURE_OPTIONS: readonly string[] = ['MANUAL_SBP_QR'];

/** Options whose requisites are a phone number. */
export const PHONE_OPTIONS: readonly string[] = ['SBP', 'TO_PHONE_NUMBER', 'MOBILE_TOP_UP'];

/** Options whose requisites are a payment page URL. */
export const URL_OPTIONS: readonly string[] = ['TIPS', 'P2C', 'CARD_ACQUIRING', 'MANUAL_ECOM'];

/** Options whose requisites are a UPI ID (`name@provider`). */
export const UPI_OPTIONS: readonly string[] = ['UPI', 'QUASI_UPI'];

export const bankByCode = (code: string): MockBank | undefined => BANKS.find((bank) => bank.code === code);

/**
 * The documented placeholder bank code: a pay-out `TO_CARD` with it asks the service to find the
 * bank from the card number. The service's lists name it first.
 */
export const UNKNOWN_BANK = { code: 'unknown', name: 'unknown' } as const;

/** The card-issuing bank whose card numbers start like `card` (digits only are looked at); undefined when none does. */
export const bankOfCard = (card: string): MockBank | undefined => {
  const digits = card.replace(/\D/g, '');
  return BANKS.find((bank) => bank.options.includes('TO_CARD') && digits.startsWith(bank.bin));
};

export const isPaymentOption = (code: string): boolean => PAYMENT_OPTIONS.some((option) => option.code === code);
export const banksOf = (currency?: string): readonly MockBank[] => (currency ? BANKS.filter((bank) => bank.currency === currency) : BANKS);

/**
 * A bank list as the service answers it: the placeholder `unknown` first (documented), then the
 * banks of `currency` (every bank without one); a currency without banks lists nothing.
 */
export const bankListOf = (currency?: string): { code: string; name: string; currency: string }[] => {
  const banks = banksOf(currency).map(({ code, name, currency: own }) => ({ code, name, currency: own }));
  return banks.length ? [{ ...UNKNOWN_BANK, currency: currency ?? 'RUB' }, ...banks] : [];
};
