import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { nextStreamDelay } from '../poll-policy.js';

/** What a stream tells its controller. */
export interface StreamReport {
  /** A state arrived and was adopted; `goOn` is `false` for a final one (the stream is closed). */
  message: (goOn: boolean) => void;
  /** The stream failed or was refused (it is closed). */
  error: () => void;
}

export interface StreamControllerOptions {
  /** Opens the stream, to be closed when `signal` aborts; `false` when there is none to open. */
  open: (signal: AbortSignal, report: StreamReport) => boolean;
  /** The stream delivered its first state: polling may rest. */
  up: () => void;
  /** A stream that had delivered failed or left the page: polling takes over. */
  down: () => void;
}

/**
 * Keeps an event stream open while it works. The first state a connection delivers (the proxy
 * sends the current one at once) proves it, and `up` lets polling rest; a failure of a stream
 * that had delivered calls `down` so polling takes over, and any failure schedules another try
 * (`nextStreamDelay`: 30 s doubling, capped at 5 minutes). A stream that never delivers
 * (a polling-only proxy's 404, a buffering proxy) therefore changes nothing for polling.
 *
 * The stream stays open while the page is hidden (a held connection costs the proxy no reads;
 * when the system drops it, polling's rules apply), and is closed when the host disconnects,
 * reopened when it comes back.
 */
export class StreamController implements ReactiveController {
  readonly #options: StreamControllerOptions;
  #active = false;
  #connected = false;
  #up = false;
  #failures = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #connection: AbortController | undefined;

  constructor(host: ReactiveControllerHost, options: StreamControllerOptions) {
    this.#options = options;
    host.addController(this);
  }

  /** Opens (or reopens) the stream; `false` when there is none (polling alone then). */
  start(): boolean {
    this.#close();
    this.#active = true;
    this.#failures = 0;
    this.#open();
    return this.#active;
  }

  /** Closes the stream and tries no more. */
  stop(): void {
    this.#active = false;
    this.#close();
  }

  hostConnected(): void {
    this.#connected = true;
    if (this.#active) this.#open();
  }

  hostDisconnected(): void {
    this.#connected = false;
    const wasUp = this.#up;
    this.#close();
    // Declared after the poll controller, so polling is already disconnected: it resumes, with
    // a read at once, when the host comes back (and rests again once the stream delivers).
    if (wasUp) this.#options.down();
  }

  #open(): void {
    this.#close();
    if (!this.#connected) return;
    const connection = new AbortController();
    this.#connection = connection;
    const opened = this.#options.open(connection.signal, {
      message: (goOn) => {
        if (connection.signal.aborted) return;
        this.#failures = 0;
        if (!goOn) return this.stop();
        if (this.#up) return;
        this.#up = true;
        this.#options.up();
      },
      error: () => {
        if (connection.signal.aborted) return;
        const wasUp = this.#up;
        this.#close();
        this.#failures++;
        this.#timer = setTimeout(() => this.#open(), nextStreamDelay(this.#failures));
        if (wasUp) this.#options.down();
      },
    });
    if (!opened) this.stop();
  }

  #close(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#connection?.abort();
    this.#connection = undefined;
    this.#up = false;
  }
}
