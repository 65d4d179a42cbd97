// The CDEK client against the stand-in of its API v2 over loopback HTTP (tests/support/cdek-standin.ts).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startCdekStandin, type CdekStandin } from '../../../tests/support/cdek-standin.ts';
import { CarrierRefused, CarrierUnavailable, cdekClient, modeOf, type CdekClient } from './cdek.server.ts';

const ID = 'shop-client-id';
const SECRET = 'shop-client-secret';
const PARCEL = { weight: 1200, length: 30, width: 20, height: 10 };
let standin: CdekStandin;
let cdek: CdekClient;

beforeAll(async () => {
  standin = await startCdekStandin(ID, SECRET);
  cdek = cdekClient({ url: standin.url, clientId: ID, clientSecret: SECRET, timeoutMs: 300 });
});
afterAll(() => standin?.close());
afterEach(() => standin.slow(0));

describe('CDEK, when it answers', () => {
  it('suggests cities by the letters typed, named as shoppers write them, with CDEK’s own codes', async () => {
    expect(await cdek.suggestCities('Моск')).toEqual([{ code: 44, name: 'Москва' }]);
    expect(await cdek.suggestCities('влад')).toEqual([
      { code: 94, name: 'Владимир, Владимирская область' },
      { code: 1081, name: 'Владивосток, Приморский край' },
    ]);
    expect(standin.calls.at(-1)).toMatchObject({ path: '/location/suggest/cities', query: { name: 'влад', country_code: 'RU' } });
  });

  it('asks for one token and uses it until it expires; calls at once share one request for it', async () => {
    const before = standin.tokensIssued;
    await Promise.all([cdek.pickupPoints(44), cdek.pickupPoints(137), cdek.suggestCities('Каз')]);
    expect(standin.tokensIssued).toBe(before);
    standin.expireTokens();
    const fresh = cdekClient({ url: standin.url, clientId: ID, clientSecret: SECRET, timeoutMs: 300 });
    await Promise.all([fresh.pickupPoints(44), fresh.pickupPoints(137)]);
    expect(standin.tokensIssued).toBe(before + 1);
  });

  it('asks for a new token once when CDEK says the old one expired', async () => {
    await cdek.suggestCities('Моск');
    const before = standin.tokensIssued;
    standin.expireTokens();
    expect(await cdek.suggestCities('Моск')).toHaveLength(1);
    expect(standin.tokensIssued).toBe(before + 1);
  });

  it('lists a city’s pickup points: offices and postamats, fitting rooms, card payment, metro, hours, weight limit in grams', async () => {
    const points = await cdek.pickupPoints(44);
    expect(points).toHaveLength(7);
    expect(points.filter((p) => p.kind === 'postamat').map((p) => p.code)).toEqual(['MSKP6', 'MSKP7']);
    expect(points[0]).toEqual({
      code: 'MSK1',
      name: 'MSK1, Москва, ул. Тверская',
      kind: 'office',
      cityCode: 44,
      address: 'ул. Тверская, 10',
      howToFind: 'Вход со двора, второй подъезд',
      metro: 'м. Пушкинская',
      hours: 'Пн-Вс 09:00-21:00',
      latitude: 55.753215,
      longitude: 37.622504,
      fittingRoom: true,
      card: true,
      maxWeight: 50_000,
    });
    // Optional keys CDEK leaves out stay out; no metro outside Moscow and St Petersburg.
    expect(points[1]).not.toHaveProperty('howToFind');
    expect((await cdek.pickupPoints(270)).every((p) => p.metro === undefined)).toBe(true);
    expect(await cdek.pickupPoints(999_999)).toEqual([]);
  });

  it('quotes the cheapest tariff of each way to receive a parcel, in kopecks, never one that starts at the sender’s door', async () => {
    const quotes = await cdek.quotes(44, 270, [PARCEL]);
    expect(quotes.map((q) => [q.mode, q.tariffCode])).toEqual([
      ['pickup', 234],
      ['courier', 233],
      ['postamat', 368],
    ]);
    for (const q of quotes) {
      expect(Number.isInteger(q.price) && q.price > 0).toBe(true);
      expect(q.periodMax).toBeGreaterThanOrEqual(q.periodMin);
    }
    const sent = standin.calls.at(-1);
    expect(sent).toMatchObject({ method: 'POST', path: '/calculator/tarifflist', body: { from_location: { code: 44 }, to_location: { code: 270 } } });
    // Farther costs more; a heavier parcel costs more.
    const near = await cdek.quotes(44, 94, [PARCEL]);
    const heavy = await cdek.quotes(44, 270, [{ ...PARCEL, weight: 9000 }]);
    const price = (list: typeof quotes, mode: string) => list.find((q) => q.mode === mode)?.price ?? 0;
    expect(price(near, 'pickup')).toBeLessThan(price(quotes, 'pickup'));
    expect(price(heavy, 'pickup')).toBeGreaterThan(price(quotes, 'pickup'));
  });

  it('maps CDEK’s delivery modes to where the parcel ends', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map(modeOf)).toEqual(['courier', 'pickup', 'courier', 'pickup', undefined, 'postamat', 'postamat', undefined]);
  });
});

describe('CDEK, when it does not answer well', () => {
  it('a refusal carries CDEK’s error codes: an unknown city', async () => {
    const refused = await cdek.quotes(44, 999_999, [PARCEL]).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(CarrierRefused);
    expect((refused as CarrierRefused).codes).toEqual(['v2_recipient_location_not_recognized']);
  });

  it('wrong credentials are a refusal, not an outage', async () => {
    const wrong = cdekClient({ url: standin.url, clientId: ID, clientSecret: 'not-the-secret', timeoutMs: 300 });
    await expect(wrong.suggestCities('Моск')).rejects.toBeInstanceOf(CarrierRefused);
  });

  it.each([
    ['slower than the deadline', () => standin.slow(600)],
    ['answering 500', () => standin.failNext(1)],
    ['rate-limiting with 429', () => standin.rateLimitNext(1)],
  ])('%s is unavailable, within the deadline', async (_, mode) => {
    await cdek.suggestCities('Моск');
    mode();
    const started = Date.now();
    const error = await cdek.quotes(44, 270, [PARCEL]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CarrierUnavailable);
    // The deadline is 300 ms: the call gives up then, whatever the carrier does (generous bound for a busy machine).
    expect(Date.now() - started).toBeLessThan(5_000);
    standin.slow(0);
    expect(await cdek.quotes(44, 270, [PARCEL])).toHaveLength(3);
  });

  it('an address where nothing listens is unavailable', async () => {
    const nowhere = cdekClient({ url: 'http://127.0.0.1:9/v2', clientId: ID, clientSecret: SECRET, timeoutMs: 300 });
    await expect(nowhere.pickupPoints(44)).rejects.toBeInstanceOf(CarrierUnavailable);
  });
});
