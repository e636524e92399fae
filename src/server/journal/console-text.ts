/**
 * The console's words (console.ts), one typed table per language: English and Russian. The
 * language is `?lang=`, else the browser's `Accept-Language`, else English.
 */
import type { JournalEntry, JournalKind } from './entry.js';

export interface ConsoleText {
  readonly lang: 'en' | 'ru';
  readonly title: string;
  readonly keyLabel: string;
  readonly signIn: string;
  readonly signOut: string;
  readonly wrongKey: string;
  readonly tooMany: (minutes: number) => string;
  readonly searchLabel: string;
  readonly search: string;
  readonly searchHint: string;
  readonly notFound: (query: string) => string;
  readonly malformed: string;
  readonly invoice: string;
  readonly order: string;
  readonly status: string;
  readonly unknown: string;
  readonly readNow: string;
  readonly deliverAgain: string;
  readonly timeline: string;
  readonly dropped: (count: number) => string;
  readonly truncated: string;
  readonly failedWebhooks: string;
  readonly pendingWebhooks: string;
  readonly overdue: string;
  readonly none: string;
  readonly attempts: string;
  readonly lastError: string;
  readonly deadline: string;
  readonly noJournal: string;
  readonly kinds: Readonly<Record<JournalKind, string>>;
  readonly fields: Readonly<Record<string, string>>;
  readonly values: Readonly<Record<string, string>>;
  readonly ordersInvoices: string;
  readonly home: string;
}

const en: ConsoleText = {
  lang: 'en',
  title: 'Payments console',
  keyLabel: 'Console key',
  signIn: 'Sign in',
  signOut: 'Sign out',
  wrongKey: 'Wrong or missing key.',
  tooMany: (minutes) => `Too many wrong keys from here: try again in ${minutes} min.`,
  searchLabel: 'Invoice id or order id',
  search: 'Find',
  searchHint: 'An invoice id (UUID) or the shop’s order id.',
  notFound: (query) => `Nothing is known of “${query}”.`,
  malformed: 'That is not an invoice id or an order id (at most 200 characters).',
  invoice: 'Invoice',
  order: 'Order',
  status: 'Last known status',
  unknown: 'unknown',
  readNow: 'Read from the service now',
  deliverAgain: 'Deliver again',
  timeline: 'Timeline, newest first',
  dropped: (count) => `${count} older entries are no longer kept.`,
  truncated: 'cut: longer than an entry may be',
  failedWebhooks: 'Webhooks given up',
  pendingWebhooks: 'Webhooks pending',
  overdue: 'Open past their deadline',
  none: 'None.',
  attempts: 'attempts',
  lastError: 'last error',
  deadline: 'deadline',
  noJournal: 'This store keeps no journal.',
  kinds: {
    created: 'Invoice created',
    deal_started: 'Payer started a deal',
    requisites_shown: 'Requisites first shown to the payer',
    payer_action: 'Payer action',
    notification: 'Notification from the service',
    change: 'Change handed to the shop',
    webhook: 'Webhook attempt',
    reconciled: 'Reconciler found',
    action: 'Action',
  },
  fields: {
    amount: 'amount',
    orderId: 'order',
    by: 'by',
    operation: 'operation',
    status: 'status',
    bank: 'bank',
    option: 'option',
    method: 'method',
    requisites: 'requisites',
    outcome: 'outcome',
    route: 'where',
    action: 'action',
    uploadBytes: 'upload, bytes',
    tokenCheck: 'token',
    verdict: 'verdict',
    reason: 'reason',
    claimedStatus: 'claimed status',
    change: 'change',
    changeKind: 'kind',
    source: 'found by',
    verified: 'verified',
    fields: 'fields',
    handled: 'shop took it',
    error: 'error',
    httpStatus: 'HTTP status',
    ms: 'took, ms',
    nextTry: 'next try',
    finding: 'finding',
  },
  values: {
    accepted: 'accepted',
    wrong: 'wrong',
    verified: 'verified with the service',
    unconfirmed: 'refused: the service shows otherwise',
    refused: 'refused',
    taken_unverified: 'taken unverified',
    not_checked: 'not checked yet',
    true: 'yes',
    false: 'no',
    ok: 'ok',
    said_paid: 'I have paid',
    cancel: 'cancel',
    dispute: 'dispute',
    delivered: 'delivered',
    retry: 'will retry',
    failed: 'given up',
    read_now: 'read from the service',
    redeliver: 'deliver again',
  },
  ordersInvoices: 'Invoices of this order',
  home: 'Console',
};

const ru: ConsoleText = {
  lang: 'ru',
  title: 'Консоль платежей',
  keyLabel: 'Ключ консоли',
  signIn: 'Войти',
  signOut: 'Выйти',
  wrongKey: 'Неверный ключ или ключа нет.',
  tooMany: (minutes) => `Слишком много неверных ключей отсюда: попробуйте через ${minutes} мин.`,
  searchLabel: 'Номер счёта или заказа',
  search: 'Найти',
  searchHint: 'Номер счёта (UUID) или номер заказа магазина.',
  notFound: (query) => `О «${query}» ничего не известно.`,
  malformed: 'Это не номер счёта и не номер заказа (не длиннее 200 знаков).',
  invoice: 'Счёт',
  order: 'Заказ',
  status: 'Последний известный статус',
  unknown: 'неизвестен',
  readNow: 'Запросить у сервиса сейчас',
  deliverAgain: 'Доставить снова',
  timeline: 'История, новые сверху',
  dropped: (count) => `Старых записей больше не хранится: ${count}.`,
  truncated: 'обрезано: длиннее допустимого',
  failedWebhooks: 'Вебхуки, доставка брошена',
  pendingWebhooks: 'Вебхуки в очереди',
  overdue: 'Открыты после срока',
  none: 'Нет.',
  attempts: 'попыток',
  lastError: 'последняя ошибка',
  deadline: 'срок',
  noJournal: 'Это хранилище не ведёт журнал.',
  kinds: {
    created: 'Счёт создан',
    deal_started: 'Плательщик начал сделку',
    requisites_shown: 'Реквизиты впервые показаны плательщику',
    payer_action: 'Действие плательщика',
    notification: 'Уведомление от сервиса',
    change: 'Изменение передано магазину',
    webhook: 'Попытка вебхука',
    reconciled: 'Сверка нашла',
    action: 'Действие',
  },
  fields: {
    amount: 'сумма',
    orderId: 'заказ',
    by: 'кто',
    operation: 'операция',
    status: 'статус',
    bank: 'банк',
    option: 'вариант',
    method: 'способ',
    requisites: 'реквизиты',
    outcome: 'итог',
    route: 'где',
    action: 'действие',
    uploadBytes: 'загрузка, байт',
    tokenCheck: 'токен',
    verdict: 'вердикт',
    reason: 'причина',
    claimedStatus: 'заявленный статус',
    change: 'изменение',
    changeKind: 'вид',
    source: 'источник',
    verified: 'проверено',
    fields: 'поля',
    handled: 'магазин принял',
    error: 'ошибка',
    httpStatus: 'HTTP-статус',
    ms: 'заняло, мс',
    nextTry: 'следующая попытка',
    finding: 'находка',
  },
  values: {
    accepted: 'принят',
    wrong: 'неверный',
    verified: 'подтверждено сервисом',
    unconfirmed: 'отклонено: у сервиса иначе',
    refused: 'отклонено',
    taken_unverified: 'принято без проверки',
    not_checked: 'ещё не проверено',
    true: 'да',
    false: 'нет',
    ok: 'успешно',
    said_paid: 'Я оплатил',
    cancel: 'отмена',
    dispute: 'спор',
    delivered: 'доставлен',
    retry: 'будет повтор',
    failed: 'брошен',
    read_now: 'запрос к сервису',
    redeliver: 'доставить снова',
  },
  ordersInvoices: 'Счета этого заказа',
  home: 'Консоль',
};

export const CONSOLE_TEXTS = { en, ru } as const;

/** The language of a request: `?lang=ru|en`, else the first of them in `Accept-Language`, else English. */
export const consoleText = (request: Request, url: URL): ConsoleText => {
  const asked = url.searchParams.get('lang');
  if (asked === 'ru' || asked === 'en') return CONSOLE_TEXTS[asked];
  for (const part of (request.headers.get('accept-language') ?? '').split(',')) {
    const tag = part.trim().slice(0, 2).toLowerCase();
    if (tag === 'ru' || tag === 'en') return CONSOLE_TEXTS[tag];
  }
  return en;
};

/** An entry's value as words of `text` (a known value translated, else as it is). */
export const valueText = (text: ConsoleText, value: JournalEntry['details'][string]): string => {
  if (value === null) return '—';
  const key = String(value);
  return Object.hasOwn(text.values, key) ? text.values[key]! : key;
};
