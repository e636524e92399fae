/**
 * What the views are given besides the screen model: the strings, the actions the element
 * wires to its session, and the parts that load on demand. Types only: the element (eager)
 * and the views (lazy) both import them without importing each other.
 */
import type { nothing, TemplateResult } from 'lit';
import type { PaymentVariant } from '../schemas/invoice.js';
import type { Translation } from './i18n/translation.js';
import type { QrModule } from './qr.js';
import type { CopyModel, ReturnModel } from './screen-model.js';

/** What the payer can do on a screen; the element wires each to its session. */
export interface ScreenActions {
  copy: (copy: CopyModel) => void;
  select: (variant: PaymentVariant) => void;
  retryVariants: () => void;
  askCancel: () => void;
  confirmCancel: () => void;
  keepPaying: () => void;
  dismissChanges: () => void;
  retry: () => void;
  confirmPaid: () => void;
  showDetails: (show: boolean) => void;
  receiptForm: (open: boolean) => void;
  reportForm: (open: boolean) => void;
  /** The payer pressed the way back to the shop; the element asks the page (`checkout-return`) first. */
  returnToShop: (event: Event, to: ReturnModel) => void;
  stopAutoReturn: () => void;
  bankPicker: (open: boolean) => void;
}

/** What is drawn by a module that loads on demand: each renders when it has arrived (the element re-renders then). */
export interface LazyParts {
  /** The QR encoder, or undefined while it loads. */
  qr: QrModule | undefined;
  /** The receipt and report forms, or a placeholder while they load. */
  receiptForm: () => TemplateResult;
  reportForm: () => TemplateResult;
  /** The SBP bank picker for `link`. */
  bankPicker: (link: string) => TemplateResult;
}

export interface ScreenContext {
  t: Translation;
  /** The `Intl` locale for money. */
  locale: string;
  hideCancel: boolean;
  actions: ScreenActions;
  lazy: LazyParts;
  /**
   * A bank's lettermark on its colour, or the merchant's logo (`bank-logos`): nothing until
   * the module that draws them has loaded (it comes with the bank directory, after the invoice).
   */
  bankMark: (code: string, name: string) => TemplateResult | typeof nothing;
}
