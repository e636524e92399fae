/**
 * The QA deep links: `/?scenario=<name>` creates what the state needs and shows it at once.
 * Shared by the demo server (which sets them up) and the pages (which list them).
 */
import type { KnownPaymentOption, Language } from 'merchant-checkout';

export const SCENARIOS = [
  'waiting',
  'checking',
  'sbp-qr',
  'no-deal',
  'no-requisites',
  'transfer-confirmed',
  'unique-amount',
  'dispute',
  'payout',
  'canceled',
  'expired',
  'paid',
  'corrected',
  'other',
  'error',
  'slow',
] as const;
export type Scenario = (typeof SCENARIOS)[number];

export const isScenario = (value: unknown): value is Scenario =>
  typeof value === 'string' && (SCENARIOS as readonly string[]).includes(value);

/** The `data-screen` of the element's `base` part that each scenario shows first. */
export const SCENARIO_SCREEN: Record<Scenario, string> = {
  waiting: 'waiting',
  // The page presses "I have paid" for the payer (nothing is sent by it).
  checking: 'checking',
  // On a phone (touch) it offers "Choose your bank": the SBP bank picker.
  'sbp-qr': 'waiting',
  'no-deal': 'picker',
  // The picker stays: picking a bank shows the no_requisites notice.
  'no-requisites': 'picker',
  // The deal is transfer_confirmed (a receipt arrived): the payment is being checked.
  'transfer-confirmed': 'checking',
  // Unique amounts (`maxAmount`): the service asks for more than the order; the element shows that amount, and says so.
  'unique-amount': 'waiting',
  // Paid, then paid again with a corrected amount: the paid screen shows what was settled.
  corrected: 'paid',
  dispute: 'dispute',
  payout: 'payout',
  canceled: 'canceled',
  expired: 'expired',
  paid: 'paid',
  other: 'other',
  error: 'error',
  slow: 'loading',
};

/** How long every answer of the service is delayed in the `slow` scenario. */
export const SLOW_LATENCY_MS = 2500;

/**
 * How many requests to the service about the invoice fail in the `error` scenario: the element's
 * first invoice and variants reads (scoped to the invoice, so the reconciler's reads by internal id
 * and other pages do not use them up).
 */
export const ERROR_FAILURES = 2;

/**
 * The status the `other` scenario shows: one the documentation does not list and the element
 * does not know (`dispute` is documented now, and has a scenario of its own).
 */
export const UNKNOWN_STATUS = 'partially_paid';

/** The deal status after the payer confirmed the transfer with a receipt (documented). */
export const TRANSFER_CONFIRMED = 'transfer_confirmed';

/** A deal of one payment option: its bank, currency and amount, and a language of its payers. */
export interface OptionScenario {
  option: KnownPaymentOption;
  method: string;
  currency: string;
  amount: string;
  /** The checkout's language: one of the element's, a language of the currency's payers. */
  lang: Language;
  /** The currency of the payer's card abroad (a cross-border deal). */
  crossBorderCurrency?: string;
}

/**
 * One deep link per documented payment option (`/?scenario=option-upi`): a waiting deal of
 * that option, whose requisites the mock issues in that option's shape (src/mock/README.md),
 * in a currency and a language of its payers. Together they use every currency of the mock
 * and every language of the element.
 */
export const OPTION_SCENARIOS = {
  'option-sbp': { option: 'SBP', method: 'sberbank', currency: 'RUB', amount: '1500.00', lang: 'ru' },
  'option-to-card': { option: 'TO_CARD', method: 'halykbank', currency: 'KZT', amount: '15000.00', lang: 'kk' },
  'option-to-account': { option: 'TO_ACCOUNT', method: 'shinhan', currency: 'KRW', amount: '35000', lang: 'ko' },
  'option-cross-border': {
    option: 'CROSS_BORDER',
    method: 'dcbank',
    currency: 'RUB',
    amount: '3000.00',
    lang: 'tg',
    crossBorderCurrency: 'TJS',
  },
  'option-mobile-top-up': { option: 'MOBILE_TOP_UP', method: 'mts_mobile', currency: 'RUB', amount: '1000.00', lang: 'ru' },
  'option-sbp-qr': { option: 'SBP_QR', method: 'sberbank', currency: 'RUB', amount: '2750.00', lang: 'ru' },
  'option-click-uz-qr': { option: 'CLICK_UZ_QR', method: 'click', currency: 'UZS', amount: '150000.00', lang: 'uz' },
  'option-tips': { option: 'TIPS', method: 'tinkoff', currency: 'RUB', amount: '1000.00', lang: 'ru' },
  'option-to-bank-details': { option: 'TO_BANK_DETAILS', method: 'sberbank', currency: 'RUB', amount: '4500.00', lang: 'ru' },
  'option-to-phone-number': { option: 'TO_PHONE_NUMBER', method: 'bkash', currency: 'BDT', amount: '1500.00', lang: 'bn' },
  'option-tg-bot': { option: 'TG_BOT', method: 'sberbank', currency: 'RUB', amount: '2000.00', lang: 'ky' },
  'option-p2c': { option: 'P2C', method: 'alfabank', currency: 'RUB', amount: '1800.00', lang: 'ru' },
  'option-upi': { option: 'UPI', method: 'hdfcbank', currency: 'INR', amount: '1499.00', lang: 'en' },
  'option-quasi-upi': { option: 'QUASI_UPI', method: 'paytm', currency: 'INR', amount: '999.00', lang: 'en' },
  'option-imps': { option: 'IMPS', method: 'icicibank', currency: 'INR', amount: '2499.00', lang: 'bn' },
  'option-cvu': { option: 'CVU', method: 'mercadopago', currency: 'ARS', amount: '25000.00', lang: 'es' },
  'option-card-acquiring': { option: 'CARD_ACQUIRING', method: 'kapitalbank', currency: 'AZN', amount: '50.00', lang: 'az' },
  'option-manual-ecom': { option: 'MANUAL_ECOM', method: 'vtb', currency: 'RUB', amount: '3200.00', lang: 'ru' },
  'option-viet-qr': { option: 'VIET_QR', method: 'vietcombank', currency: 'VND', amount: '250000', lang: 'en' },
  'option-manual-sbp-qr': { option: 'MANUAL_SBP_QR', method: 'sberbank', currency: 'RUB', amount: '2100.00', lang: 'ru' },
} as const satisfies Record<string, OptionScenario>;
export type OptionScenarioName = keyof typeof OPTION_SCENARIOS;

export const isOptionScenario = (value: unknown): value is OptionScenarioName =>
  typeof value === 'string' && Object.hasOwn(OPTION_SCENARIOS, value);

/** Any deep link of the QA page: a state, or a payment option. */
export type DemoScenario = Scenario | OptionScenarioName;
