/**
 * The doctor's one test invoice: the minimum amount found from a refused create (or given),
 * the invoice created without a deal, read back every way, its public routes tried, then
 * canceled: without a deal if the brand allows it, else after starting one. Whatever happens
 * in between, the invoice is canceled before the doctor ends (or the report says it could not
 * be, and until when it stays open).
 */
import { MOCK_DEFAULTS } from '../../mock/index.js';
import { MerchantApiError, MerchantResponseError, type CreateInvoiceRequest } from '../../server/node.js';
import { attempt, jsonOf, kitOnFailure, readRow, row, saidBy, type DoctorState } from './checks.js';
import {
  CANCELED_FIELDS,
  INVOICE_FIELDS,
  VARIANT_FIELDS,
  dealsShape,
  describeErrorBody,
  describeShape,
  shapeOf,
  timestampReport,
  timestampsOf,
  unwrap,
  offsetText,
} from './shapes.js';

/** Where the test invoice's notifications go: a name that never resolves (RFC 2606). */
export const NOTIFY_NOWHERE = 'https://doctor.invalid/notifications';

const WHOLE_CURRENCIES = ['VND', 'KRW'];

/** The smallest amount of the currency: a create of it is refused with the limit, or it is the minimum. */
const smallestAmount = (currency: string) => (WHOLE_CURRENCIES.includes(currency) ? '1' : '0.01');

const createRequest = (state: DoctorState, amount: string, internalId: string): CreateInvoiceRequest => ({
  type: 'in',
  amount,
  currency: state.settings.currency,
  notificationUrl: NOTIFY_NOWHERE,
  notificationToken: `doctor-${crypto.randomUUID()}`,
  internalId,
});

const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

const setAmountLimit = (state: DoctorState, min: string): void => {
  const { currency } = state.settings;
  const max = (MOCK_DEFAULTS.amountLimits[currency] ?? MOCK_DEFAULTS.amountLimits['*']!).max;
  state.options.amountLimits = { [currency]: { min, max } };
};

/** The amount limit from a create of the smallest amount; the invoice when it was accepted. */
const findMinimum = async (state: DoctorState, internalId: string): Promise<{ amount?: string; created?: unknown }> => {
  const { currency } = state.settings;
  const probe = smallestAmount(currency);
  const outcome = await attempt(state, () => state.client.createInvoice(createRequest(state, probe, internalId)));
  const documented = '400 "…not less than 1000.00" (RUB)';
  const behaviour = `amount limit: a create of ${probe} ${currency}`;
  if (outcome.ok) {
    setAmountLimit(state, probe);
    row(
      state,
      behaviour,
      documented,
      `accepted: the minimum is ${probe} or less; this is the test invoice`,
      'sends amounts as decimal text, never rounded',
    );
    return { amount: probe, created: jsonOf(outcome.exchange) };
  }
  const error = outcome.error;
  const stated =
    error instanceof MerchantApiError && error.code === 'amount_too_small'
      ? error.messages.map((message) => /(\d+(?:\.\d+)?)\s*\D*$/.exec(message)?.[1]).find(Boolean)
      : undefined;
  if (stated) {
    setAmountLimit(state, stated);
    row(
      state,
      behaviour,
      documented,
      `minimum ${stated} (${error instanceof MerchantApiError ? error.status : ''}, ${describeErrorBody(outcome.exchange?.text ?? '')})`,
      'MerchantApiError code amount_too_small (the element shows it)',
    );
    return { amount: stated };
  }
  state.why.amountLimits = `a create of ${probe} ${currency} was refused without stating the limit`;
  if (noPayIns(state, error)) return {};
  state.why.invoice = 'the service stated no minimum amount: give --amount to create the test invoice';
  row(
    state,
    behaviour,
    documented,
    `${saidBy(error)}: no limit stated`,
    'give --amount to create the test invoice',
    error instanceof MerchantApiError && error.status < 500,
  );
  return {};
};

/** A create refused because the terminal takes no pay-ins: noted (the mock's `payIn: false`); true when it was that. */
const noPayIns = (state: DoctorState, error: unknown): boolean => {
  if (!(error instanceof MerchantApiError && error.code === 'pay_in_disabled')) return false;
  state.merchant.payIn = false;
  state.why.invoice = 'this terminal takes no pay-ins: no invoice was created';
  row(
    state,
    'create a pay-in invoice',
    'InvoiceDTO, status new',
    `${error.status} "${error.messages[0] ?? ''}": this terminal takes no pay-ins`,
    'MerchantApiError code pay_in_disabled',
  );
  return true;
};

/** Creates the test invoice (unless the probe did); its answer as the brand wrote it, or undefined. */
const createOne = async (state: DoctorState, internalId: string): Promise<unknown> => {
  const { settings } = state;
  let amount = settings.amount;
  let created: unknown;
  if (amount === undefined) ({ amount, created } = await findMinimum(state, internalId));
  else state.why.amountLimits = '--amount was given: the minimum was not looked for';
  if (created === undefined && amount !== undefined) {
    const given = amount;
    const outcome = await attempt(state, () => state.client.createInvoice(createRequest(state, given, internalId)));
    if (outcome.ok) created = jsonOf(outcome.exchange);
    else if (noPayIns(state, outcome.error)) return undefined;
    else {
      row(state, 'create a pay-in invoice', 'InvoiceDTO, status new', saidBy(outcome.error), kitOnFailure(outcome.error), false);
      // A 2xx the kit could not read may still have made the invoice: find it to cancel it.
      if (outcome.error instanceof MerchantResponseError) created = jsonOf(outcome.exchange);
      if (created === undefined) {
        state.why.invoice = 'the create failed';
        return undefined;
      }
    }
  }
  if (created === undefined) return undefined;
  state.merchant.payIn = true;
  const invoice = record(unwrap(created));
  if (typeof invoice.id !== 'string') return undefined;
  state.invoice = {
    id: invoice.id,
    internalId,
    amount: amount ?? '',
    canceled: false,
    ...(typeof invoice.expireAt === 'string' ? { expireAt: invoice.expireAt } : {}),
  };
  row(
    state,
    'create a pay-in invoice',
    'InvoiceDTO, status new',
    `created ${invoice.id} (${amount} ${settings.currency}, status ${String(invoice.status)}); ${describeShape(shapeOf(created, INVOICE_FIELDS))}`,
    'createInvoice resolves to the invoice, read tolerantly',
  );
  return created;
};

/** What the create answer tells: the terminal's store, the payment page, the lifetime. */
const readCreated = (state: DoctorState, created: unknown): void => {
  const invoice = record(unwrap(created));
  const id = state.invoice!.id;
  state.stamps.push(...timestampsOf(created));
  if (typeof invoice.storeId === 'number') state.merchant.storeId = invoice.storeId;
  if (typeof invoice.storeName === 'string') state.merchant.storeName = invoice.storeName;
  const url = typeof invoice.invoiceUrl === 'string' ? invoice.invoiceUrl : '';
  const page = url.endsWith(`?id=${id}`) ? url.slice(0, -`?id=${id}`.length) : undefined;
  if (page) state.options.invoicePageUrl = page;
  else state.why.invoicePageUrl = 'invoiceUrl is not of the form <page>?id=<id>';
  row(
    state,
    'invoiceUrl',
    '{invoice_page_url}?id=<invoice id>',
    page ? `${page}?id=…` : `another form: ${url || 'none'}`,
    'passes invoiceUrl through as given',
  );
  const created_ = typeof invoice.createdAt === 'string' ? Date.parse(invoice.createdAt) : Number.NaN;
  const expires = typeof invoice.expireAt === 'string' ? Date.parse(invoice.expireAt) : Number.NaN;
  if (Number.isFinite(expires - created_) && expires > created_) {
    state.options.invoiceTtlMs = expires - created_;
    row(
      state,
      'invoice lifetime (expireAt - createdAt)',
      '60 min in every example',
      `${(expires - created_) / 60_000} min`,
      'the element counts down to expireAt',
    );
  } else state.why.invoiceTtlMs = 'createdAt or expireAt missing or unreadable';
};

/** The reads of the invoice, and the public routes that take its id. */
const readBack = async (state: DoctorState): Promise<void> => {
  const { client } = state;
  const { id, internalId } = state.invoice!;
  const before = state.tap.exchanges.length;
  await readRow(
    state,
    'read: GET /invoices/{id}',
    'InvoiceDTO',
    () => client.getInvoice(id),
    (json) => shapeOf(json, INVOICE_FIELDS),
  );
  await readRow(
    state,
    'read: GET /invoices/internal-id/{internalId}',
    'InvoiceDTO',
    () => client.getInvoiceByInternalId(internalId),
    (json) => shapeOf(json, INVOICE_FIELDS),
  );
  for (const exchange of state.tap.exchanges.slice(before)) if (exchange.status < 300) state.stamps.push(...timestampsOf(jsonOf(exchange)));
  await readRow(
    state,
    'list: GET /invoices/{id}/available-payment-variants',
    'a list of {option, method}',
    () => client.listPaymentVariants(id),
    (json) => shapeOf(json, VARIANT_FIELDS, { list: true }),
    (json) => `${Array.isArray(json) ? json.length : 0} variants`,
  );
  await readRow(
    state,
    'public: GET /api/public/invoices/{id}/qr-code',
    'the QR code as SVG, unsigned',
    () => client.getInvoiceQrCode(id),
    () => ({ wrapped: false, extra: [], missing: [] }),
    () => 'SVG',
    'passes the SVG through',
  );
  const hosted = await attempt(state, () => client.hostedPaymentVariants(id));
  const status = hosted.ok ? hosted.value.status : 0;
  const documented = 'undocumented (the hosted page), X-Identity only';
  if (status === 200) state.options.hostedPageRoutes = true;
  else if (status === 404) state.options.hostedPageRoutes = false;
  else state.why.hostedPageRoutes = `the public variants route answered ${status || saidBy(hosted.ok ? undefined : hosted.error)}`;
  row(
    state,
    'public: GET /api/public/invoices/{id}/available-payment-variants',
    documented,
    status === 200
      ? `present; ${describeShape(shapeOf(jsonOf(hosted.ok ? hosted.value : undefined), VARIANT_FIELDS, { list: true }))}`
      : status === 404
        ? 'absent (404)'
        : `answered ${status || saidBy(hosted.ok ? undefined : hosted.error)}`,
    "not needed: the kit's proxy lists variants through the signed merchant route",
  );
};

/** Starts a deal (the cancel needs one): what the deal shows, and whether the public start-deal route exists. */
const startDeal = async (state: DoctorState): Promise<boolean> => {
  const { id } = state.invoice!;
  const outcome = await attempt(state, () => state.client.startDeal(id));
  if (!outcome.ok) {
    state.why.dealIdIsInvoiceId = state.why.paymentMethodName = 'no deal could be started';
    row(
      state,
      'start-deal: POST /invoices/{id}/start-deal',
      'the invoice with one deal (0 when no requisites are free)',
      saidBy(outcome.error),
      kitOnFailure(outcome.error),
      false,
    );
    return false;
  }
  const json = jsonOf(outcome.exchange);
  state.stamps.push(...timestampsOf(json));
  const deals = record(unwrap(json)).deals;
  const deal = record(Array.isArray(deals) ? deals[0] : undefined);
  if (typeof deal.id !== 'string') {
    state.why.dealIdIsInvoiceId = state.why.paymentMethodName = 'start-deal answered no deal (no free requisites)';
    row(
      state,
      'start-deal: POST /invoices/{id}/start-deal',
      'the invoice with one deal',
      `${outcome.exchange?.status}, no deal: no free requisites`,
      'shows "no free requisites" and lets the payer pick another bank',
      false,
    );
    return false;
  }
  const diff = dealsShape(json);
  row(
    state,
    'start-deal: POST /invoices/{id}/start-deal',
    'the invoice with one deal, transfer_waiting',
    `deal ${String(deal.status)}; deal fields ${diff ? describeShape(diff) : 'none'}`,
    'starts deals for the payer through the signed route',
  );
  state.options.dealIdIsInvoiceId = deal.id === id;
  row(
    state,
    "a deal's id",
    "its own UUID (an example shows the invoice's id)",
    deal.id === id ? "the invoice's id" : 'its own id',
    'read tolerantly (any string id)',
  );
  if ('paymentMethodName' in deal) state.options.paymentMethodName = 'always';
  else
    state.why.paymentMethodName =
      "absent from start-deal's answer: 'create' or 'never' (telling them apart needs a create answer with a deal, and the invoice is created without one to see whether a cancel needs a deal)";
  row(
    state,
    'paymentMethodName of a deal',
    "in the create answer's example only",
    'paymentMethodName' in deal ? 'in the start-deal answer too' : 'not in the start-deal answer',
    'names banks from GET /payment-methods when it is absent',
  );
  const hosted = await attempt(state, () => state.client.hostedStartDeal(id));
  const status = hosted.ok ? hosted.value.status : 0;
  row(
    state,
    'public: POST /api/public/invoices/{id}/start-deal',
    'undocumented (the hosted page); a deal is active: a refusal',
    status === 404 ? 'absent (404)' : status ? `present (answered ${status})` : saidBy(hosted.ok ? undefined : hosted.error),
    'not needed: the kit starts deals through the signed route',
  );
  if (state.options.hostedPageRoutes === undefined && (status === 404 || (status >= 200 && status < 500)))
    state.options.hostedPageRoutes = status !== 404;
  return true;
};

/** The cancel (a deal started first if the brand refuses one without), and a read that shows it took. */
const cancel = async (state: DoctorState): Promise<void> => {
  const invoice = state.invoice!;
  const first = await attempt(state, () => state.client.cancelInvoice(invoice.id));
  let canceled = first;
  if (first.ok) {
    state.options.cancelWithoutDeal = 'allow';
    state.why.dealIdIsInvoiceId = state.why.paymentMethodName = 'the cancel needed no deal, so none was started';
    row(
      state,
      'cancel without a deal',
      'needs an active deal (transitions table)',
      'allowed',
      'offers the cancel whenever the invoice is new',
    );
  } else if (first.error instanceof MerchantApiError) {
    state.options.cancelWithoutDeal = { status: first.error.status, message: first.error.messages[0] ?? '' };
    row(
      state,
      'cancel without a deal',
      'needs an active deal (transitions table)',
      `refused: ${first.error.status} "${first.error.messages[0] ?? ''}"`,
      'a refused cancel is a MerchantApiError with this status and message',
    );
    if (await startDeal(state)) canceled = await attempt(state, () => state.client.cancelInvoice(invoice.id));
  } else {
    state.why.cancelWithoutDeal = 'the first cancel failed without an answer';
    row(state, 'cancel without a deal', 'needs an active deal (transitions table)', saidBy(first.error), kitOnFailure(first.error), false);
  }
  if (canceled.ok || canceled.error instanceof MerchantResponseError) {
    const json = jsonOf(canceled.exchange);
    state.stamps.push(...timestampsOf(json));
    row(
      state,
      'cancel: POST /invoices/{id}/cancel',
      'the cancel variant, status canceled, deals []',
      canceled.ok
        ? `${String(record(unwrap(json)).status)}; ${describeShape(shapeOf(json, CANCELED_FIELDS), canceled.exchange?.text)}`
        : saidBy(canceled.error),
      canceled.ok ? 'reads the cancel variant (expiredAt as expireAt)' : kitOnFailure(canceled.error),
      canceled.ok,
    );
  } else if (first.ok === false && canceled !== first)
    row(state, 'cancel: POST /invoices/{id}/cancel', 'status canceled', saidBy(canceled.error), kitOnFailure(canceled.error), false);
  // The cancel's own answer says so; a read after it confirms (or, unreadable, leaves the answer's word).
  invoice.canceled = canceled.ok && canceled.value.status === 'canceled';
  const after = await attempt(state, () => state.client.getInvoice(invoice.id));
  if (after.ok) invoice.canceled = after.value.status === 'canceled';
  const said = after.ok
    ? invoice.canceled
      ? 'canceled is read as a final status'
      : `the test invoice ${invoice.id} is NOT canceled: it stays open until ${invoice.expireAt ?? 'it expires'}`
    : kitOnFailure(after.error);
  row(
    state,
    'read after the cancel',
    'status canceled, deals []',
    after.ok ? `status ${after.value.status}` : saidBy(after.error),
    said,
    after.ok && invoice.canceled,
  );
};

/** The timestamps of every invoice answer: their offset and form. */
const concludeTimestamps = (state: DoctorState): void => {
  const { offsets, otherForms, withoutOffset } = timestampReport(state.stamps);
  if (offsets.length === 1 && withoutOffset.length === 0) state.options.utcOffsetMinutes = offsets[0]!;
  else state.why.utcOffsetMinutes = state.stamps.length === 0 ? 'no timestamp was seen' : 'the timestamps carry several offsets (or none)';
  const forms =
    otherForms.length === 0
      ? 'all as documented'
      : `other forms: ${otherForms.slice(0, 3).join(', ')}${otherForms.length > 3 ? ', …' : ''}`;
  row(
    state,
    'timestamps',
    'ISO 8601 with an offset, 2024-11-23T20:43:07+00:00',
    `${state.stamps.length} seen; offset ${offsets.map(offsetText).join(', ') || 'none'}${withoutOffset.length ? ` (${withoutOffset.length} without one)` : ''}; ${forms}`,
    withoutOffset.length ? 'reads one without an offset as UTC (and warns once)' : 'normalised to RFC 3339 with the offset kept',
  );
};

/** The one test invoice, from its creation to its cancel; the cancel is tried whatever failed in between. */
export const checkInvoice = async (state: DoctorState): Promise<void> => {
  const internalId = `doctor-${new Date().toISOString().slice(0, 10)}-${crypto.randomUUID().slice(0, 8)}`;
  const created = await createOne(state, internalId);
  const creates = state.tap.exchanges.filter((exchange) => exchange.method === 'POST' && exchange.path.endsWith('/invoices'));
  if (creates.length) {
    const signed = creates.every((exchange) => exchange.status !== 401);
    row(
      state,
      'signing: POST with a JSON body',
      'X-Signature = Base64(HMAC-SHA1(METHOD + URL + body))',
      signed ? 'accepted' : '401 Unauthorized',
      'signs the JSON text exactly as sent',
      signed,
    );
  }
  if (created === undefined || state.invoice === null) return;
  try {
    readCreated(state, created);
    await readBack(state);
    await cancel(state);
    concludeTimestamps(state);
  } finally {
    if (!state.invoice.canceled) await rescue(state);
  }
};

/** After a failure part-way: cancel, with a deal started first when the cancel needs one. */
const rescue = async (state: DoctorState): Promise<void> => {
  const { id } = state.invoice!;
  let outcome = await attempt(state, () => state.client.cancelInvoice(id));
  if (!outcome.ok && outcome.error instanceof MerchantApiError) {
    await attempt(state, () => state.client.startDeal(id));
    outcome = await attempt(state, () => state.client.cancelInvoice(id));
  }
  if (outcome.ok) state.invoice!.canceled = true;
};
