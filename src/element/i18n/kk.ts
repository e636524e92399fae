import type { CopyNames, KnownPaymentOption, Translation } from './translation.js';
import { copyName, own, timeLeftUnits } from './translation.js';
import type { RequisitesKind } from '../format.js';
import { BOOT_STRINGS } from './boot.js';

// Kazakh (Cyrillic): machine-translated, not yet reviewed by a native speaker (docs/element.md, "Languages").
// A noun after a number keeps its singular (5 минут, 21 секунд), whatever CLDR's `one`/`other`.
const { loading, loadFailed, loadFailedReason } = BOOT_STRINGS.kk;

const TITLES = {
  idle: 'Төлем',
  loading,
  waiting: 'Ақшаны аударыңыз',
  checking: 'Төлеміңіз тексерілуде',
  picker: 'Төлеу тәсілін таңдаңыз',
  payout: 'Сізге төлем жасалуда',
  paid: 'Төлем алынды',
  canceled: 'Төлемнен бас тартылды',
  expired: 'Төлеу уақыты өтті',
  dispute: 'Төлеміңіз қаралуда',
  other: 'Төлем күйі',
  error: loadFailed,
} as const;
const STATUSES: Record<string, string> = {
  waiting: 'аударымыңыз күтілуде',
  checking: 'тексерілуде',
  dispute: 'қаралуда',
  picker: 'төлеу тәсілін таңдаңыз',
  payout: 'сізге төленуде',
  paid: 'төленді',
  canceled: 'бас тартылды',
  expired: 'мерзімі өтті',
};
const UPDATES = 'Бұл бет өздігінен жаңарады.';
const EXPLANATIONS: Record<string, string> = {
  payout: `Дүкен бұл ақшаны сізге жіберуде: төлеудің қажеті жоқ. ${UPDATES}`,
  paid: 'Рақмет! Дүкен төлеміңізді алды.',
  canceled: 'Бұл төлемнен бас тартылды. Ол үшін ақша жібермеңіз.',
  expired:
    'Бұл төлем үшін енді ақша жібермеңіз. Жіберіп қойсаңыз, төлем туралы хабарлаңыз немесе төмендегі төлем нөмірін айтып, дүкенге хабарласыңыз.',
  dispute: `Сервис аударымыңызды банкпен бірге тексеруде. ${UPDATES} Нәтижесін дүкен де хабарлайды.`,
};
const REQUISITES: Record<RequisitesKind, string> = {
  card: 'Карта нөмірі',
  phone: 'Телефон нөмірі',
  account: 'Шот нөмірі',
  url: 'Төлем беті',
  qr: 'QR-код',
  other: 'Деректемелер',
  upi: 'UPI ID',
  imps: 'Шот нөмірі',
  cvu: 'CVU',
  topup: 'Толтырылатын нөмір',
  telegram: 'Telegram-бот',
  'qr-image': 'QR-код',
};
const COPIED: CopyNames = { amount: 'сома', ifsc: 'IFSC', telegram: 'бот сілтемесі' };
const OPTIONS: Record<KnownPaymentOption, string> = {
  TO_CARD: 'Картаға аударым',
  SBP: 'СБП (телефон нөмірі бойынша)',
  SBP_QR: 'СБП QR-коды',
  MANUAL_SBP_QR: 'СБП QR-коды',
  TO_ACCOUNT: 'Шотқа аударым',
  TO_BANK_DETAILS: 'Деректемелер бойынша аударым',
  TO_PHONE_NUMBER: 'Телефон нөмірі бойынша аударым',
  CROSS_BORDER: 'Шетелден аударым',
  MOBILE_TOP_UP: 'Телефонды толтыру',
  CLICK_UZ_QR: 'Click QR-коды',
  TIPS: 'Шайпұл сервисі',
  TG_BOT: 'Telegram-бот',
  P2C: 'P2C аударымы',
  UPI: 'UPI',
  QUASI_UPI: 'Quasi UPI',
  IMPS: 'IMPS банк аударымы',
  CVU: 'CVU-ға аударым',
  CARD_ACQUIRING: 'Картамен төлеу',
  MANUAL_ECOM: 'Онлайн төлем',
  VIET_QR: 'VietQR',
};
const CONTACT = 'Төлем нөмірін айтып, дүкенге хабарласыңыз.';
const ERRORS: Record<string, string> = {
  network_error: loadFailedReason,
  not_found: 'Төлем табылмады.',
  bad_request: 'Төлем сілтемесі жарамсыз.',
  invalid_response: 'Төлем сервисінің жауабын оқу мүмкін болмады.',
  upstream_timeout: 'Төлем сервисі уақытында жауап бермеді.',
  upstream_invalid: 'Төлем сервисі күтпеген жауап берді.',
  service_unavailable: 'Бұл дүкенде төлем қабылдау қазір өшірулі. Дүкенге хабарласыңыз.',
  payload_too_large: 'Файл бұл дүкен үшін тым үлкен. Кішірек фото немесе PDF жіберіңіз.',
  unsupported_media_type: 'Бұл файл түрі қабылданбайды: фото (JPEG, PNG, WebP, HEIC) немесе PDF жіберіңіз.',
  receipts_off: 'Бұл дүкен мұнда чек қабылдамайды. Дүкенге хабарласыңыз.',
  dispute_exists: 'Бұл төлем туралы хабарланған. Дүкен сізбен байланысады.',
  dispute_refused: `Хабарламаны мұнда қабылдау мүмкін болмады. ${CONTACT}`,
  dispute_not_allowed: `Бұл төлем туралы мұнда енді хабарлау мүмкін емес. ${CONTACT}`,
  no_deal: 'Бұл төлемде расталатын аударым жоқ.',
  cancel_refused: 'Төлемнен бас тарту мүмкін болмады: оның күйі өзгерді.',
};

/** The screens' strings in Kazakh (Cyrillic). */
export const kk: Translation = {
  language: 'kk',
  loading,
  title: (screen) => TITLES[screen],
  payee: (storeName) => `Төлем алушы: ${storeName}`,
  statusLabel: 'Күйі',
  status: (screen, rawStatus) => own(STATUSES, screen) ?? rawStatus,
  explanation: (screen, rawStatus) => own(EXPLANATIONS, screen) ?? `Төлем күйі: «${rawStatus}». ${UPDATES}`,
  amountLabel: 'Аударым сомасы',
  amountPaidLabel: 'Төленді',
  amountSumLabel: 'Сома',
  amountDueNote: (asked) => `Дәл осы соманы аударыңыз: төлем қызметі аударымыңызды осы арқылы таниды. Тапсырыс сомасы — ${asked}.`,
  amountSettledNote: (asked) => `Төлем қызметі осы соманы есепке алды; тапсырыс сомасы ${asked} болатын.`,
  bankLabel: 'Банк',
  requisitesLabel: (kind) => REQUISITES[kind],
  ifscLabel: 'IFSC',
  holderLabel: 'Алушы',
  guidance: (amount) => `Дәл ${amount} соманы бір төлеммен аударыңыз. Басқа сома немесе бірнеше төлем есепке алуды кешіктіреді.`,
  copy: 'Көшіру',
  copyLabel: (field, kind) => `Көшіру: ${copyName(COPIED, REQUISITES, field, kind)}`,
  copied: 'Көшірілді',
  copiedAnnouncement: (field, kind) => `Көшірілді: ${copyName(COPIED, REQUISITES, field, kind)}`,
  copyManually: 'Көшіру мүмкін болмады: мәтін белгіленді, оны құрылғы мәзірі арқылы көшіріңіз.',
  qrLabel: 'Банк қосымшасында төлеуге арналған QR-код',
  qrHint: 'Банк қосымшасымен немесе камерамен сканерлеңіз',
  openInBankApp: 'Банк қосымшасында ашу',
  timeLeftLabel: 'Қалған уақыт',
  timeLeftAnnouncement: (remainingMs) => {
    const { unit, count } = timeLeftUnits(remainingMs);
    return `Төлеуге ${count} ${unit === 'minute' ? 'минут' : 'секунд'} қалды`;
  },
  variantsLabel: 'Төлеу тәсілдері',
  changeBank: 'Банкті ауыстыру',
  option: (option) => own(OPTIONS, option) ?? option,
  currentVariant: 'таңдалған',
  startingDeal: 'Деректемелер дайындалуда…',
  dealUnsupported: 'Бұл дүкен мұнда төлеу тәсілін таңдауға мүмкіндік бермейді. Дүкенге хабарласыңыз.',
  dealFailed: 'Төлемді бастау мүмкін болмады. Қайталап көріңіз.',
  dealNoRequisites: 'Бұл банкте қазір бос деректемелер жоқ. Басқа банкті таңдаңыз немесе бірнеше минуттан кейін қайталаңыз.',
  dealNotAllowed: 'Бұл төлеу тәсілі осы төлемге қолжетімсіз. Басқасын таңдаңыз.',
  variantsFailed: 'Төлеу тәсілдерін жүктеу мүмкін болмады.',
  cancel: 'Төлемнен бас тарту',
  cancelQuestion: 'Бұл төлемнен бас тартасыз ба?',
  confirmCancel: 'Иә, бас тарту',
  keepPaying: 'Жоқ, оралу',
  canceling: 'Бас тартылуда…',
  cancelFailed: 'Төлемнен бас тарту мүмкін болмады. Қайталап көріңіз.',
  changed: 'Төлем деректері өзгерді. Төлер алдында тексеріңіз.',
  changeSeen: 'Түсінікті',
  confirmPaid: 'Мен төледім',
  checkingExplanation: (minutes) =>
    `Сатушы ақшаның түскенін тексеруде${minutes ? `: бұл ${minutes} минутқа дейін созылуы мүмкін` : ''}. Қайта төлемеңіз. ${UPDATES}`,
  receiptReceived: 'Чек алынды, төлем тексерілуде.',
  attachReceipt: (policy) => (policy === 'required' ? 'Чекті тіркеу (міндетті)' : 'Чекті тіркеу'),
  showDetails: 'Деректемелерді қайта көрсету',
  reportPayment: (prompt) => (prompt === 'confirmed' ? 'Төлем туралы хабарлау' : 'Мен төлеп қойдым'),
  reportIntro: (prompt) =>
    prompt === 'confirmed'
      ? 'Аударымыңыз уақытында расталмады. Ақша жіберген болсаңыз, хабарлаңыз: төлем чегіңіз бойынша тексеріледі.'
      : 'Ақшаны уақыт біткенге дейін жібердіңіз бе? Чекпен бірге хабарлаңыз.',
  reportReported: 'Рақмет. Дүкен хабарламаңызды алды және сізбен байланысады.',
  referenceLabel: 'Төлем нөмірі',
  returnToShop: 'Дүкенге оралу',
  autoReturn: (seconds) => `${seconds} с кейін дүкенге ораламыз`,
  stayHere: 'Бетте қалу',
  openPaymentPage: 'Төлем бетін ашу',
  openTelegram: 'Telegram-да ашу',
  chooseBank: 'Банкті таңдау',
  crossBorder: (currency, country) =>
    [currency && `Банк ${currency} жібереді`, country && `карта: ${country}`].filter(Boolean).join(', ') || 'Шетелдік аударым',
  errorMessage: (code) => own(ERRORS, code) ?? 'Төлем сервисі қазір қолжетімсіз.',
  retry: 'Қайталау',
  connectionTrouble: 'Байланыс үзілді. Қайта қосылуда…',
  offline: 'Интернет байланысы жоқ. Байланыс қалпына келген соң мәртебе қайта тексеріледі.',
};
