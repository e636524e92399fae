import type { CopyNames, KnownPaymentOption, Translation } from './translation.js';
import { copyName, own, timeLeftUnits } from './translation.js';
import type { RequisitesKind } from '../format.js';
import { BOOT_STRINGS } from './boot.js';

// Korean: machine-translated, not yet reviewed by a native speaker (docs/element.md, "Languages").
// Korean counts have one form (CLDR: `other` only): 5분, 21초.
const { loading, loadFailed, loadFailedReason } = BOOT_STRINGS.ko;

const TITLES = {
  idle: '결제',
  loading,
  waiting: '금액을 송금하세요',
  checking: '결제를 확인하고 있습니다',
  picker: '결제 방법을 선택하세요',
  payout: '지급 진행 중',
  paid: '결제가 접수되었습니다',
  canceled: '결제가 취소되었습니다',
  expired: '결제 시간이 끝났습니다',
  dispute: '결제를 검토하고 있습니다',
  other: '결제 상태',
  error: loadFailed,
} as const;
const STATUSES: Record<string, string> = {
  waiting: '송금 대기 중',
  checking: '확인 중',
  dispute: '검토 중',
  picker: '결제 방법 선택',
  payout: '지급 중',
  paid: '결제 완료',
  canceled: '취소됨',
  expired: '만료됨',
};
const UPDATES = '이 페이지는 자동으로 업데이트됩니다.';
const EXPLANATIONS: Record<string, string> = {
  payout: `상점이 이 금액을 보내고 있습니다. 결제할 것이 없습니다. ${UPDATES}`,
  paid: '감사합니다! 상점이 결제를 받았습니다.',
  canceled: '이 결제는 취소되었습니다. 돈을 보내지 마세요.',
  expired: '이 결제에 더 이상 돈을 보내지 마세요. 이미 보냈다면 결제를 신고하거나 아래 결제 번호로 상점에 문의하세요.',
  dispute: `서비스가 은행과 함께 송금을 확인하고 있습니다. ${UPDATES} 결과는 상점에서도 알려 드립니다.`,
};
const REQUISITES: Record<RequisitesKind, string> = {
  card: '카드 번호',
  phone: '전화번호',
  account: '계좌',
  url: '결제 페이지',
  qr: 'QR 코드',
  other: '결제 정보',
  upi: 'UPI ID',
  imps: '계좌 번호',
  cvu: 'CVU',
  topup: '충전할 전화번호',
  telegram: '텔레그램 봇',
  'qr-image': 'QR 코드',
};
const COPIED: CopyNames = { amount: '금액', ifsc: 'IFSC', telegram: '봇 링크' };
const OPTIONS: Record<KnownPaymentOption, string> = {
  TO_CARD: '카드로 송금',
  SBP: 'SBP (빠른 결제)',
  SBP_QR: 'SBP QR 코드',
  MANUAL_SBP_QR: 'SBP QR 코드',
  TO_ACCOUNT: '계좌 이체',
  TO_BANK_DETAILS: '은행 정보로 이체',
  TO_PHONE_NUMBER: '전화번호로 송금',
  CROSS_BORDER: '해외에서 송금',
  MOBILE_TOP_UP: '휴대폰 충전',
  CLICK_UZ_QR: 'Click QR 코드',
  TIPS: '팁 서비스',
  TG_BOT: '텔레그램 봇',
  P2C: 'P2C 송금',
  UPI: 'UPI',
  QUASI_UPI: 'Quasi UPI',
  IMPS: 'IMPS 은행 송금',
  CVU: 'CVU 이체',
  CARD_ACQUIRING: '카드 결제',
  MANUAL_ECOM: '온라인 결제',
  VIET_QR: 'VietQR',
};
const CONTACT = '결제 번호로 상점에 문의하세요.';
const ERRORS: Record<string, string> = {
  network_error: loadFailedReason,
  not_found: '이 결제를 찾을 수 없습니다.',
  bad_request: '유효하지 않은 결제 링크입니다.',
  invalid_response: '결제 서비스의 응답을 읽을 수 없습니다.',
  upstream_timeout: '결제 서비스가 제때 응답하지 않았습니다.',
  upstream_invalid: '결제 서비스가 예상치 못한 응답을 보냈습니다.',
  service_unavailable: '지금 이 상점은 결제를 받지 않습니다. 상점에 문의하세요.',
  payload_too_large: '이 상점에 보내기에는 파일이 너무 큽니다. 더 작은 사진이나 PDF를 보내세요.',
  unsupported_media_type: '지원하지 않는 파일 형식입니다. 사진(JPEG, PNG, WebP, HEIC)이나 PDF를 보내세요.',
  receipts_off: '이 상점은 여기서 영수증을 받지 않습니다. 상점에 문의하세요.',
  dispute_exists: '이 결제는 이미 신고되었습니다. 상점에서 연락드립니다.',
  dispute_refused: `여기서는 신고를 접수할 수 없습니다. ${CONTACT}`,
  dispute_not_allowed: `이 결제는 더 이상 여기서 신고할 수 없습니다. ${CONTACT}`,
  no_deal: '이 결제에는 확인할 송금이 없습니다.',
  cancel_refused: '결제 상태가 바뀌어 취소하지 못했습니다.',
};

/** The screens' strings in Korean. */
export const ko: Translation = {
  language: 'ko',
  loading,
  title: (screen) => TITLES[screen],
  payee: (storeName) => `${storeName} 결제`,
  statusLabel: '상태',
  status: (screen, rawStatus) => own(STATUSES, screen) ?? rawStatus,
  explanation: (screen, rawStatus) => own(EXPLANATIONS, screen) ?? `결제 상태: “${rawStatus}”. ${UPDATES}`,
  amountLabel: '송금할 금액',
  amountPaidLabel: '결제한 금액',
  amountSumLabel: '금액',
  amountDueNote: (asked) => `정확히 이 금액을 보내세요. 결제 서비스는 이 금액으로 송금을 확인합니다. 주문 금액은 ${asked}입니다.`,
  amountSettledNote: (asked) => `결제 서비스가 정산한 금액입니다. 주문 금액은 ${asked}였습니다.`,
  bankLabel: '은행',
  requisitesLabel: (kind) => REQUISITES[kind],
  ifscLabel: 'IFSC',
  holderLabel: '받는 사람',
  guidance: (amount) => `정확히 ${amount}을(를) 한 번에 보내세요. 금액이 다르거나 여러 번 나누어 보내면 입금이 늦어집니다.`,
  copy: '복사',
  copyLabel: (field, kind) => `${copyName(COPIED, REQUISITES, field, kind)} 복사`,
  copied: '복사됨',
  copiedAnnouncement: (field, kind) => `${copyName(COPIED, REQUISITES, field, kind)} 복사됨`,
  copyManually: '여기서는 복사할 수 없습니다. 텍스트가 선택되어 있으니 기기 메뉴로 복사하세요.',
  qrLabel: '은행 앱으로 결제하는 QR 코드',
  qrHint: '은행 앱이나 카메라로 스캔하세요',
  openInBankApp: '은행 앱에서 열기',
  timeLeftLabel: '남은 시간',
  timeLeftAnnouncement: (remainingMs) => {
    const { unit, count } = timeLeftUnits(remainingMs);
    return `결제까지 ${count}${unit === 'minute' ? '분' : '초'} 남았습니다`;
  },
  variantsLabel: '결제 방법',
  changeBank: '은행 변경',
  option: (option) => own(OPTIONS, option) ?? option,
  currentVariant: '현재',
  startingDeal: '결제 정보를 준비하는 중…',
  dealUnsupported: '이 상점에서는 여기서 결제 방법을 고를 수 없습니다. 상점에 문의하세요.',
  dealFailed: '결제를 시작하지 못했습니다. 다시 시도하세요.',
  dealNoRequisites: '이 은행은 지금 사용할 수 있는 결제 정보가 없습니다. 다른 은행을 고르거나 몇 분 후에 다시 시도하세요.',
  dealNotAllowed: '이 결제에는 이 방법을 쓸 수 없습니다. 다른 방법을 고르세요.',
  variantsFailed: '결제 방법을 불러오지 못했습니다.',
  cancel: '결제 취소',
  cancelQuestion: '이 결제를 취소할까요?',
  confirmCancel: '예, 취소합니다',
  keepPaying: '아니요, 돌아가기',
  canceling: '취소하는 중…',
  cancelFailed: '결제를 취소하지 못했습니다. 다시 시도하세요.',
  changed: '결제 정보가 바뀌었습니다. 결제하기 전에 확인하세요.',
  changeSeen: '확인',
  confirmPaid: '송금했습니다',
  checkingExplanation: (minutes) =>
    `판매자가 입금을 확인하고 있습니다${minutes ? `. 최대 ${minutes}분이 걸릴 수 있습니다` : ''}. 다시 결제하지 마세요. ${UPDATES}`,
  receiptReceived: '영수증을 받았습니다. 결제를 확인하고 있습니다.',
  attachReceipt: (policy) => (policy === 'required' ? '영수증 첨부 (필수)' : '영수증 첨부'),
  showDetails: '결제 정보 다시 보기',
  reportPayment: (prompt) => (prompt === 'confirmed' ? '결제 신고' : '이미 송금했습니다'),
  reportIntro: (prompt) =>
    prompt === 'confirmed'
      ? '송금이 제때 확인되지 않았습니다. 돈을 보냈다면 신고하세요. 영수증으로 확인합니다.'
      : '시간이 끝나기 전에 돈을 보냈나요? 영수증과 함께 신고하세요.',
  reportReported: '감사합니다. 상점이 신고를 받았으며 연락드릴 것입니다.',
  referenceLabel: '결제 번호',
  returnToShop: '상점으로 돌아가기',
  autoReturn: (seconds) => `${seconds}초 후 상점으로 돌아갑니다`,
  stayHere: '이 페이지에 머무르기',
  openPaymentPage: '결제 페이지 열기',
  openTelegram: '텔레그램에서 열기',
  chooseBank: '은행 선택',
  crossBorder: (currency, country) =>
    [currency && `은행이 ${currency}(으)로 송금`, country && `${country} 카드`].filter(Boolean).join(', ') || '해외 송금',
  errorMessage: (code) => own(ERRORS, code) ?? '지금은 결제 서비스를 사용할 수 없습니다.',
  retry: '다시 시도',
  connectionTrouble: '연결이 끊겼습니다. 다시 시도하는 중…',
  offline: '인터넷에 연결되어 있지 않습니다. 다시 연결되면 바로 상태를 확인합니다.',
};
