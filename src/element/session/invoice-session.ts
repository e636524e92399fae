import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { initialState, Task, TaskStatus } from '@lit/task';
import type { CheckoutInvoice, StartDealRequest } from '../../schemas/checkout.js';
import type { PaymentVariant } from '../../schemas/invoice.js';
import { UUID_PATTERN } from '../../schemas/patterns.js';
import { CountdownController } from '../controllers/countdown-controller.js';
import { PollController } from '../controllers/poll-controller.js';
import { type Absence, PresenceController } from '../controllers/presence-controller.js';
import { StreamController } from '../controllers/stream-controller.js';
import { copyText } from '../copy.js';
import { deadlineOf } from '../deadline.js';
import {
  CheckoutAmountChangedEvent,
  CheckoutCanceledEvent,
  CheckoutCopyEvent,
  CheckoutErrorEvent,
  CheckoutExpiredEvent,
  CheckoutPayerConfirmedEvent,
  CheckoutReadyEvent,
  CheckoutTimingEvent,
  type CheckoutTimingDetail,
  CheckoutReceiptEvent,
  CheckoutReportEvent,
  CheckoutStatusEvent,
  type CheckoutStatusDetail,
  CheckoutVariantSelectEvent,
} from '../events.js';
import type { RequisitesKind } from '../format.js';
import type { CopyField, Translation } from '../i18n/translation.js';
import {
  anySignal,
  type CheckoutClient,
  CheckoutError,
  cancelInvoice,
  isAbortError,
  readInvoice,
  readVariants,
  reportPayment,
  sendReceipt,
  startDeal,
  toCheckoutError,
  watchInvoice,
  type Validated,
} from '../protocol-client.js';
import { announcementStep, clockOffset, EXPIRY_GRACE } from '../poll-policy.js';
import {
  activeDeal,
  type CancelState,
  type Change,
  changesOf,
  type DealNotice,
  dealKey,
  type FormState,
  type ReportState,
  screen,
  type SessionSnapshot,
  statusLine,
  statusText,
} from '../screen.js';
import { isFinalStatus, statusMeaning } from '../status.js';
import { BankNames, type BankOverrides } from './bank-names.js';

/** What the payer reports: no payment credited, or a different amount sent (with that amount). */
export interface PaymentReport {
  reason: 'no_payment' | 'invalid_sum';
  /** The amount sent, decimal text (with `invalid_sum`). */
  amount?: string | undefined;
  /** The receipt of the transfer. */
  attachment?: Blob | undefined;
}

/** Where "I have paid" is remembered for a page reload (per tab): the deal's key by invoice. */
const confirmedKey = (invoiceId: string) => `merchant-checkout:paid:${invoiceId.toLowerCase()}`;
const remembered = (invoiceId: string): string | undefined => {
  try {
    return sessionStorage.getItem(confirmedKey(invoiceId)) ?? undefined;
  } catch {
    return undefined; // storage blocked (private mode, sandboxed frame): this page only
  }
};
const remember = (invoiceId: string, key: string | undefined): void => {
  try {
    if (key === undefined) sessionStorage.removeItem(confirmedKey(invoiceId));
    else sessionStorage.setItem(confirmedKey(invoiceId), key);
  } catch {
    // as above
  }
};

/** How long a copy button says "Copied". */
const COPIED_FOR = 2000;

/** What the picker says when a deal did not start, by the protocol's error code. */
const dealNoticeFor = ({ code, status }: CheckoutError): DealNotice =>
  status === 501 || code === 'not_implemented'
    ? 'unsupported'
    : code === 'no_requisites'
      ? 'no_requisites'
      : code === 'option_not_allowed' || code === 'bank_not_allowed'
        ? 'not_allowed'
        : 'failed';

/** The element a session works for: it renders the session and its events are dispatched on it. */
export type SessionHost = ReactiveControllerHost & EventTarget;

export interface InvoiceSessionOptions {
  client: CheckoutClient;
  /** The id as the page gave it: empty for no invoice yet, anything but a UUID for the error screen. */
  invoiceId: string;
  /** Whether the invoice may be followed by its event stream (the element's `no-stream` off). */
  stream: boolean;
  /** The element's `poll-interval`, asked before each wait. */
  pollInterval: () => number;
  /** The element's current language (`ru`, `en`): bank names follow it. */
  language: () => string;
  /**
   * Says something through the element's live region, in the words of the element's current
   * language (nothing while its strings are still loading).
   */
  announce: (text: (t: Translation) => string) => void;
  /** Seconds from paid to the automatic return to the shop (`auto-return`); 0 is off. */
  autoReturn?: () => number;
  /** The merchant's bank names and colours over the bundled directory (`banks`). */
  banks?: () => BankOverrides | undefined;
}

/**
 * Everything that belongs to one invoice: its data, the variants, the deal being started, the
 * copy and cancel state, the server's clock, the polling and the countdown. The element makes
 * one per client and invoice id and replaces it whole when either changes: `dispose()` aborts
 * every request of it, so nothing of one invoice reaches the next.
 *
 * A reactive controller of the element and the host of its own tasks and controllers: it hands
 * the element's lifecycle down to them and their update requests up to the element.
 */
export class InvoiceSession implements ReactiveController, ReactiveControllerHost {
  readonly #controllers = new Set<ReactiveController>();
  readonly #host: SessionHost;
  readonly #options: InvoiceSessionOptions;
  /** Aborted when the session ends or the element leaves the page: ends every request of it. */
  #work = new AbortController();
  /** When the session began (`performance.now()`), and the moments `checkout-timing` has told of. */
  readonly #started = performance.now();
  readonly #timed = new Set<string>();
  #invoice: CheckoutInvoice | undefined;
  /** Server clock − device clock, from the `Date` headers. */
  #clockOffset: number | undefined;
  /** When (server time) the invoice shown was last known to be current: a read's start, a push's arrival. */
  #readAt: number | undefined;
  /** The screen after the last state taken: `checkout-expired` is for the payer who watched the time run out. */
  #lastScreen: string | undefined;
  #connectionLost = false;
  #confirming = false;
  /** A cancel failed: the invoice is being read again, and no cancel is offered until it is. */
  #checking = false;
  #cancelNotice: CancelState['notice'];
  #changes: readonly Change[] = [];
  #dealNotice: DealNotice | undefined;
  #pendingVariant: PaymentVariant | undefined;
  #copied: CopyField | undefined;
  #copyByHand: CopyField | undefined;
  #copiedTimer: ReturnType<typeof setTimeout> | undefined;
  #lastAnnouncementStep: number | undefined;
  #payerConfirmed: string | undefined;
  #showDetails = false;
  #receipt: FormState = { state: 'closed' };
  #paymentReport: ReportState = { state: 'closed' };
  #autoReturn: number | 'stopped' | undefined;
  #bankPicker = false;
  readonly #banks: BankNames;

  readonly #invoiceTask = new Task(this, {
    args: () => [this.#options.client, this.#options.invoiceId] as const,
    task: async ([client, invoiceId], { signal }) => {
      if (!invoiceId) return initialState;
      if (!UUID_PATTERN.test(invoiceId)) throw new CheckoutError('bad_request', 'invoice-id must be a UUID');
      return this.#read((all) => readInvoice(client, invoiceId, all), signal);
    },
    onComplete: (invoice) => this.#adopt(invoice, 'load'),
    onError: (error) => this.#report(error),
  });

  readonly #variantsTask = new Task(this, {
    args: () => [this.#options.client, this.#options.invoiceId] as const,
    task: async ([client, invoiceId], { signal }) => {
      // The invoice task reports a missing or malformed id; there is nothing to ask for here.
      if (!UUID_PATTERN.test(invoiceId)) return initialState;
      return (await readVariants(client, invoiceId, this.#signal(signal))).value;
    },
    onError: (error) => this.#report(error),
  });

  readonly #cancelTask = new Task(this, {
    autoRun: false,
    args: () => [this.#options.client, this.#options.invoiceId] as const,
    task: ([client, invoiceId], { signal }) => this.#read((all) => cancelInvoice(client, invoiceId, all), signal),
    onComplete: (answer) => {
      this.#confirming = false;
      // Only an answer that says canceled is a cancel: a paid one is adopted as paid.
      const canceled = statusMeaning(answer.status) === 'canceled';
      if (!canceled) this.#cancelNotice = 'refused';
      if (this.#invoice) this.#adopt({ ...this.#invoice, ...answer, expireAt: this.#invoice.expireAt }, 'cancel');
      if (canceled) this.#dispatchAfterRender(new CheckoutCanceledEvent({ invoice: answer }));
    },
    onError: (error) => {
      if (isAbortError(error)) return;
      // Never sent again by itself: the cancel may have happened before the connection broke,
      // or the invoice was paid meanwhile. Read what it is now; the payer decides again.
      const { code, status = 0 } = toCheckoutError(error);
      this.#confirming = false;
      this.#checking = true;
      this.#cancelNotice = code === 'cancel_refused' || (status >= 400 && status < 500) ? 'refused' : 'failed';
      this.#report(error);
      this.#follow(true);
    },
  });

  readonly #dealTask = new Task<readonly [CheckoutClient, string, StartDealRequest], CheckoutInvoice>(this, {
    autoRun: false,
    task: ([client, invoiceId, variant], { signal }) => this.#read((all) => startDeal(client, invoiceId, variant, all), signal),
    onComplete: (invoice) => {
      this.#pendingVariant = undefined;
      this.#adopt(invoice, 'deal');
    },
    onError: (error) => {
      this.#pendingVariant = undefined;
      if (isAbortError(error)) return;
      const failure = toCheckoutError(error);
      this.#dealNotice = dealNoticeFor(failure);
      this.#report(failure);
      this.#follow();
    },
  });

  readonly #poll = new PollController(this, {
    interval: () => this.#options.pollInterval(),
    present: () => this.#presence.present,
    read: async (signal) => {
      try {
        const invoice = await this.#read((all) => readInvoice(this.#options.client, this.#options.invoiceId, all), signal);
        this.#connectionLost = false;
        this.#checking = false;
        this.#adopt(invoice, 'poll');
        // A read made beside a delivering stream (a return, a deadline) leaves polling at rest.
        return this.#goesOn(invoice) && !this.#stream.up;
      } catch (error) {
        if (!isAbortError(error)) {
          this.#connectionLost = true;
          this.#report(error);
          this.requestUpdate();
        }
        throw error;
      }
    },
  });

  /** After the poll controller: it relies on polling being disconnected first (see there). */
  readonly #stream = new StreamController(this, {
    open: (signal, report) =>
      this.#options.stream &&
      watchInvoice(
        this.#options.client,
        this.#options.invoiceId,
        (invoice) => {
          this.#connectionLost = false;
          this.#checking = false;
          this.#readAt = Date.now() + (this.#clockOffset ?? 0);
          this.#adopt(invoice, 'push');
          report.message(this.#goesOn(invoice));
        },
        report.error,
        report.alive,
        anySignal([signal, this.#work.signal]),
      ),
    up: () => this.#poll.stop(),
    down: (now) => this.#poll.start(now),
    present: () => this.#presence.present,
  });

  /** The payer leaves for the bank app and comes back: what is on screen is read again at once. */
  readonly #presence = new PresenceController(this, {
    away: (how: Absence) => {
      if (how === 'hidden') return;
      // Frozen, cached or offline: a connection or a read in flight is likely dead.
      this.#poll.suspend();
      this.#stream.suspend();
      this.requestUpdate();
    },
    back: (from: Absence) => {
      if (from === 'offline' && this.#invoiceTask.status === TaskStatus.ERROR) return this.retry();
      this.#refresh(this.#presence.awayAt);
      this.#poll.resume();
      this.#stream.resume();
      this.requestUpdate();
    },
  });

  readonly #countdown = new CountdownController(this, {
    onTick: (remaining) => {
      const step = announcementStep(remaining);
      if (this.#lastAnnouncementStep !== undefined && step !== this.#lastAnnouncementStep && remaining > 0) {
        this.#options.announce((t) => t.timeLeftAnnouncement(remaining));
      }
      this.#lastAnnouncementStep = step;
      this.requestUpdate();
    },
    // A deadline is no verdict: the invoice may have been paid in the last second. It is read
    // first (the screen says it is checking meanwhile), and the answer decides.
    onZero: () => {
      this.#refresh(Date.now());
      this.requestUpdate();
    },
  });

  /** Ticks the automatic return's seconds; at zero the element returns (it knows where to). */
  readonly #autoReturnTimer = new CountdownController(this, {
    onTick: () => this.requestUpdate(),
    onZero: () => this.requestUpdate(),
  });

  constructor(host: SessionHost, options: InvoiceSessionOptions) {
    this.#host = host;
    this.#options = options;
    this.#payerConfirmed = options.invoiceId ? remembered(options.invoiceId) : undefined;
    this.#banks = new BankNames(() => this.requestUpdate(), options.banks ?? (() => undefined));
    host.addController(this);
  }

  /** What the session knows now: the input of `screen()`. */
  get snapshot(): SessionSnapshot {
    const load = this.#invoiceTask;
    const variants = this.#variantsTask;
    return {
      load:
        load.status === TaskStatus.INITIAL
          ? { state: 'idle' }
          : load.status === TaskStatus.COMPLETE
            ? { state: 'done' }
            : load.status === TaskStatus.ERROR && !isAbortError(load.error)
              ? { state: 'failed', code: toCheckoutError(load.error).code }
              : { state: 'loading' },
      invoice: this.#invoice,
      variants: variants.status === TaskStatus.ERROR ? 'failed' : variants.status === TaskStatus.COMPLETE ? (variants.value ?? []) : 'loading',
      pendingVariant: this.#pendingVariant,
      dealNotice: this.#dealNotice,
      copied: this.#copied,
      copyByHand: this.#copyByHand,
      cancel: {
        confirming: this.#confirming,
        pending: this.#cancelTask.status === TaskStatus.PENDING,
        checking: this.#checking,
        notice: this.#cancelNotice,
      },
      changes: this.#changes,
      connectionLost: this.#connectionLost,
      offline: this.#presence.offline,
      readAt: this.#readAt,
      clockOffset: this.#clockOffset ?? 0,
      payerConfirmed: this.#payerConfirmed,
      showDetails: this.#showDetails,
      receipt: this.#receipt,
      report: this.#paymentReport,
      autoReturn: this.#autoReturn,
      bankName: (code) => this.#banks.name(code, this.#options.language()),
      bankColor: (code) => this.#banks.color(code),
      bankPicker: this.#bankPicker,
    };
  }

  /**
   * "I have paid": remembered for this deal (also over a reload of the tab), announced, and
   * told to the page (`checkout-payer-confirmed`). Nothing is sent: the status is followed as before.
   */
  confirmPaid(): void {
    const invoice = this.#invoice;
    const deal = invoice && activeDeal(invoice);
    if (!invoice || !deal) return;
    this.#payerConfirmed = dealKey(deal);
    this.#showDetails = false;
    this.#confirming = false;
    // A merchant who requires the receipt gets the form at once.
    if (invoice.receipts === 'required' && this.#receipt.state === 'closed') this.#receipt = { state: 'open' };
    remember(this.#options.invoiceId, this.#payerConfirmed);
    this.#options.announce((t) => t.title('checking'));
    this.#host.dispatchEvent(new CheckoutPayerConfirmedEvent({ invoice, deal }));
    this.requestUpdate();
  }

  /** Back from the check to the payment details (the confirmation stays; "I have paid" returns to the check). */
  toggleDetails(show: boolean): void {
    this.#showDetails = show;
    this.requestUpdate();
  }

  /** Opens or closes the receipt form (its module loads on demand). */
  receiptForm(open: boolean): void {
    if (this.#receipt.state === 'sending') return;
    this.#receipt = { state: open ? 'open' : 'closed' };
    this.requestUpdate();
  }

  /** Sends the payer's receipt (checked in the browser already) through the proxy's `confirm-transfer`. */
  async sendReceipt(file: Blob): Promise<void> {
    if (this.#receipt.state === 'sending' || !this.#invoice) return;
    this.#receipt = { state: 'sending' };
    this.requestUpdate();
    try {
      const invoice = await this.#read((signal) => sendReceipt(this.#options.client, this.#options.invoiceId, file, signal), this.#work.signal);
      this.#receipt = { state: 'done' };
      this.#adopt(invoice, 'receipt');
      this.#dispatchAfterRender(new CheckoutReceiptEvent({ invoice }));
    } catch (error) {
      if (isAbortError(error)) return;
      this.#receipt = { state: 'failed', code: toCheckoutError(error).code };
      this.#report(error);
      this.requestUpdate();
    }
  }

  /** A form's own check failed (`code` names what): shown in the form, nothing is sent. */
  formProblem(form: 'receipt' | 'report', code: string): void {
    if (form === 'receipt') this.#receipt = { state: 'failed', code };
    else this.#paymentReport = { state: 'failed', code };
    this.requestUpdate();
  }

  /** Opens or closes the form to report a payment. */
  reportForm(open: boolean): void {
    if (this.#paymentReport.state === 'sending') return;
    this.#paymentReport = { state: open ? 'open' : 'closed' };
    this.requestUpdate();
  }

  /** Reports a payment that went missing: the proxy forwards it as a dispute or keeps it for the shop. */
  async sendReport(report: PaymentReport): Promise<void> {
    if (this.#paymentReport.state === 'sending' || !this.#invoice) return;
    this.#paymentReport = { state: 'sending' };
    this.requestUpdate();
    try {
      const answer = await this.#read((signal) => reportPayment(this.#options.client, this.#options.invoiceId, report, signal), this.#work.signal);
      this.#paymentReport = { state: 'done', outcome: answer.outcome };
      this.#adopt(answer.invoice, 'report');
      this.#options.announce((t) => (answer.outcome === 'reported' ? t.reportReported : t.title('dispute')));
      this.#dispatchAfterRender(new CheckoutReportEvent({ outcome: answer.outcome, invoice: answer.invoice }));
    } catch (error) {
      if (isAbortError(error)) return;
      this.#paymentReport = { state: 'failed', code: toCheckoutError(error).code };
      this.#report(error);
      this.requestUpdate();
    }
  }

  /** The payer stays: no automatic return. */
  stopAutoReturn(): void {
    this.#autoReturn = 'stopped';
    this.#autoReturnTimer.stop();
    this.requestUpdate();
  }

  /** Opens or closes the SBP bank picker. */
  bankPicker(open: boolean): void {
    this.#bankPicker = open;
    this.requestUpdate();
  }

  /** Ends the session: every request of it is aborted, every timer and listener released. */
  dispose(): void {
    this.#host.removeController(this);
    this.hostDisconnected();
  }

  /** Reads the invoice (and the variants, if they failed) again. */
  retry(): void {
    // A loaded invoice whose deadline read failed is read again as such, not loaded anew.
    if (this.#invoiceTask.status === TaskStatus.COMPLETE) this.#refresh(Date.now());
    else void this.#invoiceTask.run();
    if (this.#variantsTask.status === TaskStatus.ERROR) this.retryVariants();
  }

  retryVariants(): void {
    void this.#variantsTask.run();
  }

  /** Copies `value`; where the clipboard refuses, `fallback`'s text is selected for copying by hand. */
  async copy(field: CopyField, value: string, kind: RequisitesKind, fallback: Node | null): Promise<void> {
    const work = this.#work.signal;
    const outcome = await copyText(value, fallback);
    if (work.aborted) return;
    this.#copyByHand = outcome === 'copied' ? undefined : field;
    if (outcome === 'copied') {
      this.#copied = field;
      clearTimeout(this.#copiedTimer);
      this.#copiedTimer = setTimeout(() => {
        this.#copied = undefined;
        this.requestUpdate();
      }, COPIED_FOR);
      this.#options.announce((t) => t.copiedAnnouncement(field, kind));
      this.#host.dispatchEvent(new CheckoutCopyEvent({ field, value }));
    }
    this.requestUpdate();
  }

  askCancel(): void {
    if (this.#checking) return;
    this.#confirming = true;
    this.#cancelNotice = undefined;
    this.requestUpdate();
  }

  /** Steps back from the cancel confirmation; `false` (nothing changes) while the cancel is on its way. */
  keepPaying(): boolean {
    if (this.#cancelTask.status === TaskStatus.PENDING) return false;
    this.#confirming = false;
    this.requestUpdate();
    return true;
  }

  confirmCancel(): void {
    // One POST per confirmation, however many clicks or key presses arrive: the task turns
    // pending synchronously, and a failure ends the confirmation.
    if (this.#cancelTask.status === TaskStatus.PENDING || !this.#confirming) return;
    this.#pause();
    void this.#cancelTask.run();
  }

  /** The payer has seen the change notice. */
  dismissChanges(): void {
    this.#changes = [];
    this.requestUpdate();
  }

  /** Asks the page (`checkout-variant-select`), then starts a deal with `variant`. */
  selectVariant(variant: PaymentVariant): void {
    if (this.#dealTask.status === TaskStatus.PENDING || !this.#invoice) return;
    const request = new CheckoutVariantSelectEvent({ option: variant.option, method: variant.method });
    this.#host.dispatchEvent(request);
    if (request.defaultPrevented) return;
    this.#dealNotice = undefined;
    this.#pendingVariant = variant;
    this.#pause();
    void this.#dealTask.run([this.#options.client, this.#options.invoiceId, { option: variant.option, method: variant.method }]);
  }

  addController(controller: ReactiveController): void {
    this.#controllers.add(controller);
  }

  removeController(controller: ReactiveController): void {
    this.#controllers.delete(controller);
  }

  requestUpdate(): void {
    this.#host.requestUpdate();
  }

  get updateComplete(): Promise<boolean> {
    return this.#host.updateComplete;
  }

  hostConnected(): void {
    // Back on the page after being removed: new work before the controllers resume.
    const returning = this.#work.signal.aborted;
    if (returning) this.#work = new AbortController();
    for (const controller of this.#controllers) controller.hostConnected?.();
    if (!returning) return;
    for (const task of [this.#invoiceTask, this.#variantsTask]) {
      if (task.status === TaskStatus.ERROR && isAbortError(task.error)) void task.run();
    }
  }

  hostDisconnected(): void {
    this.#work.abort();
    clearTimeout(this.#copiedTimer);
    this.#copied = undefined;
    for (const controller of this.#controllers) controller.hostDisconnected?.();
    this.requestUpdate();
  }

  hostUpdate(): void {
    for (const controller of this.#controllers) controller.hostUpdate?.();
  }

  hostUpdated(): void {
    for (const controller of this.#controllers) controller.hostUpdated?.();
  }

  #signal(signal: AbortSignal): AbortSignal {
    return anySignal([signal, this.#work.signal]);
  }

  /** One request with `signal` and the session's work; an answer that comes after an abort is dropped. */
  async #read<T>(request: (signal: AbortSignal) => Promise<Validated<T>>, signal: AbortSignal): Promise<T> {
    const all = this.#signal(signal);
    const started = Date.now();
    const { value, date } = await request(all);
    all.throwIfAborted();
    this.#clockOffset = clockOffset(date, Date.now(), this.#clockOffset);
    // The answer tells the state as of the request's start at the earliest.
    this.#readAt = started + (this.#clockOffset ?? 0);
    return value;
  }

  /**
   * Reads the invoice at once, stream or not, unless a read sent at or after `since` is on its
   * way (its answer is as good). Nothing while a deal or cancel is on its way (its answer is
   * the next state) or once the status is final.
   */
  #refresh(since: number): void {
    const invoice = this.#invoice;
    if (!invoice || !this.#goesOn(invoice)) return;
    if (this.#dealTask.status === TaskStatus.PENDING || this.#cancelTask.status === TaskStatus.PENDING) return;
    this.#poll.refresh(since);
  }

  /** Whether the invoice's status can still change: not final, and not long past its expiry. */
  #goesOn(invoice: CheckoutInvoice): boolean {
    if (statusMeaning(invoice.status) === 'dispute') return true; // reviewed for days, past any expiry
    return !isFinalStatus(invoice.status) && Date.now() + (this.#clockOffset ?? 0) < Date.parse(invoice.expireAt) + EXPIRY_GRACE;
  }

  /**
   * Follows the invoice: by its event stream when the client has one (polling rests once the
   * stream delivers, and takes over when it fails), and by polling meanwhile or otherwise.
   */
  #follow(now = false): void {
    this.#stream.start();
    this.#poll.start(now);
  }

  /** No reads while a deal or a cancel is on its way: its answer is the next state. */
  #pause(): void {
    this.#poll.stop();
    this.#stream.stop();
  }

  /**
   * Says that the time ran out, once, when the expired screen first follows another open one:
   * after a read at the deadline found the invoice unpaid, or the service said expired.
   */
  #noteScreen(invoice: CheckoutInvoice): void {
    const now = screen(this.snapshot, Date.now()).screen;
    const before = this.#lastScreen;
    this.#lastScreen = now;
    if (now !== 'expired' || before === undefined || ['expired', 'paid', 'canceled'].includes(before)) return;
    this.#confirming = false;
    this.#options.announce((t) => t.title('expired'));
    this.#dispatchAfterRender(new CheckoutExpiredEvent({ invoice }));
  }

  /** Takes a new state of the invoice: events, announcements, countdown and polling follow. */
  #adopt(invoice: CheckoutInvoice, source: CheckoutStatusDetail['source']): void {
    this.#take(invoice, source);
    this.#noteScreen(invoice);
  }

  #take(invoice: CheckoutInvoice, source: CheckoutStatusDetail['source']): void {
    const previous = this.#invoice;
    this.#invoice = invoice;
    const [was, is] = [previous && activeDeal(previous), activeDeal(invoice)];
    if (was && is && dealKey(was) !== dealKey(is)) {
      // Another deal: its receipt is still to come, its details are what to look at.
      this.#receipt = { state: 'closed' };
      this.#showDetails = false;
    }
    this.requestUpdate();
    if (source === 'load') {
      this.#dispatchAfterRender(new CheckoutReadyEvent({ invoice }));
      this.#time('ready');
    }
    if (!isFinalStatus(invoice.status) && activeDeal(invoice)?.requisites.requisites) this.#time('requisites');
    // Never a silent swap: the notice (role="alert") stays until dismissed, one event per field.
    for (const change of changesOf(previous, invoice)) {
      this.#changes = [...this.#changes.filter(({ field }) => field !== change.field), change];
      this.#dispatchAfterRender(new CheckoutAmountChangedEvent({ ...change, invoice }));
    }
    if (previous && previous.status !== invoice.status) {
      this.#options.announce((t) => `${t.statusLabel}: ${statusText(statusLine(invoice), t)}`);
      this.#dispatchAfterRender(new CheckoutStatusEvent({ status: invoice.status, previous: previous.status, invoice, source }));
    }
    // A cross-border deal's banks are those of the payer's country (its currency's list).
    this.#banks.load(this.#options.client, invoice.crossBorderCurrency ?? invoice.sum.currency, this.#work.signal);
    if (isFinalStatus(invoice.status)) {
      this.#pause();
      this.#countdown.stop();
      this.#confirming = false;
      const seconds = this.#options.autoReturn?.() ?? 0;
      if (statusMeaning(invoice.status) === 'paid' && seconds > 0 && this.#autoReturn === undefined) {
        this.#autoReturn = Date.now() + seconds * 1000;
        this.#autoReturnTimer.set(this.#autoReturn, 0);
        this.#options.announce((t) => t.autoReturn(seconds));
      }
      return;
    }
    // A dispute has no time to pay any more: no countdown, no expiry; its outcome is followed.
    if (statusMeaning(invoice.status) === 'dispute') this.#countdown.stop();
    else this.#countdown.set(deadlineOf(invoice), this.#clockOffset ?? 0);
    if (source !== 'poll' && source !== 'push') this.#follow();
  }

  #dispatchAfterRender(event: Event | (() => Event)): void {
    const work = this.#work.signal;
    void this.#host.updateComplete.then(() => {
      if (!work.aborted) this.#host.dispatchEvent(typeof event === 'function' ? event() : event);
    });
  }

  /** `checkout-timing` once the screen is rendered: `ready` and `requisites` once per invoice, every error. */
  #time(name: CheckoutTimingDetail['name'], code?: CheckoutTimingDetail['code']): void {
    if (name !== 'error' && this.#timed.has(name)) return;
    this.#timed.add(name);
    this.#dispatchAfterRender(() => new CheckoutTimingEvent({ name, ms: Math.round(performance.now() - this.#started), ...(code ? { code } : {}) }));
  }

  #report(error: unknown): void {
    if (isAbortError(error)) return;
    const failure = toCheckoutError(error);
    this.#dispatchAfterRender(
      new CheckoutErrorEvent({ code: failure.code, message: failure.message, retryable: failure.retryable }),
    );
    this.#time('error', failure.code);
  }
}
