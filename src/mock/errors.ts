/** The one error of the mock: an operation refused with an HTTP status. Imports nothing. */

/**
 * A refused operation or control (unknown invoice, wrong state, bad input). The API writes it
 * in the documented error shape, the controls as `{error: {code, message}}`.
 */
export class MockControlError extends Error {
  /** The class's name, for logs. */
  override name = 'MockControlError';
  /** The HTTP status of the answer. */
  readonly status: number;
  /** A stable code for the refusal (`bad_fixtures`, `not_found`, …). */
  readonly code: string;
  /** Extra headers of the answer (e.g. `Allow` of a 405). */
  readonly headers: Record<string, string>;
  /** Every message of a 400 (one per field), in order. */
  readonly messages: readonly string[];
  constructor(
    status: number,
    code: string,
    message: string,
    options: { headers?: Record<string, string>; messages?: readonly string[] } = {},
  ) {
    super(message);
    this.status = status;
    this.code = code;
    this.headers = options.headers ?? {};
    this.messages = options.messages ?? [message];
  }
}

export const notFound = (message: string): MockControlError => new MockControlError(404, 'not_found', message);
export const refused = (message: string, code = 'invalid_state'): MockControlError => new MockControlError(400, code, message);
/** A 400 of bad input to a control or an operation, its message naming the field (`amount: must be …`). */
export const invalidField = (field: string, message: string): MockControlError =>
  new MockControlError(400, 'validation_failed', `${field}: ${message}`);
