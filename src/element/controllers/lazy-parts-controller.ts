/**
 * The parts of the invoice screens that load on demand, for one element: the QR encoder, the
 * receipt and report forms, the lettermarks and logos of banks, and the SBP bank picker with
 * the merchant's bank list (`sbp-banks`, fetched once per value). Each is drawn once its module
 * is here (a short placeholder until then); their styles are adopted into the shadow root when
 * they arrive. The modules are only types here: they come with `import()` (LazyModule). What
 * draws them with the screen's state is view-parts.ts, in the lazy `views` chunk.
 */
import type { CSSResult, ReactiveControllerHost } from 'lit';
import type * as DirectoryModule from '../banks/directory.js';
import type { BankEntry } from '../banks/directory.js';
import type * as LettermarkModule from '../banks/lettermark.js';
import type * as PickerViewModule from '../banks/picker-view.js';
import type * as SbpModule from '../banks/sbp.js';
import type * as FormsModule from '../journey/forms.js';
import { fetchText } from '../protocol-client.js';
import type { QrModule } from '../qr.js';
import type { BankOverrides } from '../session/bank-names.js';
import { LazyModule } from './lazy-module.js';

export type Forms = typeof FormsModule;
export type PickerModules = [typeof PickerViewModule, typeof SbpModule, typeof DirectoryModule];

/** What the parts read of the element: its render root and the properties they follow. */
export interface LazyPartsHost extends ReactiveControllerHost {
  readonly renderRoot: HTMLElement | DocumentFragment;
  readonly strings: object | undefined;
  readonly banks: BankOverrides | undefined;
  readonly sbpBanks: string | object | undefined;
  readonly bankLogos: string;
}

export class LazyPartsController {
  /** The element, whose properties the parts follow. */
  readonly host: LazyPartsHost;
  readonly #qr: LazyModule<QrModule>;
  readonly #forms: LazyModule<Forms>;
  /** Lettermarks and logos of banks. */
  readonly #marks: LazyModule<typeof LettermarkModule>;
  readonly #picker: LazyModule<PickerModules>;
  /** The styles of parts loaded on demand this shadow root has adopted. */
  readonly #adopted = new Set<CSSResult>();
  /** What the payer typed in the bank picker's search. */
  query = '';
  /** The merchant's bank list (`sbp-banks`) once read, for the value it was read from; the directory until then or when it fails. */
  #members: { source: unknown; list: readonly BankEntry[] | undefined } | undefined;

  constructor(host: LazyPartsHost) {
    this.host = host;
    this.#qr = new LazyModule<QrModule>(host, 'qr', () => import('../qr-matrix.js'));
    this.#forms = new LazyModule<Forms>(host, 'forms', () => import('../journey/forms.js'));
    this.#marks = new LazyModule<typeof LettermarkModule>(host, 'lettermark', () => import('../banks/lettermark.js'));
    this.#picker = new LazyModule<PickerModules>(host, 'picker', () =>
      Promise.all([import('../banks/picker-view.js'), import('../banks/sbp.js'), import('../banks/directory.js')]),
    );
  }

  /** The bank picker opened or closed: its search starts empty. */
  clearSearch(): void {
    this.query = '';
  }

  /**
   * Adds the styles of a part loaded on demand to the shadow root, once: adopted after the
   * element's own, or as a `<style>` where the browser cannot adopt sheets (Safari before
   * 16.4), carrying the page's `window.litNonce` as Lit's own `<style>` elements do, so a
   * strict `style-src` lets it apply (docs/element.md, "Older browsers").
   */
  adoptStyles(sheet: CSSResult): void {
    const root = this.host.renderRoot;
    if (!(root instanceof ShadowRoot) || this.#adopted.has(sheet)) return;
    this.#adopted.add(sheet);
    const css = sheet.styleSheet;
    if (css) {
      root.adoptedStyleSheets = [...root.adoptedStyleSheets, css];
      return;
    }
    const style = document.createElement('style');
    const nonce = (globalThis as { litNonce?: unknown }).litNonce;
    if (typeof nonce === 'string') style.setAttribute('nonce', nonce);
    style.textContent = sheet.cssText;
    root.append(style);
  }

  /**
   * The QR encoder, or undefined while it loads; it starts loading once the screen that first
   * asks for it has been painted, so the requisites are on screen before its file and its work.
   */
  qr(): QrModule | undefined {
    return this.#qr.getAfterPaint();
  }

  /** The receipt and report forms. */
  forms(): Forms | undefined {
    return this.#forms.get();
  }

  /** Lettermarks and logos of banks (loaded after the first screen that shows one has been painted). */
  marks(): typeof LettermarkModule | undefined {
    return this.#marks.getAfterPaint();
  }

  /** The SBP bank picker's modules. */
  picker(): PickerModules | undefined {
    return this.#picker.get();
  }

  /** The merchant's SBP bank list (`sbp-banks`), read once per value; undefined while it loads, when it failed, or without one. */
  memberList(sbp: PickerModules[1]): readonly BankEntry[] | undefined {
    const source = this.host.sbpBanks;
    if (source === undefined || source === '') return undefined;
    if (this.#members?.source !== source) {
      const entry: { source: unknown; list: readonly BankEntry[] | undefined } = { source, list: undefined };
      this.#members = entry;
      sbp.loadSbpMembers(source, fetchText, { base: document.baseURI }).then(
        (list) => {
          entry.list = list;
          this.host.requestUpdate();
        },
        () => undefined, // the bundled directory stays
      );
    }
    return this.#members.list;
  }
}
