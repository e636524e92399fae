/**
 * Typed errors of `MerchantClient`. Every one names the operation; none carries the secret
 * key, the signature or the request headers.
 */
import type { FieldIssue } from '../../schemas/index.js';
import { readServiceError, type ServiceError, type ServiceErrorCode } from './service-errors.js';

const describeIssues = (issues: readonly FieldIssue[]): string =>
  issues.map((issue) => `${issue.field || '(root)'}: ${issue.message}`).join('; ');

/** Base class: `instanceof MerchantClientError` catches everything the client throws. */
export class MerchantClientError extends Error {
  /** The class's name, for logs. */
  override name = 'MerchantClientError';
  /** The client method (operation) that failed, e.g. `createInvoice`. */
  readonly operation: string;

  constructor(operation: string, message: string, options?: { cause?: unknown }) {
    super(`${operation}: ${message}`, options);
    this.operation = operation;
  }
}

/** A request that breaks the API's rules; nothing was sent. */
export class MerchantValidationError extends MerchantClientError {
  /** The class's name, for logs. */
  override name = 'MerchantValidationError';
  /** Dotted path of the first offending field (`amount`, `paymentRequisites`), `''` for the root. */
  readonly field: string;
  /** Every offending field with its message. */
  readonly issues: readonly FieldIssue[];

  constructor(operation: string, issues: readonly FieldIssue[]) {
    super(operation, `invalid request: ${describeIssues(issues)}`);
    this.issues = issues;
    this.field = issues[0]?.field ?? '';
  }
}

/**
 * The service answered 2xx with something the client cannot read (not JSON, not the documented
 * shape), or answered with a redirect, which the client never follows. For an operation that
 * moves money (create, cancel, start-deal, confirm-transfer, dispute, withdrawal) the service
 * may well have done it: `body` and `id` keep what it said, so that the caller looks the result
 * up instead of doing it twice.
 */
export class MerchantResponseError extends MerchantClientError {
  /** The class's name, for logs. */
  override name = 'MerchantResponseError';
  /** The HTTP status of the answer. */
  readonly status: number;
  /** Dotted path of the first offending field of the answer. */
  readonly field: string;
  /** Every offending field of the answer with its message. */
  readonly issues: readonly FieldIssue[];
  /** The answer as received: the parsed JSON, or the text when it is not JSON; undefined when it was not read (too large, a redirect). */
  readonly body: unknown;
  /** The `id` the answer carries (top level, or in a one-element array), e.g. the created invoice's. */
  readonly id: string | undefined;

  constructor(operation: string, status: number, issues: readonly FieldIssue[], details: { body?: unknown; id?: string | undefined } = {}) {
    super(operation, `invalid response (HTTP ${status})${details.id ? ` for id ${details.id}` : ''}: ${describeIssues(issues)}`);
    this.status = status;
    this.issues = issues;
    this.field = issues[0]?.field ?? '';
    this.body = details.body;
    this.id = details.id;
  }
}

/**
 * The service answered with an error status (4xx, 5xx). `messages` are its words, `code` the
 * stable name of a documented error (see `SERVICE_ERROR_CODES`).
 */
export class MerchantApiError extends MerchantClientError {
  /** The class's name, for logs. */
  override name = 'MerchantApiError';
  /** The HTTP status the service answered. */
  readonly status: number;
  /** Stable code of the error: a documented text's (`amount_too_small`, `no_requisites`, …) or the status class's. */
  readonly code: ServiceErrorCode;
  /** The service's messages, e.g. `["Invoice amount should be not less than 1000.00"]`; empty for a `null` body. */
  readonly messages: readonly string[];
  /** The field the service's message names (`amount` of `this value should not be blank. field: "amount"`), if any. */
  readonly field: string | undefined;
  /** The start of the answer's body (at most 500 characters), for logs; keys and signature cut out. */
  readonly bodyExcerpt: string;

  /** `error` defaults to what `bodyExcerpt` says; the client passes what the whole body says. */
  constructor(operation: string, status: number, bodyExcerpt: string, error: ServiceError = readServiceError(status, bodyExcerpt)) {
    const said = error.messages.length ? `: ${error.messages.join('; ')}` : '';
    super(operation, `HTTP ${status} ${error.code}${said}`);
    this.status = status;
    this.code = error.code;
    this.messages = error.messages;
    this.field = error.field;
    this.bodyExcerpt = bodyExcerpt;
  }
}

/** No answer within `timeoutMs`; the request was aborted. */
export class MerchantTimeoutError extends MerchantClientError {
  /** The class's name, for logs. */
  override name = 'MerchantTimeoutError';
  /** The time limit that ran out, in milliseconds. */
  readonly timeoutMs: number;

  constructor(operation: string, timeoutMs: number) {
    super(operation, `no answer within ${timeoutMs} ms`);
    this.timeoutMs = timeoutMs;
  }
}

/** The request could not be made or was cut (DNS, refused connection, reset, caller's abort). */
export class MerchantNetworkError extends MerchantClientError {
  /** The class's name, for logs. */
  override name = 'MerchantNetworkError';
  /** True when the caller's own `signal` aborted the request. */
  readonly aborted: boolean;

  constructor(operation: string, message: string, options: { cause?: unknown; aborted?: boolean } = {}) {
    super(operation, message, { cause: options.cause });
    this.aborted = options.aborted ?? false;
  }
}

/**
 * The invoice was made at the service, but an observer that must record it first (the kit's
 * store, tracking it for the reconciler) failed. The invoice exists: keep `invoice.id`, never
 * create it again; the kit tracks it once a read, a notification or `reconcile({ ids })` meets it.
 */
export class MerchantTrackingError extends MerchantClientError {
  /** The class's name, for logs. */
  override name = 'MerchantTrackingError';
  /** The invoice the service made (or found by `internalId`). */
  readonly invoice: { id: string; internalId?: string | null | undefined };

  constructor(operation: string, invoice: { id: string; internalId?: string | null | undefined }, cause: unknown) {
    super(operation, `invoice ${invoice.id} was made, but not recorded: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
    this.invoice = { id: invoice.id, internalId: invoice.internalId };
  }
}
