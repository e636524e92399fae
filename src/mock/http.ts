/**
 * HTTP pieces of the mock: answers, errors in the documented shape (or the older one), bodies
 * read with a cap, multipart forms. Imports errors.ts and the shared body reader.
 */
import { BodyTooLargeError, declaredLength } from '../server/body.js';
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
export const errorResponse = (error: MockControlError, format: 'documented' | 'legacy', extraHeaders: Record<string, string> = {}): Response => {
  const headers = { ...error.headers, ...extraHeaders };
  if (format === 'legacy') return jsonResponse(error.status, { error: { code: error.code, message: error.message } }, headers);
  if (error.status === 404 && error.code === 'not_found') return jsonResponse(404, null, headers);
  return jsonResponse(error.status, error.messages.map((message) => ({ message })), headers);
};

/** The body as bytes, at most `limit` of them: 413 past it (declared or streamed). */
export const readBytes = async (request: Request, limit: number): Promise<Uint8Array<ArrayBuffer>> => {
  const tooLarge = () => new MockControlError(413, 'payload_too_large', `request body exceeds ${limit} bytes`);
  if (declaredLength(request) > limit) {
    await request.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  if (!request.body) return new Uint8Array(new ArrayBuffer(0));
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel().catch(() => undefined);
        throw tooLarge();
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof MockControlError) throw error;
    // The Node adapter's own cap ends the stream with its error.
    if (error instanceof BodyTooLargeError || (error instanceof Error && /PayloadTooLarge/.test(`${error.name}${String(error.cause)}`))) throw tooLarge();
    throw error;
  }
  const out = new Uint8Array(new ArrayBuffer(size));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
};

/** The media type of a request without parameters, lower-cased (`application/json`). */
export const mediaType = (request: Request): string => (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';

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

/** A multipart/form-data body as parts (files by name, type and size). */
export const parseMultipart = async (bytes: Uint8Array<ArrayBuffer>, contentType: string): Promise<FormPart[]> => {
  let form: FormData;
  try {
    form = await new Response(bytes, { headers: { 'content-type': contentType } }).formData();
  } catch {
    throw badRequest(['The body is not a valid multipart/form-data form'], 'malformed_form');
  }
  const parts: FormPart[] = [];
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string') parts.push({ name, value });
    else parts.push({ name, value: null, file: { name: value.name, type: value.type, size: value.size } });
  }
  return parts;
};
