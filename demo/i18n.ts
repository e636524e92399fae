/** The demo page's own words; the checkout brings its own translations. */
import type { InvoiceAction, NotificationView, ServiceSwitch } from './shared/demo-api.js';
import type { Language } from 'merchant-checkout';
import { TRANSFER_CONFIRMED, UNKNOWN_STATUS, type Scenario } from './shared/scenarios.js';

export type Lang = 'en' | 'ru';

export interface PageText {
  locale: string;
  tagline: string;
  demoBadge: string;
  language: string;
  theme: string;
  themes: { auto: string; light: string; dark: string };
  steps: [string, string, string];
  payerHeading: string;
  orderLabel: (orderId: string) => string;
  amount: string;
  created: string;
  shopStatus: string;
  shopStatusHint: string;
  dealStatus: string;
  dealStatusHint: string;
  deal: string;
  noDeal: string;
  payoutNote: string;
  noOrder: string;
  preparing: string;
  merchantHeading: string;
  merchantIntro: string;
  createHeading: string;
  direction: string;
  payIn: string;
  payOut: string;
  amountHint: string;
  currency: string;
  startDeal: string;
  startDealHint: string;
  bank: string;
  option: string;
  anyChoice: string;
  options: Record<string, string>;
  payeeRequisites: string;
  payeeHolder: string;
  advanced: string;
  advancedHint: string;
  maxAmount: string;
  maxAmountHint: string;
  successUrl: string;
  cancelUrl: string;
  /** Before the service's own words when it refused the invoice. */
  serviceRefused: string;
  create: string;
  creating: string;
  orderCreated: (orderId: string) => string;
  ordersHeading: string;
  noOrders: string;
  directions: { in: string; out: string };
  mockHeading: string;
  mockIntro: string;
  selected: (orderId: string) => string;
  nothingSelected: string;
  markPaid: string;
  expire: string;
  startDealNow: string;
  unknownStatus: string;
  transferHeading: string;
  confirmTransfer: string;
  disputeReason: string;
  disputeReasons: Record<'no_payment' | 'invalid_sum', string>;
  disputeAmount: string;
  openDispute: string;
  resolveAs: Record<'paid' | 'canceled', string>;
  resolved: (outcome: string) => string;
  serviceHeading: string;
  switches: Record<ServiceSwitch, string>;
  switchHints: Record<ServiceSwitch, string>;
  switched: Record<ServiceSwitch, (on: boolean) => string>;
  serviceClock: string;
  advanceMinute: string;
  advanceHour: string;
  clockMoved: (time: string) => string;
  shopOutage: string;
  shopOutageOn: (time: string) => string;
  expiresAt: string;
  notificationsLabel: string;
  noNotifications: string;
  notificationStates: Record<NotificationView['state'], string>;
  attempts: (statuses: string[]) => string;
  referenceHeading: string;
  referenceIntro: string;
  rates: { in: string; out: string };
  banksHeading: (count: number) => string;
  loading: string;
  retry: string;
  networkHeading: string;
  latency: string;
  setLatency: string;
  failNext: string;
  withStatus: string;
  fail: string;
  hangNext: string;
  hang: string;
  malformNext: string;
  malform: string;
  requests: string;
  reset: string;
  done: Record<Exclude<InvoiceAction, 'resolve'> | 'latency' | 'fail' | 'hang' | 'malform' | 'reset', string>;
  eventsHeading: string;
  noEvents: string;
  /** How a status in the event log arrived (`checkout-status`'s `detail.source`). */
  /** Shown when the element's "Return to the shop" brought the payer back. */
  returned: string;
  eventSource: Record<'push' | 'poll' | 'load' | 'deal' | 'cancel' | 'receipt' | 'report', string>;
  clear: string;
  scenariosHeading: string;
  scenariosIntro: string;
  scenarios: Record<Scenario, string>;
  optionScenariosHeading: string;
  /** One payment option's scenario: the option, its currency and bank (the checkout's language follows, in its own name). */
  optionScenario: (option: string, currency: string, bank: string) => string;
  pagesHeading: string;
  reactPage: string;
  vuePage: string;
  footer: string;
}

export const TEXT: Record<Lang, PageText> = {
  en: {
    locale: 'en',
    tagline: 'Loose-leaf tea from small gardens',
    demoBadge: 'Demo shop · mock payment service',
    language: 'Language',
    theme: 'Theme',
    themes: { auto: 'Auto', light: 'Light', dark: 'Dark' },
    steps: ['Cart', 'Delivery', 'Payment'],
    payerHeading: 'Payment',
    orderLabel: (orderId) => `Order ${orderId}`,
    amount: 'Amount',
    created: 'Created',
    shopStatus: 'Shop status',
    shopStatusHint: 'as the shop’s notifications report it',
    dealStatus: 'Deal status',
    dealStatusHint: 'as the mock service holds it',
    deal: 'deal',
    noDeal: 'no deal',
    payoutNote: 'A pay-out: the service sends the money to the payee, so a payer has nothing to do here. Shown for QA.',
    noOrder: 'No order selected. Create an invoice on the merchant side or open a QA scenario.',
    preparing: 'Preparing the scenario…',
    merchantHeading: 'Merchant side',
    merchantIntro: 'The shop’s back office and the mock payment service. The payer sees only the checkout.',
    createHeading: 'New invoice',
    direction: 'Direction',
    payIn: 'Pay-in',
    payOut: 'Pay-out',
    amountHint: 'Decimal text, e.g. 1500.00',
    currency: 'Currency',
    startDeal: 'Start a deal at once',
    startDealHint: 'Without it the payer chooses how to pay',
    bank: 'Bank',
    option: 'Payment option',
    anyChoice: 'Any (the service chooses)',
    options: { TO_CARD: 'Card transfer', SBP: 'SBP (Faster Payments)' },
    payeeRequisites: 'Payee card or phone',
    payeeHolder: 'Payee name',
    advanced: 'Advanced: documented extra fields',
    advancedHint: 'Empty fields are not sent. The service’s own payment page uses the URLs; the checkout does not.',
    maxAmount: 'Maximum amount',
    maxAmountHint: 'The service makes the amount unique, up to this; not less than the amount',
    successUrl: 'Success URL',
    cancelUrl: 'Cancel URL',
    serviceRefused: 'The payment service refused:',
    create: 'Create invoice',
    creating: 'Creating…',
    orderCreated: (orderId) => `Order ${orderId} created`,
    ordersHeading: 'Invoices',
    noOrders: 'No invoices yet.',
    directions: { in: 'pay-in', out: 'pay-out' },
    mockHeading: 'Mock payment service',
    mockIntro: 'What the service would do by itself, on demand.',
    selected: (orderId) => `Order ${orderId}`,
    nothingSelected: 'Select an invoice first.',
    markPaid: 'Mark paid',
    expire: 'Expire now',
    startDealNow: 'Start deal',
    unknownStatus: 'Unknown status',
    transferHeading: 'Transfer and disputes',
    confirmTransfer: 'Confirm transfer (attach a receipt)',
    disputeReason: 'Reason',
    disputeReasons: { no_payment: 'No payment (no_payment)', invalid_sum: 'Other amount (invalid_sum)' },
    disputeAmount: 'Amount sent',
    openDispute: 'Open dispute',
    resolveAs: { paid: 'Resolve dispute as paid', canceled: 'Resolve dispute as canceled' },
    resolved: (outcome) => `The service resolved the dispute: the invoice is ${outcome}.`,
    serviceHeading: 'Service switches and clock',
    switches: { noRequisites: 'No free requisites', receiverDown: 'Shop’s notification receiver is down' },
    switchHints: {
      noRequisites: 'No bank has free requisites: starting a deal is refused with PAYMENT_METHOD_NOT_AVAILABLE',
      receiverDown: 'It answers HTTP 500, so the service retries each notification twice more, 60 s apart',
    },
    switched: {
      noRequisites: (on) => (on ? 'No bank has free requisites now.' : 'Banks have free requisites again.'),
      receiverDown: (on) => (on ? 'The shop’s notification receiver now answers 500.' : 'The shop’s notification receiver is back.'),
    },
    serviceClock: 'Service clock',
    advanceMinute: 'Advance the clock 60 s',
    advanceHour: 'Advance the clock 1 h',
    clockMoved: (time) => `The service clock is now ${time}: retries and expiries that fell due have run.`,
    shopOutage: 'Shop’s server down for 3 min',
    shopOutageOn: (time) =>
      `The shop’s server does not answer until ${time} (service clock): every notification of that window is lost after its retries; only reading the invoices again finds them.`,
    expiresAt: 'Invoice expires',
    notificationsLabel: 'Notifications to the shop',
    noNotifications: 'None yet (they are sent when the invoice status changes).',
    notificationStates: {
      pending: 'retrying',
      delivered: 'delivered',
      failed: 'failed for good',
      skipped: 'skipped',
      canceled: 'canceled',
    },
    attempts: (statuses) => `${statuses.length} ${statuses.length === 1 ? 'attempt' : 'attempts'} (HTTP ${statuses.join(', ')})`,
    referenceHeading: 'Service reference data',
    referenceIntro: 'Read-only, from the service: its payment-methods list for RUB and the current rates (MerchantClient).',
    rates: { in: 'Pay-in rate', out: 'Pay-out rate' },
    banksHeading: (count) => `Banks for RUB (${count})`,
    loading: 'Loading…',
    retry: 'Try again',
    networkHeading: 'Service faults',
    latency: 'Latency, ms',
    setLatency: 'Set',
    failNext: 'Fail next',
    withStatus: 'with HTTP',
    fail: 'Fail',
    hangNext: 'Hang next',
    hang: 'Hang',
    malformNext: 'Break the JSON of next',
    malform: 'Break',
    requests: 'requests',
    reset: 'Reset faults',
    done: {
      paid: 'The service marked the invoice paid.',
      expire: 'The service expired the invoice.',
      deal: 'The service started a deal.',
      'unknown-status': `The service now reports the status “${UNKNOWN_STATUS}”.`,
      confirm: `The payer confirmed the transfer with a receipt: the deal is ${TRANSFER_CONFIRMED}.`,
      dispute: 'The payer opened a dispute: the invoice is in dispute.',
      latency: 'Latency set.',
      fail: 'The next requests to the service will fail.',
      hang: 'The next requests to the service will hang.',
      malform: 'The next answers of the service will be broken JSON.',
      reset: 'Faults and latency cleared.',
    },
    eventsHeading: 'Checkout events',
    noEvents: 'Events of the checkout appear here.',
    returned: 'Back in the shop: the checkout sent you here (return-url).',
    eventSource: { push: 'push', poll: 'poll', load: 'reload', deal: 'deal', cancel: 'cancel', receipt: 'receipt', report: 'report' },
    clear: 'Clear',
    scenariosHeading: 'QA scenarios',
    scenariosIntro: 'Each link creates a fresh invoice in that state (and clears faults and switches).',
    scenarios: {
      waiting: 'Waiting for the transfer: requisites, QR code, countdown',
      checking: '“I have paid” pressed: the payment is being checked, a receipt can be attached',
      'sbp-qr': 'An SBP QR deal: the NSPK QR code; on a phone “Choose your bank” opens the bank picker',
      'no-deal': 'No deal yet: the payer picks a way to pay',
      'no-requisites': 'No bank has free requisites: picking one shows a notice and keeps the picker',
      'transfer-confirmed': `The payer confirmed the transfer with a receipt: deal ${TRANSFER_CONFIRMED}, “Receipt received”`,
      'unique-amount': 'Unique amounts (maxAmount): the service asks for a little more than the order, and the checkout says so',
      corrected: 'Paid, then corrected by the service (a second “paid”): the amount settled beside the order’s',
      dispute: 'A dispute is open: “Your payment is being reviewed”',
      payout: 'A pay-out: the shop sends money to the customer',
      canceled: 'Canceled',
      expired: 'Expired: “I have already paid” opens the report form',
      paid: 'Paid: “Return to the shop” (add &auto-return=5 for the automatic return)',
      other: `A status the checkout does not know (“${UNKNOWN_STATUS}”)`,
      error: 'The service fails: error screen, then “Try again” works',
      slow: 'The service answers slowly: loading first',
    },
    optionScenariosHeading: 'Every payment option',
    optionScenario: (option, currency, bank) => `${option} in ${currency} at ${bank}`,
    pagesHeading: 'The same checkout in a framework',
    reactPage: 'React page',
    vuePage: 'Vue page',
    footer: 'Samovar Tea is a demo shop. No money moves: payments run against the mock payment service.',
  },
  ru: {
    locale: 'ru',
    tagline: 'Листовой чай с небольших плантаций',
    demoBadge: 'Демо-магазин · тестовый платёжный сервис',
    language: 'Язык',
    theme: 'Тема',
    themes: { auto: 'Авто', light: 'Светлая', dark: 'Тёмная' },
    steps: ['Корзина', 'Доставка', 'Оплата'],
    payerHeading: 'Оплата',
    orderLabel: (orderId) => `Заказ ${orderId}`,
    amount: 'Сумма',
    created: 'Создан',
    shopStatus: 'Статус в магазине',
    shopStatusHint: 'по уведомлениям сервиса',
    dealStatus: 'Статус сделки',
    dealStatusHint: 'как его видит тестовый сервис',
    deal: 'сделка',
    noDeal: 'сделки нет',
    payoutNote: 'Выплата: деньги получателю отправляет сервис, плательщику здесь делать нечего. Показано для QA.',
    noOrder: 'Заказ не выбран. Создайте счёт в панели магазина или откройте сценарий.',
    preparing: 'Готовим сценарий…',
    merchantHeading: 'Сторона магазина',
    merchantIntro: 'Бэк-офис магазина и тестовый платёжный сервис. Плательщик видит только форму оплаты.',
    createHeading: 'Новый счёт',
    direction: 'Направление',
    payIn: 'Приём',
    payOut: 'Выплата',
    amountHint: 'Десятичное число, например 1500.00',
    currency: 'Валюта',
    startDeal: 'Сразу начать сделку',
    startDealHint: 'Иначе плательщик сам выберет способ оплаты',
    bank: 'Банк',
    option: 'Способ оплаты',
    anyChoice: 'Любой (выберет сервис)',
    options: { TO_CARD: 'Перевод на карту', SBP: 'СБП' },
    payeeRequisites: 'Карта или телефон получателя',
    payeeHolder: 'Имя получателя',
    advanced: 'Дополнительно: поля из документации',
    advancedHint: 'Пустые поля не отправляются. Адреса использует платёжная страница сервиса, форма оплаты — нет.',
    maxAmount: 'Максимальная сумма',
    maxAmountHint: 'Сервис делает сумму уникальной, но не выше этой; не меньше суммы',
    successUrl: 'Адрес после оплаты',
    cancelUrl: 'Адрес после отмены',
    serviceRefused: 'Платёжный сервис отказал:',
    create: 'Создать счёт',
    creating: 'Создаём…',
    orderCreated: (orderId) => `Заказ ${orderId} создан`,
    ordersHeading: 'Счета',
    noOrders: 'Счетов пока нет.',
    directions: { in: 'приём', out: 'выплата' },
    mockHeading: 'Тестовый платёжный сервис',
    mockIntro: 'То, что сервис сделал бы сам, — по кнопке.',
    selected: (orderId) => `Заказ ${orderId}`,
    nothingSelected: 'Сначала выберите счёт.',
    markPaid: 'Оплачен',
    expire: 'Истёк',
    startDealNow: 'Начать сделку',
    unknownStatus: 'Неизвестный статус',
    transferHeading: 'Перевод и споры',
    confirmTransfer: 'Подтвердить перевод (приложить чек)',
    disputeReason: 'Причина',
    disputeReasons: { no_payment: 'Нет платежа (no_payment)', invalid_sum: 'Другая сумма (invalid_sum)' },
    disputeAmount: 'Переведено',
    openDispute: 'Открыть спор',
    resolveAs: { paid: 'Решить спор: оплачен', canceled: 'Решить спор: отменён' },
    resolved: (outcome) => `Сервис решил спор: счёт теперь ${outcome}.`,
    serviceHeading: 'Переключатели и часы сервиса',
    switches: { noRequisites: 'Нет свободных реквизитов', receiverDown: 'Приёмник уведомлений магазина не работает' },
    switchHints: {
      noRequisites: 'Ни у одного банка нет свободных реквизитов: сделка не начнётся (PAYMENT_METHOD_NOT_AVAILABLE)',
      receiverDown: 'Он отвечает HTTP 500, и сервис повторяет каждое уведомление ещё дважды с интервалом 60 с',
    },
    switched: {
      noRequisites: (on) => (on ? 'Теперь ни у одного банка нет свободных реквизитов.' : 'У банков снова есть свободные реквизиты.'),
      receiverDown: (on) => (on ? 'Приёмник уведомлений магазина отвечает 500.' : 'Приёмник уведомлений магазина снова работает.'),
    },
    serviceClock: 'Часы сервиса',
    advanceMinute: 'Перевести часы на 60 с',
    advanceHour: 'Перевести часы на 1 ч',
    clockMoved: (time) => `Часы сервиса показывают ${time}: наступившие повторы и сроки отработали.`,
    shopOutage: 'Сервер магазина недоступен 3 мин',
    shopOutageOn: (time) =>
      `Сервер магазина не отвечает до ${time} (часы сервиса): все уведомления за это время теряются после повторов; найти их можно, только перечитав счета.`,
    expiresAt: 'Счёт истекает',
    notificationsLabel: 'Уведомления магазину',
    noNotifications: 'Пока нет (они приходят при смене статуса счёта).',
    notificationStates: {
      pending: 'повторяется',
      delivered: 'доставлено',
      failed: 'не доставлено',
      skipped: 'пропущено',
      canceled: 'отменено',
    },
    attempts: (statuses) => `попыток: ${statuses.length} (HTTP ${statuses.join(', ')})`,
    referenceHeading: 'Справочники сервиса',
    referenceIntro: 'Только чтение, из сервиса: список банков для RUB и текущие курсы (MerchantClient).',
    rates: { in: 'Курс приёма', out: 'Курс выплаты' },
    banksHeading: (count) => `Банки для RUB (${count})`,
    loading: 'Загрузка…',
    retry: 'Повторить',
    networkHeading: 'Сбои сервиса',
    latency: 'Задержка, мс',
    setLatency: 'Задать',
    failNext: 'Ошибка на',
    withStatus: 'с HTTP',
    fail: 'Сломать',
    hangNext: 'Зависание на',
    hang: 'Подвесить',
    malformNext: 'Битый JSON на',
    malform: 'Испортить',
    requests: 'запросов',
    reset: 'Сбросить сбои',
    done: {
      paid: 'Сервис отметил счёт оплаченным.',
      expire: 'Срок счёта истёк.',
      deal: 'Сервис начал сделку.',
      'unknown-status': `Сервис сообщает статус «${UNKNOWN_STATUS}».`,
      confirm: `Плательщик подтвердил перевод чеком: сделка ${TRANSFER_CONFIRMED}.`,
      dispute: 'Плательщик открыл спор: счёт в статусе dispute.',
      latency: 'Задержка установлена.',
      fail: 'Следующие запросы к сервису завершатся ошибкой.',
      hang: 'Следующие запросы к сервису зависнут.',
      malform: 'Следующие ответы сервиса будут битым JSON.',
      reset: 'Сбои и задержка сброшены.',
    },
    eventsHeading: 'События формы оплаты',
    noEvents: 'Здесь появятся события формы оплаты.',
    returned: 'Вы снова в магазине: сюда вернул чекаут (return-url).',
    eventSource: { push: 'поток', poll: 'опрос', load: 'перезагрузка', deal: 'сделка', cancel: 'отмена', receipt: 'чек', report: 'жалоба' },
    clear: 'Очистить',
    scenariosHeading: 'Сценарии для QA',
    scenariosIntro: 'Каждая ссылка создаёт новый счёт в этом состоянии (и сбрасывает сбои и переключатели).',
    scenarios: {
      waiting: 'Ожидание перевода: реквизиты, QR-код, таймер',
      checking: 'Нажато «Я оплатил»: платёж проверяется, можно приложить чек',
      'sbp-qr': 'Сделка по QR СБП: QR-код НСПК; на телефоне «Выбрать банк» открывает список банков',
      'no-deal': 'Сделки нет: плательщик выбирает способ оплаты',
      'no-requisites': 'Ни у одного банка нет свободных реквизитов: выбор банка показывает сообщение, список остаётся',
      'transfer-confirmed': `Плательщик подтвердил перевод чеком: сделка ${TRANSFER_CONFIRMED}, «Чек получен»`,
      'unique-amount': 'Уникальные суммы (maxAmount): сервис просит чуть больше суммы заказа, и форма об этом говорит',
      corrected: 'Оплачен, затем сумма исправлена сервисом (второй «paid»): зачтённая сумма рядом с суммой заказа',
      dispute: 'Открыт спор: «Платёж на проверке»',
      payout: 'Выплата: магазин отправляет деньги покупателю',
      canceled: 'Отменён',
      expired: 'Истёк: «Я уже оплатил» открывает форму сообщения о платеже',
      paid: 'Оплачен: «Вернуться в магазин» (добавьте &auto-return=5 для автовозврата)',
      other: `Статус, которого форма не знает («${UNKNOWN_STATUS}»)`,
      error: 'Сервис падает: экран ошибки, затем «Повторить» помогает',
      slow: 'Сервис отвечает медленно: сначала загрузка',
    },
    optionScenariosHeading: 'Все способы оплаты',
    optionScenario: (option, currency, bank) => `${option} в ${currency}, банк ${bank}`,
    pagesHeading: 'Та же форма во фреймворке',
    reactPage: 'Страница на React',
    vuePage: 'Страница на Vue',
    footer: '«Самовар» — демо-магазин. Деньги никуда не уходят: оплаты идут через тестовый платёжный сервис.',
  },
};

export const isLang = (value: unknown): value is Lang => value === 'en' || value === 'ru';

/** Each language of the checkout in its own words, for the language switch (the page itself speaks English and Russian). */
export const LANGUAGE_NAMES: Readonly<Record<Language, string>> = {
  en: 'English',
  ru: 'Русский',
  bn: 'বাংলা',
  uz: 'Oʻzbekcha',
  az: 'Azərbaycanca',
  es: 'Español',
  ko: '한국어',
  kk: 'Қазақша',
  tg: 'Тоҷикӣ',
  ky: 'Кыргызча',
};
