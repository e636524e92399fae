/**
 * The boot strings: what the element says in each language before its translation has loaded
 * (the loading heading), and when it could not be loaded at all (offline). The only strings in
 * the first-render file; each translation takes its loading heading, error heading and
 * connection message from here rather than carrying them twice.
 */
import type { Language } from './languages.js';

/** What the element says while its strings load, and when they could not be loaded at all. */
export interface BootStrings {
  /** The loading screen's heading (also a key of the translation). */
  loading: string;
  /** The error screen when the strings could not be loaded (offline). */
  loadFailed: string;
  /** Why: no connection, check the internet connection. */
  loadFailedReason: string;
  /** Its one way out. */
  reload: string;
}

/**
 * The boot strings of every language: the loading heading, and the error screen with its one
 * way out when the translation could not be loaded (offline). In the first-render file.
 */
export const BOOT_STRINGS: { readonly [L in Language]: BootStrings } = {
  en: {
    loading: 'Loading the payment…',
    loadFailed: 'Could not load the payment',
    loadFailedReason: 'No connection to the payment service. Check your internet connection.',
    reload: 'Reload the page',
  },
  ru: {
    loading: 'Загружаем платёж…',
    loadFailed: 'Не удалось загрузить платёж',
    loadFailedReason: 'Нет связи с платёжным сервисом. Проверьте подключение к интернету.',
    reload: 'Обновить страницу',
  },
  bn: {
    loading: 'পেমেন্ট লোড হচ্ছে…',
    loadFailed: 'পেমেন্ট লোড করা যায়নি',
    loadFailedReason: 'পেমেন্ট সার্ভিসের সাথে সংযোগ নেই। ইন্টারনেট সংযোগ পরীক্ষা করুন।',
    reload: 'পেজটি আবার লোড করুন',
  },
  uz: {
    loading: 'Toʻlov yuklanmoqda…',
    loadFailed: 'Toʻlovni yuklab boʻlmadi',
    loadFailedReason: 'Toʻlov xizmati bilan aloqa yoʻq. Internetga ulanishni tekshiring.',
    reload: 'Sahifani yangilash',
  },
  az: {
    loading: 'Ödəniş yüklənir…',
    loadFailed: 'Ödənişi yükləmək mümkün olmadı',
    loadFailedReason: 'Ödəniş xidməti ilə əlaqə yoxdur. İnternet bağlantısını yoxlayın.',
    reload: 'Səhifəni yeniləyin',
  },
  es: {
    loading: 'Cargando el pago…',
    loadFailed: 'No se pudo cargar el pago',
    loadFailedReason: 'No hay conexión con el servicio de pago. Compruebe su conexión a internet.',
    reload: 'Recargar la página',
  },
  ko: {
    loading: '결제 정보를 불러오는 중…',
    loadFailed: '결제 정보를 불러오지 못했습니다',
    loadFailedReason: '결제 서비스에 연결할 수 없습니다. 인터넷 연결을 확인하세요.',
    reload: '페이지 새로고침',
  },
  kk: {
    loading: 'Төлем жүктелуде…',
    loadFailed: 'Төлемді жүктеу мүмкін болмады',
    loadFailedReason: 'Төлем қызметімен байланыс жоқ. Интернетке қосылуды тексеріңіз.',
    reload: 'Бетті жаңарту',
  },
  tg: {
    loading: 'Пардохт бор карда мешавад…',
    loadFailed: 'Пардохтро бор кардан нашуд',
    loadFailedReason: 'Бо хидмати пардохт алоқа нест. Пайвастшавӣ ба интернетро санҷед.',
    reload: 'Саҳифаро навсозӣ кунед',
  },
  ky: {
    loading: 'Төлөм жүктөлүүдө…',
    loadFailed: 'Төлөмдү жүктөө мүмкүн болгон жок',
    loadFailedReason: 'Төлөм кызматы менен байланыш жок. Интернетке туташууну текшериңиз.',
    reload: 'Баракты жаңылоо',
  },
};
