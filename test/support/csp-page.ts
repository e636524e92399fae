/**
 * The page behind `/__csp/page.html` (strict CSP, Trusted Types enforced): mounts the element
 * with XSS payloads in the data, walks it through a deal and a cancel, then tells the parent
 * window what happened and every violation the page saw.
 */
import type { MerchantCheckoutElement } from '../../src/element/merchant-checkout.js';
import type { CheckoutAnswer, CheckoutClient } from '../../src/element/protocol-client.js';
import '../../src/element/define.js';
import { exampleCanceledInvoice, exampleLookupDeal, exampleLookupInvoice, exampleVariants, INVOICE_ID } from '../fixtures/dto.js';

export interface CspReport {
  violations: string[];
  screens: string[];
  qrPaths: number;
  holder: string;
  /** Whether the page really enforces Trusted Types: a raw `innerHTML` write must throw. */
  trustedTypesEnforced: boolean;
  /** How the element was styled on the waiting screen. */
  styles: StylesSeen;
  error?: string;
}

export interface StylesSeen {
  /** Whether the browser adopts style sheets (no `<style>` elements needed). */
  adopting: boolean;
  /** `<style>` elements in the shadow root, and how many carry a nonce. */
  styleElements: number;
  withNonce: number;
  /** The card's background (the element's own styles) and the amount's weight (the screens' styles, loaded on demand). */
  background: string;
  amountWeight: string;
}

declare global {
  interface Window {
    cspViolations: string[];
  }
}

const HOLDER = "<img src=x onerror=\"parent.postMessage('xss', '*')\">";
const answer = (data: unknown): Promise<CheckoutAnswer> => Promise.resolve({ data, date: new Date().toUTCString() });
const invoice = exampleLookupInvoice({
  expireAt: new Date(Date.now() + 30 * 60_000).toISOString(),
  deals: [exampleLookupDeal({ requisites: { requisites: '<svg onload=alert(1)>', holder: HOLDER } })],
});
const client: CheckoutClient = {
  getInvoice: () => answer(invoice),
  getPaymentVariants: () => answer(exampleVariants()),
  cancelInvoice: () => answer(exampleCanceledInvoice()),
  startDeal: () => answer(invoice),
};

const until = (test: () => boolean) =>
  new Promise<void>((resolve) => {
    const check = () => (test() ? resolve() : setTimeout(check, 10));
    check();
  });

const stylesSeen = (el: MerchantCheckoutElement): StylesSeen => {
  const root = el.shadowRoot!;
  const styleElements = [...root.querySelectorAll('style')];
  return {
    adopting: 'adoptedStyleSheets' in root,
    styleElements: styleElements.length,
    withNonce: styleElements.filter((style) => style.nonce !== '' || style.hasAttribute('nonce')).length,
    background: getComputedStyle(root.querySelector('[part~="base"]')!).backgroundColor,
    amountWeight: getComputedStyle(root.querySelector('[part~="amount"] .value')!).fontWeight,
  };
};

const run = async (): Promise<CspReport> => {
  const el: MerchantCheckoutElement = document.createElement('merchant-checkout');
  el.client = client;
  el.invoiceId = INVOICE_ID;
  document.body.append(el);
  const screen = () => el.shadowRoot?.querySelector<HTMLElement>('[part~="base"]')?.dataset.screen ?? '';
  const screens: string[] = [];
  const part = (name: string) => el.shadowRoot!.querySelector<HTMLElement>(`[part~="${name}"]`);
  // The QR code is drawn once the waiting screen is on screen (its encoder loads after the first paint).
  await until(() => screen() === 'waiting' && part('variants') !== null && el.shadowRoot!.querySelector('[part~="qr"] path') !== null);
  screens.push(screen());
  const styles = stylesSeen(el);
  const qrPaths = el.shadowRoot!.querySelectorAll('[part~="qr"] path').length;
  const holder = part('holder')?.querySelector('.value')?.textContent ?? '';
  part('cancel-button')!.click();
  await el.updateComplete;
  part('confirm-button')!.click();
  await until(() => screen() === 'canceled');
  screens.push(screen());
  return { violations: [...window.cspViolations], screens, qrPaths, holder, trustedTypesEnforced: false, styles };
};

const probeTrustedTypes = (): boolean => {
  try {
    document.createElement('div').innerHTML = '<b>probe</b>';
    return false;
  } catch (error) {
    return error instanceof TypeError;
  }
};

void run()
  .then((report) => ({ ...report, trustedTypesEnforced: probeTrustedTypes() }))
  .catch((error: unknown) => ({
    violations: [...window.cspViolations],
    screens: [],
    qrPaths: 0,
    holder: '',
    trustedTypesEnforced: false,
    styles: { adopting: false, styleElements: 0, withNonce: 0, background: '', amountWeight: '' },
    error: String(error),
  }))
  .then((report: CspReport) => parent.postMessage({ cspReport: report }, location.origin));
