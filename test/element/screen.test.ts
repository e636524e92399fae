import { assert } from '@open-wc/testing';
import type { CheckoutInvoice } from '../../src/schemas/checkout.js';
import { en } from '../../src/element/i18n/en.js';
import {
  changesOf,
  dealKey,
  groupVariants,
  type InvoiceScreenModel,
  screen,
  type ScreenEnvironment,
  type ScreenModel,
  type SessionSnapshot,
  statusLine,
  statusText,
} from '../../src/element/screen.js';
import { checkoutViewOf, exampleLookupDeal, exampleLookupInvoice, exampleVariants } from '../fixtures/dto.js';

const MINUTE = 60_000;
/** Half an hour before the example invoice's `expireAt`. */
const NOW = Date.parse('2026-11-22T10:00:00+03:00');

const invoiceOf = (overrides: Record<string, unknown> = {}, kind = 'card'): CheckoutInvoice =>
  checkoutViewOf(exampleLookupInvoice(overrides), kind) as CheckoutInvoice;
const noDeal = (overrides: Record<string, unknown> = {}) =>
  invoiceOf({ deals: [], paymentMethod: null, paymentOption: null, ...overrides });

const snapshot = (overrides: Partial<SessionSnapshot> = {}): SessionSnapshot => ({
  load: { state: 'done' },
  invoice: invoiceOf(),
  variants: 'loading',
  pendingVariant: undefined,
  dealNotice: undefined,
  copied: undefined,
  copyByHand: undefined,
  cancel: { confirming: false, pending: false, checking: false, notice: undefined },
  changes: [],
  connectionLost: false,
  offline: false,
  readAt: NOW,
  clockOffset: 0,
  payerConfirmed: undefined,
  showDetails: false,
  receipt: { state: 'closed' },
  report: { state: 'closed' },
  autoReturn: undefined,
  bankName: () => undefined,
  bankColor: () => undefined,
  bankPicker: false,
  ...overrides,
});

/** The model of a screen about an invoice (fails the test for idle, loading and error). */
const shown = (session: SessionSnapshot, now = NOW, env: ScreenEnvironment = {}): InvoiceScreenModel => {
  const model: ScreenModel = screen(session, now, env);
  if (model.screen === 'idle' || model.screen === 'loading' || model.screen === 'error') {
    assert.fail(`expected an invoice screen, got ${model.screen}`);
  }
  return model;
};

describe('screen()', () => {
  describe('before there is an invoice', () => {
    it('is idle without an invoice id', () => {
      assert.deepEqual(screen(snapshot({ load: { state: 'idle' }, invoice: undefined }), NOW), { screen: 'idle' });
    });

    it('is loading while the first read is on its way (or was aborted and will be made again)', () => {
      assert.deepEqual(screen(snapshot({ load: { state: 'loading' }, invoice: undefined }), NOW), { screen: 'loading' });
      assert.deepEqual(screen(snapshot({ invoice: undefined }), NOW), { screen: 'loading' }, 'done without an invoice');
    });

    it('is the error screen with the code of the failed read', () => {
      assert.deepEqual(screen(snapshot({ load: { state: 'failed', code: 'not_found' }, invoice: undefined }), NOW), {
        screen: 'error',
        code: 'not_found',
      });
    });

    it('is the error screen even when an invoice of an earlier read is known (a retry failed)', () => {
      assert.equal(screen(snapshot({ load: { state: 'failed', code: 'network_error' } }), NOW).screen, 'error');
    });
  });

  describe('waiting for the transfer', () => {
    it('shows everything a payer needs: amount, bank, requisites, holder, link, countdown, cancel', () => {
      const model = shown(snapshot());
      assert.deepEqual(model, {
        screen: 'waiting',
        payee: 'Demo Shop',
        status: { screen: 'waiting', raw: 'new', asWritten: false },
        sum: { amount: '1500.00', currency: 'RUB', subunit: 2 },
        asked: undefined,
        amountLabel: 'send',
        explanation: undefined,
        deal: {
          amount: { field: 'amount', value: '1500.00', kind: 'card', copied: false, byHand: false },
          bank: 'Сбербанк',
          bankCode: 'sberbank',
          requisites: {
            text: '2202 2067 1234 5678',
            kind: 'card',
            copy: { field: 'requisites', value: '2202206712345678', kind: 'card', copied: false, byHand: false },
            href: undefined,
            ifsc: undefined,
          },
          holder: 'Иван Петрович С.',
          link: 'https://qr.nspk.ru/AS1000670LSS7DN18SJQDNP4B05KLJL2?type=01&bank=100000000111',
          qr: { text: 'https://qr.nspk.ru/AS1000670LSS7DN18SJQDNP4B05KLJL2?type=01&bank=100000000111', image: false },
          sbpLink: undefined,
          bankLink: undefined,
          pickerOpen: false,
          crossBorder: undefined,
        },
        variants: undefined,
        picker: undefined,
        connectionLost: false,
        offline: false,
        remaining: 30 * MINUTE,
        cancel: { confirming: false, pending: false, checking: false, notice: undefined },
        changes: [],
        confirmOffered: true,
        checking: undefined,
        report: undefined,
        reference: undefined,
        returnTo: undefined,
      });
    });

    it('says "Copied" on the copied field only, and which field to copy by hand', () => {
      const copied = shown(snapshot({ copied: 'amount' })).deal!;
      assert.isTrue(copied.amount.copied);
      assert.isFalse(copied.requisites.copy!.copied);
      const byHand = shown(snapshot({ copyByHand: 'requisites' })).deal!;
      assert.deepEqual([byHand.amount.byHand, byHand.requisites.copy!.byHand], [false, true]);
      assert.deepEqual([byHand.amount.copied, byHand.requisites.copy!.copied], [false, false]);
    });

    it('names a bank without a name readably, groups a phone number, and copies it raw', () => {
      const invoice = invoiceOf(
        { deals: [exampleLookupDeal({ paymentMethodName: undefined, requisites: { requisites: '+79001234567', holder: null } })] },
        'phone',
      );
      const deal = shown(snapshot({ invoice })).deal!;
      assert.equal(deal.bank, 'Sberbank', 'never the raw code');
      assert.equal(shown(snapshot({ invoice, bankName: (code) => (code === 'sberbank' ? 'Сбер' : undefined) })).deal!.bank, 'Сбер');
      assert.deepInclude(deal.requisites, { text: '+7 (900) 123-45-67', kind: 'phone' });
      assert.equal(deal.requisites.copy!.value, '+79001234567');
      assert.equal(deal.amount.kind, 'phone', 'the announcement of a copied amount names the kind too');
      assert.equal(deal.holder, '');
    });

    it('offers no link but an https one', () => {
      for (const link of ['javascript:alert(1)', 'http://bank.example/pay', '/relative', null]) {
        const invoice = invoiceOf({ deals: [exampleLookupDeal({ qrCodeLink: link })] });
        assert.isUndefined(shown(snapshot({ invoice })).deal!.link, String(link));
      }
    });

    it('lists the variants once they are loaded, grouped by bank, the deal’s own current', () => {
      assert.isUndefined(shown(snapshot({ variants: 'loading' })).variants);
      assert.isUndefined(shown(snapshot({ variants: 'failed' })).variants);
      assert.isUndefined(shown(snapshot({ variants: [] })).variants);
      const { variants } = shown(snapshot({ variants: exampleVariants() }));
      assert.deepEqual(
        variants!.groups.map((group) => [group.bankName, group.variants.length]),
        [
          ['Сбербанк', 2],
          ['Tinkoff', 1],
        ],
      );
      assert.deepEqual(variants!.current, { option: 'TO_CARD', method: 'sberbank' });
    });

    it('passes the cancel state on: confirming, pending, checking after a failure, its notice', () => {
      const cancel = { confirming: true, pending: true, checking: false, notice: undefined };
      assert.deepEqual(shown(snapshot({ cancel })).cancel, cancel);
      const refused = { confirming: false, pending: false, checking: true, notice: 'refused' } as const;
      assert.deepEqual(shown(snapshot({ cancel: refused })).cancel, refused);
    });

    it('says the connection is lost', () => {
      assert.isTrue(shown(snapshot({ connectionLost: true })).connectionLost);
    });

    it('keeps the requisites of an active deal under a status unknown here, shown as written', () => {
      const model = shown(snapshot({ invoice: invoiceOf({ status: 'in_review' }) }));
      assert.equal(model.screen, 'waiting');
      assert.deepEqual(model.status, { screen: 'waiting', raw: 'in_review', asWritten: true });
    });

    it('counts down in the server’s time', () => {
      assert.equal(shown(snapshot(), NOW + 10 * MINUTE).remaining, 20 * MINUTE);
      assert.equal(shown(snapshot({ clockOffset: -10 * MINUTE })).remaining, 40 * MINUTE, 'a device clock 10 minutes fast');
      assert.equal(shown(snapshot({ clockOffset: 29 * MINUTE })).remaining, MINUTE, 'a device clock 29 minutes slow');
    });

    it('has no countdown for an expiry it cannot read', () => {
      const model = shown(
        snapshot({ invoice: invoiceOf({ expireAt: 'soon', deals: [exampleLookupDeal({ canceledAt: null })] }) }),
        NOW + 365 * 24 * 60 * MINUTE,
      );
      assert.equal(model.screen, 'waiting');
      assert.isUndefined(model.remaining);
    });
  });

  describe('expired by the countdown', () => {
    for (const [what, session, now] of [
      ['at the deadline', snapshot({ readAt: NOW + 30 * MINUTE }), NOW + 30 * MINUTE],
      ['after it', snapshot({ readAt: NOW + 30 * MINUTE + 1 }), NOW + 31 * MINUTE],
      ['at once on a device whose clock is an hour slow', snapshot({ clockOffset: 60 * MINUTE, readAt: NOW + 60 * MINUTE }), NOW],
    ] as const) {
      it(`is expired ${what} once a read since the deadline found it open, before the service says so`, () => {
        const model = shown(session, now);
        assert.equal(model.screen, 'expired');
        assert.equal(model.explanation, 'above');
        for (const key of ['deal', 'variants', 'picker', 'remaining', 'cancel'] as const) assert.isUndefined(model[key], key);
      });
    }

    it('never says expired before a read since the deadline: the invoice may have been paid in its last second', () => {
      assert.deepEqual(screen(snapshot(), NOW + 30 * MINUTE), { screen: 'loading' }, 'the read is on its way');
      assert.deepEqual(
        screen(snapshot({ readAt: NOW + 30 * MINUTE - 1 }), NOW + 31 * MINUTE),
        { screen: 'loading' },
        'a read sent just before does not count',
      );
      assert.deepEqual(
        screen(snapshot({ connectionLost: true }), NOW + 31 * MINUTE),
        { screen: 'error', code: 'network_error' },
        'the read failed',
      );
      assert.deepEqual(screen(snapshot({ offline: true }), NOW + 31 * MINUTE), { screen: 'error', code: 'network_error' }, 'offline');
    });

    it('reads at the deal’s deadline too, before it shows the deal’s requisites as a place to pay', () => {
      const invoice = invoiceOf({ deals: [exampleLookupDeal({ canceledAt: new Date(NOW + 10 * MINUTE).toISOString() })] });
      assert.deepEqual(screen(snapshot({ invoice }), NOW + 10 * MINUTE), { screen: 'loading' });
      assert.equal(
        shown(snapshot({ invoice, readAt: NOW + 10 * MINUTE }), NOW + 10 * MINUTE).screen,
        'waiting',
        'what the read says then is shown',
      );
    });

    it('but a final status from the service beats the local countdown, read or not', () => {
      assert.equal(shown(snapshot({ invoice: invoiceOf({ status: 'paid', deals: [] }) }), NOW + 60 * MINUTE).screen, 'paid');
    });

    it('expires the picker too', () => {
      assert.equal(shown(snapshot({ invoice: noDeal(), readAt: NOW + 30 * MINUTE }), NOW + 30 * MINUTE).screen, 'expired');
    });
  });

  describe('the picker', () => {
    it('is the screen of an open invoice without an active deal', () => {
      const model = shown(snapshot({ invoice: noDeal() }));
      assert.equal(model.screen, 'picker');
      assert.equal(model.remaining, 30 * MINUTE);
      for (const key of ['deal', 'variants', 'cancel', 'explanation'] as const) assert.isUndefined(model[key], key);
      assert.equal(shown(snapshot({ invoice: invoiceOf({ deals: [exampleLookupDeal({ isActive: false })] }) })).screen, 'picker');
    });

    it('waits for the variants, or offers a retry when they failed or there are none', () => {
      assert.deepEqual(shown(snapshot({ invoice: noDeal(), variants: 'loading' })).picker, { state: 'loading' });
      assert.deepEqual(shown(snapshot({ invoice: noDeal(), variants: 'failed' })).picker, { state: 'failed' });
      assert.deepEqual(shown(snapshot({ invoice: noDeal(), variants: [] })).picker, { state: 'failed' });
    });

    it('offers the variants grouped by bank, with the pending one and the last deal’s notice', () => {
      const variants = exampleVariants();
      const idle = shown(snapshot({ invoice: noDeal(), variants }));
      assert.deepEqual(idle.picker, {
        state: 'ready',
        groups: [
          { method: 'sberbank', bankName: 'Sberbank', variants: [variants[0]!, variants[1]!] },
          { method: 'tinkoff', bankName: 'Tinkoff', variants: [variants[2]!] },
        ],
        pending: undefined,
        notice: undefined,
      });
      const busy = shown(snapshot({ invoice: noDeal(), variants, pendingVariant: variants[2] })).picker;
      assert.include(busy, { state: 'ready', pending: variants[2] });
      for (const notice of ['unsupported', 'failed', 'no_requisites', 'not_allowed'] as const) {
        assert.include(shown(snapshot({ invoice: noDeal(), variants, dealNotice: notice })).picker, { notice });
      }
    });

    it('names a bank as an inactive deal of the invoice does', () => {
      const invoice = noDeal({ deals: [exampleLookupDeal({ isActive: false, status: 'canceled' })] });
      const picker = shown(snapshot({ invoice, variants: exampleVariants() })).picker;
      assert.equal(picker?.state === 'ready' ? picker.groups[0]?.bankName : undefined, 'Сбербанк');
    });
  });

  it('shows a pay-out as money on its way: the amount and an explanation, nothing to pay or pick', () => {
    const invoice = invoiceOf({ type: 'out', deals: [exampleLookupDeal({ type: 'out' })] });
    const model = shown(snapshot({ invoice, variants: exampleVariants(), connectionLost: true }));
    assert.equal(model.screen, 'payout');
    assert.equal(model.explanation, 'above');
    assert.isTrue(model.connectionLost);
    for (const key of ['deal', 'variants', 'picker', 'remaining', 'cancel'] as const) assert.isUndefined(model[key], key);
  });

  describe('final statuses', () => {
    for (const [status, name] of [
      ['paid', 'paid'],
      ['COMPLETED', 'paid'],
      ['canceled', 'canceled'],
      ['cancelled', 'canceled'],
      ['expired', 'expired'],
      ['timeout', 'expired'],
    ] as const) {
      it(`shows "${status}" as ${name}: the amount and an explanation, nothing else to do`, () => {
        const cancel = { confirming: true, pending: false, checking: false, notice: 'failed' } as const;
        const model = shown(snapshot({ invoice: invoiceOf({ status }), variants: exampleVariants(), cancel }));
        assert.equal(model.screen, name);
        assert.equal(model.explanation, 'above');
        assert.deepEqual(model.status, { screen: name, raw: status, asWritten: false });
        for (const key of ['deal', 'variants', 'picker', 'remaining', 'cancel'] as const) assert.isUndefined(model[key], key);
      });
    }

    it('drops the connection notice on paid and canceled only', () => {
      const lost = (status: string) => shown(snapshot({ invoice: invoiceOf({ status, deals: [] }), connectionLost: true })).connectionLost;
      assert.deepEqual(['paid', 'canceled', 'expired', 'dispute', 'new'].map(lost), [false, false, true, true, true]);
    });
  });

  it('shows an unknown status without an active deal as written, explained below the amount', () => {
    const model = shown(snapshot({ invoice: invoiceOf({ status: 'dispute_opened', deals: [] }) }));
    assert.equal(model.screen, 'other');
    assert.equal(model.explanation, 'below');
    assert.deepEqual(model.status, { screen: 'other', raw: 'dispute_opened', asWritten: true });
    assert.isUndefined(model.remaining);
    assert.isUndefined(model.picker);
  });

  it('never asks for the transfer again on a disputed invoice whose deal the service still shows active', () => {
    for (const status of ['dispute', 'Dispute']) {
      const model = shown(snapshot({ invoice: invoiceOf({ status }) }));
      assert.equal(model.screen, 'dispute', status);
      assert.isUndefined(model.deal, status);
      assert.isUndefined(model.cancel, status);
    }
  });

  describe('the payer’s journey', () => {
    const deal = () => activeDealOf(invoiceOf());
    const activeDealOf = (invoice: CheckoutInvoice) => invoice.deals.find((candidate) => candidate.isActive)!;

    it('counts down to the deal’s deadline when it comes before the invoice’s expiry', () => {
      const invoice = invoiceOf({ deals: [exampleLookupDeal({ canceledAt: '2026-11-22T10:15:00+03:00' })] });
      assert.equal(shown(snapshot({ invoice })).remaining, 15 * MINUTE);
      const later = invoiceOf({ deals: [exampleLookupDeal({ canceledAt: '2026-11-22T11:15:00+03:00' })] });
      assert.equal(shown(snapshot({ invoice: later })).remaining, 30 * MINUTE, 'the invoice’s expiry when it is earlier');
    });

    it('after "I have paid": the check, how long it may take, the receipt, no cancel, no second "I have paid"', () => {
      const model = shown(snapshot({ payerConfirmed: dealKey(deal()) }), NOW + 10 * MINUTE);
      assert.equal(model.screen, 'checking');
      assert.equal(model.amountLabel, 'sum', 'no longer an amount to send');
      assert.deepEqual(model.status, { screen: 'checking', raw: 'new', asWritten: false }, 'the status line says the check');
      assert.deepEqual(model.checking, { minutes: 20, transferConfirmed: false, receipts: 'optional', receipt: { state: 'closed' } });
      assert.isUndefined(model.cancel);
      assert.isFalse(model.confirmOffered);
      assert.isUndefined(model.variants);
      assert.equal(model.deal?.bank, 'Сбербанк');
    });

    it('goes back to the details when the payer asks, without forgetting the confirmation', () => {
      const model = shown(snapshot({ payerConfirmed: dealKey(deal()), showDetails: true }));
      assert.equal(model.screen, 'waiting');
      assert.isUndefined(model.cancel, 'a payer who said they paid is not offered a cancel');
    });

    it('follows the proxy’s receipt policy, optional when it says nothing', () => {
      for (const receipts of ['off', 'optional', 'required'] as const) {
        const invoice = { ...invoiceOf(), receipts };
        assert.equal(shown(snapshot({ invoice, payerConfirmed: dealKey(deal()) })).checking?.receipts, receipts);
      }
    });

    it('shows a deal the service has as transfer_confirmed as checked with its receipt, whoever pressed what', () => {
      const invoice = invoiceOf({ deals: [exampleLookupDeal({ status: 'transfer_confirmed' })] });
      const model = shown(snapshot({ invoice }));
      assert.equal(model.screen, 'checking');
      assert.isTrue(model.checking?.transferConfirmed);
    });

    it('a "I have paid" of another deal does not count', () => {
      assert.equal(shown(snapshot({ payerConfirmed: 'another-deal' })).screen, 'waiting');
    });

    it('offers to report the payment when the deal the payer paid ended unconfirmed', () => {
      const paidDeal = exampleLookupDeal({ isActive: false, status: 'expired' });
      const invoice = noDeal({ deals: [paidDeal] });
      const key = dealKey(invoice.deals[0]!);
      const model = shown(snapshot({ invoice, payerConfirmed: key, variants: exampleVariants() }));
      assert.equal(model.screen, 'picker');
      assert.deepInclude(model.report, { prompt: 'confirmed', state: 'closed' });
      assert.equal(model.reference?.value, invoice.internalId ?? invoice.id);
      const completed = noDeal({ deals: [exampleLookupDeal({ isActive: false, status: 'completed' })] });
      assert.isUndefined(shown(snapshot({ invoice: completed, payerConfirmed: key })).report, 'a completed deal was paid');
    });

    it('asks any payer on the expired screen whether they have already paid, and shows the number to quote', () => {
      const model = shown(snapshot({ invoice: invoiceOf({ status: 'expired' }) }));
      assert.deepInclude(model.report, { prompt: 'maybe' });
      assert.deepInclude(model.reference, { field: 'reference', value: invoiceOf().internalId! });
      assert.equal(model.amountLabel, 'sum');
    });

    it('stops offering the report once it became a dispute, and says a kept report is with the shop', () => {
      const invoice = invoiceOf({ status: 'expired' });
      assert.isUndefined(shown(snapshot({ invoice, report: { state: 'done', outcome: 'forwarded' } })).report);
      assert.deepInclude(shown(snapshot({ invoice, report: { state: 'done', outcome: 'reported' } })).report, { state: 'done' });
      assert.deepInclude(shown(snapshot({ invoice, report: { state: 'failed', code: 'dispute_exists' } })).report, {
        code: 'dispute_exists',
      });
    });

    it('has a dispute screen of its own, with the number to quote and nothing to pay', () => {
      const model = shown(snapshot({ invoice: invoiceOf({ status: 'dispute' }) }));
      assert.equal(model.screen, 'dispute');
      assert.equal(model.explanation, 'above');
      assert.isDefined(model.reference);
      for (const key of ['deal', 'cancel', 'remaining', 'returnTo', 'report'] as const) assert.isUndefined(model[key], key);
    });

    it('says "Amount paid" on the paid screen', () => {
      assert.equal(shown(snapshot({ invoice: invoiceOf({ status: 'paid' }) })).amountLabel, 'paid');
    });
  });

  describe('back to the shop', () => {
    const env = { returnUrl: '/thanks', cancelUrl: 'https://shop.example/cart', baseUrl: 'https://shop.example/pay/1' };

    it('leads to the invoice’s own URLs first, then to the attributes', () => {
      const own = { ...invoiceOf({ status: 'paid' }), successUrl: 'https://shop.example/ok', cancelUrl: 'https://shop.example/no' };
      assert.deepEqual(shown(snapshot({ invoice: own }), NOW, env).returnTo, {
        url: 'https://shop.example/ok',
        kind: 'success',
        autoIn: undefined,
      });
      const paid = { ...invoiceOf({ status: 'paid' }), successUrl: null };
      assert.equal(shown(snapshot({ invoice: paid }), NOW, env).returnTo?.url, 'https://shop.example/thanks');
      for (const status of ['canceled', 'expired']) {
        const model = shown(snapshot({ invoice: { ...invoiceOf({ status }), cancelUrl: null } }), NOW, env);
        assert.deepEqual(model.returnTo, { url: 'https://shop.example/cart', kind: 'cancel', autoIn: undefined }, status);
      }
      const fallback = shown(snapshot({ invoice: invoiceOf({ status: 'canceled' }) }), NOW, { returnUrl: 'https://shop.example/' });
      assert.equal(fallback.returnTo?.url, 'https://shop.example/', 'cancel-url falls back to return-url');
    });

    it('offers no way back while paying, and none to an unsafe URL', () => {
      assert.isUndefined(shown(snapshot(), NOW, env).returnTo);
      const unsafe = { ...invoiceOf({ status: 'paid' }), successUrl: 'javascript:alert(1)' };
      assert.isUndefined(shown(snapshot({ invoice: unsafe }), NOW, { returnUrl: 'data:text/html,x' }).returnTo);
    });

    it('counts the automatic return down on paid, and not once the payer stays', () => {
      const invoice = { ...invoiceOf({ status: 'paid' }), successUrl: 'https://shop.example/ok' };
      assert.equal(shown(snapshot({ invoice, autoReturn: NOW + 5000 }), NOW + 1200).returnTo?.autoIn, 4);
      assert.equal(shown(snapshot({ invoice, autoReturn: NOW + 5000 }), NOW + 6000).returnTo?.autoIn, 0);
      assert.isUndefined(shown(snapshot({ invoice, autoReturn: 'stopped' })).returnTo?.autoIn);
    });
  });

  describe('requisites by kind', () => {
    /** A deal whose requisites kind the proxy computed as `kind`. */
    const withRequisites = (requisites: string, paymentOption: string, more: Record<string, unknown> = {}, kind = 'card') =>
      invoiceOf({ deals: [exampleLookupDeal({ requisites: { requisites, holder: null }, paymentOption, ...more })] }, kind);

    it('makes a payment page a link to open, never text to copy', () => {
      const deal = shown(snapshot({ invoice: withRequisites('https://pay.bank.example/p/42', 'TO_BANK_DETAILS', {}, 'url') })).deal!;
      assert.deepInclude(deal.requisites, { kind: 'url', href: 'https://pay.bank.example/p/42', copy: undefined });
      const unsafe = shown(snapshot({ invoice: withRequisites('http://pay.bank.example/p/42', 'TO_BANK_DETAILS', {}, 'url') })).deal!;
      assert.isUndefined(unsafe.requisites.href, 'only https');
    });

    it('draws the QR data of a QR option when the deal has no link, with nothing to copy', () => {
      const deal = shown(snapshot({ invoice: withRequisites('ST00012|Name=ООО Ромашка', 'SBP_QR', { qrCodeLink: null }, 'qr') })).deal!;
      assert.deepEqual(deal.qr, { text: 'ST00012|Name=ООО Ромашка', image: false });
      assert.isUndefined(deal.requisites.copy);
    });

    it('draws QR data itself even when the service links its own picture, and shows the picture only without data', () => {
      const both = withRequisites(
        'https://qr.nspk.ru/AS1A42?type=02',
        'SBP_QR',
        { qrCodeLink: 'https://service.example/api/public/invoices/1/qr-code' },
        'qr',
      );
      assert.deepEqual(shown(snapshot({ invoice: both })).deal!.qr, { text: 'https://qr.nspk.ru/AS1A42?type=02', image: false });
      assert.equal(
        shown(snapshot({ invoice: both }), NOW, { touch: true }).deal!.sbpLink,
        'https://qr.nspk.ru/AS1A42?type=02',
        'its SBP link opens bank apps',
      );
      const image = withRequisites('', 'CLICK_UZ_QR', { qrCodeLink: 'https://cdn.service.example/qr/42.png' }, 'qr');
      assert.deepEqual(shown(snapshot({ invoice: image })).deal!.qr, { text: 'https://cdn.service.example/qr/42.png', image: true });
    });

    it('offers the SBP bank picker for an SBP link on a touch device only', () => {
      assert.equal(shown(snapshot(), NOW, { touch: true }).deal!.sbpLink, invoiceOf().deals[0]!.qrCodeLink);
      assert.isUndefined(shown(snapshot(), NOW, { touch: false }).deal!.sbpLink);
      const other = invoiceOf({ deals: [exampleLookupDeal({ qrCodeLink: 'https://bank.example/pay/1' })] });
      assert.isUndefined(shown(snapshot({ invoice: other }), NOW, { touch: true }).deal!.sbpLink);
    });

    it('copies an Indian account and its IFSC apart, each with its own button', () => {
      const invoice = withRequisites('50100248163579 IFSC HDFC0001234', 'IMPS', {}, 'imps');
      const { requisites } = shown(snapshot({ invoice, copied: 'ifsc' })).deal!;
      assert.deepEqual(requisites, {
        text: '5010 0248 1635 79',
        kind: 'imps',
        copy: { field: 'requisites', value: '50100248163579', kind: 'imps', copied: false, byHand: false },
        href: undefined,
        ifsc: { field: 'ifsc', value: 'HDFC0001234', kind: 'imps', copied: true, byHand: false },
      });
    });

    it('makes a Telegram bot its name to copy and a link to open', () => {
      const invoice = withRequisites('https://t.me/SamovarPayBot?start=inv_42', 'TG_BOT', {}, 'telegram');
      assert.deepInclude(shown(snapshot({ invoice })).deal!.requisites, {
        text: '@SamovarPayBot',
        kind: 'telegram',
        href: 'https://t.me/SamovarPayBot?start=inv_42',
      });
      const app = withRequisites('tg://resolve?domain=SamovarPayBot', 'TG_BOT', {}, 'telegram');
      assert.isUndefined(shown(snapshot({ invoice: app })).deal!.requisites.href, 'only an https link opens');
    });

    it('shows the service’s picture of a QR code as a picture, with nothing to copy', () => {
      const invoice = withRequisites('https://service.example/qr/7f3a.png', 'VIET_QR', { qrCodeLink: null }, 'qr-image');
      const deal = shown(snapshot({ invoice })).deal!;
      assert.deepEqual(deal.qr, { text: 'https://service.example/qr/7f3a.png', image: true });
      assert.isUndefined(deal.requisites.copy);
      const unsafe = withRequisites('javascript:alert(1)//.png', 'VIET_QR', { qrCodeLink: null }, 'qr-image');
      assert.isUndefined(shown(snapshot({ invoice: unsafe })).deal!.qr, 'only an https picture');
    });

    it('works out the kind itself when the proxy sends one this element does not know', () => {
      const invoice = withRequisites('0000003100012345678901', 'CVU', {}, 'iban');
      assert.deepInclude(shown(snapshot({ invoice })).deal!.requisites, { kind: 'cvu', text: '00000031 00012345678901' });
    });

    it('marks a cross-border deal with the currency to send and the card’s country', () => {
      const invoice = { ...withRequisites('2202206712345678', 'CROSS_BORDER'), crossBorderCurrency: 'tjs' };
      assert.deepEqual(shown(snapshot({ invoice })).deal!.crossBorder, { currency: 'TJS', country: 'TJ' });
      const unknown = withRequisites('2202206712345678', 'CROSS_BORDER');
      assert.deepEqual(shown(snapshot({ invoice: unknown })).deal!.crossBorder, { currency: undefined, country: undefined });
      assert.isUndefined(shown(snapshot()).deal!.crossBorder);
    });
  });

  it('has no payee line for a shop without a name', () => {
    assert.isUndefined(shown(snapshot({ invoice: invoiceOf({ storeName: '' }) })).payee);
  });

  it('is a pure function of its input', () => {
    const session = snapshot({ variants: exampleVariants(), copied: 'requisites' });
    const frozen = JSON.stringify(session);
    assert.deepEqual(screen(session, NOW), screen(session, NOW));
    assert.equal(JSON.stringify(session), frozen, 'the snapshot is not touched');
  });
});

describe('text from the service on screen', () => {
  it('has no bidi controls: status, payee, bank, requisites (shown and copied), holder, bank names of variants', () => {
    const rlo = '\u202e';
    const invoice = invoiceOf({
      status: `${rlo}dispute_opened\u202c`,
      storeName: `\u2067Shop${rlo}`,
      deals: [
        exampleLookupDeal({
          paymentMethodName: `${rlo}Bank`,
          requisites: { requisites: `${rlo}2202206712345678\u200e`, holder: `\u2066Ivan${rlo}` },
        }),
      ],
    });
    const model = shown(snapshot({ invoice, variants: exampleVariants() }));
    assert.equal(model.status.raw, 'dispute_opened');
    assert.equal(model.payee, 'Shop');
    assert.equal(model.deal?.bank, 'Bank');
    assert.equal(model.deal?.requisites.text, '2202 2067 1234 5678');
    assert.equal(model.deal?.requisites.copy?.value, '2202206712345678');
    assert.equal(model.deal?.holder, 'Ivan');
    assert.equal(model.variants?.groups[0]?.bankName, 'Bank');
  });

  it('passes the changes on to every invoice screen', () => {
    const changes = [{ field: 'holder', previous: 'A', current: 'B' }] as const;
    assert.deepEqual(shown(snapshot({ changes })).changes, changes);
    assert.deepEqual(shown(snapshot({ changes, invoice: invoiceOf({ status: 'paid' }) })).changes, changes);
  });
});

describe('the amount to send and the amount settled', () => {
  const RUB = (amount: string) => ({ amount, currency: 'RUB', subunit: 2 });

  it("a unique amount (amountDue) is the one shown and copied while open, with the order's amount beside it", () => {
    const invoice = { ...invoiceOf(), amountDue: RUB('1503.17') };
    const waiting = shown(snapshot({ invoice }));
    assert.deepEqual([waiting.sum, waiting.asked, waiting.deal?.amount.value], [RUB('1503.17'), RUB('1500.00'), '1503.17']);
    const checking = shown(snapshot({ invoice, payerConfirmed: invoice.deals[0]!.id }));
    assert.deepEqual([checking.screen, checking.sum], ['checking', RUB('1503.17')]);
    const same = shown(snapshot({ invoice: { ...invoiceOf(), amountDue: RUB('1500.00') } }));
    assert.deepEqual([same.sum, same.asked], [RUB('1500.00'), undefined], 'the same amount: nothing beside it');
    assert.deepEqual(shown(snapshot()).asked, undefined, 'no amountDue (an older proxy): sum');
  });

  it('once paid, the amount the service settled, beside what was asked when they differ', () => {
    const paid = shown(snapshot({ invoice: { ...invoiceOf({ status: 'paid' }), amountPaid: RUB('1400.00') } }));
    assert.deepEqual([paid.screen, paid.sum, paid.asked, paid.amountLabel], ['paid', RUB('1400.00'), RUB('1500.00'), 'paid']);
    const whole = shown(snapshot({ invoice: { ...invoiceOf({ status: 'paid' }), amountPaid: RUB('1500.00') } }));
    assert.equal(whole.asked, undefined);
  });

  it('a changed amount to send is announced as a change', () => {
    assert.deepEqual(changesOf({ ...invoiceOf(), amountDue: RUB('1503.17') }, { ...invoiceOf(), amountDue: RUB('1504.00') }), [
      { field: 'amount', previous: RUB('1503.17'), current: RUB('1504.00') },
    ]);
  });
});

describe('changesOf()', () => {
  const RUB = (amount: string) => ({ amount, currency: 'RUB', subunit: 2 });
  const withDeal = (requisites: string, holder: string, overrides: Record<string, unknown> = {}) =>
    invoiceOf({ deals: [exampleLookupDeal({ requisites: { requisites, holder } })], ...overrides });

  it('finds nothing when nothing the payer sees changed (status and the rest may change)', () => {
    assert.deepEqual(changesOf(invoiceOf(), invoiceOf({ status: 'paid', updatedAt: '2026-11-22T10:05:00+03:00' })), []);
    const hidden = withDeal('\u202a2202206712345678\u202c', 'A');
    assert.deepEqual(changesOf(withDeal('2202206712345678', 'A'), hidden), [], 'only controls differ');
  });

  it('finds a new amount or currency', () => {
    assert.deepEqual(changesOf(invoiceOf(), invoiceOf({ sum: RUB('1750.00') })), [
      { field: 'amount', previous: RUB('1500.00'), current: RUB('1750.00') },
    ]);
    const usd = { amount: '1500.00', currency: 'USD', subunit: 2 };
    assert.deepEqual(changesOf(invoiceOf(), invoiceOf({ sum: usd })), [{ field: 'amount', previous: RUB('1500.00'), current: usd }]);
  });

  it('finds new requisites and holder of the deal on screen, without controls', () => {
    assert.deepEqual(changesOf(withDeal('2202206712345678', 'A'), withDeal('\u202e2202206799990000', 'B')), [
      { field: 'requisites', previous: '2202206712345678', current: '2202206799990000' },
      { field: 'holder', previous: 'A', current: 'B' },
    ]);
  });

  it('finds no requisites change when a deal starts where there was none, or ends', () => {
    assert.deepEqual(changesOf(noDeal(), withDeal('2202206799990000', 'B')), []);
    assert.deepEqual(changesOf(withDeal('2202206799990000', 'B'), noDeal()), []);
  });

  it('takes the service’s isSumChanged on the first read only', () => {
    const flagged = { ...invoiceOf(), isSumChanged: true };
    assert.deepEqual(changesOf(undefined, flagged), [{ field: 'amount', previous: undefined, current: RUB('1500.00') }]);
    assert.deepEqual(changesOf(undefined, invoiceOf()), []);
    assert.deepEqual(changesOf(invoiceOf(), flagged), []);
  });
});

describe('statusText()', () => {
  it('words a known status for its screen, and shows an unknown one as written', () => {
    assert.equal(statusText(statusLine(invoiceOf()), en), en.status('waiting', 'new'));
    assert.equal(statusText(statusLine(invoiceOf({ status: 'PAID' })), en), en.status('paid', 'PAID'));
    assert.equal(statusText(statusLine(invoiceOf({ status: 'dispute_opened' })), en), 'dispute_opened');
  });
});

describe('groupVariants()', () => {
  it('groups by bank in the order the service listed them', () => {
    const groups = groupVariants(
      [
        { option: 'SBP', method: 'alfa' },
        { option: 'TO_CARD', method: 'tinkoff' },
        { option: 'TO_CARD', method: 'alfa' },
      ],
      (method) => method.toUpperCase(),
    );
    assert.deepEqual(
      groups.map((group) => [group.bankName, group.variants.map((variant) => variant.option)]),
      [
        ['ALFA', ['SBP', 'TO_CARD']],
        ['TINKOFF', ['TO_CARD']],
      ],
    );
  });
});
