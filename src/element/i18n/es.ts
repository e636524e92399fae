import type { CopyNames, KnownPaymentOption, Translation } from './translation.js';
import { copyName, own, plural, timeLeftUnits } from './translation.js';
import type { RequisitesKind } from '../format.js';
import { BOOT_STRINGS } from './boot.js';

// Spanish: machine-translated, not yet reviewed by a native speaker (docs/element.md, "Languages").
// "Usted" throughout: neutral from Spain to Argentina, where "tú" and "vos" part ways.
const { loading, loadFailed, loadFailedReason } = BOOT_STRINGS.es;
const rules = new Intl.PluralRules('es');
// CLDR's `many` (a million and up) takes the plural.
const UNITS = { minute: { one: 'minuto', other: 'minutos' }, second: { one: 'segundo', other: 'segundos' } } as const;

const TITLES = {
  idle: 'Pago',
  loading,
  waiting: 'Transfiera el dinero',
  checking: 'Verificando su pago',
  picker: 'Elija cómo pagar',
  payout: 'Pago a su favor en curso',
  paid: 'Pago recibido',
  canceled: 'Pago cancelado',
  expired: 'Se acabó el tiempo para pagar',
  dispute: 'Su pago está en revisión',
  other: 'Estado del pago',
  error: loadFailed,
} as const;
const STATUSES: Record<string, string> = {
  waiting: 'esperando su transferencia',
  checking: 'en verificación',
  dispute: 'en revisión',
  picker: 'elija cómo pagar',
  payout: 'le estamos pagando',
  paid: 'pagado',
  canceled: 'cancelado',
  expired: 'vencido',
};
const UPDATES = 'Esta página se actualiza sola.';
const EXPLANATIONS: Record<string, string> = {
  payout: `La tienda le envía este dinero: no tiene que pagar nada. ${UPDATES}`,
  paid: '¡Gracias! La tienda ha recibido su pago.',
  canceled: 'Este pago se canceló. No envíe dinero por él.',
  expired: 'No envíe más dinero por este pago. Si ya lo envió, informe del pago o contacte con la tienda con el número de pago de abajo.',
  dispute: `El servicio verifica su transferencia con el banco. ${UPDATES} La tienda también le dirá el resultado.`,
};
const REQUISITES: Record<RequisitesKind, string> = {
  card: 'Número de tarjeta',
  phone: 'Número de teléfono',
  account: 'Cuenta',
  url: 'Página de pago',
  qr: 'Código QR',
  other: 'Datos de pago',
  upi: 'ID de UPI',
  imps: 'Número de cuenta',
  cvu: 'CVU',
  topup: 'Número a recargar',
  telegram: 'Bot de Telegram',
  'qr-image': 'Código QR',
};
const COPIED: CopyNames = { amount: 'importe', ifsc: 'IFSC', telegram: 'enlace del bot' };
const OPTIONS: Record<KnownPaymentOption, string> = {
  TO_CARD: 'Transferencia a tarjeta',
  SBP: 'SBP (pagos rápidos)',
  SBP_QR: 'Código QR de SBP',
  MANUAL_SBP_QR: 'Código QR de SBP',
  TO_ACCOUNT: 'Transferencia a cuenta',
  TO_BANK_DETAILS: 'Transferencia con datos bancarios',
  TO_PHONE_NUMBER: 'Transferencia a un teléfono',
  CROSS_BORDER: 'Transferencia desde el extranjero',
  MOBILE_TOP_UP: 'Recarga de móvil',
  CLICK_UZ_QR: 'Código QR de Click',
  TIPS: 'Servicio de propinas',
  TG_BOT: 'Bot de Telegram',
  P2C: 'Transferencia P2C',
  UPI: 'UPI',
  QUASI_UPI: 'Quasi UPI',
  IMPS: 'Transferencia IMPS',
  CVU: 'Transferencia a CVU',
  CARD_ACQUIRING: 'Pago con tarjeta',
  MANUAL_ECOM: 'Pago en línea',
  VIET_QR: 'VietQR',
};
const CONTACT = 'Contacte con la tienda con el número de pago.';
const ERRORS: Record<string, string> = {
  network_error: loadFailedReason,
  not_found: 'No se encontró este pago.',
  bad_request: 'Este enlace de pago no es válido.',
  invalid_response: 'No se pudo leer la respuesta del servicio de pago.',
  upstream_timeout: 'El servicio de pago no respondió a tiempo.',
  upstream_invalid: 'El servicio de pago respondió algo inesperado.',
  service_unavailable: 'Los pagos están desactivados en esta tienda ahora. Contacte con la tienda.',
  payload_too_large: 'El archivo es demasiado grande para esta tienda. Envíe una foto más pequeña o un PDF.',
  unsupported_media_type: 'Este tipo de archivo no se acepta: envíe una foto (JPEG, PNG, WebP, HEIC) o un PDF.',
  receipts_off: 'Esta tienda no acepta comprobantes aquí. Contacte con la tienda.',
  dispute_exists: 'Ya se informó de este pago. La tienda se pondrá en contacto con usted.',
  dispute_refused: `No se pudo registrar el aviso aquí. ${CONTACT}`,
  dispute_not_allowed: `Ya no se puede informar de este pago aquí. ${CONTACT}`,
  no_deal: 'No hay ninguna transferencia que confirmar en este pago.',
  cancel_refused: 'No se pudo cancelar el pago: su estado ha cambiado.',
};

/** The screens' strings in Spanish. */
export const es: Translation = {
  language: 'es',
  loading,
  title: (screen) => TITLES[screen],
  payee: (storeName) => `Pago a ${storeName}`,
  statusLabel: 'Estado',
  status: (screen, rawStatus) => own(STATUSES, screen) ?? rawStatus,
  explanation: (screen, rawStatus) => own(EXPLANATIONS, screen) ?? `El pago está «${rawStatus}». ${UPDATES}`,
  amountLabel: 'Importe a enviar',
  amountPaidLabel: 'Importe pagado',
  amountSumLabel: 'Importe',
  amountDueNote: (asked) =>
    `Envía exactamente este importe: el servicio de pago reconoce tu transferencia por él. El pedido es de ${asked}.`,
  amountSettledNote: (asked) => `Este es el importe que liquidó el servicio de pago; el pedido era de ${asked}.`,
  bankLabel: 'Banco',
  requisitesLabel: (kind) => REQUISITES[kind],
  ifscLabel: 'IFSC',
  holderLabel: 'Destinatario',
  guidance: (amount) => `Envíe exactamente ${amount} en un solo pago. Otro importe o varios pagos retrasan el abono.`,
  copy: 'Copiar',
  copyLabel: (field, kind) => `Copiar ${copyName(COPIED, REQUISITES, field, kind)}`,
  copied: 'Copiado',
  copiedAnnouncement: (field, kind) => `Copiado: ${copyName(COPIED, REQUISITES, field, kind)}`,
  copyManually: 'No se puede copiar aquí: el texto está seleccionado, cópielo con el menú de su dispositivo.',
  qrLabel: 'Código QR para pagar desde la app de su banco',
  qrHint: 'Escanéelo con la app de su banco o con la cámara',
  openInBankApp: 'Abrir en la app del banco',
  timeLeftLabel: 'Tiempo restante',
  timeLeftAnnouncement: (remainingMs) => {
    const { unit, count } = timeLeftUnits(remainingMs);
    return `${plural(rules, count, { one: 'Queda', other: 'Quedan' })} ${count} ${plural(rules, count, UNITS[unit])} para pagar`;
  },
  variantsLabel: 'Formas de pago',
  changeBank: 'Cambiar de banco',
  option: (option) => own(OPTIONS, option) ?? option,
  currentVariant: 'actual',
  startingDeal: 'Preparando los datos de pago…',
  dealUnsupported: 'Esta tienda no permite elegir aquí la forma de pago. Contacte con la tienda.',
  dealFailed: 'No se pudo iniciar el pago. Inténtelo de nuevo.',
  dealNoRequisites: 'Este banco no tiene datos de pago libres ahora. Elija otro banco o inténtelo en unos minutos.',
  dealNotAllowed: 'Esta forma de pago no está disponible para este pago. Elija otra.',
  variantsFailed: 'No se pudieron cargar las formas de pago.',
  cancel: 'Cancelar el pago',
  cancelQuestion: '¿Cancelar este pago?',
  confirmCancel: 'Sí, cancelar',
  keepPaying: 'No, volver',
  canceling: 'Cancelando…',
  cancelFailed: 'No se pudo cancelar el pago. Inténtelo de nuevo.',
  changed: 'Los datos del pago cambiaron. Revíselos antes de pagar.',
  changeSeen: 'Entendido',
  confirmPaid: 'Ya he pagado',
  checkingExplanation: (minutes) =>
    `El vendedor comprueba que el dinero llegó${minutes ? `: puede tardar hasta ${minutes} ${plural(rules, minutes, UNITS.minute)}` : ''}. No vuelva a pagar. ${UPDATES}`,
  receiptReceived: 'Comprobante recibido: el pago se está verificando.',
  attachReceipt: (policy) => (policy === 'required' ? 'Adjuntar el comprobante (obligatorio)' : 'Adjuntar el comprobante'),
  showDetails: 'Ver de nuevo los datos de pago',
  reportPayment: (prompt) => (prompt === 'confirmed' ? 'Informar de un pago' : 'Ya he pagado'),
  reportIntro: (prompt) =>
    prompt === 'confirmed'
      ? 'Su transferencia no se confirmó a tiempo. Si envió el dinero, infórmelo: se verificará con su comprobante.'
      : '¿Envió el dinero antes de que se acabara el tiempo? Infórmelo con su comprobante.',
  reportReported: 'Gracias. La tienda tiene su aviso y se pondrá en contacto con usted.',
  referenceLabel: 'Número de pago',
  returnToShop: 'Volver a la tienda',
  autoReturn: (seconds) => `Volviendo a la tienda en ${seconds} s`,
  stayHere: 'Quedarse en esta página',
  openPaymentPage: 'Abrir la página de pago',
  openTelegram: 'Abrir en Telegram',
  chooseBank: 'Elegir su banco',
  crossBorder: (currency, country) =>
    [currency && `El banco envía ${currency}`, country && `tarjeta de ${country}`].filter(Boolean).join(', ') ||
    'Transferencia internacional',
  errorMessage: (code) => own(ERRORS, code) ?? 'El servicio de pago no está disponible ahora.',
  retry: 'Reintentar',
  connectionTrouble: 'Se perdió la conexión. Reintentando…',
  offline: 'Sin conexión a internet. El estado se comprobará de nuevo en cuanto vuelvas a estar en línea.',
};
