/**
 * The plain methods of `MerchantClient`, made from the rows of {@link OPERATIONS}
 * (src/schemas/operations.ts) the way the mock's routes are (src/mock/routes.ts): a row's
 * method takes its path parameters in the path's order, then its body (a `json` row's
 * `request`, a `multipart` row's `form`, by the row's schema), then each query parameter
 * (optional), then the call's options, and resolves to what the row's answer schema reads.
 * The row's TSDoc comment is the method's. A new operation is one row and nothing else;
 * `MerchantClient` writes out only the operations whose method does more than its row
 * ({@link WRAPPED_OPERATIONS}), and test/server/client-methods.test.ts holds the client's
 * methods to exactly the rows' names, in the type check and against the mock.
 */
import type * as z from 'zod/mini';
import type { OPERATIONS, OperationAnswer, OperationName, OperationRow } from '../../schemas/index.js';
import type { RequestOptions } from './options.js';
import type { Input } from './request.js';

/**
 * The operations whose `MerchantClient` method is written by hand over the row's call:
 * `startDeal` (sends both fields, `null` when not chosen), `confirmTransfer` (takes the receipt
 * alone), `openDispute` (the caller's field names, the wire's in its errors).
 */
export const WRAPPED_OPERATIONS = ['startDeal', 'confirmTransfer', 'openDispute'] as const;
/** An operation whose method `MerchantClient` writes by hand. */
export type WrappedOperation = (typeof WRAPPED_OPERATIONS)[number];
/** An operation whose method is its row's call, nothing more. */
export type PlainOperation = Exclude<OperationName, WrappedOperation>;

/** The names the methods give path parameters (a name not here is `value`). */
interface PathParameterNames {
  id: [id: string];
  internalId: [internalId: string];
  currency: [currency: string];
}
/** The names the methods give query parameters, each optional (a name not here is `value`). */
interface QueryParameterNames {
  currency: [currency?: string];
}
type PathArguments<Path extends string> = Path extends `${string}{${infer Key}}${infer Rest}`
  ? [...(Key extends keyof PathParameterNames ? PathParameterNames[Key] : [value: string]), ...PathArguments<Rest>]
  : [];
type BodyArgument<Row> = Row extends { request: infer Schema extends z.ZodMiniType }
  ? Row extends { signing: 'multipart' }
    ? [form: z.output<Schema>]
    : [request: z.output<Schema>]
  : [];
type QueryArguments<Keys> = Keys extends readonly [infer Key extends string, ...infer Rest]
  ? [...(Key extends keyof QueryParameterNames ? QueryParameterNames[Key] : [value?: string]), ...QueryArguments<Rest>]
  : [];

/** What the method of operation `Name` takes, from its row. */
export type OperationArguments<Name extends OperationName> = [
  ...PathArguments<(typeof OPERATIONS)[Name]['path']>,
  ...BodyArgument<(typeof OPERATIONS)[Name]>,
  ...QueryArguments<(typeof OPERATIONS)[Name] extends { query: infer Keys } ? Keys : []>,
  options?: RequestOptions,
];

/** Every operation as a method: keyed by the rows (their TSDoc is the methods'). */
type OperationMethods = {
  [Name in keyof typeof OPERATIONS]: (...args: OperationArguments<Name>) => Promise<OperationAnswer<Name>>;
};
/** The methods `MerchantClient` gets from the rows alone. */
export type PlainOperationMethods = Pick<OperationMethods, PlainOperation>;

/**
 * How a row's plain method reads its arguments (made once per row): the path, body and query
 * parameters, then the options, as the row's call.
 */
export const rowArguments = (row: OperationRow): ((args: readonly unknown[]) => { input: Input; options: RequestOptions | undefined }) => {
  const pathKeys = [...row.path.matchAll(/\{(\w+)\}/g)].map(([, key]) => key!);
  const queryKeys = row.query ?? [];
  return (args) => {
    let at = 0;
    const params: Record<string, unknown> = {};
    for (const key of pathKeys) params[key] = args[at++];
    const body = row.request ? args[at++] : undefined;
    const query: Record<string, unknown> = {};
    for (const key of queryKeys) query[key] = args[at++];
    return { input: { params, body, query }, options: args[at] as RequestOptions | undefined };
  };
};
