/**
 * The status notification the service POSTs to an invoice's `notificationUrl`, as its
 * documentation shows it: `{ "notificationType": "invoice", "notificationDate": "…",
 * "invoice": Notifications\InvoiceDTO }` with the invoice's `notificationToken` in the
 * `X-Notification-Token` header (as is, no HMAC). The notification's invoice carries one
 * `deal` (or null) instead of `deals` and no `userId`, `paymentMethod`, `paymentOption` or
 * `invoiceUrl`; {@link InvoiceSchema} reads it into the same normalized `Invoice` as every
 * other answer.
 *
 * Also accepted: this kit's first-round envelope `{ event, invoice, previousStatus, sentAt }`
 * and a bare invoice, so a receiver upgraded before its mock keeps working.
 */
import * as z from 'zod/mini';
import { InvoiceSchema } from './invoice.js';
import { isoDateTime, lenient, nonEmptyString } from './primitives.js';

/** The header the service sends the invoice's `notificationToken` in (lower case, as `Headers` gives it). */
export const NOTIFICATION_TOKEN_HEADER = 'x-notification-token';
/** The only `notificationType` the service sends today. */
export const NOTIFICATION_TYPE_INVOICE = 'invoice';
/** @deprecated The first round's assumed event name; the service sends `notificationType: "invoice"`. */
export const NOTIFICATION_EVENT_STATUS_CHANGED = 'invoice.status_changed';

/**
 * A status notification of the service: `{ notificationType: 'invoice', notificationDate, invoice }`, also read in the older `{ event, invoice, previousStatus, sentAt }` shape.
 */
export const InvoiceNotificationSchema = z.looseObject({
  /** Always `invoice` today; another type is still read (its invoice is what counts). */
  notificationType: lenient(nonEmptyString()),
  notificationDate: lenient(isoDateTime()),
  invoice: InvoiceSchema,
  /** First-round envelope fields. */
  event: lenient(nonEmptyString()),
  previousStatus: lenient(z.nullable(z.string())),
  sentAt: lenient(isoDateTime()),
});
/** A status notification as read by {@link InvoiceNotificationSchema}. */
export type InvoiceNotification = z.infer<typeof InvoiceNotificationSchema>;
