/**
 * Page side of the browser benchmarks (loaded after dist/cdn/merchant-checkout.js). Plain
 * JavaScript: the runner calls these through `page.evaluate` with a string expression.
 */

const REQUISITES = '[part~="requisites"] .requisites';
const QR_PATH = '[part~="qr"] path';

const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));

const create = (invoiceId, endpoint) => {
  const element = document.createElement('merchant-checkout');
  element.setAttribute('invoice-id', invoiceId);
  element.setAttribute('endpoint', endpoint);
  return element;
};

/**
 * Resolves with the `performance.now()` at which each selector first matched a node with
 * content, watching the element's shadow root with a MutationObserver (no polling).
 */
const whenShown = (element, selectors) =>
  new Promise((resolve) => {
    const root = element.shadowRoot;
    const seen = {};
    const check = () => {
      const now = performance.now();
      for (const [name, selector] of Object.entries(selectors)) {
        if (seen[name] !== undefined) continue;
        const node = root.querySelector(selector);
        if (node && (node.textContent.trim() || node.getAttribute('d'))) seen[name] = now;
      }
      if (Object.keys(seen).length === Object.keys(selectors).length) {
        observer.disconnect();
        resolve(seen);
      }
    };
    const observer = new MutationObserver(check);
    observer.observe(root, { subtree: true, childList: true, characterData: true, attributes: true });
    check();
  });

window.benchPage = {
  ready: () => customElements.whenDefined('merchant-checkout').then(() => true),

  /** One fetch of `url` and its body: the round trip the element cannot beat. */
  async roundTrip(url) {
    const start = performance.now();
    const response = await fetch(url, { headers: { accept: 'application/json' } });
    await response.text();
    return performance.now() - start;
  },

  /**
   * Inserts an element, times the requisites and the QR code from the insertion, waits two
   * frames (so the render's style, layout and paint are done) and removes it.
   */
  async mount({ invoiceId, endpoint }) {
    const element = create(invoiceId, endpoint);
    let ready;
    element.addEventListener('checkout-ready', () => (ready = performance.now()), { once: true });
    const start = performance.now();
    document.body.append(element);
    const seen = await whenShown(element, { requisites: REQUISITES, qr: QR_PATH });
    await frame();
    await frame();
    element.remove();
    return { requisites: seen.requisites - start, qr: seen.qr - start, ready: ready === undefined ? null : ready - start };
  },

  /** As long as a `mount` at this latency, with no element: what the measurement itself costs. */
  async idle(ms) {
    await new Promise((resolve) => setTimeout(resolve, ms));
    await frame();
    await frame();
    return true;
  },

  /** The leak counters while one element is on the page (proof that the instruments see it). */
  async probe({ invoiceId, endpoint }) {
    const element = create(invoiceId, endpoint);
    document.body.append(element);
    await whenShown(element, { requisites: REQUISITES, qr: QR_PATH });
    const counts = window.__leaks.snapshot();
    element.remove();
    return counts;
  },

  /**
   * Mounts and removes `count` elements one after another. Every `midFlightEvery`-th is removed
   * as soon as its first render is done (its requests still in flight); the others once their
   * requisites and QR code are shown.
   */
  async mountMany({ invoiceId, endpoint, count, midFlightEvery }) {
    let midFlight = 0;
    for (let i = 0; i < count; i++) {
      const element = create(invoiceId, endpoint);
      document.body.append(element);
      if (midFlightEvery && i % midFlightEvery === midFlightEvery - 1) {
        await element.updateComplete;
        midFlight++;
      } else {
        await whenShown(element, { requisites: REQUISITES, qr: QR_PATH });
      }
      element.remove();
    }
    return { mounted: count, midFlight };
  },
};
