import type { CopyNames, KnownPaymentOption, Translation } from './translation.js';
import { copyName, own, timeLeftUnits } from './translation.js';
import type { RequisitesKind } from '../format.js';
import { BOOT_STRINGS } from './boot.js';

// Azerbaijani (Latin): machine-translated, not yet reviewed by a native speaker (docs/element.md, "Languages").
// A noun after a number keeps its singular (5 dəqiqə, 21 saniyə), whatever CLDR's `one`/`other`.
const { loading, loadFailed, loadFailedReason } = BOOT_STRINGS.az;

const TITLES = {
  idle: 'Ödəniş',
  loading,
  waiting: 'Pulu köçürün',
  checking: 'Ödənişiniz yoxlanılır',
  picker: 'Ödəniş üsulunu seçin',
  payout: 'Sizə ödəniş edilir',
  paid: 'Ödəniş alındı',
  canceled: 'Ödəniş ləğv edildi',
  expired: 'Ödəniş vaxtı bitdi',
  dispute: 'Ödənişiniz nəzərdən keçirilir',
  other: 'Ödənişin vəziyyəti',
  error: loadFailed,
} as const;
const STATUSES: Record<string, string> = {
  waiting: 'köçürməniz gözlənilir',
  checking: 'yoxlanılır',
  dispute: 'nəzərdən keçirilir',
  picker: 'ödəniş üsulunu seçin',
  payout: 'sizə ödənilir',
  paid: 'ödənildi',
  canceled: 'ləğv edildi',
  expired: 'müddəti bitdi',
};
const UPDATES = 'Bu səhifə özü yenilənir.';
const EXPLANATIONS: Record<string, string> = {
  payout: `Mağaza bu pulu sizə göndərir: heç nə ödəmək lazım deyil. ${UPDATES}`,
  paid: 'Təşəkkür edirik! Mağaza ödənişinizi aldı.',
  canceled: 'Bu ödəniş ləğv edildi. Onun üçün pul göndərməyin.',
  expired:
    'Bu ödəniş üçün daha pul göndərməyin. Artıq göndərmisinizsə, ödəniş barədə bildirin və ya aşağıdakı ödəniş nömrəsi ilə mağazaya müraciət edin.',
  dispute: `Xidmət köçürmənizi bankla birlikdə yoxlayır. ${UPDATES} Nəticəni mağaza da bildirəcək.`,
};
const REQUISITES: Record<RequisitesKind, string> = {
  card: 'Kart nömrəsi',
  phone: 'Telefon nömrəsi',
  account: 'Hesab nömrəsi',
  url: 'Ödəniş səhifəsi',
  qr: 'QR-kod',
  other: 'Rekvizitlər',
  upi: 'UPI ID',
  imps: 'Hesab nömrəsi',
  cvu: 'CVU',
  topup: 'Artırılacaq nömrə',
  telegram: 'Telegram botu',
  'qr-image': 'QR-kod',
};
const COPIED: CopyNames = { amount: 'məbləğ', ifsc: 'IFSC', telegram: 'bot keçidi' };
const OPTIONS: Record<KnownPaymentOption, string> = {
  TO_CARD: 'Karta köçürmə',
  SBP: 'SBP (telefon nömrəsi ilə)',
  SBP_QR: 'SBP QR-kodu',
  MANUAL_SBP_QR: 'SBP QR-kodu',
  TO_ACCOUNT: 'Hesaba köçürmə',
  TO_BANK_DETAILS: 'Rekvizitlərlə köçürmə',
  TO_PHONE_NUMBER: 'Telefon nömrəsinə köçürmə',
  CROSS_BORDER: 'Xaricdən köçürmə',
  MOBILE_TOP_UP: 'Mobil balans artımı',
  CLICK_UZ_QR: 'Click QR-kodu',
  TIPS: 'Çay pulu xidməti',
  TG_BOT: 'Telegram botu',
  P2C: 'P2C köçürməsi',
  UPI: 'UPI',
  QUASI_UPI: 'Quasi UPI',
  IMPS: 'IMPS bank köçürməsi',
  CVU: 'CVU-ya köçürmə',
  CARD_ACQUIRING: 'Kartla ödəniş',
  MANUAL_ECOM: 'Onlayn ödəniş',
  VIET_QR: 'VietQR',
};
const CONTACT = 'Ödəniş nömrəsi ilə mağazaya müraciət edin.';
const ERRORS: Record<string, string> = {
  network_error: loadFailedReason,
  not_found: 'Ödəniş tapılmadı.',
  bad_request: 'Ödəniş keçidi etibarsızdır.',
  invalid_response: 'Ödəniş xidmətinin cavabını oxumaq mümkün olmadı.',
  upstream_timeout: 'Ödəniş xidməti vaxtında cavab vermədi.',
  upstream_invalid: 'Ödəniş xidməti gözlənilməz cavab verdi.',
  service_unavailable: 'Bu mağazada ödəniş qəbulu hazırda söndürülüb. Mağazaya müraciət edin.',
  payload_too_large: 'Fayl bu mağaza üçün çox böyükdür. Daha kiçik şəkil və ya PDF göndərin.',
  unsupported_media_type: 'Bu fayl növü qəbul edilmir: şəkil (JPEG, PNG, WebP, HEIC) və ya PDF göndərin.',
  receipts_off: 'Bu mağaza burada qəbz qəbul etmir. Mağazaya müraciət edin.',
  dispute_exists: 'Bu ödəniş barədə artıq bildirilib. Mağaza sizinlə əlaqə saxlayacaq.',
  dispute_refused: `Bildirişi burada qəbul etmək mümkün olmadı. ${CONTACT}`,
  dispute_not_allowed: `Bu ödəniş barədə artıq burada bildirmək olmaz. ${CONTACT}`,
  no_deal: 'Bu ödənişdə təsdiqlənəcək köçürmə yoxdur.',
  cancel_refused: 'Ödənişi ləğv etmək mümkün olmadı: onun vəziyyəti dəyişib.',
};

/** The screens' strings in Azerbaijani (Latin). */
export const az: Translation = {
  language: 'az',
  loading,
  title: (screen) => TITLES[screen],
  payee: (storeName) => `Ödəniş alan: ${storeName}`,
  statusLabel: 'Vəziyyət',
  status: (screen, rawStatus) => own(STATUSES, screen) ?? rawStatus,
  explanation: (screen, rawStatus) => own(EXPLANATIONS, screen) ?? `Ödənişin vəziyyəti: «${rawStatus}». ${UPDATES}`,
  amountLabel: 'Köçürmə məbləği',
  amountPaidLabel: 'Ödənilib',
  amountSumLabel: 'Məbləğ',
  amountDueNote: (asked) => `Məhz bu məbləği köçürün: ödəniş xidməti köçürmənizi onunla tanıyır. Sifarişin məbləği ${asked}.`,
  amountSettledNote: (asked) => `Ödəniş xidməti bu məbləği qəbul etdi; sifarişin məbləği ${asked} idi.`,
  bankLabel: 'Bank',
  requisitesLabel: (kind) => REQUISITES[kind],
  ifscLabel: 'IFSC',
  holderLabel: 'Alan',
  guidance: (amount) =>
    `Dəqiq ${amount} məbləği bir ödənişlə köçürün. Başqa məbləğ və ya bir neçə ödəniş vəsaitin daxil olmasını gecikdirir.`,
  copy: 'Kopyala',
  copyLabel: (field, kind) => `Kopyala: ${copyName(COPIED, REQUISITES, field, kind)}`,
  copied: 'Kopyalandı',
  copiedAnnouncement: (field, kind) => `Kopyalandı: ${copyName(COPIED, REQUISITES, field, kind)}`,
  copyManually: 'Kopyalamaq mümkün olmadı: mətn seçilib, onu cihazın menyusu ilə kopyalayın.',
  qrLabel: 'Bank tətbiqində ödəmək üçün QR-kod',
  qrHint: 'Bank tətbiqi və ya kamera ilə skan edin',
  openInBankApp: 'Bank tətbiqində aç',
  timeLeftLabel: 'Qalan vaxt',
  timeLeftAnnouncement: (remainingMs) => {
    const { unit, count } = timeLeftUnits(remainingMs);
    return `Ödəmək üçün ${count} ${unit === 'minute' ? 'dəqiqə' : 'saniyə'} qalıb`;
  },
  variantsLabel: 'Ödəniş üsulları',
  changeBank: 'Bankı dəyiş',
  option: (option) => own(OPTIONS, option) ?? option,
  currentVariant: 'seçilib',
  startingDeal: 'Rekvizitlər hazırlanır…',
  dealUnsupported: 'Bu mağaza burada ödəniş üsulunu seçməyə icazə vermir. Mağazaya müraciət edin.',
  dealFailed: 'Ödənişə başlamaq mümkün olmadı. Yenidən cəhd edin.',
  dealNoRequisites: 'Bu bankda hazırda boş rekvizit yoxdur. Başqa bank seçin və ya bir neçə dəqiqədən sonra yenidən cəhd edin.',
  dealNotAllowed: 'Bu ödəniş üsulu bu ödəniş üçün mövcud deyil. Başqasını seçin.',
  variantsFailed: 'Ödəniş üsullarını yükləmək mümkün olmadı.',
  cancel: 'Ödənişi ləğv et',
  cancelQuestion: 'Bu ödəniş ləğv edilsin?',
  confirmCancel: 'Bəli, ləğv et',
  keepPaying: 'Xeyr, geri qayıt',
  canceling: 'Ləğv edilir…',
  cancelFailed: 'Ödənişi ləğv etmək mümkün olmadı. Yenidən cəhd edin.',
  changed: 'Ödəniş məlumatları dəyişdi. Ödəməzdən əvvəl yoxlayın.',
  changeSeen: 'Aydındır',
  confirmPaid: 'Ödədim',
  checkingExplanation: (minutes) =>
    `Satıcı pulun gəldiyini yoxlayır${minutes ? `: bu ${minutes} dəqiqəyə qədər çəkə bilər` : ''}. Yenidən ödəməyin. ${UPDATES}`,
  receiptReceived: 'Qəbz alındı, ödəniş yoxlanılır.',
  attachReceipt: (policy) => (policy === 'required' ? 'Qəbzi əlavə et (məcburi)' : 'Qəbzi əlavə et'),
  showDetails: 'Rekvizitləri yenidən göstər',
  reportPayment: (prompt) => (prompt === 'confirmed' ? 'Ödəniş barədə bildir' : 'Artıq ödəmişəm'),
  reportIntro: (prompt) =>
    prompt === 'confirmed'
      ? 'Köçürməniz vaxtında təsdiqlənmədi. Pulu göndərmisinizsə, bildirin: ödəniş qəbziniz əsasında yoxlanılacaq.'
      : 'Pulu vaxt bitməzdən əvvəl göndərmisiniz? Qəbzlə birlikdə bildirin.',
  reportReported: 'Təşəkkür edirik. Mağaza bildirişinizi aldı və sizinlə əlaqə saxlayacaq.',
  referenceLabel: 'Ödəniş nömrəsi',
  returnToShop: 'Mağazaya qayıt',
  autoReturn: (seconds) => `${seconds} san. sonra mağazaya qayıdırıq`,
  stayHere: 'Səhifədə qal',
  openPaymentPage: 'Ödəniş səhifəsini aç',
  openTelegram: 'Telegram-da aç',
  chooseBank: 'Bankı seçin',
  crossBorder: (currency, country) =>
    [currency && `Bank ${currency} göndərir`, country && `kart: ${country}`].filter(Boolean).join(', ') || 'Beynəlxalq köçürmə',
  errorMessage: (code) => own(ERRORS, code) ?? 'Ödəniş xidməti hazırda əlçatan deyil.',
  retry: 'Yenidən cəhd edin',
  connectionTrouble: 'Əlaqə kəsildi. Yenidən qoşulur…',
  offline: 'İnternet bağlantısı yoxdur. Bağlantı bərpa olunan kimi status yenidən yoxlanılacaq.',
};
