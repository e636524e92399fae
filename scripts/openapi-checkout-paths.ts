/**
 * The `paths` of `openapi/checkout.json`, built from the checkout protocol's table of routes
 * (`CHECKOUT_ROUTES`, src/schemas/checkout-routes.ts: method, path, body) and the schemas the
 * server attaches to each (`CHECKOUT_ROUTE_SCHEMAS`); what only a reader of the document needs
 * (an operation id, a summary, words) is {@link CHECKOUT_ROUTE_DOCS}, typed to be exhaustive
 * over the table. Used by scripts/gen-openapi.ts.
 */
import type * as z from 'zod/mini';
import { CHECKOUT_ROUTE_SCHEMAS, type CheckoutRouteSchemas } from '../src/schemas/checkout-route-schemas.js';
import { CHECKOUT_ROUTES, CHECKOUT_ROUTE_NAMES, type CheckoutRouteName } from '../src/schemas/checkout-routes.js';
import { RECEIPT_MEDIA_TYPES, UUID_PATTERN } from '../src/schemas/patterns.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** A route's words in the document. */
interface RouteDoc {
  operationId: string;
  summary: string;
  description?: string;
  /** The 200 answer's description. */
  answer: string;
  /** Headers of the 200 answer. */
  headers?: JsonObject;
  /** The 200 answer's content, when it is not the JSON of the route's answer schema (a stream). */
  content?: JsonObject;
  /** Query or header parameters (the invoice id of a path is added by itself). */
  parameters?: Json[];
  /** The description of a multipart body. */
  body?: string;
  /** Answers besides 200 and the errors. */
  responses?: JsonObject;
}

export const CHECKOUT_ROUTE_DOCS: Readonly<Record<CheckoutRouteName, RouteDoc>> = {
  invoice: { operationId: 'getCheckoutInvoice', summary: 'The invoice as the checkout shows it', answer: 'The invoice.' },
  variants: {
    operationId: 'listCheckoutPaymentVariants',
    summary: 'The payment variants (option and bank) the payer may pick',
    answer: 'The variants.',
  },
  cancel: { operationId: 'cancelCheckoutInvoice', summary: 'Cancel the invoice’s active deal', answer: 'The canceled invoice.' },
  deal: {
    operationId: 'startCheckoutDeal',
    summary: 'Start a deal for the variant the payer picked',
    answer: 'The invoice with its new deal.',
  },
  receipt: {
    operationId: 'sendCheckoutReceipt',
    summary: 'The payer’s receipt for the active deal: the service’s confirm-transfer',
    description:
      'The receipt must be declared as one of the listed types AND start as that type does (magic bytes), else 415 `unsupported_media_type`; ' +
      'at most 10 MB (413). The upload has its own size cap and read deadline (`maxUploadBytes`, `uploadTimeoutMs`: 413, 408, the connection closed). ' +
      'The merchant’s `receipts` policy `off` answers 403 `receipts_off`; no deal waiting for a transfer is 409 `no_deal`.',
    answer: 'The invoice; its active deal is now `transfer_confirmed` (sent again once it is: the invoice as it is, nothing sent).',
    body: 'One file field, `attachment`.',
  },
  dispute: {
    operationId: 'reportCheckoutPayment',
    summary: 'The payer reports a payment that went missing: a dispute at the service, or a report to the shop',
    description:
      'The proxy picks the deal (the active one, else the most recent one the payer could have paid to; none: 409 `no_deal`). ' +
      'At most one dispute per invoice across instances: another is 409 `dispute_exists`. The shop’s `dispute` hook may refuse it (403 `dispute_refused`). ' +
      'A canceled or paid invoice, or one the service refuses to dispute, is 409 `dispute_not_allowed`. `amount` is decimal text with at most the ' +
      'invoice currency’s decimals (400 naming `amount`). The receipt is checked as for `/receipt`.',
    answer:
      '`forwarded`: the service opened the dispute (the invoice is `dispute`); `reported`: the shop’s hook kept the report, nothing was sent to the service.',
    body: '`reason`, `amount` (with `invalid_sum` only) and the receipt `attachment`.',
  },
  banks: {
    operationId: 'listCheckoutBanks',
    summary: 'The service’s banks of a currency, with their names (public: no invoice, no authorization)',
    answer: 'The banks (`unknown`, the list’s placeholder, left out). Read from the service once per currency and hour per proxy instance.',
    headers: { 'Cache-Control': { description: '`public, max-age=3600`.', schema: { type: 'string' } } },
    parameters: [
      {
        name: 'currency',
        in: 'query',
        required: true,
        description: 'The currency code, 3 to 5 capital letters (`RUB`); anything else is 400 naming `currency`.',
        schema: { type: 'string', pattern: '^[A-Z]{3,5}$' },
      },
    ],
  },
  events: {
    operationId: 'streamCheckoutInvoice',
    summary: 'The invoice as Server-Sent Events: at once and on every change, until a terminal status',
    answer:
      'A `text/event-stream` (src/server/events/invoice-events.ts). Each state is one event `invoice` whose `data` is a `CheckoutInvoice` (JSON, one line) ' +
      'and whose `id` is `{updatedAt in epoch ms}-{16 hex digits}`; every event carries `retry:` advice (milliseconds). Comment lines (`: heartbeat`) ' +
      'keep the connection open. After an event with a terminal status (`paid`, `canceled`, `expired`) the stream ends. A reconnect sends ' +
      'the last id as `Last-Event-ID`: the same state is not sent again, any other state is sent at once.',
    headers: {
      'Cache-Control': { description: '`no-store`: never cached.', schema: { type: 'string' } },
      'X-Accel-Buffering': { description: '`no`: a proxy in between must not buffer the stream.', schema: { type: 'string' } },
    },
    content: {
      'text/event-stream': {
        schema: { type: 'string', description: 'Server-Sent Events: `event: invoice`, `id: …`, `retry: …`, `data: {CheckoutInvoice}`.' },
      },
    },
    parameters: [
      {
        name: 'Last-Event-ID',
        in: 'header',
        required: false,
        description: 'The id of the last event the client received (browsers send it when they reconnect).',
        schema: { type: 'string' },
      },
    ],
    responses: {
      204: { description: 'The `Last-Event-ID` is the invoice’s terminal state: nothing more will come (EventSource stops reconnecting).' },
    },
  },
};

const componentRef = (name: string): JsonObject => ({ $ref: `#/components/schemas/${name}` });

/**
 * The document's `paths`, one per row of the table in its order. `components` names the
 * schemas of the document (a route's schema is referred to by its name there); `errors` are
 * the error answers every operation lists.
 */
export const checkoutPaths = (components: Readonly<Record<string, z.ZodMiniType>>, errors: JsonObject): JsonObject => {
  const nameOf = (schema: z.ZodMiniType): string => {
    const found = Object.entries(components).find(([, each]) => each === schema);
    if (!found) throw new Error('a checkout route’s schema is not among the document’s components');
    return found[0];
  };
  const id: JsonObject = {
    name: 'id',
    in: 'path',
    required: true,
    description: 'The invoice id (a UUID).',
    schema: { type: 'string', pattern: UUID_PATTERN.source },
  };
  const paths: JsonObject = {};
  for (const name of CHECKOUT_ROUTE_NAMES) {
    const { method, path, body } = CHECKOUT_ROUTES[name];
    const schemas: CheckoutRouteSchemas = CHECKOUT_ROUTE_SCHEMAS[name];
    const { request, answer } = schemas;
    const doc = CHECKOUT_ROUTE_DOCS[name];
    const content = doc.content ?? (answer === 'event-stream' ? {} : { 'application/json': { schema: componentRef(nameOf(answer)) } });
    const requestBody: JsonObject | undefined =
      body === 'json' && request
        ? { required: true, content: { 'application/json': { schema: componentRef(nameOf(request)) } } }
        : body === 'multipart' && request
          ? {
              required: true,
              description: doc.body ?? null,
              content: {
                'multipart/form-data': {
                  schema: componentRef(nameOf(request)),
                  encoding: { attachment: { contentType: RECEIPT_MEDIA_TYPES.join(', ') } },
                },
              },
            }
          : undefined;
    const operation: JsonObject = {
      operationId: doc.operationId,
      summary: doc.summary,
      ...(doc.description ? { description: doc.description } : {}),
      ...(doc.parameters ? { parameters: doc.parameters } : {}),
      ...(requestBody ? { requestBody } : {}),
      responses: {
        200: { description: doc.answer, ...(doc.headers ? { headers: doc.headers } : {}), content },
        ...errors,
        ...doc.responses,
      },
    };
    paths[path] = { ...(path.includes('{id}') ? { parameters: [id] } : {}), [method.toLowerCase()]: operation };
  }
  return paths;
};
