/**
 * The requests of the payer's forms: the receipt and the report of a missing payment, each
 * `sending` and then `done` (the invoice the answer carries taken by the session) or `failed`
 * with a code. They come with the forms (journey/forms.ts, the `forms` chunk of the CDN build):
 * a form is on screen before it can be sent, so the first-render file does without them. The
 * forms' state stays with the session (session/payer-forms.ts).
 */
import { CheckoutReceiptEvent, CheckoutReportEvent } from '../events.js';
import { type CheckoutClient, isAbortError, toCheckoutError, type Validated } from '../protocol-client.js';
import { reportPayment, sendReceipt as uploadReceipt } from '../protocol-uploads.js';
import type { ReportState } from '../screen-model.js';
import type { PayerForm, PayerForms } from '../session/payer-forms.js';
import type { PaymentReport } from '../session/session-types.js';

/** Sends the payer's receipt (checked in the browser already) through the proxy's `confirm-transfer`. */
export const sendReceipt = (forms: PayerForms, file: Blob): Promise<void> => {
  const { session } = forms;
  return send(
    forms,
    'receipt',
    (client, invoiceId, signal) => uploadReceipt(client, invoiceId, file, signal),
    () => ({ state: 'done' }),
    (invoice) => {
      session.adopt(invoice, 'receipt');
      session.events.afterRender(new CheckoutReceiptEvent({ invoice }));
    },
  );
};

/** Reports a payment that went missing: the proxy forwards it as a dispute or keeps it for the shop. */
export const sendReport = (forms: PayerForms, report: PaymentReport): Promise<void> => {
  const { session } = forms;
  return send(
    forms,
    'report',
    (client, invoiceId, signal) => reportPayment(client, invoiceId, report, signal),
    ({ outcome }) => ({ state: 'done', outcome }),
    ({ outcome, invoice }) => {
      session.adopt(invoice, 'report');
      session.options.announce((t) => (outcome === 'reported' ? t.reportReported : t.title('dispute')));
      session.events.afterRender(new CheckoutReportEvent({ outcome, invoice }));
    },
  );
};

/** One form's request: sending, then `done`'s state and `after` (the invoice it answers taken), or failed. */
const send = async <T>(
  forms: PayerForms,
  form: PayerForm,
  request: (client: CheckoutClient, invoiceId: string, signal: AbortSignal) => Promise<Validated<T>>,
  done: (answer: T) => ReportState,
  after: (answer: T) => void,
): Promise<void> => {
  const { session } = forms;
  if (forms[form].state === 'sending' || !session.invoice()) return;
  forms.set(form, { state: 'sending' });
  try {
    const { client, invoiceId } = session.options;
    const answer = await session.read((signal) => request(client, invoiceId, signal), session.signal());
    forms.set(form, done(answer));
    after(answer);
  } catch (error) {
    if (isAbortError(error)) return;
    const { code, maxBytes } = toCheckoutError(error);
    forms.set(form, { state: 'failed', code, maxBytes });
    session.events.error(error);
  }
};
