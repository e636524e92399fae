import type { ReactiveController, ReactiveControllerHost } from 'lit';

/**
 * How the page went away: `hidden` (another tab or app; the page still runs), `suspended`
 * (frozen, or put into the back/forward cache: nothing runs, connections are better closed),
 * `offline` (the device lost its network).
 */
export type Absence = 'hidden' | 'suspended' | 'offline';

export interface PresenceControllerOptions {
  away: (how: Absence) => void;
  /** The page is shown, running and online again; `from` says what it came back from. */
  back: (from: Absence) => void;
}

/**
 * Watches the page's lifecycle for the payer who leaves for the bank app and returns:
 * `visibilitychange`, `freeze` and `resume` (Page Lifecycle), `pagehide` and `pageshow` (the
 * back/forward cache), `offline` and `online`. One owner of these listeners, so a return that
 * raises several of them at once is still one return to whoever listens.
 */
export class PresenceController implements ReactiveController {
  readonly #options: PresenceControllerOptions;
  #listening = new AbortController();
  /** Device time of the latest departure: reads sent before it may be stuck on a dead connection. */
  awayAt = 0;

  constructor(host: ReactiveControllerHost, options: PresenceControllerOptions) {
    this.#options = options;
    host.addController(this);
  }

  /** The page is shown, running and online: worth a connection or a timer. */
  get present(): boolean {
    return document.visibilityState !== 'hidden' && navigator.onLine !== false;
  }

  get offline(): boolean {
    return navigator.onLine === false;
  }

  hostConnected(): void {
    this.#listening = new AbortController();
    const { signal } = this.#listening;
    const on = (target: EventTarget, name: string, handler: (event: Event) => void) => target.addEventListener(name, handler, { signal });
    on(document, 'visibilitychange', () => (document.visibilityState === 'hidden' ? this.#away('hidden') : this.#back('hidden')));
    on(document, 'freeze', () => this.#away('suspended'));
    on(document, 'resume', () => this.#back('suspended'));
    on(window, 'pagehide', () => this.#away('suspended'));
    // A first load's `pageshow` is no return; one from the back/forward cache is (`persisted`).
    on(window, 'pageshow', (event) => (event as PageTransitionEvent).persisted && this.#back('suspended'));
    on(window, 'offline', () => this.#away('offline'));
    on(window, 'online', () => this.#back('offline'));
  }

  hostDisconnected(): void {
    this.#listening.abort();
  }

  #away(how: Absence): void {
    this.awayAt = Date.now();
    this.#options.away(how);
  }

  #back(from: Absence): void {
    // Still hidden or offline: the return is the one still to come.
    if (!this.present) return;
    this.#options.back(from);
  }
}
