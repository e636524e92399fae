/**
 * A viewport of any width, in every engine: a same-origin frame of that size with the element
 * defined in it. web-test-runner's `setViewport` resizes the page in Chromium and Firefox, but
 * WebKit's MiniBrowser window is never narrower than 447 px (its toolbar), so a phone's 320 or
 * 360 px would silently be 447 there. The frame's own media queries and `innerWidth` follow
 * the frame's size in all three engines.
 */
import type { MerchantCheckoutElement } from '../../src/element/merchant-checkout.js';
import { INVOICE_ID, type FakeClient } from './helpers.js';

/** The element, and axe to check it in the frame's own realm (axe refuses another realm's nodes). */
const FRAME_PAGE = [
  '<!doctype html><html lang="en"><head><meta charset="utf-8">',
  '<script src="/node_modules/axe-core/axe.min.js"></script>',
  '<script type="module" src="/src/element/define.ts"></script>',
  '</head><body></body></html>',
].join('');

interface AxeResults {
  violations: { id: string; nodes: { target: unknown }[] }[];
}

export interface Viewport {
  el: MerchantCheckoutElement;
  window: Window;
  document: Document;
  /** axe's violations in the element, as `id: targets` lines (none when it is accessible). */
  violations(): Promise<string[]>;
  remove(): void;
}

/** The element on `client`, for the invoice of the fixtures, alone in a viewport `width` × `height`. */
export const mountInViewport = async (client: FakeClient, { width, height }: { width: number; height: number }): Promise<Viewport> => {
  const frame = document.createElement('iframe');
  frame.style.cssText = `display: block; border: 0; width: ${width}px; height: ${height}px`;
  frame.srcdoc = FRAME_PAGE;
  const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
  document.body.append(frame);
  await loaded;
  const view = frame.contentWindow!;
  await view.customElements.whenDefined('merchant-checkout');
  const el: MerchantCheckoutElement = view.document.createElement('merchant-checkout');
  el.lang = 'en';
  el.client = client;
  el.invoiceId = INVOICE_ID;
  view.document.body.append(el);
  const violations = async () => {
    const axe = (view as Window & { axe: { run(context: Element): Promise<AxeResults> } }).axe;
    const results = await axe.run(el);
    return results.violations.map((violation) => `${violation.id}: ${JSON.stringify(violation.nodes.map((node) => node.target))}`);
  };
  return { el, window: view, document: view.document, violations, remove: () => frame.remove() };
};
