import type { Translation } from './translation.js';
import { own, timeLeftUnits } from './translation.js';

const plural = new Intl.PluralRules('en');

const TITLES = {
  idle: 'Payment',
  loading: 'Loading the payment…',
  waiting: 'Transfer the money',
  picker: 'Choose how to pay',
  payout: 'Payout in progress',
  paid: 'Payment received',
  canceled: 'Payment canceled',
  expired: 'Time to pay is up',
  other: 'Payment status',
  error: 'Could not load the payment',
} as const;
const STATUSES: Record<string, string> = {
  waiting: 'waiting for your transfer',
  picker: 'choose how to pay',
  payout: 'being paid out to you',
  paid: 'paid',
  canceled: 'canceled',
  expired: 'expired',
};
const EXPLANATIONS: Record<string, string> = {
  payout: 'The shop is sending this money to you: there is nothing to pay. This page updates by itself.',
  paid: 'Thank you! The shop has received your payment.',
  canceled: 'This payment was canceled. Do not send money for it.',
  expired: 'If you have already sent the money, contact the shop: it will be credited.',
};
const REQUISITES = { card: 'Card number', phone: 'Phone number', account: 'Account' } as const;
const OPTIONS: Record<string, string> = { TO_CARD: 'Card transfer', SBP: 'SBP (Faster Payments)' };
const ERRORS: Record<string, string> = {
  network_error: 'No connection to the payment service. Check your internet connection.',
  not_found: 'This payment was not found.',
  bad_request: 'This payment link is not valid.',
  invalid_response: 'The payment service sent an answer that could not be read.',
  upstream_timeout: 'The payment service did not answer in time.',
  upstream_invalid: 'The payment service answered something unexpected.',
  service_unavailable: 'Payments are switched off for this shop right now. Please contact the shop.',
  cancel_refused: 'The payment could not be canceled: its state has changed.',
};

export const en: Translation = {
  language: 'en',
  loading: TITLES.loading,
  title: (screen) => TITLES[screen],
  payee: (storeName) => `Payment to ${storeName}`,
  statusLabel: 'Status',
  status: (screen, rawStatus) => own(STATUSES, screen) ?? rawStatus,
  explanation: (screen, rawStatus) =>
    own(EXPLANATIONS, screen) ?? `The payment is “${rawStatus}”. This page updates by itself.`,
  amountLabel: 'Amount to send',
  bankLabel: 'Bank',
  requisitesLabel: (kind) => REQUISITES[kind],
  holderLabel: 'Recipient',
  guidance: (amount) =>
    `Send exactly ${amount} in one payment. A different amount or several payments delay the crediting.`,
  copy: 'Copy',
  copyLabel: (field, kind) => (field === 'amount' ? 'Copy amount' : `Copy ${REQUISITES[kind].toLowerCase()}`),
  copied: 'Copied',
  copiedAnnouncement: (field, kind) => `${field === 'amount' ? 'Amount' : REQUISITES[kind]} copied`,
  copyManually: 'Copying is blocked here: the text is selected, copy it with your device’s menu.',
  qrLabel: 'QR code for paying from your bank app',
  qrHint: 'Scan it with your bank app or camera',
  openInBankApp: 'Open in bank app',
  timeLeftLabel: 'Time left',
  timeLeftAnnouncement: (remainingMs) => {
    const { unit, count } = timeLeftUnits(remainingMs);
    return `${count} ${unit}${plural.select(count) === 'one' ? '' : 's'} left to pay`;
  },
  variantsLabel: 'Ways to pay',
  option: (option) => own(OPTIONS, option) ?? option,
  currentVariant: 'current',
  startingDeal: 'Preparing the payment details…',
  dealUnsupported: 'This shop does not let you choose the way to pay here. Please contact the shop.',
  dealFailed: 'Could not start the payment. Please try again.',
  dealNoRequisites: 'This bank has no free requisites right now. Please choose another bank or try again in a few minutes.',
  dealNotAllowed: 'This way to pay is not available for this payment. Please choose another.',
  variantsFailed: 'Could not load the ways to pay.',
  cancel: 'Cancel payment',
  cancelQuestion: 'Cancel this payment?',
  confirmCancel: 'Yes, cancel',
  keepPaying: 'No, go back',
  canceling: 'Canceling…',
  cancelFailed: 'Could not cancel the payment. Please try again.',
  changed: 'The payment details changed. Check them before you pay.',
  changeSeen: 'Got it',
  errorMessage: (code) => own(ERRORS, code) ?? 'The payment service is not available right now.',
  retry: 'Try again',
  connectionTrouble: 'Connection lost. Retrying…',
};
