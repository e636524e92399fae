import { initialState, Task, TaskStatus } from '@lit/task';
import type { CheckoutInvoice, StartDealRequest } from '../../schemas/checkout.js';
import type { PaymentVariant } from '../../schemas/invoice.js';
import { UUID_PATTERN } from '../../schemas/patterns.js';
import { afterPaint } from '../controllers/after-paint.js';
import { CountdownController } from '../controllers/countdown-controller.js';
import { PollController } from '../controllers/poll-controller.js';
import { type Absence, PresenceController } from '../controllers/presence-controller.js';
import { StreamController } from '../controllers/stream-controller.js';
import { deadlineOf } from '../deadline.js';
import {
  CheckoutAmountChangedEvent,
  CheckoutCopyEvent,
  CheckoutExpiredEvent,
  CheckoutPayerConfirmedEvent,
  CheckoutReadyEvent,
  CheckoutStatusEvent,
  type CheckoutStatusDetail,
  CheckoutVariantSelectEvent,
} from '../events.js';
import type { RequisitesKind } from '../format.js';
import {
  anySignal,
  type CheckoutClient,
  CheckoutError,
  isAbortError,
  readInvoice,
  readVariants,
  startDeal,
  toCheckoutError,
  watchInvoice,
  type Validated,
} from '../protocol-client.js';
import { EXPIRY_GRACE } from '../poll-policy.js';
import { activeDeal, changesOf, dealKey, screenName, statusLine, statusText } from '../screen-state.js';
import type { Change, CopyField, DealNotice, ReturnModel, SessionSnapshot } from '../screen-model.js';
import { isFinalStatus, statusMeaning } from '../status.js';
import { BankNames } from './bank-names.js';
import { CancelFlow } from './cancel-flow.js';
import { ControllerHub } from './controller-hub.js';
import { CopyState } from './copy-state.js';
import { PayerChoices } from './payer-choices.js';
import { ServerClock } from './server-clock.js';
import { Announcements } from './announcements.js';
import { PayerForms } from './payer-forms.js';
import { SessionEvents } from './session-events.js';
import type { InvoiceSessionOptions, SessionCore, SessionHost } from './session-types.js';
import { ShopReturn } from './shop-return.js';

export type { InvoiceSessionOptions, PaymentReport, SessionHost } from './session-types.js';

/** What the picker says when a deal did not start, by the protocol's error code. */
const dealNoticeFor = ({ code, status }: CheckoutError): DealNotice =>
  status === 501 || code === 'not_implemented'
    ? 'unsupported'
    : code === 'no_requisites'
      ? 'no_requisites'
      : code === 'option_not_allowed' || code === 'bank_not_allowed'
        ? 'not_allowed'
        : 'failed';

/**
 * Everything that belongs to one invoice: its data, the variants, the deal being started, the
 * copy and cancel state, the server's clock, the polling and the countdown. The element makes
 * one per client and invoice id and replaces it whole when either changes: `dispose()` aborts
 * every request of it, so nothing of one invoice reaches the next.
 *
 * A reactive controller of the element and the host of its own tasks and controllers: it hands
 * the element's lifecycle down to them and their update requests up to the element.
 */
export class InvoiceSession extends ControllerHub {
  readonly #options: InvoiceSessionOptions;
  /** Aborted when the session ends or the element leaves the page: ends every request of it. */
  #work = new AbortController();
  readonly #events = new SessionEvents(this.host, () => this.#work.signal);
  /** The receipt and report forms. */
  readonly forms: PayerForms;
  /** The payer's cancel: its confirmation, the POST, and what happened. */
  readonly cancel: CancelFlow;
  readonly #copy = new CopyState(() => this.requestUpdate());
  /** The automatic return and the page's say over any return to the shop. */
  readonly #return = new ShopReturn(this, this.host, () => this.requestUpdate());
  #invoice: CheckoutInvoice | undefined;
  /** The device's clock against the service's, and when the invoice shown was last known current. */
  readonly #clock = new ServerClock();
  /** When the time left and "the time ran out" are said unasked. */
  readonly #announcements = new Announcements();
  /** "I have paid", the details shown again, the bank picker open. */
  readonly #choices: PayerChoices;
  #connectionLost = false;
  #changes: readonly Change[] = [];
  #dealNotice: DealNotice | undefined;
  #pendingVariant: PaymentVariant | undefined;
  readonly #banks: BankNames;

  readonly #invoiceTask = new Task(this, {
    args: () => [this.#options.client, this.#options.invoiceId] as const,
    task: async ([client, invoiceId], { signal }) => {
      if (!invoiceId) return initialState;
      if (!UUID_PATTERN.test(invoiceId)) throw new CheckoutError('bad_request', 'invoice-id must be a UUID');
      return this.#read((all) => readInvoice(client, invoiceId, all), signal);
    },
    onComplete: (invoice) => this.#adopt(invoice, 'load'),
    onError: (error) => this.#events.error(error),
  });

  readonly #variantsTask = new Task(this, {
    args: () => [this.#options.client, this.#options.invoiceId] as const,
    task: async ([client, invoiceId], { signal }) => {
      // The invoice task reports a missing or malformed id; there is nothing to ask for here.
      if (!UUID_PATTERN.test(invoiceId)) return initialState;
      return (await readVariants(client, invoiceId, this.#signal(signal))).value;
    },
    onError: (error) => this.#events.error(error),
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
      this.#events.error(failure);
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
        this.cancel.checked();
        this.#adopt(invoice, 'poll');
        // A read made beside a delivering stream (a return, a deadline) leaves polling at rest.
        return this.#goesOn(invoice) && !this.#stream.up;
      } catch (error) {
        if (!isAbortError(error)) {
          this.#connectionLost = true;
          this.#events.error(error);
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
          this.cancel.checked();
          this.#clock.pushed();
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
      if (this.#announcements.tick(remaining)) this.#options.announce((t) => t.timeLeftAnnouncement(remaining));
      this.requestUpdate();
    },
    // A deadline is no verdict: the invoice may have been paid in the last second. It is read
    // first (the screen says it is checking meanwhile), and the answer decides.
    onZero: () => {
      this.#refresh(Date.now());
      this.requestUpdate();
    },
  });

  constructor(host: SessionHost, options: InvoiceSessionOptions) {
    super(host);
    this.#options = options;
    this.#choices = new PayerChoices(options.invoiceId);
    this.#banks = new BankNames(() => this.requestUpdate(), options.banks ?? (() => undefined));
    const core: SessionCore = {
      options,
      events: this.#events,
      signal: () => this.#work.signal,
      invoice: () => this.#invoice,
      read: (request, signal) => this.#read(request, signal),
      adopt: (invoice, source) => this.#adopt(invoice, source),
      requestUpdate: () => this.requestUpdate(),
      follow: (now) => this.#follow(now),
      pause: () => this.#pause(),
    };
    this.forms = new PayerForms(core);
    this.cancel = new CancelFlow(this, core);
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
      variants:
        variants.status === TaskStatus.ERROR ? 'failed' : variants.status === TaskStatus.COMPLETE ? (variants.value ?? []) : 'loading',
      pendingVariant: this.#pendingVariant,
      dealNotice: this.#dealNotice,
      copied: this.#copy.copied,
      copyByHand: this.#copy.byHand,
      cancel: this.cancel.state,
      changes: this.#changes,
      connectionLost: this.#connectionLost,
      offline: this.#presence.offline,
      readAt: this.#clock.readAt,
      clockOffset: this.#clock.offset,
      payerConfirmed: this.#choices.confirmed,
      showDetails: this.#choices.showDetails,
      receipt: this.forms.receipt,
      report: this.forms.report,
      autoReturn: this.#return.at,
      bankName: (code) => this.#banks.name(code, this.#options.language()),
      bankColor: (code) => this.#banks.color(code),
      bankPicker: this.#choices.bankPicker,
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
    this.#choices.confirm(dealKey(deal));
    this.cancel.close();
    // A merchant who requires the receipt gets the form at once.
    if (invoice.receipts === 'required') this.forms.requireReceipt();
    this.#options.announce((t) => t.title('checking'));
    this.host.dispatchEvent(new CheckoutPayerConfirmedEvent({ invoice, deal }));
    this.requestUpdate();
  }

  /** Back from the check to the payment details (the confirmation stays; "I have paid" returns to the check). */
  toggleDetails(show: boolean): void {
    this.#choices.showDetails = show;
    this.requestUpdate();
  }

  /** The payer stays: no automatic return. */
  stopAutoReturn(): void {
    this.#return.stop();
  }

  /**
   * Asks the page whether the payer may go back to the shop (`checkout-return`): true to go,
   * false when the page took it over. Never more than once per invoice.
   */
  leave(to: ReturnModel, automatic: boolean): boolean {
    return this.#return.leave(to, this.#invoice?.status ?? '', automatic);
  }

  /** Opens or closes the SBP bank picker. */
  bankPicker(open: boolean): void {
    this.#choices.bankPicker = open;
    this.requestUpdate();
  }

  /** Ends the session: every request of it is aborted, every timer and listener released. */
  dispose(): void {
    this.host.removeController(this);
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
  copy(field: CopyField, value: string, kind: RequisitesKind, fallback: Node | null): Promise<void> {
    return this.#copy.copy(field, value, fallback, this.#work.signal, () => {
      this.#options.announce((t) => t.copiedAnnouncement(field, kind));
      this.host.dispatchEvent(new CheckoutCopyEvent({ field, value }));
    });
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
    this.host.dispatchEvent(request);
    if (request.defaultPrevented) return;
    this.#dealNotice = undefined;
    this.#pendingVariant = variant;
    this.#pause();
    void this.#dealTask.run([this.#options.client, this.#options.invoiceId, { option: variant.option, method: variant.method }]);
  }

  override hostConnected(): void {
    // Back on the page after being removed: new work before the controllers resume.
    const returning = this.#work.signal.aborted;
    if (returning) this.#work = new AbortController();
    super.hostConnected();
    if (!returning) return;
    for (const task of [this.#invoiceTask, this.#variantsTask]) {
      if (task.status === TaskStatus.ERROR && isAbortError(task.error)) void task.run();
    }
  }

  override hostDisconnected(): void {
    this.#work.abort();
    this.#copy.clear();
    super.hostDisconnected();
    this.requestUpdate();
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
    this.#clock.answered(date, started);
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
    if (this.#dealTask.status === TaskStatus.PENDING || this.cancel.pending) return;
    this.#poll.refresh(since);
  }

  /** Whether the invoice's status can still change: not final, and not long past its expiry. */
  #goesOn(invoice: CheckoutInvoice): boolean {
    if (statusMeaning(invoice.status) === 'dispute') return true; // reviewed for days, past any expiry
    return !isFinalStatus(invoice.status) && this.#clock.now() < Date.parse(invoice.expireAt) + EXPIRY_GRACE;
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
    if (!this.#announcements.expired(screenName(this.snapshot, Date.now()))) return;
    this.cancel.close();
    this.#options.announce((t) => t.title('expired'));
    this.#events.afterRender(new CheckoutExpiredEvent({ invoice }));
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
      this.forms.newDeal();
      this.#choices.showDetails = false;
    }
    this.requestUpdate();
    if (source === 'load') {
      this.#events.afterRender(new CheckoutReadyEvent({ invoice }));
      this.#events.time('ready');
    }
    if (!isFinalStatus(invoice.status) && activeDeal(invoice)?.requisites.requisites) this.#events.time('requisites');
    // Never a silent swap: the notice (role="alert") stays until dismissed, one event per field.
    for (const change of changesOf(previous, invoice)) {
      this.#changes = [...this.#changes.filter(({ field }) => field !== change.field), change];
      this.#events.afterRender(new CheckoutAmountChangedEvent({ ...change, invoice }));
    }
    if (previous && previous.status !== invoice.status) {
      this.#options.announce((t) => `${t.statusLabel}: ${statusText(statusLine(invoice), t)}`);
      this.#events.afterRender(new CheckoutStatusEvent({ status: invoice.status, previous: previous.status, invoice, source }));
    }
    // A cross-border deal's banks are those of the payer's country (its currency's list). Once
    // this state is on screen: until then the screen shows the bank's code made readable.
    const work = this.#work.signal;
    const currency = invoice.crossBorderCurrency ?? invoice.sum.currency;
    this.#afterShown(() => this.#banks.load(this.#options.client, currency, work));
    if (isFinalStatus(invoice.status)) {
      this.#pause();
      this.#countdown.stop();
      this.cancel.close();
      const seconds = this.#options.autoReturn?.() ?? 0;
      if (statusMeaning(invoice.status) === 'paid' && this.#return.start(seconds)) this.#options.announce((t) => t.autoReturn(seconds));
      return;
    }
    // A dispute has no time to pay any more: no countdown, no expiry; its outcome is followed.
    if (statusMeaning(invoice.status) === 'dispute') this.#countdown.stop();
    else this.#countdown.set(deadlineOf(invoice), this.#clock.offset);
    if (source !== 'poll' && source !== 'push') this.#follow();
  }

  /**
   * Runs `work` once this state is on screen: the element's update is complete (the language's
   * strings and the screens' templates are here) and the frame that shows it painted.
   */
  #afterShown(work: () => void): void {
    const signal = this.#work.signal;
    void this.host.updateComplete.then(() => afterPaint(work, signal));
  }
}
