import type { CopyNames, KnownPaymentOption, Translation } from './translation.js';
import { copyName, own, timeLeftUnits } from './translation.js';
import type { RequisitesKind } from '../format.js';
import { BOOT_STRINGS } from './boot.js';

// Uzbek (Latin script, with ʻ U+02BB in oʻ/gʻ and ʼ U+02BC for the tutuq belgisi): machine-translated,
// not yet reviewed by a native speaker (docs/element.md, "Languages"). A noun after a number keeps its
// singular (5 daqiqa, 21 soniya), whatever CLDR's `one`/`other`.
const { loading, loadFailed, loadFailedReason } = BOOT_STRINGS.uz;

const TITLES = {
  idle: 'Toʻlov',
  loading,
  waiting: 'Pulni oʻtkazing',
  checking: 'Toʻlovingiz tekshirilmoqda',
  picker: 'Toʻlov usulini tanlang',
  payout: 'Sizga toʻlov amalga oshirilmoqda',
  paid: 'Toʻlov qabul qilindi',
  canceled: 'Toʻlov bekor qilindi',
  expired: 'Toʻlov vaqti tugadi',
  dispute: 'Toʻlovingiz koʻrib chiqilmoqda',
  other: 'Toʻlov holati',
  error: loadFailed,
} as const;
const STATUSES: Record<string, string> = {
  waiting: 'oʻtkazmangiz kutilmoqda',
  checking: 'tekshirilmoqda',
  dispute: 'koʻrib chiqilmoqda',
  picker: 'toʻlov usulini tanlang',
  payout: 'sizga toʻlanmoqda',
  paid: 'toʻlandi',
  canceled: 'bekor qilindi',
  expired: 'muddati tugadi',
};
const UPDATES = 'Bu sahifa oʻzi yangilanadi.';
const EXPLANATIONS: Record<string, string> = {
  payout: `Doʻkon bu pulni sizga yubormoqda: hech narsa toʻlash shart emas. ${UPDATES}`,
  paid: 'Rahmat! Doʻkon toʻlovingizni oldi.',
  canceled: 'Bu toʻlov bekor qilindi. Uning uchun pul yubormang.',
  expired:
    'Bu toʻlov uchun endi pul yubormang. Yuborib boʻlgan boʻlsangiz, toʻlov haqida xabar bering yoki quyidagi toʻlov raqami bilan doʻkonga murojaat qiling.',
  dispute: `Xizmat oʻtkazmangizni bank bilan birga tekshirmoqda. ${UPDATES} Natijani doʻkon ham xabar qiladi.`,
};
const REQUISITES: Record<RequisitesKind, string> = {
  card: 'Karta raqami',
  phone: 'Telefon raqami',
  account: 'Hisob raqami',
  url: 'Toʻlov sahifasi',
  qr: 'QR-kod',
  other: 'Rekvizitlar',
  upi: 'UPI ID',
  imps: 'Hisob raqami',
  cvu: 'CVU',
  topup: 'Toʻldiriladigan raqam',
  telegram: 'Telegram-bot',
  'qr-image': 'QR-kod',
};
const COPIED: CopyNames = { amount: 'summa', ifsc: 'IFSC', telegram: 'bot havolasi' };
const OPTIONS: Record<KnownPaymentOption, string> = {
  TO_CARD: 'Kartaga oʻtkazma',
  SBP: 'SBP (telefon raqami orqali)',
  SBP_QR: 'SBP QR-kodi',
  MANUAL_SBP_QR: 'SBP QR-kodi',
  TO_ACCOUNT: 'Hisobga oʻtkazma',
  TO_BANK_DETAILS: 'Rekvizitlar boʻyicha oʻtkazma',
  TO_PHONE_NUMBER: 'Telefon raqami boʻyicha oʻtkazma',
  CROSS_BORDER: 'Chet eldan oʻtkazma',
  MOBILE_TOP_UP: 'Telefon balansini toʻldirish',
  CLICK_UZ_QR: 'Click QR-kodi',
  TIPS: 'Choychaqa xizmati',
  TG_BOT: 'Telegram-bot',
  P2C: 'P2C oʻtkazmasi',
  UPI: 'UPI',
  QUASI_UPI: 'Quasi UPI',
  IMPS: 'IMPS bank oʻtkazmasi',
  CVU: 'CVU ga oʻtkazma',
  CARD_ACQUIRING: 'Karta bilan toʻlash',
  MANUAL_ECOM: 'Onlayn toʻlov',
  VIET_QR: 'VietQR',
};
const CONTACT = 'Toʻlov raqami bilan doʻkonga murojaat qiling.';
const ERRORS: Record<string, string> = {
  network_error: loadFailedReason,
  not_found: 'Toʻlov topilmadi.',
  bad_request: 'Toʻlov havolasi yaroqsiz.',
  invalid_response: 'Toʻlov xizmatining javobini oʻqib boʻlmadi.',
  upstream_timeout: 'Toʻlov xizmati oʻz vaqtida javob bermadi.',
  upstream_invalid: 'Toʻlov xizmati kutilmagan javob berdi.',
  service_unavailable: 'Bu doʻkonda toʻlov qabul qilish hozir oʻchirilgan. Doʻkonga murojaat qiling.',
  payload_too_large: 'Fayl bu do‘kon uchun juda katta. Kichikroq rasm yoki PDF yuboring.',
  unsupported_media_type: 'Bu turdagi fayl qabul qilinmaydi: rasm (JPEG, PNG, WebP, HEIC) yoki PDF yuboring.',
  receipts_off: 'Bu doʻkon bu yerda chek qabul qilmaydi. Doʻkonga murojaat qiling.',
  dispute_exists: 'Bu toʻlov haqida allaqachon xabar berilgan. Doʻkon siz bilan bogʻlanadi.',
  dispute_refused: `Xabarni bu yerda qabul qilib boʻlmadi. ${CONTACT}`,
  dispute_not_allowed: `Bu toʻlov haqida endi bu yerda xabar berib boʻlmaydi. ${CONTACT}`,
  no_deal: 'Bu toʻlovda tasdiqlanadigan oʻtkazma yoʻq.',
  cancel_refused: 'Toʻlovni bekor qilib boʻlmadi: uning holati oʻzgardi.',
};

/** The screens' strings in Uzbek (Latin). */
export const uz: Translation = {
  language: 'uz',
  loading,
  title: (screen) => TITLES[screen],
  payee: (storeName) => `Toʻlov oluvchi: ${storeName}`,
  statusLabel: 'Holati',
  status: (screen, rawStatus) => own(STATUSES, screen) ?? rawStatus,
  explanation: (screen, rawStatus) => own(EXPLANATIONS, screen) ?? `Toʻlov holati: «${rawStatus}». ${UPDATES}`,
  amountLabel: 'Oʻtkazma summasi',
  amountPaidLabel: 'Toʻlandi',
  amountSumLabel: 'Summa',
  amountDueNote: (asked) => `Aynan shu summani o‘tkazing: to‘lov xizmati o‘tkazmangizni shu orqali taniydi. Buyurtma summasi — ${asked}.`,
  amountSettledNote: (asked) => `To‘lov xizmati shu summani hisobga oldi; buyurtma summasi ${asked} edi.`,
  bankLabel: 'Bank',
  requisitesLabel: (kind) => REQUISITES[kind],
  ifscLabel: 'IFSC',
  holderLabel: 'Qabul qiluvchi',
  guidance: (amount) =>
    `Aynan ${amount} summani bitta toʻlov bilan oʻtkazing. Boshqa summa yoki bir nechta toʻlov hisobga olishni kechiktiradi.`,
  copy: 'Nusxalash',
  copyLabel: (field, kind) => `Nusxalash: ${copyName(COPIED, REQUISITES, field, kind)}`,
  copied: 'Nusxalandi',
  copiedAnnouncement: (field, kind) => `Nusxalandi: ${copyName(COPIED, REQUISITES, field, kind)}`,
  copyManually: 'Nusxalab boʻlmadi: matn belgilandi, uni qurilma menyusi orqali nusxalang.',
  qrLabel: 'Bank ilovasida toʻlash uchun QR-kod',
  qrHint: 'Bank ilovasi yoki kamera bilan skanerlang',
  openInBankApp: 'Bank ilovasida ochish',
  timeLeftLabel: 'Qolgan vaqt',
  timeLeftAnnouncement: (remainingMs) => {
    const { unit, count } = timeLeftUnits(remainingMs);
    return `Toʻlash uchun ${count} ${unit === 'minute' ? 'daqiqa' : 'soniya'} qoldi`;
  },
  variantsLabel: 'Toʻlov usullari',
  changeBank: 'Bankni almashtirish',
  option: (option) => own(OPTIONS, option) ?? option,
  currentVariant: 'tanlangan',
  startingDeal: 'Rekvizitlar tayyorlanmoqda…',
  dealUnsupported: 'Bu doʻkon bu yerda toʻlov usulini tanlashga ruxsat bermaydi. Doʻkonga murojaat qiling.',
  dealFailed: 'Toʻlovni boshlab boʻlmadi. Qayta urinib koʻring.',
  dealNoRequisites: 'Bu bankda hozir boʻsh rekvizitlar yoʻq. Boshqa bankni tanlang yoki bir necha daqiqadan keyin qayta urining.',
  dealNotAllowed: 'Bu toʻlov usuli ushbu toʻlov uchun mavjud emas. Boshqasini tanlang.',
  variantsFailed: 'Toʻlov usullarini yuklab boʻlmadi.',
  cancel: 'Toʻlovni bekor qilish',
  cancelQuestion: 'Bu toʻlov bekor qilinsinmi?',
  confirmCancel: 'Ha, bekor qilish',
  keepPaying: 'Yoʻq, qaytish',
  canceling: 'Bekor qilinmoqda…',
  cancelFailed: 'Toʻlovni bekor qilib boʻlmadi. Qayta urinib koʻring.',
  changed: 'Toʻlov maʼlumotlari oʻzgardi. Toʻlashdan oldin tekshiring.',
  changeSeen: 'Tushunarli',
  confirmPaid: 'Men toʻladim',
  checkingExplanation: (minutes) =>
    `Sotuvchi pul kelganini tekshirmoqda${minutes ? `: bu ${minutes} daqiqagacha choʻzilishi mumkin` : ''}. Qayta toʻlamang. ${UPDATES}`,
  receiptReceived: 'Chek qabul qilindi, toʻlov tekshirilmoqda.',
  attachReceipt: (policy) => (policy === 'required' ? 'Chekni biriktirish (majburiy)' : 'Chekni biriktirish'),
  showDetails: 'Rekvizitlarni qayta koʻrsatish',
  reportPayment: (prompt) => (prompt === 'confirmed' ? 'Toʻlov haqida xabar berish' : 'Men allaqachon toʻladim'),
  reportIntro: (prompt) =>
    prompt === 'confirmed'
      ? 'Oʻtkazmangiz oʻz vaqtida tasdiqlanmadi. Pul yuborgan boʻlsangiz, xabar bering: toʻlov chekingiz boʻyicha tekshiriladi.'
      : 'Pulni vaqt tugashidan oldin yubordingizmi? Chek bilan birga xabar bering.',
  reportReported: 'Rahmat. Doʻkon xabaringizni oldi va siz bilan bogʻlanadi.',
  referenceLabel: 'Toʻlov raqami',
  returnToShop: 'Doʻkonga qaytish',
  autoReturn: (seconds) => `${seconds} soniyadan keyin doʻkonga qaytamiz`,
  stayHere: 'Sahifada qolish',
  openPaymentPage: 'Toʻlov sahifasini ochish',
  openTelegram: 'Telegramʼda ochish',
  chooseBank: 'Bankni tanlash',
  crossBorder: (currency, country) =>
    [currency && `Bank ${currency} yuboradi`, country && `karta: ${country}`].filter(Boolean).join(', ') || 'Xalqaro oʻtkazma',
  errorMessage: (code) => own(ERRORS, code) ?? 'Toʻlov xizmati hozir mavjud emas.',
  retry: 'Qayta urinish',
  connectionTrouble: 'Aloqa uzildi. Qayta ulanmoqda…',
  offline: 'Internet aloqasi yo‘q. Aloqa tiklanishi bilan holat yana tekshiriladi.',
};
