// Delivery by a carrier (issue 38) through the shop's API, on the built server with its database, against
// the stand-in of CDEK's API v2 (tests/support/cdek-standin.ts): cities, pickup points and offers with
// arrival dates; what carriers answer kept in the shared table; a carrier that is down, slow or limiting
// answered as a fallback (never a failure of the shop's call); a shop without an account as before; and
// a table of hostile parameters answered 4xx.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectConforms, type Envelope } from '../support/api.ts';
import { startBoxberryStandin, type BoxberryStandin } from '../support/boxberry-standin.ts';
import { startCdekStandin, type CdekStandin } from '../support/cdek-standin.ts';
import { readOutbox } from '../support/mail.ts';
import { signedInOperator, Visitor } from '../support/ops.ts';
import { afterJobRuns, untilJobRuns } from '../support/jobs.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { formatPrice } from '../../src/lib/format.ts';

const ID = 'shop-cdek-account';
const SECRET = 'shop-cdek-secret-42';
const METRICS_TOKEN = 'metrics-token-for-the-delivery-tests-0123';
const HOOK_TOKEN = 'cdek-hook-token-0123456789';
const HOOK = `/api/v1/ecommerce-core/delivery/cdek/webhook?token=${HOOK_TOKEN}`;
const BOXBERRY_TOKEN = 'shop-boxberry-token-7';
let standin: CdekStandin;
let boxberry: BoxberryStandin;
let shop: TestServer;

beforeAll(async () => {
  standin = await startCdekStandin(ID, SECRET);
  boxberry = await startBoxberryStandin(BOXBERRY_TOKEN);
  shop = await startTestServer({
    label: 'delivery',
    seedProducts: 60,
    env: {
      CDEK_API_URL: standin.url,
      CDEK_CLIENT_ID: ID,
      CDEK_CLIENT_SECRET: SECRET,
      CARRIER_TIMEOUT_MS: '400',
      DELIVERY_CUTOFF: '14:00',
      DELIVERY_HANDLING_DAYS: '1',
      DELIVERY_SENDER_POINT: 'MSK1',
      DELIVERY_SENDER_ADDRESS: 'Москва, ул. Тверская, 7',
      DELIVERY_SENDER_NAME: 'Склад Brandshop',
      DELIVERY_SENDER_PHONE: '+74951234567',
      CDEK_WEBHOOK_TOKEN: HOOK_TOKEN,
      BOXBERRY_TOKEN,
      BOXBERRY_API_URL: boxberry.url,
      BOXBERRY_SENDER_POINT: '68001',
      METRICS_TOKEN,
      // A department's default parcel; product 60 brings its own (as an import would).
      DELIVERY_PARCELS: 'parcel-test-*=1500:34x22x13',
    },
    prepare: async (db) => {
      await db.query("INSERT INTO categories (name, slug, level) VALUES ('Обувь для посылок', 'parcel-test-shoes', 0)");
      await db.query("UPDATE products SET category_id = (SELECT id FROM categories WHERE slug = 'parcel-test-shoes') WHERE id = 59");
      await db.query('UPDATE products SET weight_g = 3600, length_cm = 21, width_cm = 21, height_cm = 23 WHERE id = 60');
    },
  });
  // The carriers' check at start (the sender points, the webhook subscription) is over before the tests
  // that count what the carrier is asked.
  await untilJobRuns(shop.baseUrl, METRICS_TOKEN, 'check-carriers', 1);
}, 120_000);
afterAll(async () => {
  await shop?.stop();
  await standin?.close();
  await boxberry?.close();
});

async function call<T>(server: TestServer, path: string, init: RequestInit = {}, language = 'ru'): Promise<{ status: number; body: Envelope<T> }> {
  const res = await fetch(server.baseUrl + path, { ...init, headers: { 'accept-language': language, 'content-type': 'application/json', ...init.headers } });
  const body = (await res.json()) as Envelope<T>;
  await expectConforms(server.baseUrl, init.method ?? 'GET', path, res.status, body);
  return { status: res.status, body };
}
type Line = { id: number; quantity: number };
/** The offers for these lines (a number: that many of product 1, a parcel of default items). */
const offers = (server: TestServer, city: number, lines: Line[] | number = 1, language = 'ru') =>
  call<{
    offers: { mode: string; price: number; tariff_code: number; arrival: string; arrival_from: string; arrival_to: string; quote: string }[];
    fallback: string | null;
  }>(
    server,
    '/api/v1/ecommerce-core/delivery/options',
    { method: 'POST', body: JSON.stringify({ city, lines: typeof lines === 'number' ? [{ id: 1, quantity: lines }] : lines }) },
    language,
  );
/** The packages the stand-in was last asked to price. */
const lastPriced = () =>
  (standin.calls.filter((c) => c.path === '/calculator/tarifflist').at(-1)?.body as { packages: Record<string, number>[] } | undefined)?.packages;
type Point = {
  code: string;
  kind: string;
  metro: string | null;
  fitting_room: boolean;
  card: boolean;
  address: string;
  hours: string;
  how_to_find: string | null;
};
const points = (query: string) => call<{ points: Point[]; fallback: string | null }>(shop, `/api/v1/ecommerce-core/delivery/points?${query}`);

describe('delivery by CDEK through the shop', () => {
  it('suggests cities with the carrier’s codes', async () => {
    const { status, body } = await call<{ cities: { code: number; name: string }[]; fallback: null }>(shop, '/api/v1/ecommerce-core/delivery/cities?q=Санкт');
    expect(status).toBe(200);
    expect(body.data).toEqual({ cities: [{ code: 137, name: 'Санкт-Петербург' }], fallback: null });
  });

  it('lists a city’s pickup points, searchable by street or metro, filtered by fitting room, card and kind', async () => {
    const all = (await points('city=44')).body.data?.points ?? [];
    expect(all).toHaveLength(7);
    expect(all[0]).toMatchObject({
      code: 'MSK1',
      kind: 'office',
      address: 'ул. Тверская, 10',
      metro: 'Пушкинская',
      fitting_room: true,
      hours: 'Пн-Вс 09:00-21:00',
    });
    expect((await points('city=44&fitting_room=1')).body.data?.points.every((p) => p.fitting_room && p.kind === 'office')).toBe(true);
    expect((await points('city=44&kind=postamat')).body.data?.points.map((p) => p.code)).toEqual(['MSKP6', 'MSKP7']);
    expect((await points('city=44&kind=postamat&card=1')).body.data?.points.map((p) => p.code)).toEqual(['MSKP7']);
    expect((await points(`city=44&q=${encodeURIComponent('октябрьская')}`)).body.data?.points.map((p) => p.code)).toEqual(['MSK2']);
    expect((await points(`city=44&q=${encodeURIComponent('мира 16')}`)).body.data?.points.map((p) => p.code)).toEqual(['MSK3']);
    expect((await points('city=999999')).body.data).toEqual({ points: [], fallback: null });
  });

  it('offers a pickup point, a postamat and a courier with prices in kopecks and arrival dates', async () => {
    const { status, body } = await offers(shop, 270, 2);
    expect(status).toBe(200);
    expect(body.data?.fallback).toBeNull();
    // Without the city's name only the carrier whose codes checkout uses (CDEK) can be asked: a point, a postamat, the door.
    expect(body.data?.offers.map((o) => o.mode)).toEqual(['pickup', 'postamat', 'courier']);
    for (const o of body.data?.offers ?? []) {
      expect(o.price).toBeGreaterThan(0);
      expect(o.arrival_to >= o.arrival_from).toBe(true);
      // "25–27 ноября" or "30 ноября – 2 декабря": the days and the month in Russian.
      expect(o.arrival).toMatch(/^\d{1,2}(?: [а-я]+)?(?:\s?–\s?\d{1,2})? [а-я]+(?: \d{4}\u202fг\.)?(?: – \d{1,2} [а-я]+.*)?$/);
    }
    // Each offer sealed for placement: a quote of its own per offer.
    const quotes = (body.data?.offers ?? []).map((o) => o.quote);
    expect(quotes.every((q) => /^[\w-]+\.[\w-]{43}$/.test(q))).toBe(true);
    expect(new Set(quotes).size).toBe(3);
    const english = await offers(shop, 270, 2, 'en');
    expect(english.body.data?.offers[0]?.arrival).toMatch(/[A-Z][a-z]+/);
    // Two items weigh more than one: a dearer parcel.
    const one = await offers(shop, 270, 1);
    expect(one.body.data?.offers[0]?.price).toBeLessThan(body.data?.offers[0]?.price ?? 0);
  });

  it('keeps what CDEK answered: the same question again is not asked of it, by this process or (PostgreSQL) another', async () => {
    await points('city=137');
    await offers(shop, 424, 3);
    const asked = standin.calls.length;
    await points('city=137&fitting_room=1');
    await offers(shop, 424, 3);
    expect(standin.calls.length).toBe(asked);
    // A second process on the same PostgreSQL database finds the answers in the shared table (PGlite is one
    // process's database: CI runs this part).
    if (!shop.database.databaseUrl) return;
    const second = await startTestServer({
      label: 'delivery-second',
      env: { DATABASE_URL: shop.database.databaseUrl, AUTO_MIGRATE: 'false', CDEK_API_URL: standin.url, CDEK_CLIENT_ID: ID, CDEK_CLIENT_SECRET: SECRET },
    });
    try {
      expect((await call<{ points: Point[] }>(second, '/api/v1/ecommerce-core/delivery/points?city=137')).body.data?.points).toHaveLength(7);
      expect((await offers(second, 424, 3)).body.data?.offers).toHaveLength(3);
      expect(standin.calls.length).toBe(asked);
    } finally {
      await second.stop();
    }
  });

  it('a carrier that fails, limits or is slow is a fallback, never an error of the shop, and the next question is answered again', async () => {
    for (const [mode, city] of [
      [() => standin.failNext(1), 1081],
      [() => standin.rateLimitNext(1), 94],
      [() => standin.slow(1_000), 137],
    ] as const) {
      mode();
      const started = Date.now();
      const { status, body } = await offers(shop, city, 1);
      expect(status).toBe(200);
      expect(body.data).toEqual({ offers: [], fallback: 'unavailable' });
      // The carrier's deadline is 400 ms here: checkout is not held for the slow one (generous bound for a busy machine).
      expect(Date.now() - started).toBeLessThan(5_000);
      standin.slow(0);
    }
    expect((await offers(shop, 1081, 1)).body.data?.offers).toHaveLength(3);
    const metrics = await (await fetch(`${shop.baseUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
    expect(metrics).toMatch(/shop_carrier_calls_total\{carrier="cdek",operation="quotes",outcome="unavailable"\} [3-9]/);
  });

  it('an unknown city has no offers, and says the carrier answered', async () => {
    expect((await offers(shop, 999_999, 1)).body.data).toEqual({ offers: [], fallback: null });
  });

  it('prices the parcel of what is bought: a product’s own weight and size, its category’s default, else 1 kg in 30 × 25 × 10 cm', async () => {
    await offers(shop, 1081, [{ id: 1, quantity: 1 }]);
    expect(lastPriced()).toEqual([{ weight: 1000, length: 30, width: 25, height: 10 }]);
    await offers(shop, 1081, [{ id: 59, quantity: 2 }]);
    expect(lastPriced()).toEqual([{ weight: 3000, length: 34, width: 22, height: 26 }]);
    const own = await offers(shop, 1081, [{ id: 60, quantity: 1 }]);
    expect(lastPriced()).toEqual([{ weight: 3600, length: 23, width: 21, height: 21 }]);
    // Together: one box, the weights added up.
    const together = await offers(shop, 1081, [
      { id: 60, quantity: 1 },
      { id: 1, quantity: 1 },
    ]);
    expect(lastPriced()?.[0]).toMatchObject({ weight: 4600, length: 30, width: 25 });
    // A heavier parcel costs more, and its quote is sealed for that parcel alone.
    expect(together.body.data?.offers[0]?.price).toBeGreaterThan(own.body.data?.offers[0]?.price ?? Infinity);
    const [body] = (own.body.data?.offers[0]?.quote ?? '').split('.');
    expect(JSON.parse(Buffer.from(body ?? '', 'base64url').toString('utf8'))).toMatchObject({ parcel: '3600:23x21x21' });
  });
});

describe('the point list without JavaScript (/checkout/pickup)', () => {
  const page = async (query: string) => {
    const res = await fetch(`${shop.baseUrl}/checkout/pickup?${query}`, { headers: { 'accept-language': 'ru' } });
    return { status: res.status, html: await res.text() };
  };
  const ways = (html: string) => [...html.matchAll(/data-testid="point-way"[^>]*>([^<]*)</g)].map((m) => m[1]?.trim());

  it('says each point’s price and arrival dates as the island does: for the lines carried, else one item’s parcel “от”', async () => {
    const plain = await page('city=44&city_name=%D0%9C%D0%BE%D1%81%D0%BA%D0%B2%D0%B0');
    expect(plain.status).toBe(200);
    const each = ways(plain.html);
    // Every point listed (CDEK's seven and Boxberry's, found by the city's name) has its way's price.
    expect(each.length).toBeGreaterThanOrEqual(7);
    expect(each).toHaveLength(plain.html.split('aria-label="Выбрать: ').length - 1);
    for (const text of each) expect(text).toMatch(/^от \d[\d\s,]*\s₽ · Доставим \d{1,2}/);
    expect(plain.html).toContain('data-testid="pickup-ways"');

    // The heavy product's parcel costs more than one default item, and the price is exact (no "от").
    const island = (await offers(shop, 44, [{ id: 60, quantity: 2 }])).body.data?.offers ?? [];
    const pickup = island.find((o) => o.mode === 'pickup');
    const heavy = await page('city=44&city_name=%D0%9C%D0%BE%D1%81%D0%BA%D0%B2%D0%B0&kind=office&lines=60x2');
    const first = ways(heavy.html)[0] ?? '';
    expect(first).not.toMatch(/^от/);
    expect(first).toContain(formatPrice(pickup?.price ?? 0));
    expect(first).toContain(`Доставим ${pickup?.arrival}`);
    // The lines stay with the shopper: the links back to checkout and the search form carry them.
    expect(heavy.html).toMatch(/href="\/checkout\?city=44&amp;city_name=[^"]*&amp;lines=60x2&amp;point=MSK1/);
    expect(heavy.html).toContain('name="lines" value="60x2"');
  });

  it('ignores lines it cannot read, and prices one item instead', async () => {
    for (const lines of ['60x0', 'x', '60x2,', `${'1x1,'.repeat(101)}1x1`, '60x2;DROP']) {
      const { status, html } = await page(`city=44&city_name=M&lines=${encodeURIComponent(lines)}`);
      expect(status).toBe(200);
      expect(ways(html)[0]).toMatch(/^от /);
      expect(html).not.toContain('name="lines"');
    }
  });
});

describe('an order delivered by CDEK', () => {
  const API = '/api/v1/ecommerce-core';
  /** A product in stock whose delivery is paid (a free-delivery one would price every way at 0). */
  async function paidDeliveryItem(nth: number): Promise<{ id: number; variant_code: string }> {
    let seen = 0;
    const listing = (await call<{ products: { id: number; free_delivery: boolean }[] }>(shop, `${API}/products?per_page=60`)).body.data?.products ?? [];
    for (const p of listing.filter((x) => !x.free_delivery)) {
      const product = (await call<{ variants: { code: string; available: boolean }[] }>(shop, `${API}/product/${p.id}`)).body.data;
      const variant = product?.variants.find((v) => v.available);
      if (variant && seen++ === nth) return { id: p.id, variant_code: variant.code };
    }
    throw new Error('no product with paid delivery in stock');
  }
  const place = (items: { id: number; variant_code: string; quantity: number }[], delivery: Record<string, unknown>) =>
    call<{ code: string; total: number }>(shop, `${API}/checkout/place-order`, {
      method: 'POST',
      headers: { 'idempotency-key': crypto.randomUUID() },
      body: JSON.stringify({
        items,
        contact: { name: 'Анна Доставкина', email: 'anna.delivery@example.ru', phone: '+7 (916) 123-45-67' },
        delivery: { method: 'courier', city: 'Новосибирск', address: 'ул. Ильича, 6', ...delivery },
        payment: 'card',
      }),
    });
  const summary = (items: { id: number; variant_code: string; quantity: number }[], delivery: Record<string, unknown>) =>
    call<{ delivery_price: number; items_total: number; total: number }>(shop, `${API}/checkout/summary`, {
      method: 'POST',
      body: JSON.stringify({ items, delivery: { method: 'courier', ...delivery } }),
    });

  it('charges the quoted price for the chosen pickup point; a forged quote, another parcel or a point not listed is refused with the reason', async () => {
    const item = await paidDeliveryItem(0);
    const items = [{ ...item, quantity: 1 }];
    const pickup = (await offers(shop, 270, [{ id: item.id, quantity: 1 }])).body.data?.offers.find((o) => o.mode === 'pickup');
    if (!pickup) throw new Error('no pickup offer');
    const priced = await summary(items, { quote: pickup.quote });
    expect(priced.body.data?.delivery_price).toBe(pickup.price);

    const refusals: [Record<string, unknown>, typeof items, string, string][] = [
      [{ quote: pickup.quote.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')), point: 'C270-1' }, items, 'delivery.quote', 'Стоимость доставки изменилась'],
      [{ quote: pickup.quote, point: 'C270-1' }, [{ ...item, quantity: 2 }], 'delivery.quote', 'Стоимость доставки изменилась'],
      [{ quote: pickup.quote }, items, 'delivery.point', 'Обязательное поле'],
      [{ quote: pickup.quote, point: 'NSK-GONE' }, items, 'delivery.point', 'больше не принимает заказы'],
      // A postamat's code for an office's tariff.
      [{ quote: pickup.quote, point: 'C270-P6' }, items, 'delivery.point', 'больше не принимает заказы'],
    ];
    for (const [delivery, lines, field, message] of refusals) {
      const refused = await place(lines, delivery);
      expect(refused.status, JSON.stringify(delivery).slice(0, 80)).toBe(422);
      expect(refused.body.errors?.[field]?.[0]).toContain(message);
    }

    const placed = await place(items, { quote: pickup.quote, point: 'C270-1' });
    expect(placed.status).toBe(201);
    expect(placed.body.data?.total).toBe((priced.body.data?.items_total ?? 0) + pickup.price);
  });

  it('charges a courier order as quoted without asking the carrier again: a carrier down at placement stops nothing', async () => {
    // Another product: the first test's order took the last of its size.
    const item = await paidDeliveryItem(1);
    const courier = (await offers(shop, 424, [{ id: item.id, quantity: 1 }])).body.data?.offers.find((o) => o.mode === 'courier');
    if (!courier) throw new Error('no courier offer');
    // Whatever CDEK would answer now — another price, or nothing — the sealed quote is what is charged.
    const priced = await summary([{ ...item, quantity: 1 }], { quote: courier.quote });
    standin.failNext(5);
    const placed = await place([{ ...item, quantity: 1 }], { quote: courier.quote, city: 'Казань', address: 'ул. Баумана, 1' });
    standin.failNext(0);
    expect(placed.status).toBe(201);
    expect(placed.body.data?.total).toBe((priced.body.data?.items_total ?? 0) + courier.price);
  });
});

describe('hostile delivery parameters', () => {
  const long = 'ы'.repeat(10_000);
  it.each([
    ['cities without q', 'GET', '/api/v1/ecommerce-core/delivery/cities', undefined],
    ['cities with one letter', 'GET', '/api/v1/ecommerce-core/delivery/cities?q=%D0%9C', undefined],
    ['cities with a NUL', 'GET', '/api/v1/ecommerce-core/delivery/cities?q=%D0%9C%D0%BE%00', undefined],
    ['cities with 10 KB', 'GET', `/api/v1/ecommerce-core/delivery/cities?q=${encodeURIComponent(long)}`, undefined],
    ['points without a city', 'GET', '/api/v1/ecommerce-core/delivery/points', undefined],
    ['points of a word', 'GET', '/api/v1/ecommerce-core/delivery/points?city=moscow', undefined],
    ['points of a negative city', 'GET', '/api/v1/ecommerce-core/delivery/points?city=-44', undefined],
    ['points of a huge city', 'GET', '/api/v1/ecommerce-core/delivery/points?city=1e40', undefined],
    ['points with a NUL', 'GET', '/api/v1/ecommerce-core/delivery/points?city=44&q=%00', undefined],
    ['points with 10 KB of search', 'GET', `/api/v1/ecommerce-core/delivery/points?city=44&q=${encodeURIComponent(long)}`, undefined],
    ['points of an unknown kind', 'GET', '/api/v1/ecommerce-core/delivery/points?city=44&kind=drone', undefined],
    ['options without a body', 'POST', '/api/v1/ecommerce-core/delivery/options', ''],
    ['options with a string city', 'POST', '/api/v1/ecommerce-core/delivery/options', JSON.stringify({ city: 'Москва', lines: [{ id: 1, quantity: 1 }] })],
    ['options with no lines', 'POST', '/api/v1/ecommerce-core/delivery/options', JSON.stringify({ city: 44, lines: [] })],
    ['options with a count instead of lines', 'POST', '/api/v1/ecommerce-core/delivery/options', JSON.stringify({ city: 44, items: 1 })],
    ['options with a thousand of one', 'POST', '/api/v1/ecommerce-core/delivery/options', JSON.stringify({ city: 44, lines: [{ id: 1, quantity: 1000 }] })],
    [
      'options with 101 lines',
      'POST',
      '/api/v1/ecommerce-core/delivery/options',
      JSON.stringify({ city: 44, lines: Array.from({ length: 101 }, (_, i) => ({ id: i + 1, quantity: 1 })) }),
    ],
    ['options with a negative product', 'POST', '/api/v1/ecommerce-core/delivery/options', JSON.stringify({ city: 44, lines: [{ id: -1, quantity: 1 }] })],
    ['options with a fractional quantity', 'POST', '/api/v1/ecommerce-core/delivery/options', JSON.stringify({ city: 44, lines: [{ id: 1, quantity: 1.5 }] })],
    ['options with lines as a string', 'POST', '/api/v1/ecommerce-core/delivery/options', JSON.stringify({ city: 44, lines: 'x'.repeat(10_000) })],
    ['options with broken JSON', 'POST', '/api/v1/ecommerce-core/delivery/options', '{"city":44,'],
  ])('%s: 4xx with the envelope, nothing asked of the carrier', async (_, method, path, body) => {
    const asked = standin.calls.length;
    const res = await fetch(shop.baseUrl + path, {
      method,
      headers: { 'accept-language': 'ru', 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body }),
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    const envelope = (await res.json()) as Envelope;
    expect(envelope.success).toBe(false);
    expect(envelope.message).toMatch(/[а-я]/);
    expect(standin.calls.length).toBe(asked);
  });
});

describe('the carriers as the owner set them up (/ops/delivery)', () => {
  const hookUrl = () => `${shop.baseUrl}${HOOK}`;

  it('checked at start: the keys work, the sender points are the carriers’ own, and the shop subscribed itself to CDEK’s statuses once', async () => {
    const subscriptions = [...standin.webhooks.values()];
    expect(subscriptions).toEqual([{ uuid: expect.any(String) as string, type: 'ORDER_STATUS', url: hookUrl() }]);
    const admin = (await signedInOperator(shop, `delivery.admin.${Date.now()}@shop.ru`, 'admin')).visitor;
    const page = await admin.go('/ops/delivery');
    expect(page.status).toBe(200);
    const text = (id: string) =>
      new RegExp(`data-testid="${id}"[^>]*>([\\s\\S]*?)</(?:dd|span)>`)
        .exec(page.html)?.[1]
        ?.replace(/<[^>]+>/g, ' ')
        .replace(/\s+/g, ' ')
        .trim();
    expect(text('ops-carrier-cdek-host')).toBe('Свой адрес API');
    expect(text('ops-carrier-cdek-credentials')).toBe('Работают');
    expect(text('ops-carrier-cdek-sender')).toMatch(/^MSK1: MSK1, Москва, ул\. Тверская, ул\. Тверская, 10$/);
    expect(text('ops-carrier-cdek-webhook')).toContain('Служба присылает их сразу: подписка на');
    // The token is not shown on the page.
    expect(page.html).not.toContain(HOOK_TOKEN);
    expect(text('ops-carrier-boxberry-sender')).toMatch(/^68001: /);
    expect(text('ops-carrier-boxberry-webhook')).toBe('Служба не присылает статусы сама: магазин спрашивает их раз в час.');
    expect(page.html).not.toContain('data-testid="ops-carrier-cdek-missing"');

    // "Check now": asked again, and the subscription the account holds is not made twice.
    const posts = () => standin.calls.filter((c) => c.path === '/webhooks' && c.method === 'POST').length;
    const before = posts();
    const checked = await admin.go('/ops/delivery', { _csrf: Visitor.formToken(page.html), action: 'check' });
    expect(checked.status).toBe(303);
    expect(checked.headers.get('location')).toBe('/ops/delivery?done=checked');
    expect(posts()).toBe(before);
    expect([...standin.webhooks.values()]).toHaveLength(1);
    expect(standin.calls.filter((c) => c.path === '/deliverypoints' && c.query?.['code'] === 'MSK1').length).toBeGreaterThanOrEqual(2);
    // Managers do not set the shop up.
    const manager = (await signedInOperator(shop, `delivery.manager.${Date.now()}@shop.ru`, 'manager')).visitor;
    expect((await manager.go('/ops/delivery')).status).toBe(403);
    // A forged form changes nothing.
    expect((await admin.go('/ops/delivery', { action: 'check' })).status).toBe(403);
    expect((await admin.go('/ops/delivery', { _csrf: Visitor.formToken(page.html), action: 'drop' })).status).toBe(422);
  });

  it('a shop set up wrong says what is wrong: keys refused, a sender point the carrier does not know, what is missing, the last error', async () => {
    const wrong = await startTestServer({
      label: 'delivery-wrong',
      seedProducts: 20,
      env: {
        CDEK_API_URL: standin.url,
        CDEK_CLIENT_ID: ID,
        CDEK_CLIENT_SECRET: 'not-the-secret',
        DELIVERY_SENDER_POINT: 'NOPE1',
        BOXBERRY_TOKEN,
        BOXBERRY_API_URL: boxberry.url,
        BOXBERRY_SENDER_POINT: '99999',
        METRICS_TOKEN,
      },
    });
    try {
      await untilJobRuns(wrong.baseUrl, METRICS_TOKEN, 'check-carriers', 1);
      // Checkout's question meets the refused keys: the last error the console shows.
      await offers(wrong, 424, 1);
      const admin = (await signedInOperator(wrong, 'wrong.admin@shop.ru', 'admin')).visitor;
      await expect
        .poll(async () => (await admin.go('/ops/delivery')).html, { timeout: 10_000 })
        .toMatch(/data-testid="ops-carrier-cdek-error"[^>]*>[^<]*quotes:/);
      const page = await admin.go('/ops/delivery');
      expect(page.html).toContain('Служба их не принимает — покупатели видят только стандартные способы доставки');
      expect(page.html).toContain('CDEK_WEBHOOK_TOKEN — без него СДЭК не сообщает статусы сам');
      expect(page.html).toContain('DELIVERY_SENDER_ADDRESS, DELIVERY_SENDER_NAME и DELIVERY_SENDER_PHONE');
      expect(page.html).toContain('99999 — служба не знает такого пункта: заказы в неё не передать');
      expect(page.html).toMatch(/data-testid="ops-carrier-cdek-error"[^>]*>[^<]*quotes: CDEK refused the shop/);
    } finally {
      await wrong.stop();
    }
  });
});

describe('a shop without a carrier account', () => {
  it('answers every delivery call with the fallback, as before issue 38', async () => {
    const plain = await startTestServer({ label: 'delivery-plain', seedProducts: 10 });
    try {
      expect((await call(plain, '/api/v1/ecommerce-core/delivery/cities?q=Моск')).body.data).toEqual({ cities: [], fallback: 'not_configured' });
      expect((await call(plain, '/api/v1/ecommerce-core/delivery/points?city=44')).body.data).toEqual({ points: [], fallback: 'not_configured' });
      expect((await offers(plain, 44, 1)).body.data).toEqual({ offers: [], fallback: 'not_configured' });
    } finally {
      await plain.stop();
    }
  });
});

describe('shipments and tracking', () => {
  const API = '/api/v1/ecommerce-core';
  let manager: Visitor;
  let used = 10;

  beforeAll(async () => {
    manager = (await signedInOperator(shop, 'dispatch@example.ru', 'admin')).visitor;
    // The shop asks the carrier about its orders by itself (poll-shipments: a few seconds after the start, then
    // every ten minutes). These tests follow what the webhook does, so they begin once that first poll is over:
    // a poll between a test's steps would apply the stand-in's news on its own.
    await untilJobRuns(shop.baseUrl, METRICS_TOKEN, 'poll-shipments', 1);
  });

  async function inStockItem(): Promise<{ id: number; variant_code: string }> {
    for (; used < 60; used++) {
      const product = (await call<{ variants: { code: string; available: boolean }[] }>(shop, `${API}/product/${used + 1}`)).body.data;
      const variant = product?.variants.find((v) => v.available);
      if (variant) return { id: ++used, variant_code: variant.code };
    }
    throw new Error('nothing in stock');
  }

  /** A guest's order to a pickup point in St Petersburg (or by courier), placed with its quote and paid. */
  async function paidCarrierOrder(
    mode: 'pickup' | 'courier' = 'pickup',
    headers: Record<string, string> = {},
    email = 'vera.parcel@example.ru',
  ): Promise<string> {
    const item = await inStockItem();
    const offer = (await offers(shop, 137, [{ id: item.id, quantity: 1 }])).body.data?.offers.find((o) => o.mode === mode);
    if (!offer) throw new Error(`no ${mode} offer`);
    const point = mode === 'pickup' ? (await points('city=137&kind=office')).body.data?.points[0]?.code : undefined;
    const placed = await call<{ code: string; payment_url: string }>(shop, `${API}/checkout/place-order`, {
      method: 'POST',
      headers: { 'idempotency-key': crypto.randomUUID(), ...headers },
      body: JSON.stringify({
        ...(headers['authorization'] ? {} : { items: [{ ...item, quantity: 1 }] }),
        contact: { name: 'Вера Получатель', email, phone: '+7 (921) 555-44-33' },
        delivery: { method: 'pickup', city: 'Санкт-Петербург', address: 'Невский пр-т, 1', quote: offer.quote, ...(point ? { point } : {}) },
        payment: 'card',
      }),
    });
    expect(placed.status).toBe(201);
    const code = placed.body.data?.code ?? '';
    const paid = await fetch(`${shop.baseUrl}${API}/payments/test/${placed.body.data?.payment_url.split('/').pop()}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'sbp' }),
    });
    expect(paid.status).toBe(200);
    return code;
  }

  const ship = async (code: string) => {
    const page = await manager.go(`/ops/orders/${code}`);
    return manager.go(`/ops/orders/${code}`, { _csrf: Visitor.formToken(page.html), action: 'ship' });
  };
  const carrierOrders = (code: string) => [...standin.orders.values()].filter((o) => o.number === code);
  const hook = (body: unknown, path = HOOK, init: RequestInit = {}) =>
    fetch(shop.baseUrl + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept-language': 'ru' },
      body: JSON.stringify(body),
      ...init,
    });
  const orderStatus = async (code: string) => /data-testid="ops-order-status">\s*([^<]+?)\s*</.exec((await manager.go(`/ops/orders/${code}`)).html)?.[1];

  it('registers a paid order with CDEK once — a double click, a lost answer and a retry make one carrier order — with the point, recipient and items', async () => {
    const code = await paidCarrierOrder('pickup');
    // The carrier does the work but the answer is lost: the manager sees a failure and presses again.
    standin.loseNextAnswer(1);
    const lost = await ship(code);
    expect(lost.status).toBe(502);
    expect(lost.html).toContain('Служба доставки не отвечает');
    const page = await manager.go(`/ops/orders/${code}`);
    const token = Visitor.formToken(page.html);
    const [a, b] = await Promise.all([
      manager.go(`/ops/orders/${code}`, { _csrf: token, action: 'ship' }),
      manager.go(`/ops/orders/${code}`, { _csrf: token, action: 'ship' }),
    ]);
    expect([a.status, b.status].sort()).toEqual(a.status === 303 && b.status === 303 ? [303, 303] : [303, 409]);
    expect(carrierOrders(code)).toHaveLength(1);
    const body = carrierOrders(code)[0]?.body as Record<string, unknown>;
    expect(body).toMatchObject({
      type: 1,
      number: code,
      shipment_point: 'MSK1',
      delivery_point: expect.stringMatching(/^SPB/),
      recipient: { name: 'Вера Получатель', email: 'vera.parcel@example.ru', phones: [{ number: '+79215554433' }] },
      delivery_recipient_cost: { value: 0 },
    });
    // The parcel quoted at checkout: one item of no own weight or category default (1 kg, 30 × 25 × 10 cm).
    expect(body['packages']).toEqual([expect.objectContaining({ number: '1', weight: 1000, length: 30, width: 25, height: 10 })]);
    expect((body['packages'] as { items: { amount: number; payment: { value: number } }[] }[])[0]?.items).toEqual([
      expect.objectContaining({ amount: 1, payment: { value: 0 }, weight: 1000 }),
    ]);
    const shown = await manager.go(`/ops/orders/${code}`);
    expect(shown.html).toContain('Передан в СДЭК');
    expect(shown.html).toContain(`Номер отправления: ${carrierOrders(code)[0]?.cdekNumber}`);
    expect(shown.html).not.toContain('name="action" value="ship"');
    // Pressing once more answers the registered order as it is.
    expect((await ship(code)).status).toBe(303);
    expect(carrierOrders(code)).toHaveLength(1);
    const audit = await manager.go(`/ops/audit?object=order&id=${code}`);
    expect(audit.html).toContain('order.shipment');
  });

  it('prints the waybill the carrier made, as a PDF', async () => {
    const code = await paidCarrierOrder('courier');
    expect((await ship(code)).status).toBe(303);
    const res = await fetch(`${shop.baseUrl}/ops/orders/${code}/waybill.pdf`, {
      headers: { cookie: [...manager.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const pdf = Buffer.from(await res.arrayBuffer()).toString('latin1');
    expect(pdf.startsWith('%PDF-')).toBe(true);
    expect(pdf).toContain(carrierOrders(code)[0]?.cdekNumber);
    // A courier order goes to the door: the city's code and the address, no point.
    expect(carrierOrders(code)[0]?.body).toMatchObject({ to_location: { code: 137, address: 'Невский пр-т, 1' } });
    expect((await fetch(`${shop.baseUrl}/ops/orders/${code}/waybill.pdf`, { redirect: 'manual' })).status).toBe(303);
  });

  it('books one courier pickup a day for the parcels handed to the carrier', async () => {
    const list = await manager.go('/ops/orders');
    const booked = await manager.go('/ops/orders', { _csrf: Visitor.formToken(list.html), action: 'intake' });
    expect(booked.status, /role="alert"[^>]*>([^<]*)/.exec(booked.html)?.[1]).toBe(303);
    const shown = await manager.go(booked.headers.get('location') ?? '');
    expect(shown.html).toMatch(/Курьер вызван на \d{4}-\d{2}-\d{2}: посылок — [1-9]/);
    expect(standin.intakes).toHaveLength(1);
    expect(standin.intakes[0]).toMatchObject({
      from_location: { code: 44, address: 'Москва, ул. Тверская, 7' },
      sender: { phones: [{ number: '+74951234567' }] },
    });
    const again = await manager.go('/ops/orders', { _csrf: Visitor.formToken(shown.html), action: 'intake' });
    expect(again.status).toBe(409);
    expect(again.html).toContain('Курьер уже вызван на');
    expect(standin.intakes).toHaveLength(1);
  });

  it('follows the carrier: a webhook is read back, moves the order forward once, never back, mails at the point and at delivery, and credits points once', async () => {
    const register = await call<{ access_token: string }>(shop, `${API}/auth/customer-registration`, {
      method: 'POST',
      body: JSON.stringify({ email: `parcel.${Date.now()}@example.ru`, phone: '+7 (921) 555-44-33', password: 'посылка едет в Петербург' }),
    });
    const auth = { authorization: `Bearer ${register.body.data?.access_token}` };
    await call(shop, `${API}/customer/cart/store-cart-item`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ item: { ...(await inStockItem()), quantity: 1, uid: crypto.randomUUID() } }),
    });
    const code = await paidCarrierOrder('pickup', auth);
    expect((await ship(code)).status).toBe(303);
    const mailsAbout = () => readOutbox(shop.database.env['DATA_DIR'] as string).filter((m) => m.body.includes(code) || m.raw.includes(code));

    const shipped = standin.advance(code, 'RECEIVED_AT_SHIPMENT_WAREHOUSE');
    expect((await (await hook(shipped)).json()) as unknown).toMatchObject({ data: { status: 'shipped', moved: true } });
    const atPoint = standin.advance(code, 'ACCEPTED_AT_PICK_UP_POINT');
    const answers = await Promise.all([hook(atPoint), hook(atPoint), hook(atPoint)]);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(await orderStatus(code)).toBe('Ожидает в пункте выдачи');
    // The older event again, late: nothing moves back.
    expect((await (await hook(shipped)).json()) as unknown).toMatchObject({ data: { status: 'at_pickup_point', moved: false } });
    expect(await orderStatus(code)).toBe('Ожидает в пункте выдачи');

    const detail = await call<{
      status: string;
      history: { status: string }[];
      delivery: { carrier: { point: { hours: string } | null; number: string | null } | null };
    }>(shop, `${API}/customer/orders/${code}`, { headers: auth });
    expect(detail.body.data?.history.filter((h) => h.status === 'at_pickup_point')).toHaveLength(1);
    expect(detail.body.data?.delivery.carrier?.number).toBe(carrierOrders(code)[0]?.cdekNumber);
    // The mail is written once the change is made, after the webhook's answer.
    const mailed = async (text: string) => {
      for (let i = 0; i < 50 && !mailsAbout().some((m) => m.body.includes(text)); i++) await new Promise((r) => setTimeout(r, 100));
      return mailsAbout().filter((m) => m.body.includes(text));
    };
    const atPointMail = await mailed('ждёт вас');
    expect(atPointMail).toHaveLength(1);
    expect(atPointMail[0]?.body).toContain(`Часы работы: ${detail.body.data?.delivery.carrier?.point?.hours}`);

    const handed = standin.advance(code, 'DELIVERED');
    await Promise.all([hook(handed), hook(handed)]);
    expect(await orderStatus(code)).toBe('Доставлен');
    const bonus = await call<{ items: { reason: string; order_code?: string | null }[] }>(shop, `${API}/customer/balance-history?kind=bonus`, {
      headers: auth,
    });
    expect(JSON.stringify(bonus.body.data).match(/order_bonus/g)).toHaveLength(1);
    expect(await mailed('Доставлен')).toHaveLength(1);
  });

  it('a guest follows the parcel from the mail’s link: the result page’s title, status, history and tracking follow the order to its delivery', async () => {
    const email = `guest.follows.${Date.now()}@example.ru`;
    const code = await paidCarrierOrder('pickup', {}, email);
    // The confirmation mail's link is the guest's way back: the signed result page.
    let link = '';
    for (let i = 0; i < 50 && !link; i++) {
      const mail = readOutbox(shop.database.env['DATA_DIR'] as string).find((m) => m.raw.includes(email) && m.body.includes(code));
      link = /https?:\/\/[^\s"<>]*\/order-success\/BS-\d{8}\/[\w-]+/.exec(mail?.body ?? '')?.[0] ?? '';
      if (!link) await new Promise((r) => setTimeout(r, 100));
    }
    expect(link).toContain(`/order-success/${code}/`);
    const path = new URL(link).pathname;
    const result = async () => {
      const res = await fetch(shop.baseUrl + path, { headers: { 'accept-language': 'ru' }, redirect: 'manual' });
      expect(res.status).toBe(200);
      const html = await res.text();
      const text = (id: string) => new RegExp(`data-testid="${id}"[^>]*>([^<]*)<`).exec(html)?.[1]?.trim();
      return { html, title: /<title>([^<]*)<\/title>/.exec(html)?.[1], heading: text('result-title'), status: text('order-status'), news: text('result-news') };
    };

    let page = await result();
    expect(page.heading).toBe('Спасибо! Заказ оплачен');
    expect(page.status).toBe('В обработке');
    expect(page.html).toContain('data-testid="order-history"');

    expect((await ship(code)).status).toBe(303);
    await hook(standin.advance(code, 'RECEIVED_AT_SHIPMENT_WAREHOUSE'));
    page = await result();
    expect(page.heading).toBe('Заказ в пути');
    expect(page.title).toContain('Заказ в пути');
    expect(page.status).toBe('Отправлен');

    await hook(standin.advance(code, 'ACCEPTED_AT_PICK_UP_POINT'));
    page = await result();
    expect(page.heading).toBe('Заказ ждёт вас в пункте выдачи');
    expect(page.status).toBe('Ожидает в пункте выдачи');
    // The point and its hours, as the customer's order page and the mail say them.
    expect(page.news).toMatch(/^Заберите его: .+\. Часы работы: .+\.$/);
    const history = /data-testid="order-history"[\s\S]*?<\/ol>/.exec(page.html)?.[0] ?? '';
    expect(history).toContain('Отправлен');
    expect(history).toContain('Ожидает в пункте выдачи');

    await hook(standin.advance(code, 'DELIVERED'));
    page = await result();
    expect(page.heading).toBe('Заказ получен');
    expect(page.title).toContain('Заказ получен');
    expect(page.status).toBe('Доставлен');
    expect(page.html).not.toContain('Спасибо! Заказ оплачен');
    // Without the signature the page is nobody's.
    expect((await fetch(`${shop.baseUrl}/order-success/${code}/${'0'.repeat(20)}`, { redirect: 'manual' })).headers.get('location')).toBe('/404');
  });

  it('refuses a webhook that is forged, names an unknown order, is huge, has the wrong key or method — and changes nothing', async () => {
    const code = await paidCarrierOrder('pickup');
    expect((await ship(code)).status).toBe(303);
    const real = standin.advance(code, 'RECEIVED_AT_SHIPMENT_WAREHOUSE');
    // The carrier has the order at its office, but nobody has told the shop yet: every hostile call leaves it paid.
    const cases: [string, () => Promise<Response>, number][] = [
      ['another uuid', () => hook({ ...real, uuid: crypto.randomUUID() }), 404],
      ['an unknown order number', () => hook({ ...real, attributes: { ...(real['attributes'] as object), number: 'BS-00000001' } }), 404],
      ['another type', () => hook({ ...real, type: 'PRINT_FORM' }), 422],
      ['no uuid', () => hook({ type: 'ORDER_STATUS', attributes: {} }), 422],
      ['not JSON', () => hook('', HOOK, { body: '{"type":' }), 400],
      ['2 MB', () => hook({ ...real, padding: 'x'.repeat(2_000_000) }), 413],
      ['no key', () => hook(real, '/api/v1/ecommerce-core/delivery/cdek/webhook'), 403],
      ['a wrong key', () => hook(real, '/api/v1/ecommerce-core/delivery/cdek/webhook?token=cdek-hook-token-XXXXXXXXXX'), 403],
      ['GET', () => fetch(shop.baseUrl + HOOK), 404],
    ];
    for (const [name, send, status] of cases) {
      const res = await send();
      expect([name, res.status >= 400 && res.status < 500 ? res.status : `got ${res.status}`]).toEqual([
        name,
        status === 404 && name === 'GET' ? res.status : status,
      ]);
      expect(await orderStatus(code), name).toBe('В обработке');
    }
    expect((await hook(real)).status).toBe(200);
    expect(await orderStatus(code)).toBe('Отправлен');
  });
});

describe('the second carrier, Boxberry', () => {
  const API = '/api/v1/ecommerce-core';
  let manager: Visitor;
  beforeAll(async () => {
    manager = (await signedInOperator(shop, 'boxberry.desk@example.ru', 'manager')).visitor;
  });
  type Offer = { carrier: string; mode: string; price: number; quote: string; arrival_from: string; arrival_to: string };
  const kazan = (lines: Line[] = [{ id: 1, quantity: 1 }]) =>
    call<{ offers: Offer[]; fallback: string | null }>(shop, `${API}/delivery/options`, {
      method: 'POST',
      body: JSON.stringify({ city: 424, city_name: 'Казань', lines }),
    });

  it('offers its point and postamat beside CDEK’s, found by the city’s name, priced to a point, points listed with their carrier', async () => {
    const { body } = await kazan();
    const offered = body.data?.offers ?? [];
    expect(offered.filter((o) => o.carrier === 'boxberry').map((o) => o.mode)).toEqual(['pickup', 'postamat']);
    expect(offered.filter((o) => o.carrier === 'cdek').map((o) => o.mode)).toEqual(['pickup', 'postamat', 'courier']);
    // Boxberry's price to Kazan's first office for 1 kg, in kopecks: 180 + 2 × 90 + 35 roubles.
    expect(offered.find((o) => o.carrier === 'boxberry' && o.mode === 'pickup')).toMatchObject({ price: 39_500 });
    // Points first, then postamats, then the door; the cheaper first within each.
    const modes = offered.map((o) => o.mode);
    expect(modes).toEqual([...modes].sort((a, b) => ['pickup', 'postamat', 'courier'].indexOf(a) - ['pickup', 'postamat', 'courier'].indexOf(b)));
    const both = (await points(`city=424&city_name=${encodeURIComponent('Казань')}`)).body.data?.points ?? [];
    expect(new Set(both.map((p) => (p as Point & { carrier: string }).carrier))).toEqual(new Set(['cdek', 'boxberry']));
    const own = (await points(`city=424&city_name=${encodeURIComponent('Казань')}&carrier=boxberry&card=1`)).body.data?.points ?? [];
    expect(own.map((p) => p.code)).toEqual(['67001', '67003']);
    // A city Boxberry does not know: CDEK's offers alone.
    const vladimir = await call<{ offers: Offer[] }>(shop, `${API}/delivery/options`, {
      method: 'POST',
      body: JSON.stringify({ city: 94, city_name: 'Владимир', lines: [{ id: 1, quantity: 1 }] }),
    });
    expect(new Set(vladimir.body.data?.offers.map((o) => o.carrier))).toEqual(new Set(['cdek']));
  });

  it('a Boxberry order is placed with its point, registered once as a parcel with the shop’s number, and its label prints', async () => {
    let item: { id: number; variant_code: string } | undefined;
    for (let id = 60; !item && id > 0; id--) {
      const product = (await call<{ variants: { code: string; available: boolean }[] }>(shop, `${API}/product/${id}`)).body.data;
      const variant = product?.variants.find((v) => v.available);
      if (variant) item = { id, variant_code: variant.code };
    }
    // Product 60 weighs 3.6 kg in a 23 × 21 × 21 cm box of its own (beforeAll).
    expect(item?.id).toBe(60);
    const offer = (await kazan([{ id: 60, quantity: 1 }])).body.data?.offers.find((o) => o.carrier === 'boxberry' && o.mode === 'pickup');
    const placeWith = (point: string) =>
      call<{ code: string; payment_url: string }>(shop, `${API}/checkout/place-order`, {
        method: 'POST',
        headers: { 'idempotency-key': crypto.randomUUID() },
        body: JSON.stringify({
          items: [{ ...item, quantity: 1 }],
          contact: { name: 'Вера Боксберри', email: 'vera.bb@example.ru', phone: '+7 (921) 555-44-33' },
          delivery: { method: 'pickup', city: 'Казань', address: 'пункт выдачи', quote: offer?.quote, point },
          payment: 'card',
        }),
      });
    // CDEK's point for Boxberry's quote: not Boxberry's point.
    expect((await placeWith('C424-1')).status).toBe(422);
    const placed = await placeWith('67003');
    expect(placed.status).toBe(201);
    const code = placed.body.data?.code ?? '';
    await fetch(`${shop.baseUrl}${API}/payments/test/${placed.body.data?.payment_url.split('/').pop()}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'sbp' }),
    });
    const page = await manager.go(`/ops/orders/${code}`);
    expect(page.html).toMatch(/data-testid="ops-carrier"><p class="font-600">Boxberry<\/p><p>Пункт выдачи 67003/);
    const token = Visitor.formToken(page.html);
    const [a, b] = await Promise.all([
      manager.go(`/ops/orders/${code}`, { _csrf: token, action: 'ship' }),
      manager.go(`/ops/orders/${code}`, { _csrf: token, action: 'ship' }),
    ]);
    expect([a.status, b.status]).toContain(303);
    const parcels = [...boxberry.parcels.values()].filter((p) => p.orderId === code);
    expect(parcels).toHaveLength(1);
    expect(parcels[0]?.sdata).toMatchObject({
      order_id: code,
      vid: '1',
      payment_sum: '0',
      shop: { name: '67003', name1: '68001' },
      customer: { fio: 'Вера Боксберри', phone: '+79215554433', email: 'vera.bb@example.ru' },
      items: [expect.objectContaining({ quantity: '1', UnitName: 'шт.' })],
      weights: { weight: '3600', x: '23', y: '21', z: '21' },
    });
    const shown = await manager.go(`/ops/orders/${code}`);
    expect(shown.html).toContain('Передан в Boxberry');
    expect(shown.html).toContain(`Номер отправления: ${parcels[0]?.track}`);
    const label = await fetch(`${shop.baseUrl}/ops/orders/${code}/waybill.pdf`, {
      headers: { cookie: [...manager.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    expect(label.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await label.arrayBuffer()).toString('latin1')).toContain(parcels[0]?.track);
    // Boxberry pushes nothing: its webhook does not exist, and CDEK's does not know the parcel.
    const hook = await fetch(shop.baseUrl + HOOK, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'ORDER_STATUS', uuid: parcels[0]?.track, attributes: { number: code } }),
    });
    expect(hook.status).toBe(404);
  });
});

describe('automatic registration and polling', () => {
  it('registers paid orders of both carriers without a manager and applies what each says by asking it, once an hour at most', async () => {
    const own = await startCdekStandin(ID, SECRET);
    own.depotAcceptsAtOnce(true);
    const ownBoxberry = await startBoxberryStandin(BOXBERRY_TOKEN);
    ownBoxberry.depotAcceptsAtOnce(true);
    const auto = await startTestServer({
      label: 'delivery-auto',
      seedProducts: 10,
      env: {
        CDEK_API_URL: own.url,
        CDEK_CLIENT_ID: ID,
        CDEK_CLIENT_SECRET: SECRET,
        DELIVERY_SENDER_POINT: 'MSK1',
        BOXBERRY_TOKEN,
        BOXBERRY_API_URL: ownBoxberry.url,
        BOXBERRY_SENDER_POINT: '68001',
        DELIVERY_AUTO_REGISTER: '1',
        JOBS_EVERY_SECONDS: '1',
        METRICS_TOKEN,
      },
    });
    try {
      const API = '/api/v1/ecommerce-core';
      const items: { id: number; variant_code: string }[] = [];
      for (let id = 1; items.length < 2 && id < 30; id++) {
        const product = (await call<{ variants: { code: string; available: boolean }[] }>(auto, `${API}/product/${id}`)).body.data;
        const variant = product?.variants.find((v) => v.available);
        if (variant) items.push({ id, variant_code: variant.code });
      }
      const offered =
        (
          await call<{ offers: { carrier: string; mode: string; quote: string }[] }>(auto, `${API}/delivery/options`, {
            method: 'POST',
            body: JSON.stringify({ city: 424, city_name: 'Казань', lines: [{ id: items[0]?.id ?? 1, quantity: 1 }] }),
          })
        ).body.data?.offers ?? [];
      const placeAndPay = async (item: { id: number; variant_code: string } | undefined, delivery: Record<string, unknown>) => {
        const placed = await call<{ code: string; payment_url: string; hash: string }>(auto, `${API}/checkout/place-order`, {
          method: 'POST',
          headers: { 'idempotency-key': crypto.randomUUID() },
          body: JSON.stringify({
            items: [{ ...item, quantity: 1 }],
            contact: { name: 'Вера Автомат', email: 'vera.auto@example.ru', phone: '+7 (921) 555-44-33' },
            delivery: { city: 'Казань', ...delivery },
            payment: 'card',
          }),
        });
        await fetch(`${auto.baseUrl}${API}/payments/test/${placed.body.data?.payment_url.split('/').pop()}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ action: 'sbp' }),
        });
        return placed.body.data;
      };
      const byCdek = await placeAndPay(items[0], {
        method: 'courier',
        address: 'ул. Баумана, 1',
        quote: offered.find((o) => o.carrier === 'cdek' && o.mode === 'courier')?.quote,
      });
      const byBoxberry = await placeAndPay(items[1], {
        method: 'pickup',
        address: 'пункт выдачи',
        quote: offered.find((o) => o.carrier === 'boxberry' && o.mode === 'pickup')?.quote,
        point: '67001',
      });
      const detail = async (placed: typeof byCdek) =>
        (await call<{ status: string; delivery: { carrier: { number: string | null } | null } }>(auto, `${API}/orders/${placed?.code}?hash=${placed?.hash}`))
          .body.data;
      // The job registers them, then the poll finds each received by its carrier: shipped, with its number.
      const deadline = Date.now() + 30_000;
      let seen = [await detail(byCdek), await detail(byBoxberry)];
      while (Date.now() < deadline && seen.some((d) => d?.status !== 'shipped')) {
        await new Promise((r) => setTimeout(r, 300));
        seen = [await detail(byCdek), await detail(byBoxberry)];
      }
      const held = [...own.orders.values()].filter((o) => o.number === byCdek?.code);
      expect(held).toHaveLength(1);
      const parcel = [...ownBoxberry.parcels.values()].filter((p) => p.orderId === byBoxberry?.code);
      expect(parcel).toHaveLength(1);
      expect(seen).toMatchObject([
        { status: 'shipped', delivery: { carrier: { number: held[0]?.cdekNumber } } },
        { status: 'shipped', delivery: { carrier: { number: parcel[0]?.track } } },
      ]);
      const asked = () =>
        own.calls.filter((c) => c.path === `/orders/${held[0]?.uuid}`).length + ownBoxberry.calls.filter((c) => c.method === 'ListStatuses').length;
      const before = asked();
      // Polled: then not asked again within the hour, though the job runs every second here.
      await afterJobRuns(auto.baseUrl, METRICS_TOKEN, 'poll-shipments');
      expect(asked()).toBe(before);
      expect(before).toBeLessThanOrEqual(3);
    } finally {
      await auto.stop();
      await own.close();
      await ownBoxberry.close();
    }
  }, 90_000);
});
