import { assert } from '@open-wc/testing';
import type { CheckoutInvoice } from '../../src/schemas/checkout.js';
import { en } from '../../src/element/i18n/en.js';
import {
  changesOf,
  groupVariants,
  type InvoiceScreenModel,
  screen,
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
const noDeal = (overrides: Record<string, unknown> = {}) => invoiceOf({ deals: [], paymentMethod: null, paymentOption: null, ...overrides });

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
  clockOffset: 0,
  ...overrides,
});

/** The model of a screen about an invoice (fails the test for idle, loading and error). */
const shown = (session: SessionSnapshot, now = NOW): InvoiceScreenModel => {
  const model: ScreenModel = screen(session, now);
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
        explanation: undefined,
        deal: {
          amount: { field: 'amount', value: '1500.00', kind: 'card', copied: false, byHand: false },
          bank: 'Сбербанк',
          requisites: {
            text: '2202 2067 1234 5678',
            kind: 'card',
            copy: { field: 'requisites', value: '2202206712345678', kind: 'card', copied: false, byHand: false },
          },
          holder: 'Иван Петрович С.',
          link: 'https://qr.nspk.ru/AS1000670LSS7DN18SJQDNP4B05KLJL2?type=01&bank=100000000111',
        },
        variants: undefined,
        picker: undefined,
        connectionLost: false,
        remaining: 30 * MINUTE,
        cancel: { confirming: false, pending: false, checking: false, notice: undefined },
        changes: [],
      });
    });

    it('says "Copied" on the copied field only, and which field to copy by hand', () => {
      const copied = shown(snapshot({ copied: 'amount' })).deal!;
      assert.isTrue(copied.amount.copied);
      assert.isFalse(copied.requisites.copy.copied);
      const byHand = shown(snapshot({ copyByHand: 'requisites' })).deal!;
      assert.deepEqual([byHand.amount.byHand, byHand.requisites.copy.byHand], [false, true]);
      assert.deepEqual([byHand.amount.copied, byHand.requisites.copy.copied], [false, false]);
    });

    it('uses the bank code without a bank name, groups a phone number, and copies it raw', () => {
      const invoice = invoiceOf({
        deals: [exampleLookupDeal({ paymentMethodName: undefined, requisites: { requisites: '+79001234567', holder: null } })],
      });
      const deal = shown(snapshot({ invoice })).deal!;
      assert.equal(deal.bank, 'sberbank');
      assert.deepInclude(deal.requisites, { text: '+7 900 123-45-67', kind: 'phone' });
      assert.equal(deal.requisites.copy.value, '+79001234567');
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
          ['tinkoff', 1],
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
      const model = shown(snapshot({ invoice: invoiceOf({ expireAt: 'soon' }) }), NOW + 365 * 24 * 60 * MINUTE);
      assert.equal(model.screen, 'waiting');
      assert.isUndefined(model.remaining);
    });
  });

  describe('expired by the countdown', () => {
    for (const [what, session, now] of [
      ['at the deadline', snapshot(), NOW + 30 * MINUTE],
      ['after it', snapshot(), NOW + 31 * MINUTE],
      ['at once on a device whose clock is an hour slow', snapshot({ clockOffset: 60 * MINUTE }), NOW],
    ] as const) {
      it(`is expired ${what}, before the service says so`, () => {
        const model = shown(session, now);
        assert.equal(model.screen, 'expired');
        assert.equal(model.explanation, 'above');
        for (const key of ['deal', 'variants', 'picker', 'remaining', 'cancel'] as const) assert.isUndefined(model[key], key);
      });
    }

    it('but a final status from the service beats the local countdown', () => {
      assert.equal(shown(snapshot({ invoice: invoiceOf({ status: 'paid', deals: [] }) }), NOW + 60 * MINUTE).screen, 'paid');
    });

    it('expires the picker too', () => {
      assert.equal(shown(snapshot({ invoice: noDeal() }), NOW + 30 * MINUTE).screen, 'expired');
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
          { method: 'sberbank', bankName: 'sberbank', variants: [variants[0]!, variants[1]!] },
          { method: 'tinkoff', bankName: 'tinkoff', variants: [variants[2]!] },
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
      assert.equal(model.screen, 'other', status);
      assert.isUndefined(model.deal, status);
      assert.isUndefined(model.cancel, status);
    }
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
    assert.equal(model.deal?.requisites.copy.value, '2202206712345678');
    assert.equal(model.deal?.holder, 'Ivan');
    assert.equal(model.variants?.groups[0]?.bankName, 'Bank');
  });

  it('passes the changes on to every invoice screen', () => {
    const changes = [{ field: 'holder', previous: 'A', current: 'B' }] as const;
    assert.deepEqual(shown(snapshot({ changes })).changes, changes);
    assert.deepEqual(shown(snapshot({ changes, invoice: invoiceOf({ status: 'paid' }) })).changes, changes);
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
