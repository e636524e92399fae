/**
 * Event streams shared out among the tabs of one site (issue 25: seven open checkouts over
 * HTTP/1.1 held the browser's six connections to the host, and the shop's other pages stopped
 * loading). The checkouts of every tab of an origin agree, over a `BroadcastChannel`, that at
 * most {@link STREAMS_PER_HOST} streams to one host are open at a time: those of the tabs in
 * view first, then of the tab shown most recently, then the oldest stream. A stream that loses
 * its place is closed (its checkout keeps following the invoice by polling while in view, and
 * reads it at once when the payer comes back, which is when it gets a place again); a stream
 * refused one is tried again by the element later, as after any failure.
 *
 * Each tab says which streams it holds, in view or not and since when, whenever that changes,
 * every {@link REFRESH_MS} while it holds one, and on leaving; a tab not heard from for
 * {@link FORGET_MS} is forgotten. A tab that opens its channel asks the others first and
 * waits {@link HELLO_WAIT_MS} for their answers. Tabs decide alone from what they heard: two
 * that claim at once may hold one stream too many until the next message, never for longer.
 * Without `BroadcastChannel` every stream is allowed (as before). Loaded with the event
 * stream's reader (the `sse` chunk), so the first render carries none of it.
 */

/** Half of the six connections a browser opens to one host over HTTP/1.1: the rest serve the shop's pages. */
export const STREAMS_PER_HOST = 3;
export const REFRESH_MS = 5_000;
export const FORGET_MS = 12_000;
/** How long a tab that just opened its channel waits for the others' answers before its first claim. */
export const HELLO_WAIT_MS = 50;

/** One stream's claim to a place: the tab's state with it. */
interface Claim {
  tab: string;
  seq: number;
  visible: boolean;
  shownAt: number;
}

/** What a tab says about itself. */
type Message =
  | { type: 'state'; tab: string; visible: boolean; shownAt: number; streams: number[] }
  | { type: 'bye'; tab: string }
  | { type: 'hello'; tab: string };

/** The place of a stream a tab holds; `release` when the stream ends. */
export interface StreamSlot {
  release(): void;
}

/** Before `b` in the order of places: in view first, then shown most recently, then older streams. */
const before = (a: Claim, b: Claim): number =>
  Number(b.visible) - Number(a.visible) || b.shownAt - a.shownAt || (a.tab < b.tab ? -1 : a.tab > b.tab ? 1 : a.seq - b.seq);

export class StreamSlots {
  readonly #name: string;
  readonly #tab = Math.random().toString(36).slice(2);
  readonly #now: () => number;
  readonly #visible: () => boolean;
  #channel: BroadcastChannel | undefined;
  #seq = 0;
  #shownAt: number;
  /** This tab's streams: their number and what to do when one must give up its place. */
  readonly #mine = new Map<number, () => void>();
  /** What the other tabs said, and when. */
  readonly #others = new Map<string, { visible: boolean; shownAt: number; streams: number[]; heard: number }>();
  #refresh: ReturnType<typeof setInterval> | undefined;
  /** Settles once the others had time to answer this tab's `hello`. */
  #introduced: Promise<unknown> = Promise.resolve();
  /** This tab last said it holds nothing (or has said nothing yet). */
  #silent = true;

  constructor(name: string, options: { now?: () => number; visible?: () => boolean } = {}) {
    this.#name = name;
    this.#now = options.now ?? Date.now;
    this.#visible = options.visible ?? (() => document.visibilityState !== 'hidden');
    this.#shownAt = this.#now();
    this.#open();
  }

  /**
   * A place for a stream, or `undefined` when the tabs in view and those shown more recently
   * hold them all. `yieldPlace` is called (once) when the stream must close for one of theirs.
   */
  async claim(yieldPlace: () => void): Promise<StreamSlot | undefined> {
    // A tab that just opened its channel first hears where the others stand.
    await this.#introduced;
    if (!this.#channel) return { release: () => undefined };
    const seq = ++this.#seq;
    this.#mine.set(seq, yieldPlace);
    if (!this.#holds().has(seq)) {
      this.#mine.delete(seq);
      return undefined;
    }
    this.#say();
    return {
      release: () => {
        if (this.#mine.delete(seq)) this.#say();
      },
    };
  }

  /** The tab was shown or hidden: its streams move up or down the order. */
  shown(visible: boolean): void {
    if (visible) this.#shownAt = this.#now();
    this.#say();
    this.#enforce();
  }

  /** Stops listening (the page goes into the back/forward cache, or the tests end). */
  close(): void {
    if (!this.#channel) return;
    this.#post({ type: 'bye', tab: this.#tab });
    this.#channel.close();
    this.#channel = undefined;
    clearInterval(this.#refresh);
    this.#refresh = undefined;
    this.#others.clear();
  }

  /** Opens the channel again (the page came back from the back/forward cache). */
  reopen(): void {
    if (!this.#channel) this.#open();
  }

  #open(): void {
    if (typeof BroadcastChannel !== 'function') return;
    this.#channel = new BroadcastChannel(this.#name);
    this.#channel.onmessage = (event: MessageEvent<Message>) => this.#heard(event.data);
    // The others say where they stand, so a newcomer's first claim knows them.
    this.#post({ type: 'hello', tab: this.#tab });
    this.#introduced = new Promise((resolve) => setTimeout(resolve, HELLO_WAIT_MS));
  }

  /** The streams of this tab that have a place, by what every tab said. */
  #holds(): Set<number> {
    const now = this.#now();
    const claims: Claim[] = [];
    const visible = this.#visible();
    for (const seq of this.#mine.keys()) claims.push({ tab: this.#tab, seq, visible, shownAt: this.#shownAt });
    for (const [tab, state] of this.#others) {
      if (now - state.heard > FORGET_MS) {
        this.#others.delete(tab);
        continue;
      }
      for (const seq of state.streams) claims.push({ tab, seq, visible: state.visible, shownAt: state.shownAt });
    }
    claims.sort(before);
    return new Set(
      claims
        .slice(0, STREAMS_PER_HOST)
        .filter((claim) => claim.tab === this.#tab)
        .map((claim) => claim.seq),
    );
  }

  /** Streams of this tab that lost their place are closed (and the others told). */
  #enforce(): void {
    const holds = this.#holds();
    const lost = [...this.#mine].filter(([seq]) => !holds.has(seq));
    for (const [seq] of lost) this.#mine.delete(seq);
    if (lost.length > 0) this.#say();
    for (const [, yieldPlace] of lost) yieldPlace();
  }

  #heard(message: Message): void {
    if (!message || typeof message !== 'object' || typeof message.tab !== 'string' || message.tab === this.#tab) return;
    if (message.type === 'hello') {
      if (this.#mine.size > 0) this.#say();
      return;
    }
    if (message.type === 'bye') {
      this.#others.delete(message.tab);
      return;
    }
    if (message.type !== 'state' || !Array.isArray(message.streams)) return;
    this.#others.set(message.tab, {
      visible: message.visible === true,
      shownAt: Number(message.shownAt) || 0,
      streams: message.streams.filter(Number.isInteger),
      heard: this.#now(),
    });
    this.#enforce();
  }

  /** Tells the others this tab's state: while it holds streams, and once when it stops. */
  #say(): void {
    const streams = [...this.#mine.keys()];
    if (streams.length > 0) this.#refresh ??= setInterval(() => this.#say(), REFRESH_MS);
    else {
      clearInterval(this.#refresh);
      this.#refresh = undefined;
      if (this.#silent) return;
    }
    this.#silent = streams.length === 0;
    this.#post({ type: 'state', tab: this.#tab, visible: this.#visible(), shownAt: this.#shownAt, streams });
  }

  #post(message: Message): void {
    try {
      this.#channel?.postMessage(message);
    } catch {
      // A closing channel: the others forget this tab in time.
    }
  }
}

/** One per stream host of a page, following the page's lifecycle. */
const pages = new Map<string, StreamSlots>();

/** The slots of the host of `url` for this page. */
export const slotsFor = (url: string): StreamSlots => {
  const host = new URL(url, document.baseURI).host;
  let slots = pages.get(host);
  if (!slots) {
    const created = new StreamSlots(`merchant-checkout:streams:${host}`);
    slots = created;
    pages.set(host, created);
    document.addEventListener('visibilitychange', () => created.shown(document.visibilityState !== 'hidden'));
    // A page in the back/forward cache keeps no channel open (it would keep it out of the cache).
    addEventListener('pagehide', () => created.close());
    addEventListener('pageshow', (event) => event.persisted && created.reopen());
  }
  return slots;
};
