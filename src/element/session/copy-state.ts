import { copyText } from '../copy.js';
import type { CopyField } from '../screen-model.js';

/** How long a copy button says "Copied". */
const COPIED_FOR = 2000;

/**
 * The copy buttons of one session: which field says "Copied" for now, and which one the
 * clipboard refused (its text is selected for copying by hand).
 */
export class CopyState {
  readonly #update: () => void;
  #copied: CopyField | undefined;
  #byHand: CopyField | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(update: () => void) {
    this.#update = update;
  }

  get copied(): CopyField | undefined {
    return this.#copied;
  }

  get byHand(): CopyField | undefined {
    return this.#byHand;
  }

  /**
   * Copies `value`; where the clipboard refuses, `fallback`'s text is selected. `copied` is
   * called once it is, in the same turn (its event follows the click as closely as it can);
   * nothing after `work` ended.
   */
  async copy(field: CopyField, value: string, fallback: Node | null, work: AbortSignal, copied: () => void): Promise<void> {
    const outcome = await copyText(value, fallback);
    if (work.aborted) return;
    this.#byHand = outcome === 'copied' ? undefined : field;
    if (outcome === 'copied') {
      this.#copied = field;
      clearTimeout(this.#timer);
      this.#timer = setTimeout(() => {
        this.#copied = undefined;
        this.#update();
      }, COPIED_FOR);
      copied();
    }
    this.#update();
  }

  /** The session ended or left the page: no "Copied" left behind. */
  clear(): void {
    clearTimeout(this.#timer);
    this.#copied = undefined;
  }
}
