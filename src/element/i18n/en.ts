import type { CopyNames, KnownPaymentOption, Translation } from './translation.js';
import { copyName, own, plural, timeLeftUnits } from './translation.js';
import type { RequisitesKind } from '../format.js';
import { BOOT_STRINGS } from './boot.js';

const rules = new Intl.PluralRules('en');
const UNITS = { minute: { one: 'minute', other: 'minutes' }, second: { one: 'second', other: 'seconds' } } as const;

const { loading, loadFailed, loadFailedReason } = BOOT_STRINGS.en;

const TITLES = {
  idle: 'Payment',
  loading,
  waiting: 'Transfer the money',
  checking: 'Checking your payment',
  picker: 'Choose how to pay',
  payout: 'Payout in progress',
  paid: 'Payment received',
  canceled: 'Payment canceled',
  expired: 'Time to pay is up',
  dispute: 'Your payment is being reviewed',
  other: 'Payment status',
  error: loadFailed,
} as const;
const STATUSES: Record<string, string> = {
  waiting: 'waiting for your transfer',
  checking: 'being checked',
  dispute: 'under review',
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
  expired:
    'Do not send money for this payment any more. If you have already sent it, report the payment or contact the shop with the payment number below.',
  dispute: 'The service is checking your transfer with the bank. This page updates by itself; the shop will tell you the outcome too.',
};
const REQUISITES: Record<RequisitesKind, string> = {
  card: 'Card number',
  phone: 'Phone number',
  account: 'Account',
  url: 'Payment page',
  qr: 'QR code',
  other: 'Payment details',
  upi: 'UPI ID',
  imps: 'Account number',
  cvu: 'CVU',
  topup: 'Phone number to top up',
  telegram: 'Telegram bot',
  'qr-image': 'QR code',
};
/** What a copy button names, where it is not the label: a bot is copied as its link. */
const COPIED: CopyNames = { amount: 'Amount', ifsc: 'IFSC', telegram: 'Bot link' };
const OPTIONS: Record<KnownPaymentOption, string> = {
  TO_CARD: 'Card transfer',
  SBP: 'SBP (Faster Payments)',
  SBP_QR: 'SBP QR code',
  MANUAL_SBP_QR: 'SBP QR code',
  TO_ACCOUNT: 'Bank account transfer',
  TO_BANK_DETAILS: 'Bank details transfer',
  TO_PHONE_NUMBER: 'Transfer by phone number',
  CROSS_BORDER: 'Transfer from abroad',
  MOBILE_TOP_UP: 'Mobile top-up',
  CLICK_UZ_QR: 'Click QR code',
  TIPS: 'Tips service',
  TG_BOT: 'Telegram bot',
  P2C: 'P2C transfer',
  UPI: 'UPI',
  QUASI_UPI: 'Quasi UPI',
  IMPS: 'IMPS bank transfer',
  CVU: 'CVU transfer',
  CARD_ACQUIRING: 'Card payment',
  MANUAL_ECOM: 'Online payment',
  VIET_QR: 'VietQR',
};
const ERRORS: Record<string, string> = {
  network_error: loadFailedReason,
  not_found: 'This payment was not found.',
  bad_request: 'This payment link is not valid.',
  invalid_response: 'The payment service sent an answer that could not be read.',
  upstream_timeout: 'The payment service did not answer in time.',
  upstream_invalid: 'The payment service answered something unexpected.',
  service_unavailable: 'Payments are switched off for this shop right now. Please contact the shop.',
  payload_too_large: 'The file is too large for this shop. Send a smaller photo or a PDF.',
  unsupported_media_type: 'This file type is not accepted: send a photo (JPEG, PNG, WebP, HEIC) or a PDF.',
  receipts_off: 'This shop does not take receipts here. Please contact the shop.',
  dispute_exists: 'This payment has been reported already. The shop will contact you.',
  dispute_refused: 'The report could not be taken here. Please contact the shop with the payment number.',
  dispute_not_allowed: 'This payment can no longer be reported here. Please contact the shop with the payment number.',
  no_deal: 'There is no transfer to confirm for this payment.',
  cancel_refused: 'The payment could not be canceled: its state has changed.',
};

/** The screens' strings in English. */
export const en: Translation = {
  language: 'en',
  loading,
  title: (screen) => TITLES[screen],
  payee: (storeName) => `Payment to ${storeName}`,
  statusLabel: 'Status',
  status: (screen, rawStatus) => own(STATUSES, screen) ?? rawStatus,
  explanation: (screen, rawStatus) => own(EXPLANATIONS, screen) ?? `The payment is “${rawStatus}”. This page updates by itself.`,
  amountLabel: 'Amount to send',
  amountPaidLabel: 'Amount paid',
  amountSumLabel: 'Amount',
  amountDueNote: (asked) => `Send exactly this amount: the payment service recognises your transfer by it. The order is for ${asked}.`,
  amountSettledNote: (asked) => `This is the amount the payment service settled; the order was for ${asked}.`,
  bankLabel: 'Bank',
  requisitesLabel: (kind) => REQUISITES[kind],
  ifscLabel: 'IFSC',
  holderLabel: 'Recipient',
  guidance: (amount) => `Send exactly ${amount} in one payment. A different amount or several payments delay the crediting.`,
  copy: 'Copy',
  copyLabel: (field, kind) => `Copy ${copyName(COPIED, REQUISITES, field, kind)}`,
  copied: 'Copied',
  copiedAnnouncement: (field, kind) => `${copyName(COPIED, REQUISITES, field, kind, false)} copied`,
  copyManually: 'Copying is blocked here: the text is selected, copy it with your device’s menu.',
  qrLabel: 'QR code for paying from your bank app',
  qrHint: 'Scan it with your bank app or camera',
  openInBankApp: 'Open in bank app',
  timeLeftLabel: 'Time left',
  timeLeftAnnouncement: (remainingMs) => {
    const { unit, count } = timeLeftUnits(remainingMs);
    return `${count} ${plural(rules, count, UNITS[unit])} left to pay`;
  },
  variantsLabel: 'Ways to pay',
  changeBank: 'Change bank',
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
  confirmPaid: 'I have paid',
  checkingExplanation: (minutes) =>
    `The seller checks that the money arrived${minutes ? `: this can take up to ${minutes} ${plural(rules, minutes, UNITS.minute)}` : ''}. Do not pay again. This page updates by itself.`,
  receiptReceived: 'Receipt received, the payment is being checked.',
  attachReceipt: (policy) => (policy === 'required' ? 'Attach the receipt (required)' : 'Attach the receipt'),
  showDetails: 'Show the payment details again',
  reportPayment: (prompt) => (prompt === 'confirmed' ? 'Report a payment' : 'I have already paid'),
  reportIntro: (prompt) =>
    prompt === 'confirmed'
      ? 'Your transfer was not confirmed in time. If you sent the money, report it: it will be checked with your receipt.'
      : 'Sent the money before the time was up? Report it with your receipt.',
  reportReported: 'Thank you. The shop has your report and will contact you.',
  referenceLabel: 'Payment number',
  returnToShop: 'Return to the shop',
  autoReturn: (seconds) => `Returning to the shop in ${seconds} s`,
  stayHere: 'Stay on this page',
  openPaymentPage: 'Open payment page',
  openTelegram: 'Open in Telegram',
  chooseBank: 'Choose your bank',
  crossBorder: (currency, country) =>
    [currency && `The bank sends ${currency}`, country && `card of ${country}`].filter(Boolean).join(', ') || 'Cross-border transfer',
  errorMessage: (code) => own(ERRORS, code) ?? 'The payment service is not available right now.',
  retry: 'Try again',
  connectionTrouble: 'Connection lost. Retrying…',
  offline: 'No internet connection. The status is checked again as soon as you are back online.',
};
