/**
 * One payer's event stream (invoice-events.ts has the whole design): the source of a
 * `ReadableStream` with a high-water mark of 0 over its invoice's watch, and the one heartbeat
 * timer every stream of a handler shares.
 */
import type { Invoice } from '../../schemas/index.js';
import type { MerchantClient } from '../client/merchant-client.js';
import type { InvoiceMark } from '../store/types.js';

/** One state of a watched invoice. */
export interface State {
  invoice: Invoice;
  mark: InvoiceMark;
  eventId: string;
  terminal: boolean;
  /** The whole `invoice` event (the projection with bank names), made once per state for every stream. */
  event?: Promise<Uint8Array>;
}

/** What a watch tells of each new state: an open stream. */
export interface Listener {
  notify(): void;
}

/** One invoice watched by this instance, shared by every payer streaming it. */
export interface Watch {
  id: string;
  client: MerchantClient;
  state: State;
  listeners: Set<Listener>;
  timer: ReturnType<typeof setTimeout> | undefined;
  refreshing: boolean;
}

/**
 * One heartbeat timer for every stream of a handler. The streams are dealt into buckets and
 * each tick beats one bucket, so that 10,000 streams do not all write in the same turn of the
 * event loop; each still gets a heartbeat every `heartbeatMs`.
 */
export class Heartbeats {
  /** Streams open. */
  streams = 0;
  readonly #heartbeatMs: number;
  readonly #buckets: Set<EventStream>[];
  #dealt = 0;
  #ticks = 0;
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(heartbeatMs: number) {
    this.#heartbeatMs = heartbeatMs;
    this.#buckets = Array.from({ length: Math.min(16, Math.max(1, Math.floor(heartbeatMs / 250))) }, () => new Set());
  }

  /** A stream opened: the bucket it is beaten in. */
  opened(): Set<EventStream> {
    if (this.streams++ === 0) {
      this.#timer = setInterval(() => {
        for (const stream of this.#buckets[this.#ticks++ % this.#buckets.length]!) stream.heartbeat();
      }, this.#heartbeatMs / this.#buckets.length);
      // The process may end while streams are open; their sockets keep it alive otherwise.
      this.#timer.unref?.();
    }
    return this.#buckets[this.#dealt++ % this.#buckets.length]!;
  }

  closed(bucket: Set<EventStream>, stream: EventStream): void {
    bucket.delete(stream);
    if (--this.streams === 0) {
      clearInterval(this.#timer);
      this.#timer = undefined;
    }
  }
}

/** What a stream needs of its handler's events (one object shared by every stream). */
export interface StreamHost {
  readonly heartbeats: Heartbeats;
  readonly heartbeatBytes: Uint8Array;
  /** The bytes of the `invoice` event of `state`, made once per state. */
  eventOf(watch: Watch, state: State): Promise<Uint8Array>;
  /** Forgets a watch nobody streams any more. */
  release(watch: Watch): void;
  /** Told of each state sent (metrics). */
  sent(): void;
}

/**
 * One payer's stream, its own underlying source: a few fields, no closure and no pending
 * promise while it is idle. The reader asks (`pull`), and the newest state not yet sent, else
 * a due heartbeat, is enqueued at once or as soon as there is one. It holds the request's
 * signal, not the request (nor Hono's context).
 */
export class EventStream {
  #sent: string | null;
  #controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  /** The reader waits for a chunk. */
  #wanted = false;
  /** Due at once: the first heartbeat tells the element the period to expect. */
  #heartbeatDue = true;
  /** An event's data is being made (bank names). */
  #making = false;
  #ended = false;
  #bucket: Set<EventStream> | undefined;
  readonly #host: StreamHost;
  readonly #watch: Watch;
  readonly #signal: AbortSignal;

  constructor(host: StreamHost, watch: Watch, lastEventId: string | null, signal: AbortSignal) {
    this.#host = host;
    this.#watch = watch;
    this.#sent = lastEventId;
    this.#signal = signal;
  }

  start(controller: ReadableStreamDefaultController<Uint8Array>): void {
    this.#controller = controller;
    this.#bucket = this.#host.heartbeats.opened();
    this.#bucket.add(this);
    this.#watch.listeners.add(this);
    if (this.#signal.aborted) this.end();
    else this.#signal.addEventListener('abort', this, { once: true });
  }

  pull(): void {
    this.#wanted = true;
    this.#flush();
  }

  cancel(): void {
    this.end();
  }

  /** The request's signal aborted: the payer is gone. */
  handleEvent(): void {
    this.end();
  }

  /** The watch has a new state. */
  notify(): void {
    this.#flush();
  }

  heartbeat(): void {
    this.#heartbeatDue = true;
    this.#flush();
  }

  #flush(): void {
    if (!this.#wanted || this.#making || this.#ended) return;
    const state = this.#watch.state;
    if (state.eventId !== this.#sent) {
      this.#making = true;
      this.#host.eventOf(this.#watch, state).then(
        (event) => {
          this.#making = false;
          if (this.#ended) return;
          // A newer state came meanwhile: that one is sent instead.
          if (state !== this.#watch.state) return this.#flush();
          this.#enqueue(event);
          this.#host.sent();
          this.#sent = state.eventId;
          if (state.terminal) this.end();
        },
        () => this.end(),
      );
    } else if (this.#heartbeatDue) {
      this.#heartbeatDue = false;
      this.#enqueue(this.#host.heartbeatBytes);
    }
  }

  #enqueue(chunk: Uint8Array): void {
    this.#wanted = false;
    // A copy each: the bytes are shared by every stream, and a runtime may take (transfer) what it writes.
    this.#controller!.enqueue(chunk.slice());
  }

  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    if (this.#bucket) this.#host.heartbeats.closed(this.#bucket, this);
    this.#watch.listeners.delete(this);
    this.#signal.removeEventListener('abort', this);
    this.#host.release(this.#watch);
    try {
      // After what was enqueued, the reader sees the end.
      this.#controller?.close();
    } catch {
      // The runtime canceled the stream: it is closed already.
    }
  }
}
