/**
 * A part of the element that loads on demand (the QR encoder, the forms, the bank picker): a
 * dynamic `import()`, so it is a file of its own and not in the first-render bundle. `get()`
 * starts the load and answers the module once it is there; the host renders again when it
 * arrives. One load per page, shared by every element; a failed load stays failed (browsers
 * keep a failed module import failed), and the views show what they can without it.
 */
import type { ReactiveControllerHost } from 'lit';
import { afterPaint } from './after-paint.js';

type Entry = { value?: unknown; failed?: boolean; promise: Promise<unknown> };
const loaded = new Map<string, Entry>();

export class LazyModule<T> {
  readonly #host: ReactiveControllerHost;
  readonly #name: string;
  readonly #load: () => Promise<T>;
  #waiting = false;
  #deferred = false;

  constructor(host: ReactiveControllerHost, name: string, load: () => Promise<T>) {
    this.#host = host;
    this.#name = name;
    this.#load = load;
  }

  /** The module if it has loaded; otherwise starts loading it (once) and answers undefined. */
  get(): T | undefined {
    let entry = loaded.get(this.#name);
    if (!entry) {
      const created: Entry = {
        promise: this.#load().then(
          (value) => {
            created.value = value;
          },
          () => {
            created.failed = true;
          },
        ),
      };
      entry = created;
      loaded.set(this.#name, entry);
    }
    if (entry.value === undefined && !entry.failed && !this.#waiting) {
      this.#waiting = true;
      void entry.promise.then(() => {
        this.#waiting = false;
        this.#host.requestUpdate();
      });
    }
    return entry.value as T | undefined;
  }

  /**
   * The module if it has loaded; otherwise starts loading it once the screen rendered now has
   * been painted (after-paint.ts), and answers undefined: for parts that may come a moment
   * after the first screen (the QR code, the lettermarks), so that their file and their work do
   * not delay it on a slow phone.
   */
  getAfterPaint(): T | undefined {
    const entry = loaded.get(this.#name);
    if (entry) return this.get();
    if (!this.#deferred) {
      this.#deferred = true;
      afterPaint(() => void this.get());
    }
    return undefined;
  }

  /** Settles once the load `get()` started has ended, either way. */
  settled(): Promise<void> {
    return (loaded.get(this.#name)?.promise ?? Promise.resolve()).then(() => undefined);
  }

  /** Whether the load failed (the network dropped the file): the views go on without it. */
  get failed(): boolean {
    return loaded.get(this.#name)?.failed === true;
  }
}
