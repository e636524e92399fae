/**
 * The parts of a screen that load on demand, wired to the session: the QR encoder, the receipt
 * and report forms, the bank picker, the lettermarks. The element's LazyPartsController holds
 * their modules and the picker's state; this wiring comes with the views (the lazy `views`
 * chunk), as no invoice screen draws before they are here.
 */
import { html, nothing } from 'lit';
import type { LazyPartsController } from './controllers/lazy-parts-controller.js';
import { type Translation, withStrings } from './i18n/translation.js';
import type { InvoiceScreenModel, ScreenModel } from './screen-model.js';
import type { InvoiceSession } from './session/invoice-session.js';
import type { ScreenActions, ScreenContext } from './view-context.js';

/** The lazy parts and the bank marks of a screen: `model` in the strings `t` and the `Intl` locale `locale`. */
export const lazyContext = (
  lazy: LazyPartsController,
  model: ScreenModel,
  t: Translation,
  locale: string,
  session: InvoiceSession,
  actions: ScreenActions,
): Pick<ScreenContext, 'lazy' | 'bankMark'> => {
  const { host } = lazy;
  const invoiceModel = model as Partial<InvoiceScreenModel>;
  const localize = <T extends object>(base: T): T => withStrings(base, host.strings);
  // Fetched as soon as a screen may need them, not on the click.
  const forms = invoiceModel.checking || invoiceModel.report ? lazy.forms() : undefined;
  if (forms) lazy.adoptStyles(forms.formStyles);
  const loading = html`<p class="notice" role="status">${t.loading}</p>`;
  const drawn = forms?.formParts({
    t,
    locale,
    localize,
    forms: session.forms,
    invoice: session.snapshot.invoice,
    close: (form) => (form === 'receipt' ? actions.receiptForm(false) : actions.reportForm(false)),
  });
  const { bankColor } = session.snapshot;
  return {
    lazy: {
      qr: invoiceModel.deal?.qr ? lazy.qr() : undefined,
      receiptForm: () => drawn?.receiptForm() ?? loading,
      reportForm: () => drawn?.reportForm() ?? loading,
      bankPicker: (link) => {
        const modules = lazy.picker();
        if (!modules) return loading;
        const [view, sbp] = modules;
        lazy.adoptStyles(view.pickerStyles);
        return view.pickerPart({
          localize,
          lang: t.language,
          link,
          banks: host.banks,
          members: lazy.memberList(sbp),
          query: lazy.query,
          logoTemplate: host.bankLogos || undefined,
          onQuery: (query) => {
            lazy.query = query;
            host.requestUpdate();
          },
          onClose: () => actions.bankPicker(false),
        });
      },
    },
    // A bank's lettermark on its colour, or the merchant's logo: nothing until their module is here.
    bankMark: (code, name) => {
      const marks = lazy.marks();
      return marks ? marks.bankLogo(marks.logoUrl(host.bankLogos || undefined, code), name, bankColor(code)) : nothing;
    },
  };
};
