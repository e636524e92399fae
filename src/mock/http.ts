/** Small HTTP pieces of the mock: JSON answers, errors with codes, body reading with a cap. */
import { BodyTooLargeError, readTextLimited } from '../server/body.js';
import { ERROR_STATUS, errorBody, type MockErrorCode } from './assumptions.js';

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };

export const jsonResponse = (status: number, body: unknown, headers: Record<string, string> = {}): Response =>
  new Response(JSON.stringify(body), { status, headers: { ...JSON_HEADERS, ...headers } });

/** An answer other than success; thrown by handlers and written by {@link errorResponse}. */
export class MockHttpError extends Error {
  override name = 'MockHttpError';
  readonly status: number;
  readonly code: string;
  readonly issues: { field: string; message: string }[] | undefined;
  readonly headers: Record<string, string>;

  constructor(
    code: MockErrorCode,
    message: string,
    options: { issues?: { field: string; message: string }[]; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.issues = options.issues;
    this.headers = options.headers ?? {};
  }
}

export const errorResponse = (error: MockHttpError, extraHeaders: Record<string, string> = {}): Response =>
  jsonResponse(error.status, errorBody(error.code, error.message, error.issues), { ...error.headers, ...extraHeaders });

/** The request body as text, at most `limit` bytes (see `readTextLimited`): 413 past it. */
export const readBodyText = async (request: Request, limit: number): Promise<string> => {
  try {
    return await readTextLimited(request, limit);
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw new MockHttpError('payload_too_large', `request body exceeds ${limit} bytes`);
    throw error;
  }
};

/** The media type of a request without parameters, lower-cased (`application/json`). */
export const mediaType = (request: Request): string =>
  (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';

/** Parses a JSON body, answering 400 `malformed_json` with the parser's reason. */
export const parseJson = (text: string): unknown => {
  if (text.trim() === '') throw new MockHttpError('malformed_json', 'request body is empty; a JSON object is expected');
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new MockHttpError('malformed_json', `request body is not valid JSON: ${(error as Error).message}`);
  }
};

/** A test control that cannot be applied (unknown invoice, wrong state); the HTTP controls answer it with `status`. */
export class MockControlError extends Error {
  override name = 'MockControlError';
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}
