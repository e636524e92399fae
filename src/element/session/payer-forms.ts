import { CheckoutReceiptEvent, CheckoutReportEvent } from '../events.js';
import { type CheckoutClient, isAbortError, reportPayment, sendReceipt, toCheckoutError, type Validated } from '../protocol-client.js';
import type { FormState, ReportState } from '../screen-model.js';
import type { PaymentReport, SessionCore } from './session-types.js';

/** The payer's two forms. */
export type PayerForm = 'receipt' | 'report';

/**
 * The payer's two forms of one session: the receipt of the transfer (`POST …/receipt`, the
 * proxy's `confirm-transfer`) and the report of a payment that went missing (`POST …/dispute`).
 * Each is closed, open, sending, done or failed with a code; the forms themselves (and their
 * own checks) load on demand (journey/forms.ts).
 */
export class PayerForms {
  readonly #session: SessionCore;
  readonly #state: Record<PayerForm, ReportState> = { receipt: { state: 'closed' }, report: { state: 'closed' } };

  constructor(session: SessionCore) {
    this.#session = session;
  }

  get receipt(): FormState {
    return this.#state.receipt;
  }

  get report(): ReportState {
    return this.#state.report;
  }

  /** Opens or closes a form (its module loads on demand); not while it is sending. */
  toggle(form: PayerForm, open: boolean): void {
    if (this.#state[form].state === 'sending') return;
    this.#state[form] = { state: open ? 'open' : 'closed' };
    this.#session.requestUpdate();
  }

  /** Another deal: its receipt is still to come. */
  newDeal(): void {
    this.#state.receipt = { state: 'closed' };
  }

  /** "I have paid" where the merchant requires the receipt: its form at once. */
  requireReceipt(): void {
    if (this.#state.receipt.state === 'closed') this.#state.receipt = { state: 'open' };
  }

  /** A form's own check failed (`code` names what): shown in the form, nothing is sent. */
  formProblem(form: PayerForm, code: string): void {
    this.#state[form] = { state: 'failed', code };
    this.#session.requestUpdate();
  }

  /** Sends the payer's receipt (checked in the browser already) through the proxy's `confirm-transfer`. */
  sendReceipt(file: Blob): Promise<void> {
    const session = this.#session;
    return this.#send(
      'receipt',
      (client, invoiceId, signal) => sendReceipt(client, invoiceId, file, signal),
      () => ({ state: 'done' }),
      (invoice) => {
        session.adopt(invoice, 'receipt');
        session.events.afterRender(new CheckoutReceiptEvent({ invoice }));
      },
    );
  }

  /** Reports a payment that went missing: the proxy forwards it as a dispute or keeps it for the shop. */
  sendReport(report: PaymentReport): Promise<void> {
    const session = this.#session;
    return this.#send(
      'report',
      (client, invoiceId, signal) => reportPayment(client, invoiceId, report, signal),
      ({ outcome }) => ({ state: 'done', outcome }),
      ({ outcome, invoice }) => {
        session.adopt(invoice, 'report');
        session.options.announce((t) => (outcome === 'reported' ? t.reportReported : t.title('dispute')));
        session.events.afterRender(new CheckoutReportEvent({ outcome, invoice }));
      },
    );
  }

  /** One form's request: sending, then `done`'s state and `after` (the invoice it answers taken), or failed. */
  async #send<T>(
    form: PayerForm,
    request: (client: CheckoutClient, invoiceId: string, signal: AbortSignal) => Promise<Validated<T>>,
    done: (answer: T) => ReportState,
    after: (answer: T) => void,
  ): Promise<void> {
    const session = this.#session;
    if (this.#state[form].state === 'sending' || !session.invoice()) return;
    this.#state[form] = { state: 'sending' };
    session.requestUpdate();
    try {
      const { client, invoiceId } = session.options;
      const answer = await session.read((signal) => request(client, invoiceId, signal), session.signal());
      this.#state[form] = done(answer);
      after(answer);
    } catch (error) {
      if (isAbortError(error)) return;
      const { code, maxBytes } = toCheckoutError(error);
      this.#state[form] = { state: 'failed', code, maxBytes };
      session.events.error(error);
      session.requestUpdate();
    }
  }
}
