/**
 * The QA deep links: `/?scenario=<name>` creates what the state needs and shows it at once.
 * Shared by the demo server (which sets them up) and the pages (which list them).
 */
export const SCENARIOS = [
  'waiting',
  'checking',
  'sbp-qr',
  'no-deal',
  'no-requisites',
  'transfer-confirmed',
  'dispute',
  'payout',
  'canceled',
  'expired',
  'paid',
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

/** How many requests to the service fail in the `error` scenario: the element's first invoice and variants reads. */
export const ERROR_FAILURES = 2;

/**
 * The status the `other` scenario shows: one the documentation does not list and the element
 * does not know (`dispute` is documented now, and has a scenario of its own).
 */
export const UNKNOWN_STATUS = 'partially_paid';

/** The deal status after the payer confirmed the transfer with a receipt (documented). */
export const TRANSFER_CONFIRMED = 'transfer_confirmed';
