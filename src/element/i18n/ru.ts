import type { CopyNames, KnownPaymentOption, Translation } from './translation.js';
import { copyName, own, plural, timeLeftUnits } from './translation.js';
import type { RequisitesKind } from '../format.js';
import { BOOT_STRINGS } from './boot.js';

const rules = new Intl.PluralRules('ru');
// `other` is for fractions, which these counts never are.
const UNITS = {
  minute: { one: 'минута', few: 'минуты', other: 'минут' },
  second: { one: 'секунда', few: 'секунды', other: 'секунд' },
} as const;

const { loading, loadFailed, loadFailedReason } = BOOT_STRINGS.ru;

const TITLES = {
  idle: 'Оплата',
  loading,
  waiting: 'Переведите деньги',
  checking: 'Проверяем платёж',
  picker: 'Выберите способ оплаты',
  payout: 'Выплата в обработке',
  paid: 'Платёж получен',
  canceled: 'Платёж отменён',
  expired: 'Время на оплату истекло',
  dispute: 'Платёж на проверке',
  other: 'Статус платежа',
  error: loadFailed,
} as const;
const STATUSES: Record<string, string> = {
  waiting: 'ожидаем ваш перевод',
  checking: 'проверяется',
  dispute: 'на рассмотрении',
  picker: 'выберите способ оплаты',
  payout: 'выплачиваем вам',
  paid: 'оплачено',
  canceled: 'отменено',
  expired: 'время истекло',
};
const EXPLANATIONS: Record<string, string> = {
  payout: 'Магазин отправляет вам эти деньги: платить ничего не нужно. Страница обновится сама.',
  paid: 'Спасибо! Магазин получил ваш платёж.',
  canceled: 'Этот платёж отменён. Не отправляйте по нему деньги.',
  expired:
    'Больше не отправляйте деньги по этому платежу. Если вы уже отправили их, сообщите о платеже или свяжитесь с магазином, назвав номер платежа ниже.',
  dispute: 'Сервис проверяет ваш перевод вместе с банком. Страница обновится сама; о результате сообщит и магазин.',
};
const REQUISITES: Record<RequisitesKind, string> = {
  card: 'Номер карты',
  phone: 'Номер телефона',
  account: 'Номер счёта',
  url: 'Страница оплаты',
  qr: 'QR-код',
  other: 'Реквизиты',
  upi: 'UPI ID',
  imps: 'Номер счёта',
  cvu: 'CVU',
  topup: 'Номер для пополнения',
  telegram: 'Бот в Telegram',
  'qr-image': 'QR-код',
};
/** What a copy button names, in the accusative after «Скопировать», where it is not the label's own form. */
const TO_COPY: CopyNames = { amount: 'сумму', ifsc: 'IFSC', telegram: 'ссылку на бота' };
/** The same in the nominative, after «Скопировано:». */
const COPIED: CopyNames = { amount: 'сумма', ifsc: 'IFSC', telegram: 'ссылка на бота' };
const OPTIONS: Record<KnownPaymentOption, string> = {
  TO_CARD: 'Перевод на карту',
  SBP: 'СБП (по номеру телефона)',
  SBP_QR: 'QR-код СБП',
  MANUAL_SBP_QR: 'QR-код СБП',
  TO_ACCOUNT: 'Перевод на счёт',
  TO_BANK_DETAILS: 'Перевод по реквизитам',
  TO_PHONE_NUMBER: 'Перевод по номеру телефона',
  CROSS_BORDER: 'Перевод из-за рубежа',
  MOBILE_TOP_UP: 'Пополнение телефона',
  CLICK_UZ_QR: 'QR-код Click',
  TIPS: 'Сервис чаевых',
  TG_BOT: 'Бот в Telegram',
  P2C: 'Перевод P2C',
  UPI: 'UPI',
  QUASI_UPI: 'Quasi UPI',
  IMPS: 'Банковский перевод IMPS',
  CVU: 'Перевод на CVU',
  CARD_ACQUIRING: 'Оплата картой',
  MANUAL_ECOM: 'Онлайн-оплата',
  VIET_QR: 'VietQR',
};
const ERRORS: Record<string, string> = {
  network_error: loadFailedReason,
  not_found: 'Платёж не найден.',
  bad_request: 'Ссылка на платёж недействительна.',
  invalid_response: 'Платёжный сервис прислал ответ, который не удалось прочитать.',
  upstream_timeout: 'Платёжный сервис не ответил вовремя.',
  upstream_invalid: 'Платёжный сервис ответил что-то неожиданное.',
  service_unavailable: 'Приём платежей в этом магазине сейчас отключён. Свяжитесь с магазином.',
  payload_too_large: 'Файл слишком большой для этого магазина. Пришлите фото поменьше или PDF.',
  unsupported_media_type: 'Такой файл не подходит: пришлите фото (JPEG, PNG, WebP, HEIC) или PDF.',
  receipts_off: 'Этот магазин не принимает чеки здесь. Свяжитесь с магазином.',
  dispute_exists: 'Об этом платеже уже сообщили. Магазин свяжется с вами.',
  dispute_refused: 'Сообщение не удалось принять здесь. Свяжитесь с магазином, назвав номер платежа.',
  dispute_not_allowed: 'Об этом платеже уже нельзя сообщить здесь. Свяжитесь с магазином, назвав номер платежа.',
  no_deal: 'По этому платежу нет перевода, который можно подтвердить.',
  cancel_refused: 'Платёж не удалось отменить: его состояние изменилось.',
};

/** The screens' strings in Russian. */
export const ru: Translation = {
  language: 'ru',
  loading,
  title: (screen) => TITLES[screen],
  payee: (storeName) => `Оплата: ${storeName}`,
  statusLabel: 'Статус',
  status: (screen, rawStatus) => own(STATUSES, screen) ?? rawStatus,
  explanation: (screen, rawStatus) => own(EXPLANATIONS, screen) ?? `Статус платежа: «${rawStatus}». Страница обновится сама.`,
  amountLabel: 'Сумма перевода',
  amountPaidLabel: 'Оплачено',
  amountSumLabel: 'Сумма',
  amountDueNote: (asked) => `Переведите ровно эту сумму: по ней платёжный сервис узнаёт ваш перевод. Сумма заказа — ${asked}.`,
  amountSettledNote: (asked) => `Столько зачёл платёжный сервис; сумма заказа — ${asked}.`,
  bankLabel: 'Банк',
  requisitesLabel: (kind) => REQUISITES[kind],
  ifscLabel: 'IFSC',
  holderLabel: 'Получатель',
  guidance: (amount) => `Переведите ровно ${amount} одним платежом. Другая сумма или несколько платежей задержат зачисление.`,
  copy: 'Скопировать',
  copyLabel: (field, kind) => `Скопировать ${copyName(TO_COPY, REQUISITES, field, kind)}`,
  copied: 'Скопировано',
  copiedAnnouncement: (field, kind) => `Скопировано: ${copyName(COPIED, REQUISITES, field, kind)}`,
  copyManually: 'Скопировать не получилось: текст выделен, скопируйте его через меню устройства.',
  qrLabel: 'QR-код для оплаты в приложении банка',
  qrHint: 'Отсканируйте его в приложении банка или камерой',
  openInBankApp: 'Открыть в приложении банка',
  timeLeftLabel: 'Осталось времени',
  timeLeftAnnouncement: (remainingMs) => {
    const { unit, count } = timeLeftUnits(remainingMs);
    return `${plural(rules, count, { one: 'Осталась', other: 'Осталось' })} ${count} ${plural(rules, count, UNITS[unit])} на оплату`;
  },
  variantsLabel: 'Способы оплаты',
  changeBank: 'Сменить банк',
  option: (option) => own(OPTIONS, option) ?? option,
  currentVariant: 'выбран',
  startingDeal: 'Готовим реквизиты…',
  dealUnsupported: 'Этот магазин не позволяет выбрать способ оплаты здесь. Пожалуйста, свяжитесь с магазином.',
  dealFailed: 'Не удалось начать оплату. Попробуйте ещё раз.',
  dealNoRequisites: 'У этого банка сейчас нет свободных реквизитов. Выберите другой банк или попробуйте через несколько минут.',
  dealNotAllowed: 'Этот способ оплаты недоступен для этого платежа. Выберите другой.',
  variantsFailed: 'Не удалось загрузить способы оплаты.',
  cancel: 'Отменить платёж',
  cancelQuestion: 'Отменить этот платёж?',
  confirmCancel: 'Да, отменить',
  keepPaying: 'Нет, вернуться',
  canceling: 'Отменяем…',
  cancelFailed: 'Не удалось отменить платёж. Попробуйте ещё раз.',
  changed: 'Данные платежа изменились. Проверьте их перед оплатой.',
  changeSeen: 'Понятно',
  confirmPaid: 'Я оплатил',
  checkingExplanation: (minutes) => {
    if (!minutes) return 'Продавец проверяет, что деньги пришли. Не платите повторно. Страница обновится сама.';
    // «до» takes the genitive: до 1 минуты, до 2 минут, до 21 минуты.
    const word = plural(rules, minutes, { one: 'минуты', other: 'минут' });
    return `Продавец проверяет, что деньги пришли: это может занять до ${minutes} ${word}. Не платите повторно. Страница обновится сама.`;
  },
  receiptReceived: 'Чек получен, платёж проверяется.',
  attachReceipt: (policy) => (policy === 'required' ? 'Приложить чек (обязательно)' : 'Приложить чек'),
  showDetails: 'Снова показать реквизиты',
  reportPayment: (prompt) => (prompt === 'confirmed' ? 'Сообщить о платеже' : 'Я уже оплатил'),
  reportIntro: (prompt) =>
    prompt === 'confirmed'
      ? 'Ваш перевод не подтвердили вовремя. Если вы отправили деньги, сообщите об этом: платёж проверят по вашему чеку.'
      : 'Отправили деньги до истечения времени? Сообщите об этом и приложите чек.',
  reportReported: 'Спасибо. Магазин получил ваше сообщение и свяжется с вами.',
  referenceLabel: 'Номер платежа',
  returnToShop: 'Вернуться в магазин',
  autoReturn: (seconds) => `Возвращаемся в магазин через ${seconds} с`,
  stayHere: 'Остаться на странице',
  openPaymentPage: 'Открыть страницу оплаты',
  openTelegram: 'Открыть в Telegram',
  chooseBank: 'Выбрать банк',
  crossBorder: (currency, country) =>
    [currency && `Банк отправит ${currency}`, country && `карта: ${country}`].filter(Boolean).join(', ') || 'Трансграничный перевод',
  errorMessage: (code) => own(ERRORS, code) ?? 'Платёжный сервис сейчас недоступен.',
  retry: 'Попробовать снова',
  connectionTrouble: 'Связь прервалась. Пробуем снова…',
  offline: 'Нет подключения к интернету. Проверим статус, когда связь вернётся.',
};
