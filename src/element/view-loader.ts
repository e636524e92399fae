/**
 * The screens' templates (views.ts) and their model (`screen()` of screen.ts) load on demand,
 * with the payer's language: an invoice screen needs its strings as much as its templates, so
 * they come at once and the first-render file carries none of them. Until then the element
 * shows the loading skeleton, which is here.
 */
import { type CSSResult, html, type TemplateResult } from 'lit';
import type * as ViewsModule from './views.js';
import type { InvoiceScreenModel } from './screen-model.js';
import type { ScreenContext } from './view-context.js';

let views: typeof ViewsModule | undefined;

/** Loads views.ts (once a page); the element waits for it with the language's strings. */
export const loadViews = (): Promise<void> =>
  import('./views.js').then((module) => {
    views = module;
  });

/** The loading screen's stand-in shapes. */
export const skeleton = (label: string): TemplateResult => html`
  <div part="skeleton" class="skeleton">
    <h2 part="title" class="sr-only" tabindex="-1">${label}</h2>
    <div class="bar short"></div>
    <div class="bar wide"></div>
    <div class="bar"></div>
    <div class="bar"></div>
  </div>
`;

/** The screens' styles (screen.styles.ts), which come with the templates. */
export const screenStyles = (): CSSResult => views!.screenStyles;

// Called only once the strings are here, and so the views (the element loads them together).
export const screenModel = (...input: Parameters<typeof ViewsModule.screen>): ReturnType<typeof ViewsModule.screen> =>
  views!.screen(...input);
export const invoiceScreen = (model: InvoiceScreenModel, context: ScreenContext): TemplateResult => views!.invoiceScreen(model, context);
export const errorScreen = (code: string, context: ScreenContext): TemplateResult => views!.errorScreen(code, context);
export const lazyContext = (...input: Parameters<typeof ViewsModule.lazyContext>): ReturnType<typeof ViewsModule.lazyContext> =>
  views!.lazyContext(...input);
