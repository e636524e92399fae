/**
 * HTTP pieces of the mock: answers, errors in the documented shape (or the older one), bodies
 * read with a cap and a deadline, multipart forms. Imports errors.ts and the shared body reader.
 */
import { BodyTooLargeError, readTextLimited } from '../server/http/body.js';
import { MockControlError } from './errors.js';

export { MockControlError } from './errors.js';
/** The older name of the one error class, kept for callers. */
export const MockHttpError = MockControlError;

const JSON_TYPE = 'application/json; charset=utf-8';

export const jsonResponse = (status: number, body: unknown, headers: Record<string, string> = {}): Response =>
  textResponse(status, JSON.stringify(body), headers);

export const textResponse = (status: number, text: string, headers: Record<string, string> = {}): Response =>
  new Response(text, { status, headers: { 'content-type': JSON_TYPE, 'cache-control': 'no-store', ...headers } });

/**
 * An error as the service writes it: 404 `null` when nothing is there, else a JSON array of
 * `{message}` (one per field for validation). `legacy`: `{error: {code, message}}`.
 */
export const errorResponse = (
  error: MockControlError,
  format: 'documented' | 'legacy',
  extraHeaders: Record<string, string> = {},
): Response => {
  const headers = { ...error.headers, ...extraHeaders };
  if (format === 'legacy') return jsonResponse(error.status, { error: { code: error.code, message: error.message } }, headers);
  if (error.status === 404 && error.code === 'not_found') return jsonResponse(404, null, headers);
  return jsonResponse(
    error.status,
    error.messages.map((message) => ({ message })),
    headers,
  );
};

/** The media type of a request without parameters, lower-cased (`application/json`). */
export const mediaType = (request: Request): string =>
  (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';

export const badRequest = (messages: readonly string[], code = 'validation_failed'): MockControlError =>
  new MockControlError(400, code, messages.join('; '), { messages });

/** Parses a JSON body, answering 400 with the parser's reason. */
export const parseJson = (text: string): unknown => {
  if (text.trim() === '') throw badRequest(['Request body is empty; a JSON object is expected'], 'malformed_json');
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw badRequest([`Invalid JSON: ${(error as Error).message}`], 'malformed_json');
  }
};

export interface FormPart {
  name: string;
  value: string | null;
  /** For a file: its name, type and size. */
  file?: { name: string; type: string; size: number };
}

/** A request's body: its text, or for a multipart form its parts (files by name, type and size). */
export interface RequestBody {
  text: string;
  form: FormPart[];
}

export interface BodyLimits {
  /** Largest body in bytes: 413 past it, declared or streamed. */
  limit: number;
  /** The whole body must arrive within this long once reading starts: else 408. */
  timeoutMs: number;
  /** Read a multipart/form-data form (415 for another type) instead of text. */
  form?: boolean;
}

/**
 * The one way the mock reads a body: the shared `readTextLimited` with the size cap and the
 * read deadline, so a body trickled in slowly cannot hold the mock. A multipart form is
 * parsed from the original bytes (files are binary): the cap and the deadline are checked on
 * a copy of the body whose text is thrown away.
 */
export const readBody = async (request: Request, { limit, timeoutMs, form = false }: BodyLimits): Promise<RequestBody> => {
  // Fetch gives GET and HEAD no body (and on a port the adapter would build a whole Request to say so).
  if (request.method === 'GET' || request.method === 'HEAD') return { text: '', form: [] };
  const source = form ? request.clone() : request;
  let text: string;
  try {
    text = await readTextLimited(source, limit, { signal: request.signal, timeoutMs });
  } catch (error) {
    if (form) await request.body?.cancel().catch(() => undefined);
    if (error instanceof BodyTooLargeError) throw new MockControlError(413, 'payload_too_large', `request body exceeds ${limit} bytes`);
    // A caller who gave up gets its own reason back, not an answer.
    if (!request.signal.aborted && error instanceof Error && error.name === 'TimeoutError') {
      throw new MockControlError(408, 'request_timeout', `request body not received within ${timeoutMs} ms`);
    }
    throw error;
  }
  if (!form || text === '') return { text: form ? '' : text, form: [] };
  if (mediaType(request) !== 'multipart/form-data')
    throw new MockControlError(415, 'unsupported_media_type', 'Content-Type must be multipart/form-data');
  let parsed: FormData;
  try {
    parsed = await request.formData();
  } catch {
    throw badRequest(['The body is not a valid multipart/form-data form'], 'malformed_form');
  }
  const parts: FormPart[] = [];
  for (const [name, value] of parsed.entries()) {
    if (typeof value === 'string') parts.push({ name, value });
    else parts.push({ name, value: null, file: { name: value.name, type: value.type, size: value.size } });
  }
  return { text: '', form: parts };
};
