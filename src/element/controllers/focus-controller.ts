import type { ReactiveController, ReactiveControllerHost } from 'lit';

/** The element as the focus controller sees it. */
export type FocusHost = ReactiveControllerHost & { readonly renderRoot: ParentNode; readonly shadowRoot: ShadowRoot | null };

/**
 * Where focus goes after an update: where an action asked (`after`: the cancel button after
 * "keep paying", a form's first field), else the new screen's heading when the screen changed
 * under the payer's focus; never taken from the page when focus was outside the element. The
 * screen is read from part `base`'s `data-screen`.
 */
export class FocusController implements ReactiveController {
  readonly #host: FocusHost;
  /** The screen the update before rendered. */
  #screen: string | undefined;
  #wasInside = false;
  #asked: string | undefined;

  constructor(host: FocusHost) {
    this.#host = host;
    host.addController(this);
  }

  /** Focuses the node of `selector` after the next update (or when it arrives, loaded on demand). */
  after(selector: string): void {
    this.#asked = selector;
  }

  hostUpdate(): void {
    this.#wasInside = this.#host.shadowRoot?.activeElement != null;
  }

  hostUpdated(): void {
    const root = this.#host.renderRoot;
    const screen = root.querySelector('[part~="base"]')?.getAttribute('data-screen') ?? undefined;
    const asked = this.#asked;
    this.#asked = undefined;
    const changed = this.#screen !== undefined && screen !== this.#screen;
    const target = asked ?? (changed && this.#wasInside ? '[part~="title"]' : undefined);
    this.#screen = screen;
    const node = target ? root.querySelector<HTMLElement>(target) : null;
    node?.focus();
    // A part that loads on demand (a form, the bank picker) is not there yet: focus it when it
    // arrives, unless the screen changes first.
    if (asked && !node && !changed) this.#asked = asked;
  }
}
