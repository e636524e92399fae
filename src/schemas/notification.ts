/**
 * The status notification the service POSTs to an invoice's `notificationUrl`.
 *
 * ASSUMPTION: the reference does not show the format, the kinds of event, the retries or how
 * the token travels. This project assumes (and its mock sends) a JSON body
 * `{ "event": "invoice.status_changed", "invoice": InvoiceDTO, "previousStatus": "new" | null,
 * "sentAt": ISO 8601 }` with the invoice's `notificationToken` in the `X-Notification-Token`
 * header. `createNotificationHandler` reads the token from a configurable place and accepts
 * a bare InvoiceDTO body as well.
 */
import * as z from 'zod/mini';
import { InvoiceLookupSchema, InvoiceStatusSchema } from './invoice.js';
import { isoDateTime, nonEmptyString } from './primitives.js';

export const NOTIFICATION_TOKEN_HEADER = 'x-notification-token';
export const NOTIFICATION_EVENT_STATUS_CHANGED = 'invoice.status_changed';

export const InvoiceNotificationSchema = z.looseObject({
  event: nonEmptyString(),
  invoice: InvoiceLookupSchema,
  previousStatus: z.nullable(InvoiceStatusSchema),
  sentAt: isoDateTime(),
});
export type InvoiceNotification = z.infer<typeof InvoiceNotificationSchema>;
