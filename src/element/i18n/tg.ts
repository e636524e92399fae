import type { CopyNames, KnownPaymentOption, Translation } from './translation.js';
import { copyName, own, timeLeftUnits } from './translation.js';
import type { RequisitesKind } from '../format.js';
import { BOOT_STRINGS } from './boot.js';

// Tajik (Cyrillic): machine-translated, not yet reviewed by a native speaker (docs/element.md, "Languages").
// A noun after a number keeps its singular (5 дақиқа, 21 сония), whatever CLDR's `one`/`other`.
const { loading, loadFailed, loadFailedReason } = BOOT_STRINGS.tg;

const TITLES = {
  idle: 'Пардохт',
  loading,
  waiting: 'Пулро интиқол диҳед',
  checking: 'Пардохти шумо санҷида мешавад',
  picker: 'Тарзи пардохтро интихоб кунед',
  payout: 'Ба шумо пардохт карда мешавад',
  paid: 'Пардохт қабул шуд',
  canceled: 'Пардохт бекор карда шуд',
  expired: 'Вақти пардохт гузашт',
  dispute: 'Пардохти шумо баррасӣ мешавад',
  other: 'Ҳолати пардохт',
  error: loadFailed,
} as const;
const STATUSES: Record<string, string> = {
  waiting: 'интизори интиқоли шумо',
  checking: 'санҷида мешавад',
  dispute: 'дар баррасӣ',
  picker: 'тарзи пардохтро интихоб кунед',
  payout: 'ба шумо пардохт мешавад',
  paid: 'пардохт шуд',
  canceled: 'бекор шуд',
  expired: 'мӯҳлат гузашт',
};
const UPDATES = 'Ин саҳифа худ нав мешавад.';
const EXPLANATIONS: Record<string, string> = {
  payout: `Мағоза ин пулро ба шумо мефиристад: пардохтан лозим нест. ${UPDATES}`,
  paid: 'Ташаккур! Мағоза пардохти шуморо гирифт.',
  canceled: 'Ин пардохт бекор карда шуд. Барои он пул нафиристед.',
  expired:
    'Барои ин пардохт дигар пул нафиристед. Агар аллакай фиристода бошед, дар бораи пардохт хабар диҳед ё бо рақами пардохти дар поён буда ба мағоза муроҷиат кунед.',
  dispute: `Хидмат интиқоли шуморо якҷоя бо бонк месанҷад. ${UPDATES} Натиҷаро мағоза низ хабар медиҳад.`,
};
const REQUISITES: Record<RequisitesKind, string> = {
  card: 'Рақами корт',
  phone: 'Рақами телефон',
  account: 'Рақами суратҳисоб',
  url: 'Саҳифаи пардохт',
  qr: 'QR-код',
  other: 'Реквизитҳо',
  upi: 'UPI ID',
  imps: 'Рақами суратҳисоб',
  cvu: 'CVU',
  topup: 'Рақам барои пуркунӣ',
  telegram: 'Боти Telegram',
  'qr-image': 'QR-код',
};
const COPIED: CopyNames = { amount: 'маблағ', ifsc: 'IFSC', telegram: 'пайванди бот' };
const OPTIONS: Record<KnownPaymentOption, string> = {
  TO_CARD: 'Интиқол ба корт',
  SBP: 'СБП (бо рақами телефон)',
  SBP_QR: 'QR-коди СБП',
  MANUAL_SBP_QR: 'QR-коди СБП',
  TO_ACCOUNT: 'Интиқол ба суратҳисоб',
  TO_BANK_DETAILS: 'Интиқол бо реквизитҳо',
  TO_PHONE_NUMBER: 'Интиқол бо рақами телефон',
  CROSS_BORDER: 'Интиқол аз хориҷа',
  MOBILE_TOP_UP: 'Пур кардани тавозуни телефон',
  CLICK_UZ_QR: 'QR-коди Click',
  TIPS: 'Хидмати чойпулӣ',
  TG_BOT: 'Боти Telegram',
  P2C: 'Интиқоли P2C',
  UPI: 'UPI',
  QUASI_UPI: 'Quasi UPI',
  IMPS: 'Интиқоли бонкии IMPS',
  CVU: 'Интиқол ба CVU',
  CARD_ACQUIRING: 'Пардохт бо корт',
  MANUAL_ECOM: 'Пардохти онлайн',
  VIET_QR: 'VietQR',
};
const CONTACT = 'Бо рақами пардохт ба мағоза муроҷиат кунед.';
const ERRORS: Record<string, string> = {
  network_error: loadFailedReason,
  not_found: 'Пардохт ёфт нашуд.',
  bad_request: 'Пайванди пардохт нодуруст аст.',
  invalid_response: 'Ҷавоби хидмати пардохтро хондан нашуд.',
  upstream_timeout: 'Хидмати пардохт сари вақт ҷавоб надод.',
  upstream_invalid: 'Хидмати пардохт ҷавоби ғайричашмдошт дод.',
  service_unavailable: 'Қабули пардохт дар ин мағоза ҳоло хомӯш аст. Ба мағоза муроҷиат кунед.',
  payload_too_large: 'Файл барои ин мағоза хеле калон аст. Акси хурдтар ё PDF фиристед.',
  unsupported_media_type: 'Ин навъи файл қабул намешавад: акс (JPEG, PNG, WebP, HEIC) ё PDF фиристед.',
  receipts_off: 'Ин мағоза дар ин ҷо чек қабул намекунад. Ба мағоза муроҷиат кунед.',
  dispute_exists: 'Дар бораи ин пардохт аллакай хабар дода шудааст. Мағоза бо шумо тамос мегирад.',
  dispute_refused: `Хабарро дар ин ҷо қабул кардан нашуд. ${CONTACT}`,
  dispute_not_allowed: `Дар бораи ин пардохт дигар дар ин ҷо хабар додан мумкин нест. ${CONTACT}`,
  no_deal: 'Дар ин пардохт интиқоле барои тасдиқ нест.',
  cancel_refused: 'Пардохтро бекор кардан нашуд: ҳолати он тағйир ёфт.',
};

/** The screens' strings in Tajik (Cyrillic). */
export const tg: Translation = {
  language: 'tg',
  loading,
  title: (screen) => TITLES[screen],
  payee: (storeName) => `Пардохт ба ${storeName}`,
  statusLabel: 'Ҳолат',
  status: (screen, rawStatus) => own(STATUSES, screen) ?? rawStatus,
  explanation: (screen, rawStatus) => own(EXPLANATIONS, screen) ?? `Ҳолати пардохт: «${rawStatus}». ${UPDATES}`,
  amountLabel: 'Маблағи интиқол',
  amountPaidLabel: 'Пардохт шуд',
  amountSumLabel: 'Маблағ',
  amountDueNote: (asked) =>
    `Маҳз ҳамин маблағро гузаронед: хизмати пардохт интиқоли шуморо аз рӯи он мешиносад. Маблағи фармоиш — ${asked}.`,
  amountSettledNote: (asked) => `Хизмати пардохт ҳамин маблағро ба ҳисоб гирифт; маблағи фармоиш ${asked} буд.`,
  bankLabel: 'Бонк',
  requisitesLabel: (kind) => REQUISITES[kind],
  ifscLabel: 'IFSC',
  holderLabel: 'Гиранда',
  guidance: (amount) => `Маҳз ${amount}-ро бо як пардохт интиқол диҳед. Маблағи дигар ё якчанд пардохт ворид шудани пулро дер мекунад.`,
  copy: 'Нусха бардоштан',
  copyLabel: (field, kind) => `Нусха бардоштан: ${copyName(COPIED, REQUISITES, field, kind)}`,
  copied: 'Нусха бардошта шуд',
  copiedAnnouncement: (field, kind) => `Нусха бардошта шуд: ${copyName(COPIED, REQUISITES, field, kind)}`,
  copyManually: 'Нусха бардоштан нашуд: матн ҷудо карда шуд, онро бо менюи дастгоҳ нусха бардоред.',
  qrLabel: 'QR-код барои пардохт дар барномаи бонк',
  qrHint: 'Онро бо барномаи бонк ё камера скан кунед',
  openInBankApp: 'Дар барномаи бонк кушодан',
  timeLeftLabel: 'Вақти боқимонда',
  timeLeftAnnouncement: (remainingMs) => {
    const { unit, count } = timeLeftUnits(remainingMs);
    return `Барои пардохт ${count} ${unit === 'minute' ? 'дақиқа' : 'сония'} монд`;
  },
  variantsLabel: 'Тарзҳои пардохт',
  changeBank: 'Иваз кардани бонк',
  option: (option) => own(OPTIONS, option) ?? option,
  currentVariant: 'интихобшуда',
  startingDeal: 'Реквизитҳо омода мешаванд…',
  dealUnsupported: 'Ин мағоза дар ин ҷо интихоби тарзи пардохтро иҷозат намедиҳад. Ба мағоза муроҷиат кунед.',
  dealFailed: 'Оғози пардохт нашуд. Бори дигар кӯшиш кунед.',
  dealNoRequisites: 'Ин бонк ҳоло реквизитҳои озод надорад. Бонки дигарро интихоб кунед ё пас аз чанд дақиқа кӯшиш кунед.',
  dealNotAllowed: 'Ин тарзи пардохт барои ин пардохт дастрас нест. Тарзи дигарро интихоб кунед.',
  variantsFailed: 'Тарзҳои пардохтро бор кардан нашуд.',
  cancel: 'Бекор кардани пардохт',
  cancelQuestion: 'Ин пардохтро бекор мекунед?',
  confirmCancel: 'Ҳа, бекор кардан',
  keepPaying: 'Не, баргаштан',
  canceling: 'Бекор карда мешавад…',
  cancelFailed: 'Пардохтро бекор кардан нашуд. Бори дигар кӯшиш кунед.',
  changed: 'Маълумоти пардохт тағйир ёфт. Пеш аз пардохт санҷед.',
  changeSeen: 'Фаҳмо',
  confirmPaid: 'Ман пардохт кардам',
  checkingExplanation: (minutes) =>
    `Фурӯшанда расидани пулро месанҷад${minutes ? `: ин метавонад то ${minutes} дақиқа вақт гирад` : ''}. Такроран пардохт накунед. ${UPDATES}`,
  receiptReceived: 'Чек гирифта шуд, пардохт санҷида мешавад.',
  attachReceipt: (policy) => (policy === 'required' ? 'Замима кардани чек (ҳатмӣ)' : 'Замима кардани чек'),
  showDetails: 'Реквизитҳоро боз нишон додан',
  reportPayment: (prompt) => (prompt === 'confirmed' ? 'Хабар додан дар бораи пардохт' : 'Ман аллакай пардохт кардам'),
  reportIntro: (prompt) =>
    prompt === 'confirmed'
      ? 'Интиқоли шумо сари вақт тасдиқ нашуд. Агар пул фиристода бошед, хабар диҳед: пардохт бо чеки шумо санҷида мешавад.'
      : 'Пулро пеш аз тамом шудани вақт фиристодед? Бо чек хабар диҳед.',
  reportReported: 'Ташаккур. Мағоза хабари шуморо гирифт ва бо шумо тамос мегирад.',
  referenceLabel: 'Рақами пардохт',
  returnToShop: 'Бозгашт ба мағоза',
  autoReturn: (seconds) => `Пас аз ${seconds} с ба мағоза бармегардем`,
  stayHere: 'Дар саҳифа мондан',
  openPaymentPage: 'Кушодани саҳифаи пардохт',
  openTelegram: 'Дар Telegram кушодан',
  chooseBank: 'Интихоби бонк',
  crossBorder: (currency, country) =>
    [currency && `Бонк ${currency} мефиристад`, country && `корти ${country}`].filter(Boolean).join(', ') || 'Интиқоли байналмилалӣ',
  errorMessage: (code) => own(ERRORS, code) ?? 'Хидмати пардохт ҳоло дастрас нест.',
  retry: 'Бори дигар',
  connectionTrouble: 'Алоқа қатъ шуд. Аз нав кӯшиш мекунем…',
  offline: 'Пайвасти интернет нест. Ҳамин ки пайваст барқарор шавад, ҳолат дубора санҷида мешавад.',
};
