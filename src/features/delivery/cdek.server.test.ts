// The CDEK client against the stand-in of its API v2 over loopback HTTP (tests/support/cdek-standin.ts).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startCdekStandin, type CdekStandin } from '../../../tests/support/cdek-standin.ts';
import { CarrierRefused, CarrierUnavailable } from './carrier.server.ts';
import { cdekClient, modeOf, type CdekClient } from './cdek.server.ts';

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

  it('lists a city’s pickup points: offices and postamats, fitting rooms, card payment, payment on delivery, metro, hours, weight limit in grams', async () => {
    const points = await cdek.pickupPoints(44);
    expect(points).toHaveLength(7);
    expect(points.filter((p) => p.kind === 'postamat').map((p) => p.code)).toEqual(['MSKP6', 'MSKP7']);
    expect(points[0]).toEqual({
      carrier: 'cdek',
      code: 'MSK1',
      name: 'MSK1, Москва, ул. Тверская',
      kind: 'office',
      cityCode: 44,
      address: 'ул. Тверская, 10',
      howToFind: 'Вход со двора, второй подъезд',
      metro: 'Пушкинская',
      hours: 'Пн-Вс 09:00-21:00',
      latitude: 55.753215,
      longitude: 37.622504,
      fittingRoom: true,
      card: true,
      cod: true,
      maxWeight: 50_000,
    });
    // Payment on delivery as CDEK's allowed_cod says: not at the fourth office, at a postamat by card only (one of two).
    expect(points.filter((p) => !p.cod).map((p) => p.code)).toEqual(['MSK4', 'MSKP6']);
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

describe('CDEK shipments', () => {
  const order = (number: string) => ({
    type: 1,
    number,
    tariff_code: 136,
    shipment_point: 'MSK1',
    delivery_point: 'SPB1',
    recipient: { name: 'Вера Получатель', phones: [{ number: '+79215554433' }] },
    packages: [{ number: '1', weight: 1000, items: [{ name: 'Платье', ware_key: 'V-1', payment: { value: 0 }, cost: 100, weight: 1000, amount: 1 }] }],
  });

  it('registers an order (202), reads it back with its number and statuses oldest first, and finds it by the shop’s number', async () => {
    const uuid = await cdek.createOrder(order('BS-10000001'));
    const held = await cdek.getOrder(uuid);
    expect(held).toMatchObject({ uuid, number: 'BS-10000001', carrierNumber: expect.stringMatching(/^\d{10}$/), invalid: undefined });
    expect(held.statuses.map((s) => s.code)).toEqual(['ACCEPTED', 'CREATED']);
    standin.advance('BS-10000001', 'ACCEPTED_AT_PICK_UP_POINT');
    expect((await cdek.getOrder(uuid)).statuses.at(-1)).toMatchObject({ code: 'ACCEPTED_AT_PICK_UP_POINT', name: 'Принят на склад до востребования' });
    expect((await cdek.orderByNumber('BS-10000001'))?.uuid).toBe(uuid);
    expect(await cdek.orderByNumber('BS-99999999')).toBeUndefined();
  });

  it('reports a second order under a taken number as CDEK does: accepted, then invalid', async () => {
    await cdek.createOrder(order('BS-10000002'));
    const twin = await cdek.createOrder(order('BS-10000002'));
    expect((await cdek.getOrder(twin)).invalid).toEqual(['error_validate_im_dep_number_has_already_had_integration']);
  });

  it('refuses an order without a recipient with CDEK’s code, and an unknown uuid as not found', async () => {
    const { recipient: _, ...incomplete } = order('BS-10000003');
    await expect(cdek.createOrder(incomplete)).rejects.toMatchObject({ name: 'CarrierRefused', codes: ['order_recipient_is_empty'] });
    await expect(cdek.getOrder('00000000-0000-0000-0000-000000000000')).rejects.toMatchObject({ status: 400, codes: ['v2_entity_not_found'] });
  });

  it('makes a waybill: asked, made on a later look, downloaded with the token — and never fetched from another host', async () => {
    const uuid = await cdek.createOrder(order('BS-10000004'));
    const job = await cdek.printWaybill(uuid);
    expect(await cdek.printReady(job)).toBeUndefined();
    const url = await cdek.printReady(job);
    expect(url).toMatch(/\.pdf$/);
    const pdf = Buffer.from(await cdek.download(url ?? '')).toString('latin1');
    expect(pdf.startsWith('%PDF-1.4')).toBe(true);
    await expect(cdek.download('https://elsewhere.example/v2/print/orders/x.pdf')).rejects.toBeInstanceOf(CarrierUnavailable);
  });

  it('books a courier pickup once a day', async () => {
    const intake = {
      intake_date: '2026-12-01',
      intake_time_from: '10:00',
      intake_time_to: '18:00',
      weight: 3000,
      sender: { name: 'Склад', phones: [{ number: '+74951234567' }] },
      from_location: { code: 44, address: 'ул. Тверская, 7' },
    };
    expect(await cdek.createIntake(intake)).toMatch(/^[\w-]{36}$/);
    await expect(cdek.createIntake(intake)).rejects.toMatchObject({ codes: ['v2_intake_exists_by_date_address'] });
  });
});
