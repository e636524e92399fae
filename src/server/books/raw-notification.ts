/**
 * The shape of a notification as it arrived, apart from the receiver: the merchant's books
 * (books/ledger.ts) record it with a change, and the receiver (receiver.ts) imports the books.
 */

/**
 * A notification exactly as it arrived (the parsed JSON body): the documented
 * `{ notificationType, notificationDate, invoice }`, or whatever else the service sends.
 */
export interface RawNotification {
  /** `invoice` today. */
  notificationType?: unknown;
  /** When the service made the notification (ISO 8601). */
  notificationDate?: unknown;
  /** The invoice as the service wrote it (one `deal`, not `deals`). */
  invoice?: unknown;
  [field: string]: unknown;
}
