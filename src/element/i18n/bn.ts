import type { CopyNames, KnownPaymentOption, Translation } from './translation.js';
import { copyName, own, timeLeftUnits } from './translation.js';
import type { RequisitesKind } from '../format.js';
import { BOOT_STRINGS } from './boot.js';

// Bengali: machine-translated, not yet reviewed by a native speaker (docs/element.md, "Languages").
const { loading, loadFailed, loadFailedReason } = BOOT_STRINGS.bn;
/** Counts in Bengali digits, as `Intl` writes them (৫ মিনিট); a noun after a number has one form. */
const n = (count: number) => count.toLocaleString('bn');

const TITLES = {
  idle: 'পেমেন্ট',
  loading,
  waiting: 'টাকা পাঠান',
  checking: 'আপনার পেমেন্ট যাচাই হচ্ছে',
  picker: 'পেমেন্টের পদ্ধতি বেছে নিন',
  payout: 'পেআউট চলছে',
  paid: 'পেমেন্ট পাওয়া গেছে',
  canceled: 'পেমেন্ট বাতিল হয়েছে',
  expired: 'পেমেন্টের সময় শেষ',
  dispute: 'আপনার পেমেন্ট পর্যালোচনা হচ্ছে',
  other: 'পেমেন্টের অবস্থা',
  error: loadFailed,
} as const;
const STATUSES: Record<string, string> = {
  waiting: 'আপনার ট্রান্সফারের অপেক্ষায়',
  checking: 'যাচাই চলছে',
  dispute: 'পর্যালোচনাধীন',
  picker: 'পদ্ধতি বেছে নিন',
  payout: 'আপনাকে টাকা পাঠানো হচ্ছে',
  paid: 'পরিশোধিত',
  canceled: 'বাতিল',
  expired: 'মেয়াদ শেষ',
};
const UPDATES = 'এই পেজটি নিজে থেকেই আপডেট হয়।';
const EXPLANATIONS: Record<string, string> = {
  payout: `দোকান এই টাকা আপনাকে পাঠাচ্ছে: আপনাকে কিছু দিতে হবে না। ${UPDATES}`,
  paid: 'ধন্যবাদ! দোকান আপনার পেমেন্ট পেয়েছে।',
  canceled: 'এই পেমেন্ট বাতিল হয়েছে। এর জন্য টাকা পাঠাবেন না।',
  expired: 'এই পেমেন্টের জন্য আর টাকা পাঠাবেন না। আগেই পাঠিয়ে থাকলে পেমেন্টটি জানান বা নিচের পেমেন্ট নম্বর দিয়ে দোকানে যোগাযোগ করুন।',
  dispute: `সার্ভিস ব্যাংকের সাথে আপনার ট্রান্সফার যাচাই করছে। ${UPDATES} ফলাফল দোকানও জানাবে।`,
};
const REQUISITES: Record<RequisitesKind, string> = {
  card: 'কার্ড নম্বর',
  phone: 'ফোন নম্বর',
  account: 'অ্যাকাউন্ট',
  url: 'পেমেন্ট পেজ',
  qr: 'QR কোড',
  other: 'পেমেন্টের বিবরণ',
  upi: 'UPI আইডি',
  imps: 'অ্যাকাউন্ট নম্বর',
  cvu: 'CVU',
  topup: 'রিচার্জের ফোন নম্বর',
  telegram: 'টেলিগ্রাম বট',
  'qr-image': 'QR কোড',
};
const COPIED: CopyNames = { amount: 'পরিমাণ', ifsc: 'IFSC', telegram: 'বটের লিংক' };
const OPTIONS: Record<KnownPaymentOption, string> = {
  TO_CARD: 'কার্ডে ট্রান্সফার',
  SBP: 'SBP (দ্রুত পেমেন্ট)',
  SBP_QR: 'SBP QR কোড',
  MANUAL_SBP_QR: 'SBP QR কোড',
  TO_ACCOUNT: 'ব্যাংক অ্যাকাউন্টে ট্রান্সফার',
  TO_BANK_DETAILS: 'ব্যাংকের বিবরণে ট্রান্সফার',
  TO_PHONE_NUMBER: 'ফোন নম্বরে ট্রান্সফার',
  CROSS_BORDER: 'বিদেশ থেকে ট্রান্সফার',
  MOBILE_TOP_UP: 'মোবাইল রিচার্জ',
  CLICK_UZ_QR: 'Click QR কোড',
  TIPS: 'টিপস সার্ভিস',
  TG_BOT: 'টেলিগ্রাম বট',
  P2C: 'P2C ট্রান্সফার',
  UPI: 'UPI',
  QUASI_UPI: 'Quasi UPI',
  IMPS: 'IMPS ব্যাংক ট্রান্সফার',
  CVU: 'CVU ট্রান্সফার',
  CARD_ACQUIRING: 'কার্ডে পেমেন্ট',
  MANUAL_ECOM: 'অনলাইন পেমেন্ট',
  VIET_QR: 'VietQR',
};
const CONTACT = 'পেমেন্ট নম্বর দিয়ে দোকানে যোগাযোগ করুন।';
const ERRORS: Record<string, string> = {
  network_error: loadFailedReason,
  not_found: 'এই পেমেন্ট পাওয়া যায়নি।',
  bad_request: 'এই পেমেন্ট লিংকটি সঠিক নয়।',
  invalid_response: 'পেমেন্ট সার্ভিসের উত্তর পড়া যায়নি।',
  upstream_timeout: 'পেমেন্ট সার্ভিস সময়মতো উত্তর দেয়নি।',
  upstream_invalid: 'পেমেন্ট সার্ভিস অপ্রত্যাশিত উত্তর দিয়েছে।',
  service_unavailable: 'এই দোকানে এখন পেমেন্ট বন্ধ আছে। দোকানে যোগাযোগ করুন।',
  payload_too_large: 'ফাইলটি এই দোকানের জন্য খুব বড়। ছোট ছবি বা PDF পাঠান।',
  unsupported_media_type: 'এই ধরনের ফাইল নেওয়া হয় না: ছবি (JPEG, PNG, WebP, HEIC) বা PDF পাঠান।',
  receipts_off: 'এই দোকান এখানে রসিদ নেয় না। দোকানে যোগাযোগ করুন।',
  dispute_exists: 'এই পেমেন্টের কথা আগেই জানানো হয়েছে। দোকান আপনার সাথে যোগাযোগ করবে।',
  dispute_refused: `বার্তাটি এখানে নেওয়া যায়নি। ${CONTACT}`,
  dispute_not_allowed: `এই পেমেন্টের কথা এখানে আর জানানো যাবে না। ${CONTACT}`,
  no_deal: 'এই পেমেন্টে নিশ্চিত করার মতো কোনো ট্রান্সফার নেই।',
  cancel_refused: 'পেমেন্ট বাতিল করা যায়নি: এর অবস্থা বদলে গেছে।',
};

/** The screens' strings in Bengali. */
export const bn: Translation = {
  language: 'bn',
  loading,
  title: (screen) => TITLES[screen],
  payee: (storeName) => `${storeName}-কে পেমেন্ট`,
  statusLabel: 'অবস্থা',
  status: (screen, rawStatus) => own(STATUSES, screen) ?? rawStatus,
  explanation: (screen, rawStatus) => own(EXPLANATIONS, screen) ?? `পেমেন্টের অবস্থা: “${rawStatus}”। ${UPDATES}`,
  amountLabel: 'পাঠানোর পরিমাণ',
  amountPaidLabel: 'পরিশোধিত পরিমাণ',
  amountSumLabel: 'পরিমাণ',
  amountDueNote: (asked) => `এই সঠিক পরিমাণ পাঠান: পেমেন্ট সার্ভিস এটি দিয়েই আপনার ট্রান্সফার চেনে। অর্ডারের পরিমাণ ${asked}।`,
  amountSettledNote: (asked) => `পেমেন্ট সার্ভিস এই পরিমাণ জমা করেছে; অর্ডারের পরিমাণ ছিল ${asked}।`,
  bankLabel: 'ব্যাংক',
  requisitesLabel: (kind) => REQUISITES[kind],
  ifscLabel: 'IFSC',
  holderLabel: 'প্রাপক',
  guidance: (amount) => `একটি পেমেন্টে ঠিক ${amount} পাঠান। ভিন্ন পরিমাণ বা একাধিক পেমেন্টে টাকা জমা হতে দেরি হয়।`,
  copy: 'কপি করুন',
  copyLabel: (field, kind) => `${copyName(COPIED, REQUISITES, field, kind)} কপি করুন`,
  copied: 'কপি হয়েছে',
  copiedAnnouncement: (field, kind) => `${copyName(COPIED, REQUISITES, field, kind)} কপি হয়েছে`,
  copyManually: 'এখানে কপি করা যাচ্ছে না: লেখাটি নির্বাচিত আছে, ডিভাইসের মেনু দিয়ে কপি করুন।',
  qrLabel: 'ব্যাংক অ্যাপ থেকে পেমেন্টের QR কোড',
  qrHint: 'ব্যাংক অ্যাপ বা ক্যামেরা দিয়ে স্ক্যান করুন',
  openInBankApp: 'ব্যাংক অ্যাপে খুলুন',
  timeLeftLabel: 'বাকি সময়',
  timeLeftAnnouncement: (remainingMs) => {
    const { unit, count } = timeLeftUnits(remainingMs);
    return `পেমেন্টের জন্য ${n(count)} ${unit === 'minute' ? 'মিনিট' : 'সেকেন্ড'} বাকি`;
  },
  variantsLabel: 'পেমেন্টের পদ্ধতি',
  changeBank: 'ব্যাংক পরিবর্তন করুন',
  option: (option) => own(OPTIONS, option) ?? option,
  currentVariant: 'বর্তমান',
  startingDeal: 'পেমেন্টের বিবরণ তৈরি হচ্ছে…',
  dealUnsupported: 'এই দোকান এখানে পেমেন্টের পদ্ধতি বেছে নিতে দেয় না। দোকানে যোগাযোগ করুন।',
  dealFailed: 'পেমেন্ট শুরু করা যায়নি। আবার চেষ্টা করুন।',
  dealNoRequisites: 'এই ব্যাংকে এখন খালি পেমেন্টের বিবরণ নেই। অন্য ব্যাংক বেছে নিন বা কয়েক মিনিট পরে চেষ্টা করুন।',
  dealNotAllowed: 'এই পেমেন্টে এই পদ্ধতি নেই। অন্যটি বেছে নিন।',
  variantsFailed: 'পেমেন্টের পদ্ধতিগুলো লোড করা যায়নি।',
  cancel: 'পেমেন্ট বাতিল করুন',
  cancelQuestion: 'এই পেমেন্ট বাতিল করবেন?',
  confirmCancel: 'হ্যাঁ, বাতিল করুন',
  keepPaying: 'না, ফিরে যান',
  canceling: 'বাতিল হচ্ছে…',
  cancelFailed: 'পেমেন্ট বাতিল করা যায়নি। আবার চেষ্টা করুন।',
  changed: 'পেমেন্টের বিবরণ বদলে গেছে। পেমেন্টের আগে দেখে নিন।',
  changeSeen: 'বুঝেছি',
  confirmPaid: 'আমি পেমেন্ট করেছি',
  checkingExplanation: (minutes) =>
    `বিক্রেতা দেখছেন টাকা পৌঁছেছে কি না${minutes ? `: এতে ${n(minutes)} মিনিট পর্যন্ত লাগতে পারে` : ''}। আবার পেমেন্ট করবেন না। ${UPDATES}`,
  receiptReceived: 'রসিদ পাওয়া গেছে, পেমেন্ট যাচাই হচ্ছে।',
  attachReceipt: (policy) => (policy === 'required' ? 'রসিদ যুক্ত করুন (আবশ্যক)' : 'রসিদ যুক্ত করুন'),
  showDetails: 'পেমেন্টের বিবরণ আবার দেখুন',
  reportPayment: (prompt) => (prompt === 'confirmed' ? 'পেমেন্টের কথা জানান' : 'আমি আগেই পেমেন্ট করেছি'),
  reportIntro: (prompt) =>
    prompt === 'confirmed'
      ? 'আপনার ট্রান্সফার সময়মতো নিশ্চিত হয়নি। টাকা পাঠিয়ে থাকলে জানান: রসিদ দিয়ে যাচাই করা হবে।'
      : 'সময় শেষের আগে টাকা পাঠিয়েছেন? রসিদসহ জানান।',
  reportReported: 'ধন্যবাদ। দোকান আপনার বার্তা পেয়েছে এবং যোগাযোগ করবে।',
  referenceLabel: 'পেমেন্ট নম্বর',
  returnToShop: 'দোকানে ফিরে যান',
  autoReturn: (seconds) => `${n(seconds)} সেকেন্ডে দোকানে ফেরা হচ্ছে`,
  stayHere: 'এই পেজে থাকুন',
  openPaymentPage: 'পেমেন্ট পেজ খুলুন',
  openTelegram: 'টেলিগ্রামে খুলুন',
  chooseBank: 'আপনার ব্যাংক বেছে নিন',
  crossBorder: (currency, country) =>
    [currency && `ব্যাংক ${currency} পাঠাবে`, country && `${country}-এর কার্ড`].filter(Boolean).join(', ') || 'আন্তর্জাতিক ট্রান্সফার',
  errorMessage: (code) => own(ERRORS, code) ?? 'পেমেন্ট সার্ভিস এখন পাওয়া যাচ্ছে না।',
  retry: 'আবার চেষ্টা করুন',
  connectionTrouble: 'সংযোগ নেই। আবার চেষ্টা হচ্ছে…',
  offline: 'ইন্টারনেট সংযোগ নেই। সংযোগ ফিরলেই স্ট্যাটাস আবার দেখা হবে।',
};
