/**
 * What a shop's `onError` is told besides the error (docs/server.md, "Failures told to
 * `onError`"): which part of the kit failed, the request it was answering when it was answering
 * one (the very `Request` the handler was given, never a made-up one), and the invoice concerned
 * when one is. Declared once here, on the ground floor, for every `onError` of the kit, the
 * proxy, the receiver and the webhook sender. Runtime-neutral.
 */

/**
 * Which part of the kit failed:
 * - `checkout`: a route of the checkout proxy, answering a payer's request;
 * - `events`: the event streams' own work between requests (reading a watched invoice again,
 *   the store's feed of changes);
 * - `notification`: the receiver, answering one of the service's notifications;
 * - `cron`: the handler a scheduler calls (`kit.cron`), answering its request;
 * - `books`: recording a state the kit learned outside any answer (the store, and `onChange`
 *   for a state the shop's own call was answered);
 * - `reconciler`: a pass of the reconciler on its timer, or its `onReport` hook;
 * - `journal`: writing an invoice's journal;
 * - `webhook`: the webhook sender's pass (its store away).
 */
export type CheckoutErrorSource = 'checkout' | 'events' | 'notification' | 'cron' | 'books' | 'reconciler' | 'journal' | 'webhook';

/** Where a failure told to `onError` happened. */
export interface CheckoutErrorContext {
  /** Which part of the kit failed. */
  readonly source: CheckoutErrorSource;
  /**
   * The request being answered when it failed: the same object the handler was given (its
   * method, URL and headers for the log; its body already read). Absent when the failure
   * answers no request: a timer's work, an event stream's refresh, a journal's write.
   */
  readonly request?: Request;
  /** The invoice concerned, as its id was given (a checkout route's, a notification's), when there is one. */
  readonly invoiceId?: string;
}

/** An `onError` option: told of a failure that nobody waiting sees in full, for the shop's logs. */
export type CheckoutErrorHandler = (error: unknown, context: CheckoutErrorContext) => void;

/** Tells `onError`, when there is one: a logger that throws changes nothing of the answer or the work. */
export const tellError = (onError: CheckoutErrorHandler | undefined, error: unknown, context: CheckoutErrorContext): void => {
  try {
    onError?.(error, context);
  } catch {
    // A failing logger must not change the answer.
  }
};

/** The context of a failure, without keys whose value is undefined (what a logger prints is what there is). */
export const errorContext = (source: CheckoutErrorSource, request?: Request, invoiceId?: string): CheckoutErrorContext => ({
  source,
  ...(request ? { request } : {}),
  ...(invoiceId ? { invoiceId } : {}),
});
