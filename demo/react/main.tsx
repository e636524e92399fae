/**
 * `<MerchantCheckout>` from `merchant-checkout/react` in a React 19 app (under StrictMode, which
 * mounts twice in development), as a merchant would write it: props for the element's
 * properties, `onCheckout…` props for its events, and the events feeding React state.
 */
import { MerchantCheckout, type CheckoutReadyEvent, type CheckoutStatusEvent } from 'merchant-checkout/react';
import { StrictMode, useCallback, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { demoApi, type DemoOrder } from '../shared/demo-api.js';
import { logEntry, type CheckoutEvent, type LoggedEvent } from '../shared/events.js';
import { applyPageSettings, FRAMEWORK_TEXT, orderForPage } from '../shared/framework-page.js';

const { lang, theme } = applyPageSettings();
const t = FRAMEWORK_TEXT[lang];
/** One request for the page's order, however often StrictMode runs the effect. */
const pageOrder = orderForPage();

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

function App() {
  const [order, setOrder] = useState<DemoOrder>();
  const [status, setStatus] = useState<string>();
  const [events, setEvents] = useState<LoggedEvent[]>([]);
  const [problem, setProblem] = useState<string>();

  useEffect(() => {
    let current = true;
    pageOrder.then(
      (found) => current && setOrder(found),
      (error: unknown) => current && setProblem(messageOf(error)),
    );
    return () => {
      current = false;
    };
  }, []);

  const log = useCallback((event: CheckoutEvent) => setEvents((previous) => [logEntry(event), ...previous]), []);
  const onReady = useCallback(
    (event: CheckoutReadyEvent) => {
      setStatus(event.detail.invoice.status);
      log(event);
    },
    [log],
  );
  const onStatus = useCallback(
    (event: CheckoutStatusEvent) => {
      setStatus(event.detail.status);
      log(event);
    },
    [log],
  );
  const markPaid = () => {
    if (!order) return;
    demoApi.invoiceAction(order.invoiceId, 'paid').catch((error: unknown) => setProblem(messageOf(error)));
  };

  return (
    <>
      <header className="topbar">
        <a className="brand" href="/">
          <img src="/favicon.svg" alt="" width={32} height={32} />
          <span className="brand-name">Samovar Tea</span>
          <span className="brand-tagline">{t.back}</span>
        </a>
      </header>
      <main className="framework">
        <h1>React 19</h1>
        <p className="intro">{t.intro('React')}</p>
        <section>
          {order && (
            <MerchantCheckout
              invoiceId={order.invoiceId}
              endpoint="/checkout-api"
              pollInterval={2000}
              theme={theme}
              onCheckoutReady={onReady}
              onCheckoutStatus={onStatus}
              onCheckoutCanceled={log}
              onCheckoutExpired={log}
              onCheckoutVariantSelect={log}
              onCheckoutCopy={log}
              onCheckoutError={log}
            />
          )}
        </section>
        <section className="panel" aria-labelledby="react-state">
          <h2 id="react-state" className="order-title">
            {order ? t.order(order.orderId) : '…'}
          </h2>
          <p className="status-line" id="status-line">
            {t.status}: {status ?? t.waiting}
          </p>
          <p className="button-row">
            <button type="button" id="mark-paid" disabled={!order} onClick={markPaid}>
              {t.markPaid}
            </button>
          </p>
          {problem && (
            <p className="form-error" role="alert">
              {problem}
            </p>
          )}
          <h3>{t.events}</h3>
          {events.length === 0 ? (
            <p className="muted">{t.noEvents}</p>
          ) : (
            <ol className="event-log" id="event-log">
              {events.map((entry) => (
                <li key={entry.id} data-event={entry.name}>
                  <time>{entry.time}</time>
                  <code>{entry.name}</code>
                  <span className="event-order" />
                  <span className="event-detail">{entry.summary}</span>
                </li>
              ))}
            </ol>
          )}
        </section>
      </main>
    </>
  );
}

const root = document.querySelector('#app');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
