import type { ReactiveControllerHost } from 'lit';
import { Task, TaskStatus } from '@lit/task';
import type { CheckoutCanceledInvoice } from '../../schemas/checkout.js';
import { CheckoutCanceledEvent } from '../events.js';
import { cancelInvoice, isAbortError, toCheckoutError } from '../protocol-client.js';
import type { CancelState } from '../screen-model.js';
import { statusMeaning } from '../status.js';
import type { SessionCore } from './session-types.js';

/**
 * The payer's cancel of one session: asking for confirmation, the POST (a task that never runs
 * by itself, one per confirmation), and after a failure the invoice read again before any
 * cancel is offered.
 */
export class CancelFlow {
  readonly #session: SessionCore;
  #confirming = false;
  /** A cancel failed: the invoice is being read again, and no cancel is offered until it is. */
  #checking = false;
  #notice: CancelState['notice'];
  readonly #task: Task<readonly [], CheckoutCanceledInvoice>;

  /** `host` runs the task (the session); `session` is what the cancel uses of it. */
  constructor(host: ReactiveControllerHost, session: SessionCore) {
    this.#session = session;
    const { client, invoiceId } = session.options;
    this.#task = new Task(host, {
      autoRun: false,
      args: () => [] as const,
      task: (_, { signal }) => session.read((all) => cancelInvoice(client, invoiceId, all), signal),
      onComplete: (answer) => {
        this.#confirming = false;
        // Only an answer that says canceled is a cancel: a paid one is adopted as paid.
        const canceled = statusMeaning(answer.status) === 'canceled';
        if (!canceled) this.#notice = 'refused';
        const invoice = session.invoice();
        if (invoice) session.adopt({ ...invoice, ...answer, expireAt: invoice.expireAt }, 'cancel');
        if (canceled) session.events.afterRender(new CheckoutCanceledEvent({ invoice: answer }));
      },
      onError: (error) => {
        if (isAbortError(error)) return;
        // Never sent again by itself: the cancel may have happened before the connection broke,
        // or the invoice was paid meanwhile. Read what it is now; the payer decides again.
        const { code, status = 0 } = toCheckoutError(error);
        this.#confirming = false;
        this.#checking = true;
        this.#notice = code === 'cancel_refused' || (status >= 400 && status < 500) ? 'refused' : 'failed';
        session.events.error(error);
        session.follow(true);
      },
    });
  }

  get state(): CancelState {
    return { confirming: this.#confirming, pending: this.pending, checking: this.#checking, notice: this.#notice };
  }

  /** The POST is on its way. */
  get pending(): boolean {
    return this.#task.status === TaskStatus.PENDING;
  }

  ask(): void {
    if (this.#checking) return;
    this.#confirming = true;
    this.#notice = undefined;
    this.#session.requestUpdate();
  }

  /** Steps back from the confirmation; `false` (nothing changes) while the cancel is on its way. */
  keep(): boolean {
    if (this.pending) return false;
    this.#confirming = false;
    this.#session.requestUpdate();
    return true;
  }

  confirm(): void {
    // One POST per confirmation, however many clicks or key presses arrive: the task turns
    // pending synchronously, and a failure ends the confirmation.
    if (this.pending || !this.#confirming) return;
    this.#session.pause();
    void this.#task.run();
  }

  /** No confirmation any more (the invoice ended, "I have paid"). */
  close(): void {
    this.#confirming = false;
  }

  /** A read of the invoice came: a cancel may be offered again. */
  checked(): void {
    this.#checking = false;
  }
}
