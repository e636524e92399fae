import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { nextStreamDelay, silenceLimit } from '../poll-policy.js';

/** What a stream tells its controller. */
export interface StreamReport {
  /** A state arrived and was adopted; `goOn` is `false` for a final one (the stream is closed). */
  message: (goOn: boolean) => void;
  /** The stream failed, was refused or ended (it is closed). */
  error: () => void;
  /** Bytes arrived (a heartbeat, an event); `heartbeatMs` when the stream states its period. */
  alive: (heartbeatMs?: number) => void;
}

export interface StreamControllerOptions {
  /** Opens the stream, to be closed when `signal` aborts; `false` when there is none to open. */
  open: (signal: AbortSignal, report: StreamReport) => boolean;
  /** The stream delivered its first state: polling may rest. */
  up: () => void;
  /**
   * A stream that had delivered failed, fell silent or left the page: polling takes over, with
   * a read at once (`readNow`), or only once the page is back (suspended: nothing can run).
   */
  down: (readNow: boolean) => void;
  /** Whether a connection is worth making now: the page is shown and the device online (retries wait for that). */
  present: () => boolean;
}

/**
 * Keeps an event stream open while it works, and trusts it only while it proves itself.
 *
 * The first state a connection delivers (the proxy sends the current one at once) proves it,
 * and `up` lets polling rest. From its first sign of life on (`alive`: the default client
 * reports the answer's headers and every chunk; a custom `watch` that never does is trusted as
 * before), the stream must keep talking:
 * silent for twice its heartbeat (`silenceLimit`; a mobile network or a NAT may drop a
 * connection without a FIN or RST, and nothing else would ever notice) it is dead. A dead or
 * failed stream that had delivered calls `down` (polling reads at once and takes over); a dead
 * one is opened again at once, a failed one after `nextStreamDelay` (30 s doubling, capped at
 * 5 minutes), and so is any stream that dies before delivering. A stream that never delivers
 * (a polling-only proxy's 404, a buffering proxy) therefore changes nothing for polling.
 *
 * While the page is hidden or offline no new connection is made (a retry waits, so a payer
 * away costs no requests beyond a held stream); `suspend` closes the stream for a frozen or
 * cached page or a lost network, `resume` opens it again at once. Closed when the host
 * disconnects, reopened when it comes back.
 */
export class StreamController implements ReactiveController {
  readonly #options: StreamControllerOptions;
  #active = false;
  #connected = false;
  #up = false;
  /** A connection of this open delivered a state. */
  #delivered = false;
  #failures = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** Dead once silent for twice its heartbeat, after a first sign of life. */
  readonly #silence = new SilenceWatch(() => this.#lost(true));
  #connection: AbortController | undefined;

  constructor(host: ReactiveControllerHost, options: StreamControllerOptions) {
    this.#options = options;
    host.addController(this);
  }

  /** Whether a stream is open and delivering (polling rests). */
  get up(): boolean {
    return this.#up;
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

  /** The page froze, went into the back/forward cache or lost the network: close, and wait for `resume`. */
  suspend(): void {
    if (!this.#active) return;
    const wasUp = this.#up;
    this.#close();
    if (wasUp) this.#options.down(false);
  }

  /** The page is back: a stream that is closed or waiting for a retry opens at once. */
  resume(): void {
    if (!this.#active || this.#connection) return;
    this.#failures = 0;
    this.#open();
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
    if (wasUp) this.#options.down(true);
  }

  #open(): void {
    this.#close();
    if (!this.#connected) return;
    const connection = new AbortController();
    this.#connection = connection;
    this.#delivered = false;
    this.#silence.reset();
    const live = () => !connection.signal.aborted;
    const opened = this.#options.open(connection.signal, {
      message: (goOn) => {
        if (!live()) return;
        this.#failures = 0;
        this.#delivered = true;
        if (!goOn) return this.stop();
        this.#silence.message();
        if (this.#up) return;
        this.#up = true;
        this.#options.up();
      },
      error: () => {
        if (live()) this.#lost(false);
      },
      alive: (heartbeatMs) => {
        if (live()) this.#silence.alive(heartbeatMs);
      },
    });
    if (!opened) this.stop();
  }

  /** The connection failed (`silent`: it went quiet): polling takes over, and it is tried again. */
  #lost(silent: boolean): void {
    const wasUp = this.#up;
    const delivered = this.#delivered;
    this.#close();
    // A stream that worked and then went quiet is reopened at once; one that keeps failing backs off.
    if (silent && delivered) this.#failures = 0;
    else this.#failures++;
    const retry = () => {
      this.#timer = undefined;
      // Away: `resume` opens it when the page is back.
      if (this.#options.present()) this.#open();
    };
    if (this.#failures === 0) retry();
    else this.#timer = setTimeout(retry, nextStreamDelay(this.#failures));
    // Found dead while the payer is away: the read waits for the return, which reads anyway.
    if (wasUp) this.#options.down(this.#options.present());
  }

  #close(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#silence.stop();
    this.#connection?.abort();
    this.#connection = undefined;
    this.#up = false;
  }
}

/**
 * A connection's silence: from its first sign of life on (`alive`), each sign of life or state
 * starts the silence again, and silent for twice the heartbeat the stream stated
 * (`silenceLimit`, the default until it states one) it is `dead`. A connection whose client never
 * reports signs of life is not watched.
 */
class SilenceWatch {
  readonly #dead: () => void;
  /** The heartbeat period the stream stated, if it did (kept for the next connection). */
  #period: number | undefined;
  /** This connection's client reports signs of life: its silence is watched. */
  #watched = false;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(dead: () => void) {
    this.#dead = dead;
  }

  /** A new connection: not watched until its first sign of life. */
  reset(): void {
    this.stop();
    this.#watched = false;
  }

  /** Bytes arrived; `heartbeatMs` when the stream states its period. */
  alive(heartbeatMs: number | undefined): void {
    this.#watched = true;
    this.#heard(heartbeatMs);
  }

  /** A state arrived: a sign of life where the connection is watched. */
  message(): void {
    if (this.#watched) this.#heard(undefined);
  }

  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #heard(heartbeatMs: number | undefined): void {
    if (heartbeatMs !== undefined) this.#period = heartbeatMs;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.#dead(), silenceLimit(this.#period));
  }
}
