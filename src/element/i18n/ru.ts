import type { Translation } from './translation.js';
import { own, timeLeftUnits } from './translation.js';

const plural = new Intl.PluralRules('ru');
const UNITS = {
  minute: { one: 'минута', few: 'минуты', many: 'минут' },
  second: { one: 'секунда', few: 'секунды', many: 'секунд' },
} as const;

const TITLES = {
  idle: 'Оплата',
  loading: 'Загружаем платёж…',
  waiting: 'Переведите деньги',
  picker: 'Выберите способ оплаты',
  payout: 'Выплата в обработке',
  paid: 'Платёж получен',
  canceled: 'Платёж отменён',
  expired: 'Время на оплату истекло',
  other: 'Статус платежа',
  error: 'Не удалось загрузить платёж',
} as const;
const STATUSES: Record<string, string> = {
  waiting: 'ожидаем ваш перевод',
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
  expired: 'Если вы уже отправили деньги, свяжитесь с магазином: они будут зачислены.',
};
const REQUISITES = { card: 'Номер карты', phone: 'Номер телефона', account: 'Реквизиты' } as const;
const REQUISITES_TO_COPY = { card: 'номер карты', phone: 'номер телефона', account: 'реквизиты' } as const;
const REQUISITES_COPIED = {
  card: 'Номер карты скопирован',
  phone: 'Номер телефона скопирован',
  account: 'Реквизиты скопированы',
} as const;
const OPTIONS: Record<string, string> = { TO_CARD: 'Перевод на карту', SBP: 'СБП (по номеру телефона)' };
const ERRORS: Record<string, string> = {
  network_error: 'Нет связи с платёжным сервисом. Проверьте подключение к интернету.',
  not_found: 'Платёж не найден.',
  bad_request: 'Ссылка на платёж недействительна.',
  invalid_response: 'Платёжный сервис прислал ответ, который не удалось прочитать.',
  upstream_timeout: 'Платёжный сервис не ответил вовремя.',
  upstream_invalid: 'Платёжный сервис ответил что-то неожиданное.',
  service_unavailable: 'Приём платежей в этом магазине сейчас отключён. Свяжитесь с магазином.',
  cancel_refused: 'Платёж не удалось отменить: его состояние изменилось.',
};

export const ru: Translation = {
  language: 'ru',
  loading: TITLES.loading,
  title: (screen) => TITLES[screen],
  payee: (storeName) => `Оплата: ${storeName}`,
  statusLabel: 'Статус',
  status: (screen, rawStatus) => own(STATUSES, screen) ?? rawStatus,
  explanation: (screen, rawStatus) =>
    own(EXPLANATIONS, screen) ?? `Статус платежа: «${rawStatus}». Страница обновится сама.`,
  amountLabel: 'Сумма перевода',
  bankLabel: 'Банк',
  requisitesLabel: (kind) => REQUISITES[kind],
  holderLabel: 'Получатель',
  guidance: (amount) =>
    `Переведите ровно ${amount} одним платежом. Другая сумма или несколько платежей задержат зачисление.`,
  copy: 'Скопировать',
  copyLabel: (field, kind) => `Скопировать ${field === 'amount' ? 'сумму' : REQUISITES_TO_COPY[kind]}`,
  copied: 'Скопировано',
  copiedAnnouncement: (field, kind) => (field === 'amount' ? 'Сумма скопирована' : REQUISITES_COPIED[kind]),
  copyManually: 'Скопировать не получилось: текст выделен, скопируйте его через меню устройства.',
  qrLabel: 'QR-код для оплаты в приложении банка',
  qrHint: 'Отсканируйте его в приложении банка или камерой',
  openInBankApp: 'Открыть в приложении банка',
  timeLeftLabel: 'Осталось времени',
  timeLeftAnnouncement: (remainingMs) => {
    const { unit, count } = timeLeftUnits(remainingMs);
    const form = plural.select(count);
    const word = UNITS[unit][form === 'one' || form === 'few' ? form : 'many'];
    return `${form === 'one' ? 'Осталась' : 'Осталось'} ${count} ${word} на оплату`;
  },
  variantsLabel: 'Способы оплаты',
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
  errorMessage: (code) => own(ERRORS, code) ?? 'Платёжный сервис сейчас недоступен.',
  retry: 'Попробовать снова',
  connectionTrouble: 'Связь прервалась. Пробуем снова…',
};
