import { describe, expect, it } from 'vitest';
import type { DeliveryOffer } from './delivery.ts';
import { openQuote, QUOTE_MINUTES, sealQuote } from './quote.server.ts';

const KEY = Buffer.alloc(32, 7);
const NOW = Date.UTC(2026, 10, 24, 9, 0);
const OFFER: DeliveryOffer = {
  carrier: 'cdek',
  tariffCode: 234,
  tariffName: 'Экономичная посылка склад-склад',
  mode: 'pickup',
  price: 45_670,
  periodMin: 3,
  cityCode: 270,
  periodMax: 5,
  arrival: { from: '2026-11-30', to: '2026-12-02' },
};

describe('a sealed delivery quote', () => {
  it('opens to what was quoted: carrier, tariff, way, price, city, parcel and dates', () => {
    const token = sealQuote(KEY, OFFER, 270, '2000:30x25x20', NOW);
    expect(openQuote(KEY, token, NOW + 59 * 60_000)).toEqual({
      v: 2,
      carrier: 'cdek',
      tariff: 234,
      mode: 'pickup',
      price: 45_670,
      city: 270,
      parcel: '2000:30x25x20',
      from: '2026-11-30',
      to: '2026-12-02',
      exp: NOW / 1000 + QUOTE_MINUTES * 60,
    });
  });

  it('is refused once run out', () => {
    expect(openQuote(KEY, sealQuote(KEY, OFFER, 270, '2000:30x25x20', NOW), NOW + QUOTE_MINUTES * 60_000)).toBeUndefined();
  });

  it('is refused with a price, a city or a date edited, under another shop’s key, and in any broken shape', () => {
    const token = sealQuote(KEY, OFFER, 270, '2000:30x25x20', NOW);
    const [body, seal] = token.split('.') as [string, string];
    const edited = (change: (q: Record<string, unknown>) => void) => {
      const q = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Record<string, unknown>;
      change(q);
      return `${Buffer.from(JSON.stringify(q)).toString('base64url')}.${seal}`;
    };
    for (const forged of [
      edited((q) => (q['price'] = 1)),
      edited((q) => (q['city'] = 44)),
      edited((q) => (q['parcel'] = '1000:30x25x10')),
      edited((q) => (q['to'] = '2026-12-01')),
      edited((q) => (q['exp'] = 9_999_999_999)),
      `${body}.${seal.slice(0, -2)}AA`,
      `${body}.${seal}.more`,
      `${body}`,
      '',
      '.',
      `${'a'.repeat(700)}.${seal}`,
      `not-base64!.${seal}`,
    ])
      expect(openQuote(KEY, forged, NOW), forged.slice(0, 40)).toBeUndefined();
    expect(openQuote(Buffer.alloc(32, 8), token, NOW)).toBeUndefined();
  });
});
