import { assert } from '@open-wc/testing';
import { formatDecimal, formatDuration, formatMoney, formatRequisites, plainText } from '../../src/element/format.js';
import {
  announcementStep,
  clockOffset,
  DEFAULT_POLL_INTERVAL,
  MAX_BACKOFF,
  MIN_POLL_INTERVAL,
  nextPollDelay,
  normalizeInterval,
} from '../../src/element/poll-policy.js';
import { QUIET_ZONE, safeQrLink } from '../../src/element/qr.js';
import { qrMatrix, qrPath } from '../../src/element/qr-matrix.js';
import { isFinalStatus, normalizeStatus, statusMeaning } from '../../src/element/status.js';
import { plain } from './helpers.js';

/** What the payer reads of requisites: their kind and text (what is copied is tested apart). */
const shown = (raw: string, kind?: Parameters<typeof formatRequisites>[1]) => {
  const { kind: shownKind, text } = formatRequisites(raw, kind);
  return { kind: shownKind, text };
};

describe('format', () => {
  describe('formatMoney', () => {
    const cases: [string, string, string, string][] = [
      ['1500.00', 'RUB', 'ru', '1 500,00 ₽'],
      ['1500.00', 'RUB', 'en', '₽1,500.00'],
      ['0.50', 'RUB', 'ru', '0,50 ₽'],
      ['1500', 'RUB', 'ru', '1 500 ₽'],
      ['1234567.89', 'USD', 'en', '$1,234,567.89'],
      ['1234567.89', 'USD', 'ru', '1 234 567,89 $'],
      ['1500.5', 'RUB', 'en', '₽1,500.5'],
      ['0012.50', 'RUB', 'en', '₽12.50'],
    ];
    for (const [amount, currency, locale, expected] of cases) {
      it(`${amount} ${currency} in ${locale} → ${expected}`, () => {
        assert.equal(plain(formatMoney({ amount, currency }, locale)), expected);
      });
    }

    it('keeps every digit of an amount too large for a float', () => {
      assert.equal(
        plain(formatMoney({ amount: '123456789012345678901234.56', currency: 'RUB' }, 'en')),
        '₽123,456,789,012,345,678,901,234.56',
      );
      assert.equal(plain(formatMoney({ amount: '9007199254740993.01', currency: 'RUB' }, 'ru')), '9 007 199 254 740 993,01 ₽');
    });

    it('keeps all fraction digits, even more than Intl allows', () => {
      assert.equal(plain(formatMoney({ amount: '100.00000000', currency: 'BTC' }, 'en')), 'BTC 100.00000000');
      const many = `1.${'1'.repeat(30)}`;
      assert.equal(plain(formatMoney({ amount: many, currency: 'RUB' }, 'en')).replace(/\D/g, ''), many.replace('.', ''));
    });

    it('writes a code Intl does not accept after the number', () => {
      assert.equal(plain(formatMoney({ amount: '100.00000000', currency: 'USDT' }, 'ru')), '100,00000000 USDT');
      assert.equal(plain(formatMoney({ amount: '2500.10', currency: '<b>x</b>' }, 'en')), '2,500.10 <b>x</b>');
    });

    it('survives a malformed locale', () => {
      assert.equal(plain(formatMoney({ amount: '1500.00', currency: 'RUB' }, '!!')), '1,500.00 RUB');
    });
  });

  it('formatDecimal groups by hand exactly like Intl', () => {
    assert.equal(plain(formatDecimal('1234567.5', 'ru')), '1 234 567,5');
    assert.equal(plain(formatDecimal('1234567.5', 'en')), '1,234,567.5');
  });

  describe('formatRequisites', () => {
    const cases: [string, string, string][] = [
      ['2202206712345678', 'card', '2202 2067 1234 5678'],
      ['2202 2067 1234 5678', 'card', '2202 2067 1234 5678'],
      ['2202-2067-1234-5678', 'card', '2202 2067 1234 5678'],
      ['2202206712345678901', 'card', '2202 2067 1234 5678 901'],
      ['+79001234567', 'phone', '+7 (900) 123-45-67'],
      ['79001234567', 'phone', '+7 (900) 123-45-67'],
      ['89001234567', 'phone', '8 (900) 123-45-67'],
      ['+7 (900) 123-45-67', 'phone', '+7 (900) 123-45-67'],
      ['+447911123456', 'phone', '+447911123456'],
      ['40817810099910004312', 'account', '40817 810 0 9991 0004312'],
      ['TQrZ9wBzQ2V7ZxYkS9hA1mV1p7nWcX3e4F', 'account', 'TQrZ9wBzQ2V7ZxYkS9hA1mV1p7nWcX3e4F'],
      ['<img src=x onerror=alert(1)>', 'account', '<img src=x onerror=alert(1)>'],
      // Bidi controls could show digits in another order than they are typed: gone.
      ['\u202e2202\u2066 2067\u2069 \u200f1234\u202c \u202d5678\u200e', 'card', '2202 2067 1234 5678'],
      ['\u2067+7\u2069 900 \u202b123\u202c-45-67', 'phone', '+7 (900) 123-45-67'],
      ['\u200f+447911123456\u061c', 'phone', '+447911123456'],
      ['\u202eACC \u05d0 40817\u202a810\u202c', 'account', 'ACC \u05d0 40817810'],
    ];
    for (const [raw, kind, text] of cases) {
      it(`${raw} is a ${kind}: ${text}`, () => {
        assert.deepEqual(shown(raw), { kind: kind as 'card', text });
      });
    }

    it('follows the kind the proxy sent', () => {
      assert.deepEqual(shown('9001234567', 'phone'), { kind: 'phone', text: '9001234567' });
      assert.deepEqual(shown('2202206712345678', 'account'), { kind: 'account', text: '2202 2067 1234 5678' });
      assert.deepEqual(shown('https://pay.example/p/1', 'url'), { kind: 'url', text: 'https://pay.example/p/1' });
      assert.deepEqual(shown('ST00012|Name=ООО', 'qr'), { kind: 'qr', text: 'ST00012|Name=ООО' });
      assert.deepEqual(shown('79001234567', 'phone'), { kind: 'phone', text: '+7 (900) 123-45-67' });
    });

    it('shows and copies the options beyond Russia as what they are', () => {
      const cases: [string, Parameters<typeof formatRequisites>[1], { kind: string; text: string; value: string; ifsc?: string }][] = [
        ['shop.pay@okaxis', 'upi', { kind: 'upi', text: 'shop.pay@okaxis', value: 'shop.pay@okaxis' }],
        [
          '50100248163579 IFSC hdfc0001234',
          'imps',
          { kind: 'imps', text: '5010 0248 1635 79', value: '50100248163579', ifsc: 'HDFC0001234' },
        ],
        [
          'IFSC: SBIN0005943, A/c 00000031234567890',
          'imps',
          { kind: 'imps', text: '0000 0031 2345 6789 0', value: '00000031234567890', ifsc: 'SBIN0005943' },
        ],
        ['0000003100012345678901', 'cvu', { kind: 'cvu', text: '00000031 00012345678901', value: '0000003100012345678901' }],
        ['0000 0031 0001 2345 6789 01', 'cvu', { kind: 'cvu', text: '00000031 00012345678901', value: '0000003100012345678901' }],
        ['+7(916)555-01-23', 'topup', { kind: 'topup', text: '+7 (916) 555-01-23', value: '+7(916)555-01-23' }],
        [
          'https://t.me/SamovarPayBot?start=inv_42',
          'telegram',
          { kind: 'telegram', text: '@SamovarPayBot', value: 'https://t.me/SamovarPayBot?start=inv_42' },
        ],
        [
          'https://pay.example/qr/7f3a.png',
          'qr-image',
          { kind: 'qr-image', text: 'https://pay.example/qr/7f3a.png', value: 'https://pay.example/qr/7f3a.png' },
        ],
        // A Korean account keeps its bank's dashes.
        ['110-123-456789', 'account', { kind: 'account', text: '110-123-456789', value: '110-123-456789' }],
      ];
      for (const [raw, kind, expected] of cases) {
        const { ifsc, ...rest } = formatRequisites(raw, kind);
        assert.deepEqual({ ...rest, ...(ifsc ? { ifsc } : {}) }, expected, raw);
      }
    });
  });

  it('plainText removes every bidirectional control and nothing else', () => {
    const controls = '\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069';
    assert.equal(plainText(`${controls}12${controls}34${controls}`), '1234');
    const kept = 'Иван \u05d0\u05d1 \u0627 \u00a0\u202f\u200d 5678 <b>';
    assert.equal(plainText(kept), kept);
    assert.equal(plainText('\u202ednuoR'), 'dnuoR');
  });

  it('formatMoney shows a currency code without bidi controls', () => {
    assert.equal(plain(formatMoney({ amount: '10.00', currency: '\u202eTDSU' }, 'en')), '10.00 TDSU');
  });

  it('formatDuration counts down like a clock, rounding up', () => {
    assert.equal(formatDuration(30 * 60_000), '30:00');
    assert.equal(formatDuration(29 * 60_000 + 59_001), '30:00');
    assert.equal(formatDuration(61_000), '1:01');
    assert.equal(formatDuration(999), '0:01');
    assert.equal(formatDuration(0), '0:00');
    assert.equal(formatDuration(-5000), '0:00');
    assert.equal(formatDuration(3_723_000), '1:02:03');
  });
});

describe('status', () => {
  it('knows the statuses of the service, the mock and their obvious synonyms', () => {
    const statuses = ['new', 'transfer_waiting', 'paid', 'Completed', 'success', 'canceled', 'CANCELLED', 'expired', 'timed-out'];
    assert.deepEqual(statuses.map(statusMeaning), ['open', 'open', 'paid', 'paid', 'paid', 'canceled', 'canceled', 'expired', 'expired']);
    assert.deepEqual(['dispute', 'Disputed', '', 'constructor', '__proto__', 'toString'].map(statusMeaning), [
      'dispute',
      'dispute',
      'other',
      'other',
      'other',
      'other',
    ]);
  });

  it('calls only paid, canceled and expired final', () => {
    assert.deepEqual(['new', 'paid', 'canceled', 'expired', 'in_review'].map(isFinalStatus), [false, true, true, true, false]);
    assert.equal(normalizeStatus('  Transfer-Waiting '), 'transfer_waiting');
    assert.equal(statusMeaning('\u2066paid\u2069'), 'paid', 'what reads as paid means paid');
  });
});

describe('poll policy', () => {
  it('waits the interval while all is well, and refuses silly intervals', () => {
    assert.equal(nextPollDelay(5000, 0), 5000);
    assert.equal(normalizeInterval(10), MIN_POLL_INTERVAL);
    assert.equal(normalizeInterval(Number.NaN), DEFAULT_POLL_INTERVAL);
    assert.equal(normalizeInterval(-1), DEFAULT_POLL_INTERVAL);
    assert.equal(normalizeInterval(undefined), DEFAULT_POLL_INTERVAL);
  });

  it('backs off exponentially with equal jitter, capped', () => {
    const low = () => 0;
    const high = () => 1;
    assert.deepEqual(
      [1, 2, 3, 4].map((failures) => [nextPollDelay(5000, failures, low), nextPollDelay(5000, failures, high)]),
      [
        [5000, 10_000],
        [10_000, 20_000],
        [20_000, 40_000],
        [30_000, 60_000],
      ],
    );
    assert.equal(nextPollDelay(5000, 50, high), MAX_BACKOFF);
    assert.equal(nextPollDelay(120_000, 3, high), 120_000, 'a long interval is its own cap');
  });

  it('reads the clock offset from a Date header, ignoring sub-second jitter', () => {
    const received = Date.parse('2026-11-22T10:00:00.500Z');
    assert.equal(clockOffset('Sun, 22 Nov 2026 11:00:00 GMT', received), 3_600_000);
    assert.equal(clockOffset(null, received), undefined);
    assert.equal(clockOffset('yesterday-ish', received, 42), 42);
    assert.equal(clockOffset('Sun, 22 Nov 2026 11:00:01 GMT', received, 3_600_000), 3_600_000, 'within tolerance');
    assert.equal(clockOffset('Sun, 22 Nov 2026 11:00:05 GMT', received, 3_600_000), 3_605_000);
  });

  it('changes the announcement step every 5 minutes, then every minute, then every 30 seconds', () => {
    const changes: number[] = [];
    let previous = announcementStep(20 * 60_000);
    for (let seconds = 20 * 60; seconds >= 0; seconds--) {
      const step = announcementStep(seconds * 1000);
      if (step !== previous) changes.push(seconds);
      previous = step;
    }
    assert.deepEqual(changes, [900, 600, 540, 480, 420, 360, 300, 240, 180, 120, 60, 30, 0]);
  });
});

describe('qr', () => {
  it('accepts only absolute https links', () => {
    assert.equal(safeQrLink('https://qr.nspk.ru/AS1000?type=01'), 'https://qr.nspk.ru/AS1000?type=01');
    for (const link of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      ' javascript:alert(1)',
      'java\tscript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'http://qr.nspk.ru/AS1000',
      'vbscript:msgbox(1)',
      '//evil.example/x',
      '/relative',
      'https:',
      '',
      null,
      42,
    ]) {
      assert.isUndefined(safeQrLink(link), String(link));
    }
  });

  it('draws one path of the dark modules, runs merged, inside the quiet zone', () => {
    const matrix = { size: 3, data: [1, 1, 0, 0, 0, 0, 1, 0, 1] };
    const q = QUIET_ZONE;
    assert.equal(qrPath(matrix, QUIET_ZONE), `M${q} ${q}h2v1h-2zM${q} ${q + 2}h1v1h-1zM${q + 2} ${q + 2}h1v1h-1z`);
  });

  it('builds the matrix of a payment link with qrcode and draws every dark module', () => {
    const matrix = qrMatrix('https://qr.nspk.ru/AS1000670LSS7DN18SJQDNP4B05KLJL2?type=01&bank=100000000111')!;
    assert.isAtLeast(matrix.size, 29);
    const dark = Array.from(matrix.data).filter(Boolean).length;
    const drawn = [...qrPath(matrix, QUIET_ZONE).matchAll(/h(\d+)v1/g)].reduce((sum, match) => sum + Number(match[1]), 0);
    assert.equal(drawn, dark);
    assert.isUndefined(qrMatrix('x'.repeat(5000)), 'too long for any QR version');
  });
});
