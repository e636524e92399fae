/**
 * Every string the element shows or announces. Entries that depend on a value are functions
 * (plurals, amounts, the kind of requisites). English and Russian ship; a merchant overrides
 * any entry through the element's `strings` property.
 */
import type { RequisitesKind } from '../format.js';

/** The screens the element has; also the value of `data-screen` on its base part. */
export type Screen = 'idle' | 'loading' | 'waiting' | 'picker' | 'payout' | 'paid' | 'canceled' | 'expired' | 'other' | 'error';

/** What a copy button copies. */
export type CopyField = 'amount' | 'requisites';

export interface Translation {
  /** Primary language subtag of this translation (`en`, `ru`). */
  readonly language: string;
  loading: string;
  /** Heading of each screen. */
  title: (screen: Screen) => string;
  /** Who is paid: shown above the heading. */
  payee: (storeName: string) => string;
  /** The status line: the screen in words, or the service's own status text for `other`. */
  statusLabel: string;
  status: (screen: Screen, rawStatus: string) => string;
  /** The paragraph under the heading of the final and `other` screens. */
  explanation: (screen: Screen, rawStatus: string) => string;
  amountLabel: string;
  bankLabel: string;
  requisitesLabel: (kind: RequisitesKind) => string;
  holderLabel: string;
  /** Guidance for a P2P transfer; `amount` is already formatted. */
  guidance: (amount: string) => string;
  copy: string;
  /** Accessible name of a copy button; starts with `copy` (the visible text). */
  copyLabel: (field: CopyField, kind: RequisitesKind) => string;
  copied: string;
  copiedAnnouncement: (field: CopyField, kind: RequisitesKind) => string;
  /** Shown when the Clipboard API is missing or refused and the text was selected instead. */
  copyManually: string;
  qrLabel: string;
  qrHint: string;
  openInBankApp: string;
  timeLeftLabel: string;
  /** Spoken time left, at the steps of `announcementStep` (never every second). */
  timeLeftAnnouncement: (remainingMs: number) => string;
  variantsLabel: string;
  /** A payment option (`TO_CARD`, `SBP`, or one this element does not know, shown as written). */
  option: (option: string) => string;
  currentVariant: string;
  startingDeal: string;
  dealUnsupported: string;
  dealFailed: string;
  /** The bank picked has no free requisites right now (the picker stays). */
  dealNoRequisites: string;
  /** The service does not offer the picked bank or option for this invoice. */
  dealNotAllowed: string;
  variantsFailed: string;
  cancel: string;
  cancelQuestion: string;
  confirmCancel: string;
  keepPaying: string;
  canceling: string;
  cancelFailed: string;
  /**
   * The first line of the notice of what changed while the payer was looking; a line per
   * change follows, `label: old → new` (the labels of the details).
   */
  changed: string;
  /** The button that closes the change notice. */
  changeSeen: string;
  /** Message of the error screen for a `checkout-error` code. */
  errorMessage: (code: string) => string;
  retry: string;
  /** Reading the status failed for now; the element keeps trying. */
  connectionTrouble: string;
}

/** Whole minutes or seconds left, rounded up, for the announcement texts. */
export const timeLeftUnits = (remainingMs: number): { unit: 'minute' | 'second'; count: number } => {
  const seconds = Math.max(0, Math.ceil(remainingMs / 1000));
  return seconds >= 60 ? { unit: 'minute', count: Math.ceil(seconds / 60) } : { unit: 'second', count: seconds };
};

/**
 * An entry of a lookup table keyed by text from outside (an option, an error code), or
 * `undefined`: `own` keeps `constructor` or `__proto__` from finding the object's prototype.
 */
export const own = <T>(table: Record<string, T>, key: string): T | undefined =>
  Object.hasOwn(table, key) ? table[key] : undefined;
