/**
 * What the React and Vue pages share besides the element: the language and theme from the
 * URL (`?lang=ru&theme=dark`, as on the main page) and the order to show (`?invoice=<id>` from
 * the main page's links, else a fresh one waiting for the transfer).
 */
import { demoApi, type DemoOrder } from './demo-api.js';

export interface PageSettings {
  lang: 'en' | 'ru';
  /** Undefined: follow the system (`prefers-color-scheme`). */
  theme: 'light' | 'dark' | undefined;
}

/** Reads `lang` and `theme` from the URL and applies them to `<html>` (the element follows its `lang`). */
export const applyPageSettings = (): PageSettings => {
  const params = new URLSearchParams(location.search);
  const lang = params.get('lang') === 'ru' ? 'ru' : 'en';
  const themeParam = params.get('theme');
  const theme = themeParam === 'light' || themeParam === 'dark' ? themeParam : undefined;
  document.documentElement.lang = lang;
  if (theme) document.documentElement.dataset.theme = theme;
  return { lang, theme };
};

/** The order of `?invoice=`, or a new one waiting for the transfer (its id then goes into the URL). */
export const orderForPage = async (): Promise<DemoOrder> => {
  const params = new URLSearchParams(location.search);
  const wanted = params.get('invoice');
  if (wanted) {
    const found = (await demoApi.listOrders()).find((order) => order.invoiceId === wanted);
    if (found) return found;
  }
  const order = await demoApi.scenario('waiting');
  params.set('invoice', order.invoiceId);
  history.replaceState(null, '', `?${params.toString()}`);
  return order;
};

/** The words of the framework pages. */
export const FRAMEWORK_TEXT = {
  en: {
    back: '← Back to the shop',
    intro: (framework: string) =>
      `The same checkout inside a ${framework} app: the status line and the event list below are ${framework} state, updated by the element's events.`,
    order: (orderId: string) => `Order ${orderId}`,
    status: 'Status',
    waiting: 'waiting for the checkout…',
    markPaid: 'Mark paid (mock service)',
    events: 'Events',
    noEvents: 'No events yet.',
  },
  ru: {
    back: '← Вернуться в магазин',
    intro: (framework: string) =>
      `Та же форма оплаты внутри приложения на ${framework}: строка статуса и список событий ниже — состояние ${framework}, его обновляют события элемента.`,
    order: (orderId: string) => `Заказ ${orderId}`,
    status: 'Статус',
    waiting: 'ждём форму оплаты…',
    markPaid: 'Отметить оплату (тестовый сервис)',
    events: 'События',
    noEvents: 'Событий пока нет.',
  },
} as const;
