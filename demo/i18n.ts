/** The demo page's own words; the checkout brings its own translations. */
import type { Scenario } from './shared/scenarios.js';

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
  done: Record<'paid' | 'expire' | 'deal' | 'unknown-status' | 'latency' | 'fail' | 'hang' | 'malform' | 'reset', string>;
  eventsHeading: string;
  noEvents: string;
  clear: string;
  scenariosHeading: string;
  scenariosIntro: string;
  scenarios: Record<Scenario, string>;
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
      'unknown-status': 'The service now reports the status “dispute”.',
      latency: 'Latency set.',
      fail: 'The next requests to the service will fail.',
      hang: 'The next requests to the service will hang.',
      malform: 'The next answers of the service will be broken JSON.',
      reset: 'Faults and latency cleared.',
    },
    eventsHeading: 'Checkout events',
    noEvents: 'Events of the checkout appear here.',
    clear: 'Clear',
    scenariosHeading: 'QA scenarios',
    scenariosIntro: 'Each link creates a fresh invoice in that state (and clears faults).',
    scenarios: {
      waiting: 'Waiting for the transfer: requisites, QR code, countdown',
      'no-deal': 'No deal yet: the payer picks a way to pay',
      payout: 'A pay-out: the shop sends money to the customer',
      canceled: 'Canceled',
      expired: 'Expired',
      paid: 'Paid',
      other: 'A status the checkout does not know (“dispute”)',
      error: 'The service fails: error screen, then “Try again” works',
      slow: 'The service answers slowly: loading first',
    },
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
      'unknown-status': 'Сервис сообщает статус «dispute».',
      latency: 'Задержка установлена.',
      fail: 'Следующие запросы к сервису завершатся ошибкой.',
      hang: 'Следующие запросы к сервису зависнут.',
      malform: 'Следующие ответы сервиса будут битым JSON.',
      reset: 'Сбои и задержка сброшены.',
    },
    eventsHeading: 'События формы оплаты',
    noEvents: 'Здесь появятся события формы оплаты.',
    clear: 'Очистить',
    scenariosHeading: 'Сценарии для QA',
    scenariosIntro: 'Каждая ссылка создаёт новый счёт в этом состоянии (и сбрасывает сбои).',
    scenarios: {
      waiting: 'Ожидание перевода: реквизиты, QR-код, таймер',
      'no-deal': 'Сделки нет: плательщик выбирает способ оплаты',
      payout: 'Выплата: магазин отправляет деньги покупателю',
      canceled: 'Отменён',
      expired: 'Истёк',
      paid: 'Оплачен',
      other: 'Статус, которого форма не знает («dispute»)',
      error: 'Сервис падает: экран ошибки, затем «Повторить» помогает',
      slow: 'Сервис отвечает медленно: сначала загрузка',
    },
    pagesHeading: 'Та же форма во фреймворке',
    reactPage: 'Страница на React',
    vuePage: 'Страница на Vue',
    footer: '«Самовар» — демо-магазин. Деньги никуда не уходят: оплаты идут через тестовый платёжный сервис.',
  },
};

export const isLang = (value: unknown): value is Lang => value === 'en' || value === 'ru';
