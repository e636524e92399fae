import type { CopyNames, KnownPaymentOption, Translation } from './translation.js';
import { copyName, own, timeLeftUnits } from './translation.js';
import type { RequisitesKind } from '../format.js';
import { BOOT_STRINGS } from './boot.js';

// Kyrgyz (Cyrillic): machine-translated, not yet reviewed by a native speaker (docs/element.md, "Languages").
// A noun after a number keeps its singular (5 мүнөт, 21 секунд), whatever CLDR's `one`/`other`.
const { loading, loadFailed, loadFailedReason } = BOOT_STRINGS.ky;

const TITLES = {
  idle: 'Төлөм',
  loading,
  waiting: 'Акчаны которуңуз',
  checking: 'Төлөмүңүз текшерилүүдө',
  picker: 'Төлөө ыкмасын тандаңыз',
  payout: 'Сизге төлөм жүргүзүлүүдө',
  paid: 'Төлөм алынды',
  canceled: 'Төлөм жокко чыгарылды',
  expired: 'Төлөө убактысы бүттү',
  dispute: 'Төлөмүңүз каралууда',
  other: 'Төлөмдүн абалы',
  error: loadFailed,
} as const;
const STATUSES: Record<string, string> = {
  waiting: 'которууңуз күтүлүүдө',
  checking: 'текшерилүүдө',
  dispute: 'каралууда',
  picker: 'төлөө ыкмасын тандаңыз',
  payout: 'сизге төлөнүүдө',
  paid: 'төлөндү',
  canceled: 'жокко чыгарылды',
  expired: 'мөөнөтү бүттү',
};
const UPDATES = 'Бул барак өзү жаңыланат.';
const EXPLANATIONS: Record<string, string> = {
  payout: `Дүкөн бул акчаны сизге жөнөтүүдө: эч нерсе төлөөнүн кереги жок. ${UPDATES}`,
  paid: 'Рахмат! Дүкөн төлөмүңүздү алды.',
  canceled: 'Бул төлөм жокко чыгарылды. Ал үчүн акча жөнөтпөңүз.',
  expired:
    'Бул төлөм үчүн мындан ары акча жөнөтпөңүз. Жөнөтүп койсоңуз, төлөм тууралуу билдириңиз же төмөнкү төлөм номерин айтып, дүкөнгө кайрылыңыз.',
  dispute: `Кызмат которууңузду банк менен бирге текшерүүдө. ${UPDATES} Жыйынтыгын дүкөн да билдирет.`,
};
const REQUISITES: Record<RequisitesKind, string> = {
  card: 'Картанын номери',
  phone: 'Телефон номери',
  account: 'Эсеп номери',
  url: 'Төлөм барагы',
  qr: 'QR-код',
  other: 'Реквизиттер',
  upi: 'UPI ID',
  imps: 'Эсеп номери',
  cvu: 'CVU',
  topup: 'Толуктала турган номер',
  telegram: 'Telegram-бот',
  'qr-image': 'QR-код',
};
const COPIED: CopyNames = { amount: 'сумма', ifsc: 'IFSC', telegram: 'боттун шилтемеси' };
const OPTIONS: Record<KnownPaymentOption, string> = {
  TO_CARD: 'Картага которуу',
  SBP: 'СБП (телефон номери боюнча)',
  SBP_QR: 'СБП QR-коду',
  MANUAL_SBP_QR: 'СБП QR-коду',
  TO_ACCOUNT: 'Эсепке которуу',
  TO_BANK_DETAILS: 'Реквизиттер боюнча которуу',
  TO_PHONE_NUMBER: 'Телефон номери боюнча которуу',
  CROSS_BORDER: 'Чет өлкөдөн которуу',
  MOBILE_TOP_UP: 'Телефонду толуктоо',
  CLICK_UZ_QR: 'Click QR-коду',
  TIPS: 'Чайпул кызматы',
  TG_BOT: 'Telegram-бот',
  P2C: 'P2C которуусу',
  UPI: 'UPI',
  QUASI_UPI: 'Quasi UPI',
  IMPS: 'IMPS банк которуусу',
  CVU: 'CVUга которуу',
  CARD_ACQUIRING: 'Карта менен төлөө',
  MANUAL_ECOM: 'Онлайн төлөм',
  VIET_QR: 'VietQR',
};
const CONTACT = 'Төлөм номерин айтып, дүкөнгө кайрылыңыз.';
const ERRORS: Record<string, string> = {
  network_error: loadFailedReason,
  not_found: 'Төлөм табылган жок.',
  bad_request: 'Төлөм шилтемеси жараксыз.',
  invalid_response: 'Төлөм кызматынын жообун окуу мүмкүн болгон жок.',
  upstream_timeout: 'Төлөм кызматы убагында жооп берген жок.',
  upstream_invalid: 'Төлөм кызматы күтүлбөгөн жооп берди.',
  service_unavailable: 'Бул дүкөндө төлөм кабыл алуу азыр өчүрүлгөн. Дүкөнгө кайрылыңыз.',
  payload_too_large: 'Файл бул дүкөн үчүн өтө чоң. Кичирээк сүрөт же PDF жөнөтүңүз.',
  unsupported_media_type: 'Мындай файл кабыл алынбайт: сүрөт (JPEG, PNG, WebP, HEIC) же PDF жөнөтүңүз.',
  receipts_off: 'Бул дүкөн бул жерде чек кабыл албайт. Дүкөнгө кайрылыңыз.',
  dispute_exists: 'Бул төлөм тууралуу мурун эле билдирилген. Дүкөн сиз менен байланышат.',
  dispute_refused: `Билдирүүнү бул жерде кабыл алуу мүмкүн болгон жок. ${CONTACT}`,
  dispute_not_allowed: `Бул төлөм тууралуу бул жерде мындан ары билдирүүгө болбойт. ${CONTACT}`,
  no_deal: 'Бул төлөмдө ырастала турган которуу жок.',
  cancel_refused: 'Төлөмдү жокко чыгаруу мүмкүн болгон жок: анын абалы өзгөрдү.',
};

/** The screens' strings in Kyrgyz (Cyrillic). */
export const ky: Translation = {
  language: 'ky',
  loading,
  title: (screen) => TITLES[screen],
  payee: (storeName) => `Төлөм алуучу: ${storeName}`,
  statusLabel: 'Абалы',
  status: (screen, rawStatus) => own(STATUSES, screen) ?? rawStatus,
  explanation: (screen, rawStatus) => own(EXPLANATIONS, screen) ?? `Төлөмдүн абалы: «${rawStatus}». ${UPDATES}`,
  amountLabel: 'Которуу суммасы',
  amountPaidLabel: 'Төлөндү',
  amountSumLabel: 'Сумма',
  amountDueNote: (asked) => `Так ушул сумманы которуңуз: төлөм кызматы которууңузду ушул аркылуу тааныйт. Буйрутманын суммасы — ${asked}.`,
  amountSettledNote: (asked) => `Төлөм кызматы ушул сумманы эсепке алды; буйрутманын суммасы ${asked} болчу.`,
  bankLabel: 'Банк',
  requisitesLabel: (kind) => REQUISITES[kind],
  ifscLabel: 'IFSC',
  holderLabel: 'Алуучу',
  guidance: (amount) => `Так ${amount} сумманы бир төлөм менен которуңуз. Башка сумма же бир нече төлөм эсепке алууну кечиктирет.`,
  copy: 'Көчүрүү',
  copyLabel: (field, kind) => `Көчүрүү: ${copyName(COPIED, REQUISITES, field, kind)}`,
  copied: 'Көчүрүлдү',
  copiedAnnouncement: (field, kind) => `Көчүрүлдү: ${copyName(COPIED, REQUISITES, field, kind)}`,
  copyManually: 'Көчүрүү мүмкүн болгон жок: текст белгиленди, аны түзмөктүн менюсу аркылуу көчүрүңүз.',
  qrLabel: 'Банк колдонмосунда төлөө үчүн QR-код',
  qrHint: 'Банк колдонмосу же камера менен сканерлеңиз',
  openInBankApp: 'Банк колдонмосунда ачуу',
  timeLeftLabel: 'Калган убакыт',
  timeLeftAnnouncement: (remainingMs) => {
    const { unit, count } = timeLeftUnits(remainingMs);
    return `Төлөөгө ${count} ${unit === 'minute' ? 'мүнөт' : 'секунд'} калды`;
  },
  variantsLabel: 'Төлөө ыкмалары',
  changeBank: 'Банкты алмаштыруу',
  option: (option) => own(OPTIONS, option) ?? option,
  currentVariant: 'тандалган',
  startingDeal: 'Реквизиттер даярдалууда…',
  dealUnsupported: 'Бул дүкөн бул жерде төлөө ыкмасын тандоого уруксат бербейт. Дүкөнгө кайрылыңыз.',
  dealFailed: 'Төлөмдү баштоо мүмкүн болгон жок. Кайра аракет кылыңыз.',
  dealNoRequisites: 'Бул банкта азыр бош реквизиттер жок. Башка банкты тандаңыз же бир нече мүнөттөн кийин кайра аракет кылыңыз.',
  dealNotAllowed: 'Бул төлөө ыкмасы бул төлөм үчүн жеткиликсиз. Башкасын тандаңыз.',
  variantsFailed: 'Төлөө ыкмаларын жүктөө мүмкүн болгон жок.',
  cancel: 'Төлөмдү жокко чыгаруу',
  cancelQuestion: 'Бул төлөмдү жокко чыгарасызбы?',
  confirmCancel: 'Ооба, жокко чыгаруу',
  keepPaying: 'Жок, артка кайтуу',
  canceling: 'Жокко чыгарылууда…',
  cancelFailed: 'Төлөмдү жокко чыгаруу мүмкүн болгон жок. Кайра аракет кылыңыз.',
  changed: 'Төлөмдүн маалыматтары өзгөрдү. Төлөөдөн мурун текшериңиз.',
  changeSeen: 'Түшүнүктүү',
  confirmPaid: 'Мен төлөдүм',
  checkingExplanation: (minutes) =>
    `Сатуучу акча келгенин текшерүүдө${minutes ? `: бул ${minutes} мүнөткө чейин созулушу мүмкүн` : ''}. Кайра төлөбөңүз. ${UPDATES}`,
  receiptReceived: 'Чек алынды, төлөм текшерилүүдө.',
  attachReceipt: (policy) => (policy === 'required' ? 'Чекти тиркөө (милдеттүү)' : 'Чекти тиркөө'),
  showDetails: 'Реквизиттерди кайра көрсөтүү',
  reportPayment: (prompt) => (prompt === 'confirmed' ? 'Төлөм тууралуу билдирүү' : 'Мен төлөп койдум'),
  reportIntro: (prompt) =>
    prompt === 'confirmed'
      ? 'Которууңуз убагында ырасталган жок. Акча жөнөткөн болсоңуз, билдириңиз: төлөм чегиңиз боюнча текшерилет.'
      : 'Акчаны убакыт бүткөнгө чейин жөнөттүңүзбү? Чек менен кошо билдириңиз.',
  reportReported: 'Рахмат. Дүкөн билдирүүңүздү алды жана сиз менен байланышат.',
  referenceLabel: 'Төлөм номери',
  returnToShop: 'Дүкөнгө кайтуу',
  autoReturn: (seconds) => `${seconds} сек. кийин дүкөнгө кайтабыз`,
  stayHere: 'Баракта калуу',
  openPaymentPage: 'Төлөм барагын ачуу',
  openTelegram: 'Telegram’да ачуу',
  chooseBank: 'Банкты тандоо',
  crossBorder: (currency, country) =>
    [currency && `Банк ${currency} жөнөтөт`, country && `карта: ${country}`].filter(Boolean).join(', ') || 'Чет өлкөлүк которуу',
  errorMessage: (code) => own(ERRORS, code) ?? 'Төлөм кызматы азыр жеткиликсиз.',
  retry: 'Кайра аракет кылуу',
  connectionTrouble: 'Байланыш үзүлдү. Кайра туташууда…',
  offline: 'Интернет байланышы жок. Байланыш калыбына келгенде абал кайра текшерилет.',
};
