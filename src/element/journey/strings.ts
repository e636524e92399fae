/**
 * The strings of the receipt and report forms in every language of the element, in the forms'
 * chunk (journey/forms.ts). All but English and Russian machine-translated, not yet reviewed by
 * native speakers (docs/element.md, "Languages"); a merchant overrides any of them through the
 * element's `strings`.
 */
import type { Language } from '../i18n/lang.js';

/** The forms' strings; a merchant overrides any of them through the element's `strings`. */
export interface JourneyStrings {
  /** The receipt form's heading and its file field's label. */
  receiptLabel: string;
  /** What files the receipt may be; `size` is the proxy's limit, formatted (`10 MB`). */
  receiptHint: (size: string) => string;
  /** The file is larger than this shop takes (`size`, formatted), by the form's check or the proxy's 413. */
  receiptTooLarge: (size: string) => string;
  /** The file field's button (the browser's own would speak the browser's language). */
  chooseFile: string;
  /** Beside the file button while no file is chosen. */
  noFile: string;
  /** Sends the receipt. */
  sendReceipt: string;
  /** A form's button while it is sending. */
  sending: string;
  /** Back from a form to the payment. */
  close: string;
  /** The report form's heading. */
  reportTitle: string;
  /** The question of what happened with the payment. */
  reasonLabel: string;
  /** `amount` is formatted. */
  reasonExact: (amount: string) => string;
  /** The answer "I sent another amount". */
  reasonDifferent: string;
  /** The field of the amount actually sent. */
  amountSentLabel: string;
  /** Under that field: how many decimals the currency takes. */
  amountHint: (decimals: number) => string;
  /** The file field of the report (`required`: the receipt must be attached). */
  attachmentLabel: (required: boolean) => string;
  /** Sends the report. */
  sendReport: string;
  /**
   * The forms' own checks, and what went wrong with a sending, by code: the connection was lost
   * (`network_error`), the upload took too long (`request_timeout`), the payment service did not
   * take it (`upstream_error`, `upstream_timeout`).
   */
  formErrors: Readonly<
    Record<
      'receipt_missing' | 'receipt_type' | 'amount_invalid' | 'network_error' | 'request_timeout' | 'upstream_error' | 'upstream_timeout',
      string
    >
  >;
}

const en: JourneyStrings = {
  receiptLabel: 'Receipt of your transfer',
  receiptHint: (size) => `A photo or screenshot (JPEG, PNG, WebP, HEIC) or a PDF, up to ${size}.`,
  receiptTooLarge: (size) => `The file is larger than this shop takes (${size}). Send a smaller photo or a PDF.`,
  chooseFile: 'Choose a file',
  noFile: 'No file chosen',
  sendReceipt: 'Send the receipt',
  sending: 'Sending…',
  close: 'Back',
  reportTitle: 'Report a payment',
  reasonLabel: 'What did you send?',
  reasonExact: (amount) => `Exactly ${amount}`,
  reasonDifferent: 'A different amount',
  amountSentLabel: 'Amount you sent',
  amountHint: (decimals) => (decimals > 0 ? `For example 1500 or 1500.${'5'.padEnd(decimals, '0')}` : 'For example 1500'),
  attachmentLabel: (required) => (required ? 'Receipt of your transfer' : 'Receipt of your transfer (if you have one)'),
  sendReport: 'Send the report',
  formErrors: {
    receipt_missing: 'Choose the receipt file.',
    receipt_type: 'This file type is not accepted: send a photo (JPEG, PNG, WebP, HEIC) or a PDF.',
    amount_invalid: 'Enter the amount you sent, for example 1500.',
    network_error: 'The connection was lost while sending. Check your internet connection and send it again.',
    request_timeout: 'Sending took too long on this connection. Try again, or send a smaller photo.',
    upstream_error: 'The payment service did not take the file right now. Please send it again in a minute.',
    upstream_timeout: 'The payment service did not answer in time. Please send it again in a minute.',
  },
};

const ru: JourneyStrings = {
  receiptLabel: 'Чек перевода',
  receiptHint: (size) => `Фото или снимок экрана (JPEG, PNG, WebP, HEIC) или PDF, до ${size}.`,
  receiptTooLarge: (size) => `Файл больше, чем принимает магазин (${size}). Пришлите фото поменьше или PDF.`,
  chooseFile: 'Выбрать файл',
  noFile: 'Файл не выбран',
  sendReceipt: 'Отправить чек',
  sending: 'Отправляем…',
  close: 'Назад',
  reportTitle: 'Сообщить о платеже',
  reasonLabel: 'Сколько вы отправили?',
  reasonExact: (amount) => `Ровно ${amount}`,
  reasonDifferent: 'Другую сумму',
  amountSentLabel: 'Сумма, которую вы отправили',
  amountHint: (decimals) => (decimals > 0 ? `Например, 1500 или 1500,${'5'.padEnd(decimals, '0')}` : 'Например, 1500'),
  attachmentLabel: (required) => (required ? 'Чек перевода' : 'Чек перевода (если есть)'),
  sendReport: 'Отправить',
  formErrors: {
    receipt_missing: 'Выберите файл чека.',
    receipt_type: 'Такой файл не подходит: пришлите фото (JPEG, PNG, WebP, HEIC) или PDF.',
    amount_invalid: 'Введите сумму, которую вы отправили, например 1500.',
    network_error: 'Связь прервалась во время отправки. Проверьте интернет и отправьте ещё раз.',
    request_timeout: 'Отправка заняла слишком много времени. Попробуйте ещё раз или пришлите фото поменьше.',
    upstream_error: 'Платёжный сервис сейчас не принял файл. Отправьте его ещё раз через минуту.',
    upstream_timeout: 'Платёжный сервис не ответил вовремя. Отправьте файл ещё раз через минуту.',
  },
};

const bn: JourneyStrings = {
  receiptLabel: 'আপনার ট্রান্সফারের রসিদ',
  receiptHint: (size) => `ছবি বা স্ক্রিনশট (JPEG, PNG, WebP, HEIC) বা PDF, সর্বোচ্চ ${size}।`,
  receiptTooLarge: (size) => `ফাইলটি এই দোকানের সীমার (${size}) চেয়ে বড়। ছোট ছবি বা PDF পাঠান।`,
  chooseFile: 'ফাইল বেছে নিন',
  noFile: 'কোনো ফাইল বেছে নেওয়া হয়নি',
  sendReceipt: 'রসিদ পাঠান',
  sending: 'পাঠানো হচ্ছে…',
  close: 'ফিরে যান',
  reportTitle: 'পেমেন্টের কথা জানান',
  reasonLabel: 'আপনি কত পাঠিয়েছেন?',
  reasonExact: (amount) => `ঠিক ${amount}`,
  reasonDifferent: 'অন্য পরিমাণ',
  amountSentLabel: 'আপনার পাঠানো পরিমাণ',
  amountHint: (decimals) => (decimals > 0 ? `যেমন ১৫০০ বা ১৫০০.${'৫'.padEnd(decimals, '০')}` : 'যেমন ১৫০০'),
  attachmentLabel: (required) => (required ? 'আপনার ট্রান্সফারের রসিদ' : 'আপনার ট্রান্সফারের রসিদ (থাকলে)'),
  sendReport: 'জানান',
  formErrors: {
    receipt_missing: 'রসিদের ফাইলটি বেছে নিন।',
    receipt_type: 'এই ধরনের ফাইল নেওয়া হয় না: ছবি (JPEG, PNG, WebP, HEIC) বা PDF পাঠান।',
    amount_invalid: 'আপনার পাঠানো পরিমাণ লিখুন, যেমন ১৫০০।',
    network_error: 'পাঠানোর সময় সংযোগ বিচ্ছিন্ন হয়েছে। ইন্টারনেট সংযোগ দেখে আবার পাঠান।',
    request_timeout: 'এই সংযোগে পাঠাতে খুব বেশি সময় লেগেছে। আবার চেষ্টা করুন বা ছোট ছবি পাঠান।',
    upstream_error: 'পেমেন্ট সার্ভিস এখন ফাইলটি নেয়নি। এক মিনিট পরে আবার পাঠান।',
    upstream_timeout: 'পেমেন্ট সার্ভিস সময়মতো উত্তর দেয়নি। এক মিনিট পরে আবার পাঠান।',
  },
};

const uz: JourneyStrings = {
  receiptLabel: 'Oʻtkazma cheki',
  receiptHint: (size) => `Rasm yoki skrinshot (JPEG, PNG, WebP, HEIC) yoki PDF, ko‘pi bilan ${size}.`,
  receiptTooLarge: (size) => `Fayl bu do‘kon qabul qiladigan hajmdan (${size}) katta. Kichikroq rasm yoki PDF yuboring.`,
  chooseFile: 'Faylni tanlash',
  noFile: 'Fayl tanlanmagan',
  sendReceipt: 'Chekni yuborish',
  sending: 'Yuborilmoqda…',
  close: 'Orqaga',
  reportTitle: 'Toʻlov haqida xabar berish',
  reasonLabel: 'Qancha yubordingiz?',
  reasonExact: (amount) => `Aynan ${amount}`,
  reasonDifferent: 'Boshqa summa',
  amountSentLabel: 'Yuborgan summangiz',
  amountHint: (decimals) => (decimals > 0 ? `Masalan, 1500 yoki 1500,${'5'.padEnd(decimals, '0')}` : 'Masalan, 1500'),
  attachmentLabel: (required) => (required ? 'Oʻtkazma cheki' : 'Oʻtkazma cheki (boʻlsa)'),
  sendReport: 'Yuborish',
  formErrors: {
    receipt_missing: 'Chek faylini tanlang.',
    receipt_type: 'Bu turdagi fayl qabul qilinmaydi: rasm (JPEG, PNG, WebP, HEIC) yoki PDF yuboring.',
    amount_invalid: 'Yuborgan summangizni kiriting, masalan 1500.',
    network_error: 'Yuborish paytida aloqa uzildi. Internetni tekshirib, qayta yuboring.',
    request_timeout: 'Bu aloqada yuborish juda uzoq davom etdi. Qayta urinib ko‘ring yoki kichikroq rasm yuboring.',
    upstream_error: 'To‘lov xizmati hozir faylni qabul qilmadi. Bir daqiqadan so‘ng qayta yuboring.',
    upstream_timeout: 'To‘lov xizmati o‘z vaqtida javob bermadi. Bir daqiqadan so‘ng qayta yuboring.',
  },
};

const az: JourneyStrings = {
  receiptLabel: 'Köçürmənin qəbzi',
  receiptHint: (size) => `Şəkil və ya ekran görüntüsü (JPEG, PNG, WebP, HEIC) və ya PDF, ən çox ${size}.`,
  receiptTooLarge: (size) => `Fayl bu mağazanın qəbul etdiyindən (${size}) böyükdür. Daha kiçik şəkil və ya PDF göndərin.`,
  chooseFile: 'Fayl seçin',
  noFile: 'Fayl seçilməyib',
  sendReceipt: 'Qəbzi göndər',
  sending: 'Göndərilir…',
  close: 'Geri',
  reportTitle: 'Ödəniş barədə bildir',
  reasonLabel: 'Nə qədər göndərdiniz?',
  reasonExact: (amount) => `Dəqiq ${amount}`,
  reasonDifferent: 'Başqa məbləğ',
  amountSentLabel: 'Göndərdiyiniz məbləğ',
  amountHint: (decimals) => (decimals > 0 ? `Məsələn, 1500 və ya 1500,${'5'.padEnd(decimals, '0')}` : 'Məsələn, 1500'),
  attachmentLabel: (required) => (required ? 'Köçürmənin qəbzi' : 'Köçürmənin qəbzi (varsa)'),
  sendReport: 'Göndər',
  formErrors: {
    receipt_missing: 'Qəbz faylını seçin.',
    receipt_type: 'Bu fayl növü qəbul edilmir: şəkil (JPEG, PNG, WebP, HEIC) və ya PDF göndərin.',
    amount_invalid: 'Göndərdiyiniz məbləği daxil edin, məsələn 1500.',
    network_error: 'Göndərmə zamanı əlaqə kəsildi. İnterneti yoxlayın və yenidən göndərin.',
    request_timeout: 'Bu bağlantıda göndərmə çox uzun çəkdi. Yenidən cəhd edin və ya daha kiçik şəkil göndərin.',
    upstream_error: 'Ödəniş xidməti faylı indi qəbul etmədi. Bir dəqiqədən sonra yenidən göndərin.',
    upstream_timeout: 'Ödəniş xidməti vaxtında cavab vermədi. Bir dəqiqədən sonra yenidən göndərin.',
  },
};

const es: JourneyStrings = {
  receiptLabel: 'Comprobante de su transferencia',
  receiptHint: (size) => `Una foto o captura de pantalla (JPEG, PNG, WebP, HEIC) o un PDF, de hasta ${size}.`,
  receiptTooLarge: (size) => `El archivo supera lo que acepta esta tienda (${size}). Envíe una foto más pequeña o un PDF.`,
  chooseFile: 'Elegir un archivo',
  noFile: 'Ningún archivo elegido',
  sendReceipt: 'Enviar el comprobante',
  sending: 'Enviando…',
  close: 'Volver',
  reportTitle: 'Informar de un pago',
  reasonLabel: '¿Qué envió?',
  reasonExact: (amount) => `Exactamente ${amount}`,
  reasonDifferent: 'Otro importe',
  amountSentLabel: 'Importe que envió',
  amountHint: (decimals) => (decimals > 0 ? `Por ejemplo, 1500 o 1500,${'5'.padEnd(decimals, '0')}` : 'Por ejemplo, 1500'),
  attachmentLabel: (required) => (required ? 'Comprobante de su transferencia' : 'Comprobante de su transferencia (si lo tiene)'),
  sendReport: 'Enviar el aviso',
  formErrors: {
    receipt_missing: 'Elija el archivo del comprobante.',
    receipt_type: 'Este tipo de archivo no se acepta: envíe una foto (JPEG, PNG, WebP, HEIC) o un PDF.',
    amount_invalid: 'Indique el importe que envió, por ejemplo 1500.',
    network_error: 'Se perdió la conexión durante el envío. Revise su conexión a internet y envíelo de nuevo.',
    request_timeout: 'El envío tardó demasiado en esta conexión. Inténtelo de nuevo o envíe una foto más pequeña.',
    upstream_error: 'El servicio de pago no aceptó el archivo en este momento. Vuelva a enviarlo en un minuto.',
    upstream_timeout: 'El servicio de pago no respondió a tiempo. Vuelva a enviarlo en un minuto.',
  },
};

const ko: JourneyStrings = {
  receiptLabel: '송금 영수증',
  receiptHint: (size) => `사진이나 스크린샷(JPEG, PNG, WebP, HEIC) 또는 PDF, 최대 ${size}.`,
  receiptTooLarge: (size) => `파일이 이 상점의 허용 크기(${size})보다 큽니다. 더 작은 사진이나 PDF를 보내세요.`,
  chooseFile: '파일 선택',
  noFile: '선택한 파일 없음',
  sendReceipt: '영수증 보내기',
  sending: '보내는 중…',
  close: '뒤로',
  reportTitle: '결제 신고',
  reasonLabel: '얼마를 보냈나요?',
  reasonExact: (amount) => `정확히 ${amount}`,
  reasonDifferent: '다른 금액',
  amountSentLabel: '보낸 금액',
  amountHint: (decimals) => (decimals > 0 ? `예: 1500 또는 1500.${'5'.padEnd(decimals, '0')}` : '예: 1500'),
  attachmentLabel: (required) => (required ? '송금 영수증' : '송금 영수증 (있는 경우)'),
  sendReport: '신고 보내기',
  formErrors: {
    receipt_missing: '영수증 파일을 선택하세요.',
    receipt_type: '지원하지 않는 파일 형식입니다. 사진(JPEG, PNG, WebP, HEIC)이나 PDF를 보내세요.',
    amount_invalid: '보낸 금액을 입력하세요. 예: 1500',
    network_error: '보내는 중에 연결이 끊겼습니다. 인터넷 연결을 확인하고 다시 보내세요.',
    request_timeout: '이 연결에서는 전송이 너무 오래 걸렸습니다. 다시 시도하거나 더 작은 사진을 보내세요.',
    upstream_error: '결제 서비스가 지금 파일을 받지 못했습니다. 1분 후에 다시 보내세요.',
    upstream_timeout: '결제 서비스가 제때 응답하지 않았습니다. 1분 후에 다시 보내세요.',
  },
};

const kk: JourneyStrings = {
  receiptLabel: 'Аударым чегі',
  receiptHint: (size) => `Фото немесе скриншот (JPEG, PNG, WebP, HEIC) не PDF, ең көбі ${size}.`,
  receiptTooLarge: (size) => `Файл бұл дүкен қабылдайтын көлемнен (${size}) үлкен. Кішірек фото немесе PDF жіберіңіз.`,
  chooseFile: 'Файлды таңдау',
  noFile: 'Файл таңдалмаған',
  sendReceipt: 'Чекті жіберу',
  sending: 'Жіберілуде…',
  close: 'Артқа',
  reportTitle: 'Төлем туралы хабарлау',
  reasonLabel: 'Қанша жібердіңіз?',
  reasonExact: (amount) => `Дәл ${amount}`,
  reasonDifferent: 'Басқа сома',
  amountSentLabel: 'Жіберген сомаңыз',
  amountHint: (decimals) => (decimals > 0 ? `Мысалы, 1500 немесе 1500,${'5'.padEnd(decimals, '0')}` : 'Мысалы, 1500'),
  attachmentLabel: (required) => (required ? 'Аударым чегі' : 'Аударым чегі (бар болса)'),
  sendReport: 'Жіберу',
  formErrors: {
    receipt_missing: 'Чек файлын таңдаңыз.',
    receipt_type: 'Бұл файл түрі қабылданбайды: фото (JPEG, PNG, WebP, HEIC) немесе PDF жіберіңіз.',
    amount_invalid: 'Жіберген сомаңызды енгізіңіз, мысалы 1500.',
    network_error: 'Жіберу кезінде байланыс үзілді. Интернетті тексеріп, қайта жіберіңіз.',
    request_timeout: 'Бұл байланыста жіберу тым ұзаққа созылды. Қайталап көріңіз немесе кішірек фото жіберіңіз.',
    upstream_error: 'Төлем қызметі файлды қазір қабылдамады. Бір минуттан соң қайта жіберіңіз.',
    upstream_timeout: 'Төлем қызметі уақытында жауап бермеді. Бір минуттан соң қайта жіберіңіз.',
  },
};

const tg: JourneyStrings = {
  receiptLabel: 'Чеки интиқол',
  receiptHint: (size) => `Акс ё скриншот (JPEG, PNG, WebP, HEIC) ё PDF, то ${size}.`,
  receiptTooLarge: (size) => `Файл аз андозае, ки ин мағоза қабул мекунад (${size}), калонтар аст. Акси хурдтар ё PDF фиристед.`,
  chooseFile: 'Интихоби файл',
  noFile: 'Файл интихоб нашудааст',
  sendReceipt: 'Фиристодани чек',
  sending: 'Фиристода мешавад…',
  close: 'Бозгашт',
  reportTitle: 'Хабар додан дар бораи пардохт',
  reasonLabel: 'Чӣ қадар фиристодед?',
  reasonExact: (amount) => `Маҳз ${amount}`,
  reasonDifferent: 'Маблағи дигар',
  amountSentLabel: 'Маблағи фиристодаи шумо',
  amountHint: (decimals) => (decimals > 0 ? `Масалан, 1500 ё 1500,${'5'.padEnd(decimals, '0')}` : 'Масалан, 1500'),
  attachmentLabel: (required) => (required ? 'Чеки интиқол' : 'Чеки интиқол (агар бошад)'),
  sendReport: 'Фиристодан',
  formErrors: {
    receipt_missing: 'Файли чекро интихоб кунед.',
    receipt_type: 'Ин навъи файл қабул намешавад: акс (JPEG, PNG, WebP, HEIC) ё PDF фиристед.',
    amount_invalid: 'Маблағи фиристодаатонро ворид кунед, масалан 1500.',
    network_error: 'Ҳангоми фиристодан алоқа қатъ шуд. Интернетро санҷед ва аз нав фиристед.',
    request_timeout: 'Фиристодан дар ин пайваст хеле тӯл кашид. Аз нав кӯшиш кунед ё акси хурдтар фиристед.',
    upstream_error: 'Хизмати пардохт ҳоло файлро қабул накард. Баъд аз як дақиқа аз нав фиристед.',
    upstream_timeout: 'Хизмати пардохт сари вақт ҷавоб надод. Баъд аз як дақиқа аз нав фиристед.',
  },
};

const ky: JourneyStrings = {
  receiptLabel: 'Которуунун чеги',
  receiptHint: (size) => `Сүрөт же скриншот (JPEG, PNG, WebP, HEIC) же PDF, эң көп ${size}.`,
  receiptTooLarge: (size) => `Файл бул дүкөн кабыл алган өлчөмдөн (${size}) чоң. Кичирээк сүрөт же PDF жөнөтүңүз.`,
  chooseFile: 'Файл тандоо',
  noFile: 'Файл тандалган жок',
  sendReceipt: 'Чекти жөнөтүү',
  sending: 'Жөнөтүлүүдө…',
  close: 'Артка',
  reportTitle: 'Төлөм тууралуу билдирүү',
  reasonLabel: 'Канча жөнөттүңүз?',
  reasonExact: (amount) => `Так ${amount}`,
  reasonDifferent: 'Башка сумма',
  amountSentLabel: 'Жөнөткөн суммаңыз',
  amountHint: (decimals) => (decimals > 0 ? `Мисалы, 1500 же 1500,${'5'.padEnd(decimals, '0')}` : 'Мисалы, 1500'),
  attachmentLabel: (required) => (required ? 'Которуунун чеги' : 'Которуунун чеги (бар болсо)'),
  sendReport: 'Жөнөтүү',
  formErrors: {
    receipt_missing: 'Чектин файлын тандаңыз.',
    receipt_type: 'Мындай файл кабыл алынбайт: сүрөт (JPEG, PNG, WebP, HEIC) же PDF жөнөтүңүз.',
    amount_invalid: 'Жөнөткөн суммаңызды жазыңыз, мисалы 1500.',
    network_error: 'Жөнөтүү учурунда байланыш үзүлдү. Интернетти текшерип, кайра жөнөтүңүз.',
    request_timeout: 'Бул байланышта жөнөтүү өтө узакка созулду. Кайра аракет кылыңыз же кичирээк сүрөт жөнөтүңүз.',
    upstream_error: 'Төлөм кызматы файлды азыр кабыл алган жок. Бир мүнөттөн кийин кайра жөнөтүңүз.',
    upstream_timeout: 'Төлөм кызматы убагында жооп берген жок. Бир мүнөттөн кийин кайра жөнөтүңүз.',
  },
};

/** The forms' strings of every language. */
export const JOURNEY_STRINGS: Readonly<Record<Language, JourneyStrings>> = { en, ru, bn, uz, az, es, ko, kk, tg, ky };

/** The forms' strings by language (`ru`, `kk`, …), English for one the element does not ship. */
export const journeyStrings = (language: string): JourneyStrings =>
  Object.hasOwn(JOURNEY_STRINGS, language) ? JOURNEY_STRINGS[language as Language] : en;
