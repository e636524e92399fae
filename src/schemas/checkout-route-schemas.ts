/**
 * The zod schemas of each route of the checkout protocol (`CHECKOUT_ROUTES`, the zod-free table
 * in checkout-routes.ts): what its request carries and what it answers. Typed to be exhaustive
 * over the table's names, so a new row does not typecheck without its schemas. The proxy reads
 * its requests with them and scripts/gen-openapi.ts describes them; browser code never imports
 * this module (zod stays out of its bundle).
 */
import type * as z from 'zod/mini';
import type { CheckoutRouteName } from './checkout-routes.js';
import {
  CheckoutBankListSchema,
  CheckoutCanceledInvoiceSchema,
  CheckoutDisputeAnswerSchema,
  CheckoutDisputeFormSchema,
  CheckoutInvoiceSchema,
  CheckoutReceiptFormSchema,
  StartDealRequestSchema,
} from './checkout.js';
import { PaymentVariantListSchema } from './invoice.js';

/** A route's schemas: its request body's (JSON or multipart), if any, and its answer's (`event-stream` for Server-Sent Events). */
export interface CheckoutRouteSchemas {
  readonly request?: z.ZodMiniType;
  readonly answer: z.ZodMiniType | 'event-stream';
}

export const CHECKOUT_ROUTE_SCHEMAS = {
  invoice: { answer: CheckoutInvoiceSchema },
  variants: { answer: PaymentVariantListSchema },
  cancel: { answer: CheckoutCanceledInvoiceSchema },
  deal: { request: StartDealRequestSchema, answer: CheckoutInvoiceSchema },
  receipt: { request: CheckoutReceiptFormSchema, answer: CheckoutInvoiceSchema },
  dispute: { request: CheckoutDisputeFormSchema, answer: CheckoutDisputeAnswerSchema },
  banks: { answer: CheckoutBankListSchema },
  events: { answer: 'event-stream' },
} as const satisfies Readonly<Record<CheckoutRouteName, CheckoutRouteSchemas>>;
