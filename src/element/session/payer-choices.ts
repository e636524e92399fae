import { remember, remembered } from './paid-memory.js';

/**
 * What the payer chose on screen for one invoice: "I have paid" (the key of the deal it was
 * said of, remembered per tab over a reload: paid-memory.ts), the payment details shown again
 * after it, and the SBP bank picker open.
 */
export class PayerChoices {
  readonly #invoiceId: string;
  /** The key of the deal "I have paid" was said of. */
  confirmed: string | undefined;
  showDetails = false;
  bankPicker = false;

  constructor(invoiceId: string) {
    this.#invoiceId = invoiceId;
    this.confirmed = invoiceId ? remembered(invoiceId) : undefined;
  }

  /** "I have paid" for the deal `dealKey`: remembered, and the check shown rather than the details. */
  confirm(dealKey: string): void {
    this.confirmed = dealKey;
    this.showDetails = false;
    remember(this.#invoiceId, dealKey);
  }
}
