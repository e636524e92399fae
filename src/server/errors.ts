/**
 * Typed errors of `MerchantClient`. Every one names the operation; none carries the secret
 * key, the signature or the request headers.
 */
import type { FieldIssue } from '../schemas/index.js';

const describeIssues = (issues: readonly FieldIssue[]): string =>
  issues.map((issue) => `${issue.field || '(root)'}: ${issue.message}`).join('; ');

/** Base class: `instanceof MerchantClientError` catches everything the client throws. */
export class MerchantClientError extends Error {
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

/** The service answered 2xx with something that is not what the reference describes. */
export class MerchantResponseError extends MerchantClientError {
  override name = 'MerchantResponseError';
  readonly status: number;
  /** Dotted path of the first offending field of the answer. */
  readonly field: string;
  readonly issues: readonly FieldIssue[];

  constructor(operation: string, status: number, issues: readonly FieldIssue[]) {
    super(operation, `invalid response (HTTP ${status}): ${describeIssues(issues)}`);
    this.status = status;
    this.issues = issues;
    this.field = issues[0]?.field ?? '';
  }
}

/** The service answered with a non-2xx status. */
export class MerchantApiError extends MerchantClientError {
  override name = 'MerchantApiError';
  readonly status: number;
  /** The start of the answer's body (at most 500 characters), for logs. */
  readonly bodyExcerpt: string;

  constructor(operation: string, status: number, bodyExcerpt: string) {
    super(operation, `HTTP ${status}${bodyExcerpt ? `: ${bodyExcerpt}` : ''}`);
    this.status = status;
    this.bodyExcerpt = bodyExcerpt;
  }
}

/** No answer within `timeoutMs`; the request was aborted. */
export class MerchantTimeoutError extends MerchantClientError {
  override name = 'MerchantTimeoutError';
  readonly timeoutMs: number;

  constructor(operation: string, timeoutMs: number) {
    super(operation, `no answer within ${timeoutMs} ms`);
    this.timeoutMs = timeoutMs;
  }
}

/** The request could not be made or was cut (DNS, refused connection, reset, caller's abort). */
export class MerchantNetworkError extends MerchantClientError {
  override name = 'MerchantNetworkError';
  /** True when the caller's own `signal` aborted the request. */
  readonly aborted: boolean;

  constructor(operation: string, message: string, options: { cause?: unknown; aborted?: boolean } = {}) {
    super(operation, message, { cause: options.cause });
    this.aborted = options.aborted ?? false;
  }
}
