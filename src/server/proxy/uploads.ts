/**
 * The payer's uploads (`POST /invoices/{id}/receipt`, `…/dispute`): a multipart/form-data body
 * read with its own size cap and deadline (a phone on a slow network needs longer than the
 * 10 s of a JSON body), and the receipt in it checked twice: its declared type must be one of
 * {@link RECEIPT_MEDIA_TYPES} and its leading bytes must be that type's. Web APIs only.
 */
import { MaxPartsExceededError, MultipartParseError, MultipartParser, type MultipartPart } from '@remix-run/multipart-parser';
import { MAX_RECEIPT_BYTES, RECEIPT_MEDIA_TYPES, type ReceiptMediaType } from '../../schemas/index.js';
import { BodyTooLargeError, readChunks } from '../http/body.js';
import { CheckoutHttpError } from '../http/answers.js';

/** The default upload cap of the proxy: a 10 MiB receipt and 64 KiB of multipart framing and text fields. */
export const DEFAULT_CHECKOUT_MAX_UPLOAD_BYTES = MAX_RECEIPT_BYTES + 64 * 1024;

/** The multipart framing and text fields an upload carries beside its receipt, at most. */
export const UPLOAD_FRAMING_BYTES = 64 * 1024;

/** The largest receipt an upload cap of `maxUploadBytes` lets through with its framing: at most the service's 10 MB. */
export const receiptLimit = (maxUploadBytes: number): number =>
  Math.max(1, Math.min(MAX_RECEIPT_BYTES, maxUploadBytes - UPLOAD_FRAMING_BYTES));

/** How long an upload may take to arrive, by default: two minutes (a photo from a phone on a slow network). */
export const DEFAULT_UPLOAD_TIMEOUT_MS = 120_000;

/** Limits of one upload. */
export interface UploadLimits {
  /** Largest body in bytes (413 past it). */
  maxBytes: number;
  /** The whole body must arrive within this long (408 past it). */
  timeoutMs: number;
}

/** The media type of a `Content-Type` value, lower-cased, without parameters. */
export const mediaTypeOf = (type: string | null | undefined): string => (type ?? '').split(';')[0]!.trim().toLowerCase();

/** Refuses a body that is not multipart/form-data with a boundary (415), before anything is read. */
export const requireMultipart = (request: Request): void => {
  const type = request.headers.get('content-type');
  if (mediaTypeOf(type) !== 'multipart/form-data' || !/;\s*boundary=/i.test(type ?? '')) {
    throw new CheckoutHttpError('unsupported_media_type', 'the body must be multipart/form-data');
  }
};

/**
 * The most parts an upload may have: the forms have at most three fields (`reason`, `amount`,
 * `attachment`); a few more are named as unknown fields. Parsing a whole body of tiny parts
 * at once held the event loop (a 9.5 MB body of 60,000 parts: about a second, every other
 * payer's answer waiting; bench/receipts.ts), so parts are parsed as the bytes arrive and the
 * body is refused at the first part too many.
 */
export const MAX_UPLOAD_PARTS = 8;

/** The multipart boundary of a `Content-Type` (quoted or not), or undefined. */
const boundaryOf = (type: string | null): string | undefined => {
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;"]{1,70}))/i.exec(type ?? '');
  return match ? (match[1] ?? match[2]) : undefined;
};

/** A parsed part as a form entry: a file keeps its declared type and name, text is UTF-8. */
const entryOf = (part: MultipartPart): string | File =>
  part.isFile ? new File([part.bytes as Uint8Array<ArrayBuffer>], part.filename ?? 'file', { type: part.mediaType ?? '' }) : part.text;

/**
 * The upload as a form: at most `limits.maxBytes`, within `limits.timeoutMs` (the stream is
 * canceled at the first byte too many, at the deadline, or at the first part past
 * {@link MAX_UPLOAD_PARTS}), parsed part by part as it arrives. 413, 408, 400 as
 * {@link CheckoutHttpError}s; the payer's own abort is thrown as it is.
 */
export const readUploadForm = async (request: Request, limits: UploadLimits): Promise<FormData> => {
  const boundary = boundaryOf(request.headers.get('content-type'));
  if (!boundary) throw new CheckoutHttpError('bad_request', 'the body is not a valid multipart/form-data form');
  const parser = new MultipartParser(boundary, { maxParts: MAX_UPLOAD_PARTS, maxFileSize: limits.maxBytes, maxTotalSize: limits.maxBytes });
  const form = new FormData();
  const take = (chunk: Uint8Array) => {
    for (const part of parser.write(chunk)) if (part.name !== undefined) form.append(part.name, entryOf(part));
  };
  try {
    await readChunks(request, limits.maxBytes, { timeoutMs: limits.timeoutMs, signal: request.signal }, take);
    parser.finish();
  } catch (error) {
    if (error instanceof BodyTooLargeError) {
      // Its limit: this route's, or a lower one of the adapter in front (its `maxBodyBytes`).
      throw new CheckoutHttpError('payload_too_large', `the upload exceeds ${error.limit} bytes`, { maxBytes: error.limit });
    }
    if (error instanceof DOMException && error.name === 'TimeoutError') {
      throw new CheckoutHttpError('request_timeout', `the upload did not arrive within ${limits.timeoutMs} ms`);
    }
    if (error instanceof MaxPartsExceededError)
      throw new CheckoutHttpError('bad_request', `the form has more than ${MAX_UPLOAD_PARTS} parts`, { cause: error });
    if (error instanceof MultipartParseError)
      throw new CheckoutHttpError('bad_request', 'the body is not a valid multipart/form-data form', { cause: error });
    if (request.signal.aborted) throw error;
    throw new CheckoutHttpError('bad_request', 'the upload could not be read', { cause: error });
  }
  return form;
};

/**
 * One upstream upload per key at a time (a receipt per invoice): callers that come while one
 * is on its way share its outcome. Five taps, or a browser re-sending a POST after a cut
 * connection, are one `confirm-transfer` at the service, and none is told "refused" for a
 * receipt that was delivered.
 */
export const createUploadFlight = () => {
  const flying = new Map<string, Promise<unknown>>();
  return <T>(key: string, work: () => Promise<T>): Promise<T> => {
    const current = flying.get(key) as Promise<T> | undefined;
    if (current) return current;
    const started = work().finally(() => flying.delete(key));
    flying.set(key, started);
    return started;
  };
};

/**
 * The text fields of `form` by name, checking that it has only `fields` (and each at most
 * once); `file` names the one field that carries a file. 400 naming the field otherwise.
 */
export const formFields = (form: FormData, fields: readonly string[], file: string): Record<string, string | undefined> => {
  const out: Record<string, string | undefined> = {};
  for (const name of new Set(form.keys())) {
    if (!fields.includes(name)) {
      throw new CheckoutHttpError(
        'bad_request',
        `${JSON.stringify(name.slice(0, 40))}: is not a field of this form (it takes ${fields.join(', ')})`,
      );
    }
    const values = form.getAll(name);
    if (values.length > 1) throw new CheckoutHttpError('bad_request', `${name}: is given more than once`);
    if (name === file) continue;
    if (typeof values[0] !== 'string') throw new CheckoutHttpError('bad_request', `${name}: must be a text field, not a file`);
    out[name] = values[0];
  }
  return out;
};

const ascii = (bytes: Uint8Array, offset: number, length: number): string =>
  String.fromCharCode(...bytes.subarray(offset, offset + length));

const startsWith = (bytes: Uint8Array, signature: readonly number[], offset = 0): boolean =>
  bytes.length >= offset + signature.length && signature.every((byte, index) => bytes[offset + index] === byte);

/** Brands of an ISO base media file (`ftyp` box) that make it an HEIF image (HEIC is HEIF with HEVC). */
const HEIF_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'hevm', 'hevs', 'mif1', 'msf1']);

const isHeif = (bytes: Uint8Array): boolean => {
  if (bytes.length < 16 || ascii(bytes, 4, 4) !== 'ftyp') return false;
  const box = Math.min(((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0, bytes.length);
  if (HEIF_BRANDS.has(ascii(bytes, 8, 4))) return true;
  // The compatible brands follow the major brand and its version.
  for (let offset = 16; offset + 4 <= box; offset += 4) if (HEIF_BRANDS.has(ascii(bytes, offset, 4))) return true;
  return false;
};

/** How many leading bytes are looked at: PDF readers find `%PDF-` anywhere in the first 1024. */
export const SNIFF_BYTES = 1024;

/** Whether `head` (the first {@link SNIFF_BYTES} bytes of a file) is what a file of `type` starts with. */
export const contentMatches = (type: ReceiptMediaType, head: Uint8Array): boolean => {
  switch (type) {
    case 'image/jpeg':
      return startsWith(head, [0xff, 0xd8, 0xff]);
    case 'image/png':
      return startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    case 'image/webp':
      return head.length >= 12 && ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 4) === 'WEBP';
    case 'image/heic':
    case 'image/heif':
      return isHeif(head);
    case 'application/pdf':
      return ascii(head, 0, Math.min(head.length, SNIFF_BYTES)).includes('%PDF-');
  }
};

const EXTENSION: Readonly<Record<ReceiptMediaType, string>> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/heic': 'heic',
  'image/heif': 'heif',
  'application/pdf': 'pdf',
};

/**
 * The receipt of `form`'s `attachment` field, checked: present and a file (400), not empty
 * (400), at most 10 MB (413), declared as one of {@link RECEIPT_MEDIA_TYPES} and starting as
 * that type does (415). What goes on is a copy named `receipt.{ext}` with its type: the payer's
 * file name stays in the browser.
 */
export const receiptOf = async (form: FormData): Promise<File> => {
  const value = form.get('attachment');
  if (value === null) throw new CheckoutHttpError('bad_request', 'attachment: the receipt is required');
  if (typeof value === 'string') throw new CheckoutHttpError('bad_request', 'attachment: must be a file (the receipt)');
  if (value.size === 0) throw new CheckoutHttpError('bad_request', 'attachment: must not be an empty file');
  if (value.size > MAX_RECEIPT_BYTES) {
    throw new CheckoutHttpError(
      'payload_too_large',
      `attachment: must be at most 10 MB (${MAX_RECEIPT_BYTES} bytes), got ${value.size} bytes`,
      {
        maxBytes: MAX_RECEIPT_BYTES,
      },
    );
  }
  const declared = mediaTypeOf(value.type);
  const type = RECEIPT_MEDIA_TYPES.find((known) => known === declared);
  if (!type) {
    throw new CheckoutHttpError(
      'unsupported_media_type',
      `attachment: must be ${RECEIPT_MEDIA_TYPES.join(', ')}, got ${declared ? JSON.stringify(declared.slice(0, 60)) : 'a file without a type'}`,
    );
  }
  const head = new Uint8Array(await value.slice(0, SNIFF_BYTES).arrayBuffer());
  if (!contentMatches(type, head)) throw new CheckoutHttpError('unsupported_media_type', `attachment: the file's content is not ${type}`);
  return new File([value], `receipt.${EXTENSION[type]}`, { type });
};
