/**
 * The strings of the receipt and report forms in every language of the element, in the forms'
 * chunk (journey/forms.ts). All but English and Russian machine-translated, not yet reviewed by
 * native speakers (README, "Languages"); a merchant overrides any of them through the
 * element's `strings`.
 */
import type { Language } from '../i18n/lang.js';

/** The forms' strings; a merchant overrides any of them through the element's `strings`. */
export interface JourneyStrings {
  receiptLabel: string;
  receiptHint: string;
  /** The file field's button (the browser's own would speak the browser's language). */
  chooseFile: string;
  noFile: string;
  sendReceipt: string;
  sending: string;
  close: string;
  reportTitle: string;
  reasonLabel: string;
  /** `amount` is formatted. */
  reasonExact: (amount: string) => string;
  reasonDifferent: string;
  amountSentLabel: string;
  amountHint: (decimals: number) => string;
  attachmentLabel: (required: boolean) => string;
  sendReport: string;
  /** The forms' own checks, by code. */
  formErrors: Readonly<Record<'receipt_missing' | 'receipt_too_large' | 'receipt_type' | 'amount_invalid', string>>;
}


const en: JourneyStrings = {
  receiptLabel: 'Receipt of your transfer',
  receiptHint: 'A photo or screenshot (JPEG, PNG, WebP, HEIC) or a PDF, up to 10 MB.',
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
    receipt_too_large: 'The file is larger than 10 MB. Send a smaller photo or a PDF.',
    receipt_type: 'This file type is not accepted: send a photo (JPEG, PNG, WebP, HEIC) or a PDF.',
    amount_invalid: 'Enter the amount you sent, for example 1500.',
  },
};

const ru: JourneyStrings = {
  receiptLabel: 'Чек перевода',
  receiptHint: 'Фото или снимок экрана (JPEG, PNG, WebP, HEIC) или PDF, до 10 МБ.',
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
    receipt_too_large: 'Файл больше 10 МБ. Пришлите фото поменьше или PDF.',
    receipt_type: 'Такой файл не подходит: пришлите фото (JPEG, PNG, WebP, HEIC) или PDF.',
    amount_invalid: 'Введите сумму, которую вы отправили, например 1500.',
  },
};

const bn: JourneyStrings = {
  receiptLabel: 'আপনার ট্রান্সফারের রসিদ',
  receiptHint: 'ছবি বা স্ক্রিনশট (JPEG, PNG, WebP, HEIC) বা PDF, সর্বোচ্চ ১০ MB।',
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
    receipt_too_large: 'ফাইলটি ১০ MB-এর বেশি। ছোট ছবি বা PDF পাঠান।',
    receipt_type: 'এই ধরনের ফাইল নেওয়া হয় না: ছবি (JPEG, PNG, WebP, HEIC) বা PDF পাঠান।',
    amount_invalid: 'আপনার পাঠানো পরিমাণ লিখুন, যেমন ১৫০০।',
  },
};

const uz: JourneyStrings = {
  receiptLabel: 'Oʻtkazma cheki',
  receiptHint: 'Rasm yoki skrinshot (JPEG, PNG, WebP, HEIC) yoki PDF, 10 MB gacha.',
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
    receipt_too_large: 'Fayl 10 MB dan katta. Kichikroq rasm yoki PDF yuboring.',
    receipt_type: 'Bu turdagi fayl qabul qilinmaydi: rasm (JPEG, PNG, WebP, HEIC) yoki PDF yuboring.',
    amount_invalid: 'Yuborgan summangizni kiriting, masalan 1500.',
  },
};

const az: JourneyStrings = {
  receiptLabel: 'Köçürmənin qəbzi',
  receiptHint: 'Şəkil və ya ekran görüntüsü (JPEG, PNG, WebP, HEIC) və ya PDF, 10 MB-a qədər.',
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
    receipt_too_large: 'Fayl 10 MB-dan böyükdür. Daha kiçik şəkil və ya PDF göndərin.',
    receipt_type: 'Bu fayl növü qəbul edilmir: şəkil (JPEG, PNG, WebP, HEIC) və ya PDF göndərin.',
    amount_invalid: 'Göndərdiyiniz məbləği daxil edin, məsələn 1500.',
  },
};

const es: JourneyStrings = {
  receiptLabel: 'Comprobante de su transferencia',
  receiptHint: 'Una foto o captura de pantalla (JPEG, PNG, WebP, HEIC) o un PDF, de hasta 10 MB.',
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
    receipt_too_large: 'El archivo supera los 10 MB. Envíe una foto más pequeña o un PDF.',
    receipt_type: 'Este tipo de archivo no se acepta: envíe una foto (JPEG, PNG, WebP, HEIC) o un PDF.',
    amount_invalid: 'Indique el importe que envió, por ejemplo 1500.',
  },
};

const ko: JourneyStrings = {
  receiptLabel: '송금 영수증',
  receiptHint: '사진이나 스크린샷(JPEG, PNG, WebP, HEIC) 또는 PDF, 최대 10MB.',
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
    receipt_too_large: '파일이 10MB를 넘습니다. 더 작은 사진이나 PDF를 보내세요.',
    receipt_type: '지원하지 않는 파일 형식입니다. 사진(JPEG, PNG, WebP, HEIC)이나 PDF를 보내세요.',
    amount_invalid: '보낸 금액을 입력하세요. 예: 1500',
  },
};

const kk: JourneyStrings = {
  receiptLabel: 'Аударым чегі',
  receiptHint: 'Фото немесе скриншот (JPEG, PNG, WebP, HEIC) не PDF, 10 МБ-қа дейін.',
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
    receipt_too_large: 'Файл 10 МБ-тан үлкен. Кішірек фото немесе PDF жіберіңіз.',
    receipt_type: 'Бұл файл түрі қабылданбайды: фото (JPEG, PNG, WebP, HEIC) немесе PDF жіберіңіз.',
    amount_invalid: 'Жіберген сомаңызды енгізіңіз, мысалы 1500.',
  },
};

const tg: JourneyStrings = {
  receiptLabel: 'Чеки интиқол',
  receiptHint: 'Акс ё скриншот (JPEG, PNG, WebP, HEIC) ё PDF, то 10 МБ.',
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
    receipt_too_large: 'Файл аз 10 МБ калон аст. Акси хурдтар ё PDF фиристед.',
    receipt_type: 'Ин навъи файл қабул намешавад: акс (JPEG, PNG, WebP, HEIC) ё PDF фиристед.',
    amount_invalid: 'Маблағи фиристодаатонро ворид кунед, масалан 1500.',
  },
};

const ky: JourneyStrings = {
  receiptLabel: 'Которуунун чеги',
  receiptHint: 'Сүрөт же скриншот (JPEG, PNG, WebP, HEIC) же PDF, 10 МБга чейин.',
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
    receipt_too_large: 'Файл 10 МБдан чоң. Кичирээк сүрөт же PDF жөнөтүңүз.',
    receipt_type: 'Мындай файл кабыл алынбайт: сүрөт (JPEG, PNG, WebP, HEIC) же PDF жөнөтүңүз.',
    amount_invalid: 'Жөнөткөн суммаңызды жазыңыз, мисалы 1500.',
  },
};

/** The forms' strings of every language. */
export const JOURNEY_STRINGS: Readonly<Record<Language, JourneyStrings>> = { en, ru, bn, uz, az, es, ko, kk, tg, ky };

/** The forms' strings by language (`ru`, `kk`, …), English for one the element does not ship. */
export const journeyStrings = (language: string): JourneyStrings =>
  Object.hasOwn(JOURNEY_STRINGS, language) ? JOURNEY_STRINGS[language as Language] : en;
