/**
 * The protocol's two uploads, validated as protocol-client.ts validates its reads: the payer's
 * receipt (`POST …/receipt`) and the report of a missing payment (`POST …/dispute`). A module of
 * their own because only the forms send them: they load with the forms (journey/forms.ts, the
 * `forms` chunk of the CDN build), not in the first-render file.
 */
import { invoiceJsonSchema } from '../schemas/browser.generated.js';
import type { CheckoutDisputeAnswer, CheckoutInvoice } from '../schemas/checkout.js';
import { type JsonSchema, validateJson } from '../schemas/json-schema.js';
import {
  checkInvoice,
  type CheckoutClient,
  notImplemented,
  type PaymentReportRequest,
  sameInvoice,
  valid,
  validated,
} from './protocol-client.js';

/**
 * The shape of `CheckoutDisputeAnswerSchema`: `{ outcome, invoice }`, put together here from the
 * generated invoice schema rather than generated whole (which would ship the invoice's schema twice).
 */
const disputeAnswerJsonSchema: JsonSchema = {
  type: 'object',
  properties: { outcome: { type: 'string', enum: ['forwarded', 'reported'] }, invoice: invoiceJsonSchema },
  required: ['outcome', 'invoice'],
};

/** `POST /invoices/{id}/receipt`: the payer's receipt; the answer is the invoice, its deal `transfer_confirmed`. */
export const sendReceipt = (client: CheckoutClient, invoiceId: string, file: Blob, signal: AbortSignal) =>
  validated<CheckoutInvoice>(
    () => (client.sendReceipt ? client.sendReceipt(invoiceId, file, { signal }) : notImplemented('send a receipt')),
    (data) => checkInvoice(data, invoiceId),
  );

/**
 * `POST /invoices/{id}/dispute`: the payer reports a payment that went missing. The answer says
 * whether the proxy `forwarded` it to the service as a dispute (the invoice is then `dispute`)
 * or `reported` it to the shop only, with the invoice as it is now.
 */
export const reportPayment = (client: CheckoutClient, invoiceId: string, report: PaymentReportRequest, signal: AbortSignal) =>
  validated<CheckoutDisputeAnswer>(
    () => (client.reportPayment ? client.reportPayment(invoiceId, report, { signal }) : notImplemented('report a payment')),
    (data) => {
      const answer = valid(validateJson<CheckoutDisputeAnswer>(disputeAnswerJsonSchema, data));
      return { ...answer, invoice: sameInvoice(answer.invoice, invoiceId) };
    },
  );
