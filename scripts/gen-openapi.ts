/**
 * Writes the OpenAPI 3.1 descriptions under `openapi/`, generated from the code (never edit them):
 *
 * - `merchant-api.json`: the payment service's API as this kit reads it, from the operation
 *   table `OPERATIONS` of `src/schemas/operations.ts`. Answers are the TOLERANT reading (zod's input
 *   side), so they describe the variations the kit accepts: one object or a one-element array,
 *   ISO 8601 timestamps in any offset form, lenient fields that may hold anything.
 * - `checkout.json`: the checkout protocol between `<merchant-checkout>` and the merchant's
 *   proxy, from its table of routes (`src/schemas/checkout-routes.ts`, paths built by
 *   scripts/openapi-checkout-paths.ts) and `src/schemas/checkout.ts` (zod's output side: what the proxy sends).
 *
 * - `gateway.json`: the gateway's `/v1` routes of each invoice's journal (scripts/openapi-gateway.ts).
 *
 *   npm run openapi                      rewrite the three files
 *   test/openapi/openapi.test.ts         fails when either is stale, and validates both
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as z from 'zod/mini';
import {
  AccountSchema,
  CanceledInvoiceSchema,
  CurrencyRateSchema,
  DealPaymentSchema,
  DealRequisitesSchema,
  DealSchema,
  InvoiceNotificationSchema,
  InvoiceSchema,
  MoneySchema,
  NOTIFICATION_TOKEN_HEADER,
  PaymentMethodInfoSchema,
  PaymentOptionInfoSchema,
  PaymentVariantSchema,
  WithdrawalSchema,
  unwrapSingleton,
} from '../src/schemas/index.js';
import {
  CHECKOUT_ERROR_STATUS,
  CheckoutBankListSchema,
  CheckoutBankSchema,
  CheckoutCanceledInvoiceSchema,
  CheckoutDealSchema,
  CheckoutDisputeAnswerSchema,
  CheckoutDisputeFormSchema,
  CheckoutErrorBodySchema,
  CheckoutInvoiceSchema,
  CheckoutReceiptFormSchema,
  StartDealRequestSchema,
} from '../src/schemas/checkout.js';
import { PaymentVariantListSchema } from '../src/schemas/invoice.js';
import { OPERATIONS, type OperationRow } from '../src/schemas/operations.js';
import { checkoutPaths } from './openapi-checkout-paths.js';
import { buildGateway } from './openapi-gateway.js';

export const OPENAPI_FILES = {
  merchantApi: fileURLToPath(new URL('../openapi/merchant-api.json', import.meta.url)),
  checkout: fileURLToPath(new URL('../openapi/checkout.json', import.meta.url)),
  gateway: fileURLToPath(new URL('../openapi/gateway.json', import.meta.url)),
};

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/**
 * Every ISO 8601 date-time form the client reads (`isoDateTime()` in src/schemas/primitives.ts:
 * `T`/`t`/space, minutes with or without seconds, 1–9 fraction digits, offset `Z`/`z`,
 * `±HH:MM`, `±HHMM`, `±HH` or none, surrounding spaces trimmed). The same rule as
 * `normalizeTimestamp` in src/schemas/patterns.ts, which does not export its regex; the test
 * holds the two to the same verdicts. Calendar validity (`02-30`) is checked by the kit only.
 */
export const ISO_8601_PATTERN =
  '^\\s*\\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\\d|3[01])[Tt ](?:[01]\\d|2[0-3]):[0-5]\\d(?::(?:[0-5]\\d|60)(?:[.,]\\d{1,9})?)?(?:[Zz]|[+-](?:[01]\\d|2[0-3])(?::?[0-5]\\d)?)?\\s*$';

const TIMESTAMP_DESCRIPTION =
  'An ISO 8601 timestamp in any offset form: `2026-11-22T10:30:00+03:00`, `…+0300`, `…+03`, `…Z`, without seconds, with 1–9 fraction digits, lower-case `t`/`z`. Without an offset it is read as UTC. The kit normalizes it to RFC 3339 with `±HH:MM`.';
const LENIENT_DESCRIPTION =
  'Read leniently: the first shape is the documented one; any other value (another type, null, an unknown value) is accepted and read as absent.';

// ── zod → JSON Schema ────────────────────────────────────────────────────────────────

type ZodNode = z.ZodMiniType & { _zod: { def: { type: string; in?: ZodNode; out?: ZodNode; transform?: unknown; element?: ZodNode } } };
const defOf = (schema: z.ZodMiniType) => (schema as ZodNode)._zod.def;

/** A pipe from a string into a transform that reads the service's timestamps (`isoDateTime()`), recognized by what it accepts. */
const isTimestampReader = (schema: z.ZodMiniType): boolean => {
  const def = defOf(schema);
  if (def.type !== 'pipe' || !def.in || !def.out || defOf(def.in).type !== 'string' || defOf(def.out).type !== 'transform') return false;
  return (
    schema.safeParse('2024-11-23t20:43z').success &&
    schema.safeParse('2024-11-23T20:43:07.5+0300').success &&
    !schema.safeParse('x').success
  );
};

const replace = (target: Record<string, unknown>, value: Record<string, unknown>) => {
  for (const key of Object.keys(target)) delete target[key];
  Object.assign(target, value);
};

const override = (ctx: { zodSchema: z.core.$ZodTypes; jsonSchema: z.core.JSONSchema.BaseSchema }) => {
  const schema = ctx.zodSchema as unknown as z.ZodMiniType;
  const json = ctx.jsonSchema as Record<string, unknown>;
  const type = defOf(schema).type;
  if (type === 'catch') {
    // `lenient()` and friends: whatever does not fit is caught, so any value passes.
    const { default: fallback, ...documented } = json;
    const anything = Object.keys(documented).length === 0;
    replace(json, {
      ...(fallback !== undefined ? { default: fallback } : {}),
      description: anything ? 'Any value; the kit does not read it.' : LENIENT_DESCRIPTION,
      ...(anything ? {} : { anyOf: [documented, { description: 'any other value, read as absent' }] }),
    });
  } else if (isTimestampReader(schema)) {
    replace(json, componentRef('Timestamp'));
  } else if (json.format === 'binary') {
    const max = typeof json.maxLength === 'number' ? json.maxLength : undefined;
    replace(json, {
      type: 'string',
      contentMediaType: 'application/octet-stream',
      description: `A file part (the receipt of the transfer)${max ? `, at most ${max} bytes` : ''}.`,
    });
  }
};

/** Keys sorted, and the keywords OpenAPI does not need here removed (`$schema`: the document's dialect; `$id`: components are named by their key). */
const tidy = (node: unknown): Json => {
  if (Array.isArray(node)) return node.map(tidy);
  if (node === null || typeof node !== 'object') return node as Json;
  const out: JsonObject = {};
  for (const key of Object.keys(node).sort()) {
    if (key === '$schema' || key === '$id') continue;
    // zod writes `propertyNames: {type: string}` for records: always true of JSON.
    if (key === 'propertyNames') continue;
    out[key] = tidy((node as Record<string, unknown>)[key]);
  }
  // The safe-integer bounds zod writes for `z.int()` say nothing a reader needs.
  if (out.minimum === Number.MIN_SAFE_INTEGER) delete out.minimum;
  if (out.maximum === Number.MAX_SAFE_INTEGER) delete out.maximum;
  return out;
};

const componentRef = (name: string): JsonObject => ({ $ref: `#/components/schemas/${name}` });
const responseRef = (name: string): JsonObject => ({ $ref: `#/components/responses/${name}` });

/** Components from a registry of named zod schemas, each referenced wherever another uses it. */
const components = (
  named: Readonly<Record<string, z.ZodMiniType>>,
  io: 'input' | 'output',
): { refs: Map<z.ZodMiniType, string>; schemas: JsonObject } => {
  const registry = z.registry<{ id: string }>();
  const refs = new Map<z.ZodMiniType, string>();
  for (const [id, schema] of Object.entries(named)) {
    registry.add(schema, { id });
    refs.set(schema, id);
  }
  const out = z.toJSONSchema(registry, {
    io,
    unrepresentable: 'any',
    target: 'draft-2020-12',
    uri: (id) => `#/components/schemas/${id}`,
    override,
  });
  return { refs, schemas: tidy(out.schemas) as JsonObject };
};

/** A schema that is not a component: inline, with references to the components it uses. */
const inline = (schema: z.ZodMiniType, io: 'input' | 'output', refs: Map<z.ZodMiniType, string>): Json => {
  const id = refs.get(schema);
  if (id) return componentRef(id);
  const registry = z.registry<{ id: string }>();
  for (const [named, name] of refs) registry.add(named, { id: name });
  registry.add(schema, { id: '__inline' });
  const out = z.toJSONSchema(registry, {
    io,
    unrepresentable: 'any',
    target: 'draft-2020-12',
    uri: (name) => `#/components/schemas/${name}`,
    override,
  });
  return tidy(out.schemas.__inline);
};

// ── The permitted variations of an answer ────────────────────────────────────────────

/**
 * The body schema of a 2xx answer: the zod answer's own variations written out. An answer
 * that unwraps a one-element array (`oneOrSingleton`) is the object or `[object]`; a list that
 * takes one object as a list of one (`listOf`) is the list or the object; the variants list
 * also takes the list wrapped in one more array. The transforms are recognized by what they do.
 */
const answerBody = (answer: z.ZodMiniType, refs: Map<z.ZodMiniType, string>): Json => {
  const def = defOf(answer);
  if (def.type !== 'pipe' || !def.in || !def.out || defOf(def.in).type !== 'transform') return inline(answer, 'input', refs);
  const transform = defOf(def.in).transform as (value: unknown, ctx: unknown) => unknown;
  const inner = def.out;
  const body = inline(inner, 'input', refs);
  if (transform === unwrapSingleton) {
    return {
      description: 'One object, or (as the reference words it) an array holding exactly that one object.',
      oneOf: [body, { type: 'array', items: body, minItems: 1, maxItems: 1 }],
    };
  }
  const element = defOf(inner).type === 'array' ? defOf(inner).element : undefined;
  if (!element) throw new Error(`gen-openapi: an answer pipe of an unknown kind (into ${defOf(inner).type}); describe its variations here`);
  const probe = { probe: true };
  const run = (value: unknown): unknown => transform(value, { issues: [], value });
  const takesOne = JSON.stringify(run(probe)) === JSON.stringify([probe]);
  const takesNested = JSON.stringify(run([[probe]])) === JSON.stringify([probe]);
  const oneOf: Json[] = [body];
  if (takesOne) oneOf.push(inline(element, 'input', refs));
  if (takesNested) oneOf.push({ type: 'array', items: body, minItems: 1, maxItems: 1 });
  const forms = [
    'A list',
    ...(takesOne ? ['one object standing for a list of one'] : []),
    ...(takesNested ? ['the list wrapped in a one-element array'] : []),
  ];
  return oneOf.length === 1 ? body : { description: `${forms.join(', or ')}.`, oneOf };
};

// ── merchant-api.json ────────────────────────────────────────────────────────────────

/** Named components of the service's objects, read as the kit reads them. */
const SERVICE_COMPONENTS: Readonly<Record<string, z.ZodMiniType>> = {
  Money: MoneySchema,
  DealRequisites: DealRequisitesSchema,
  DealPayment: DealPaymentSchema,
  Deal: DealSchema,
  Invoice: InvoiceSchema,
  CanceledInvoice: CanceledInvoiceSchema,
  PaymentVariant: PaymentVariantSchema,
  Withdrawal: WithdrawalSchema,
  PaymentMethodInfo: PaymentMethodInfoSchema,
  PaymentOptionInfo: PaymentOptionInfoSchema,
  CurrencyRate: CurrencyRateSchema,
  Account: AccountSchema,
  InvoiceNotification: InvoiceNotificationSchema,
};

/** What the kit's receiver answers a notification (`src/server/notifications/receiver.ts`). */
const RECEIVER_ANSWER: JsonObject = {
  type: 'object',
  properties: {
    ok: { const: true },
    change: {
      type: ['string', 'null'],
      description:
        'The kind of change the notification led to (`paid`, `amount_corrected`, `disputed`, …), or null when the books held that state already.',
    },
  },
  required: ['ok', 'change'],
};

/**
 * The service's notification as a webhook: the documented body and header, and the answers
 * of the kit's receiver (docs/ARCHITECTURE.md, "The merchant's books").
 */
const notificationWebhook = (refs: Map<z.ZodMiniType, string>): JsonObject => ({
  post: {
    operationId: 'invoiceNotification',
    summary: 'The service tells the shop of a change of an invoice',
    description:
      'POSTed to the invoice’s `notificationUrl` on every change of its state, with its `notificationToken` as is (no signature). ' +
      'Any answer but 200 is delivered twice more, 60 s apart; then the service gives up. ' +
      'The kit takes it as a hint: it reads the invoice from the service and hands the shop that state, once per change. ' +
      'A `paid` may come again with a corrected amount.',
    parameters: [
      {
        name: NOTIFICATION_TOKEN_HEADER.replace(/(^|-)(\w)/g, (_, dash: string, letter: string) => `${dash}${letter.toUpperCase()}`),
        in: 'header',
        required: true,
        description: 'The invoice’s `notificationToken`, as given at creation.',
        schema: { type: 'string', minLength: 1 },
      },
    ],
    requestBody: { required: true, content: { 'application/json': { schema: inline(InvoiceNotificationSchema, 'input', refs) } } },
    responses: {
      200: {
        description: 'The books hold the service’s state of the invoice (and the shop was told of a change).',
        content: { 'application/json': { schema: RECEIVER_ANSWER } },
      },
      400: { description: 'The body is not JSON or names no invoice id (`bad_request`).' },
      401: { description: 'A missing or wrong token (`unauthorized`).' },
      409: {
        description:
          'The service does not show what the notification says, or does not know the invoice (`unconfirmed`): nothing was credited.',
      },
      '5XX': { description: 'The service could not be read, or the shop’s handler failed: deliver again.' },
    },
  },
});

const SIGNING_TEXT: Record<OperationRow['signing'], string> = {
  json: 'Signed: `X-Signature` over METHOD + full URL + the JSON body text.',
  url: 'Signed: `X-Signature` over METHOD + full URL (no body).',
  multipart: 'Signed: `X-Signature` over METHOD + full URL; the multipart body is not signed.',
  public: 'Public: no `X-Identity`, no `X-Signature`.',
};

const SERVICE_ERROR: JsonObject = {
  description: 'The documented error body: a JSON array of messages (one per field for a validation error).',
  type: 'array',
  items: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'], additionalProperties: {} },
};

const errorResponse = (description: string, schema: Json): JsonObject => ({
  description,
  content: { 'application/json': { schema } },
});

const PARAMETER_TEXT: Record<string, string> = {
  id: 'The service’s id of the object (a UUID), percent-encoded as one segment.',
  internalId: 'The merchant’s own id of the invoice, percent-encoded as one segment.',
  currency: 'A currency code such as `RUB`.',
};

export const buildMerchantApi = (): JsonObject => {
  const { refs, schemas } = components(SERVICE_COMPONENTS, 'input');
  const paths: Record<string, JsonObject> = {};
  for (const row of Object.values(OPERATIONS) as (OperationRow & { name: string })[]) {
    const parameters: Json[] = [];
    for (const [, name] of row.path.matchAll(/\{(\w+)\}/g)) {
      parameters.push({
        name: name!,
        in: 'path',
        required: true,
        description: PARAMETER_TEXT[name!] ?? null,
        schema: { type: 'string', minLength: 1 },
      });
    }
    for (const name of row.query ?? []) {
      parameters.push({
        name,
        in: 'query',
        required: false,
        description: PARAMETER_TEXT[name] ?? null,
        schema: { type: 'string', minLength: 1 },
      });
    }
    const success: JsonObject =
      row.answerType === 'application/json'
        ? {
            description: 'Success, as the kit reads it (the permitted variations included).',
            content: { 'application/json': { schema: answerBody(row.answer, refs) } },
          }
        : {
            description: 'Success.',
            content: { [row.answerType]: { schema: { type: 'string', description: 'SVG markup (an `<svg>` element).' } } },
          };
    const responses: JsonObject = {
      200: success,
      400: responseRef('BadRequest'),
      ...(row.signing === 'public' ? {} : { 401: responseRef('Unauthorized') }),
      404: responseRef('NotFound'),
    };
    const operation: JsonObject = {
      operationId: row.name,
      summary: row.summary,
      description: `${SIGNING_TEXT[row.signing]}${row.changesState ? ' Changes state: never retried blindly.' : ''}`,
      security: row.signing === 'public' ? [] : [{ identity: [], signature: [] }],
      ...(parameters.length ? { parameters: parameters.map((parameter) => dropNulls(parameter)) } : {}),
      ...(row.request
        ? {
            requestBody: {
              required: true,
              content: {
                [row.signing === 'multipart' ? 'multipart/form-data' : 'application/json']: { schema: inline(row.request, 'output', refs) },
              },
            },
          }
        : {}),
      responses,
    };
    (paths[row.path] ??= {})[row.method.toLowerCase()] = operation;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Payment service merchant API, as merchant-checkout reads it',
      version,
      description:
        'Generated by scripts/gen-openapi.ts from `OPERATIONS` in src/schemas/operations.ts and the shared zod schemas; do not edit. ' +
        'Answers describe what the kit ACCEPTS (the tolerant reading), not one canonical form: an answer may be one object or a one-element array, ' +
        'a list may be one object, timestamps may use any ISO 8601 offset form, unknown fields pass, and fields the kit reads leniently may hold anything. ' +
        'Requests are what the kit sends (strict).',
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: [
      {
        url: '{base_url}',
        description: 'The service’s base URL as given to the shop.',
        variables: { base_url: { default: 'https://payments.example.com' } },
      },
    ],
    security: [{ identity: [], signature: [] }],
    paths: sortKeys(paths),
    webhooks: { invoiceNotification: notificationWebhook(refs) },
    components: {
      schemas: sortKeys({
        ...schemas,
        ServiceError: SERVICE_ERROR,
        Timestamp: { type: 'string', pattern: ISO_8601_PATTERN, description: TIMESTAMP_DESCRIPTION },
      }),
      responses: {
        BadRequest: errorResponse(
          'Refused: the messages say why (validation, amount limits, state, “PAYMENT_METHOD_NOT_AVAILABLE”).',
          componentRef('ServiceError'),
        ),
        Unauthorized: errorResponse(
          'Unauthorized: a wrong signature, an unknown `X-Identity`, or a wrong URL.',
          componentRef('ServiceError'),
        ),
        NotFound: errorResponse('Not found (`null`), or refused with messages (`Pay in disabled`).', {
          oneOf: [{ type: 'null' }, componentRef('ServiceError')],
        }),
      },
      securitySchemes: {
        identity: { type: 'apiKey', in: 'header', name: 'X-Identity', description: 'The shop’s API key.' },
        signature: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Signature',
          description: 'Base64 of HMAC-SHA1 with the secret key over METHOD + full URL (+ the JSON body text for JSON requests).',
        },
      },
    },
  };
};

// ── checkout.json ────────────────────────────────────────────────────────────────────

const CHECKOUT_COMPONENTS: Readonly<Record<string, z.ZodMiniType>> = {
  CheckoutDeal: CheckoutDealSchema,
  CheckoutInvoice: CheckoutInvoiceSchema,
  CheckoutCanceledInvoice: CheckoutCanceledInvoiceSchema,
  PaymentVariantList: PaymentVariantListSchema,
  StartDealRequest: StartDealRequestSchema,
  CheckoutErrorBody: CheckoutErrorBodySchema,
  CheckoutBank: CheckoutBankSchema,
  CheckoutBankList: CheckoutBankListSchema,
  CheckoutReceiptForm: CheckoutReceiptFormSchema,
  CheckoutDisputeForm: CheckoutDisputeFormSchema,
  CheckoutDisputeAnswer: CheckoutDisputeAnswerSchema,
};

/** One response per status of `CHECKOUT_ERROR_STATUS`, the body's `code` narrowed to that status's codes. */
const checkoutErrors = (): { responses: JsonObject; refs: JsonObject } => {
  const byStatus = new Map<number, string[]>();
  for (const [code, status] of Object.entries(CHECKOUT_ERROR_STATUS)) byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  const responses: JsonObject = {};
  const refs: JsonObject = {};
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[`Error${status}`] = errorResponse(`Error: ${codes.map((code) => `\`${code}\``).join(', ')}.`, {
      allOf: [
        componentRef('CheckoutErrorBody'),
        { type: 'object', properties: { error: { type: 'object', properties: { code: { enum: codes } } } } },
      ],
    });
    refs[String(status)] = responseRef(`Error${status}`);
  }
  return { responses, refs };
};

export const buildCheckout = (): JsonObject => {
  const { schemas } = components(CHECKOUT_COMPONENTS, 'output');
  const errors = checkoutErrors();
  return {
    openapi: '3.1.0',
    info: {
      title: 'merchant-checkout protocol (element ↔ merchant proxy)',
      version,
      description:
        'Generated by scripts/gen-openapi.ts from the table of routes in src/schemas/checkout-routes.ts and the schemas of src/schemas/checkout.ts; do not edit. What the merchant’s proxy (`createCheckoutHandler`) ' +
        'answers `<merchant-checkout>`: allow-listed projections of the service’s objects, timestamps as RFC 3339 with `±HH:MM`. ' +
        'The proxy authorizes the payer itself (cookies, session); the browser never holds a key.',
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: [
      {
        url: '{endpoint}',
        description: 'Where the proxy is mounted (the element’s `endpoint`).',
        variables: { endpoint: { default: '/checkout-api' } },
      },
    ],
    paths: checkoutPaths(CHECKOUT_COMPONENTS, errors.refs),
    components: { schemas: sortKeys(schemas), responses: errors.responses },
  };
};

// ── Rendering ────────────────────────────────────────────────────────────────────────

function sortKeys<T extends Json>(value: Record<string, T>): Record<string, T> {
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, value[key]!]),
  );
}

function dropNulls(value: Json): Json {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== null));
}

const render = (document: JsonObject): string => `${JSON.stringify(document, null, 2)}\n`;

export const renderMerchantApi = (): string => render(buildMerchantApi());
export const renderCheckout = (): string => render(buildCheckout());
export const renderGateway = (): string => render(buildGateway(version));

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  mkdirSync(fileURLToPath(new URL('../openapi/', import.meta.url)), { recursive: true });
  writeFileSync(OPENAPI_FILES.merchantApi, renderMerchantApi());
  writeFileSync(OPENAPI_FILES.checkout, renderCheckout());
  writeFileSync(OPENAPI_FILES.gateway, renderGateway());
  console.log('wrote openapi/merchant-api.json, openapi/checkout.json and openapi/gateway.json');
}
