import type { FormState, ReportState } from '../screen-model.js';
import type { SessionCore } from './session-types.js';

/** The payer's two forms. */
export type PayerForm = 'receipt' | 'report';

/**
 * The state of the payer's two forms in one session: the receipt of the transfer (`POST
 * …/receipt`, the proxy's `confirm-transfer`) and the report of a payment that went missing
 * (`POST …/dispute`). Each is closed, open, sending, done or failed with a code. The forms
 * themselves, their own checks and their requests load on demand (journey/forms.ts,
 * journey/form-requests.ts): nothing is sent before a form is on screen.
 */
export class PayerForms {
  /** The session the forms' requests are made in (journey/form-requests.ts). */
  readonly session: SessionCore;
  readonly #state: Record<PayerForm, ReportState> = { receipt: { state: 'closed' }, report: { state: 'closed' } };

  constructor(session: SessionCore) {
    this.session = session;
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
    this.set(form, { state: open ? 'open' : 'closed' });
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
    this.set(form, { state: 'failed', code });
  }

  /** A form's new state, drawn at the next render. */
  set(form: PayerForm, state: ReportState): void {
    this.#state[form] = state;
    this.session.requestUpdate();
  }
}
