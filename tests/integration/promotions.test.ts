// Promotions and codes at checkout (issue 56, docs/promotions.md) against a server of its own: an automatic
// sale on shoes and free delivery from a threshold show in the summary and in the order; each refused code
// says why in Russian; 200 checkouts at once with a single-use code make exactly one order with it (on
// PostgreSQL from two processes), and the unpaid order's release gives the use back once; a per-customer
// limit holds for a guest who comes back with another e-mail; junk codes are 422s with field messages.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/lib/db/client.ts';
import type { CheckoutSummary, PlacedAnswer } from '../../src/features/checkout/checkout.schema.ts';
import { expectConforms } from '../support/api.ts';
import { OneC } from '../support/one-c.ts';
import { formatPrice } from '../../src/lib/format.ts';
import { makeBrand, makeCategory, makeProduct, type MadeProduct } from '../support/factories.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

interface Prepared {
  boots: MadeProduct;
  dress: MadeProduct;
  bag: MadeProduct;
}

let server: TestServer & { prepared: Prepared | undefined };
let second: TestServer | undefined;
const fx = () => server.prepared!;
const postgres = Boolean(process.env['DATABASE_URL']);

async function promotion(
  db: Database['db'],
  p: { name: string; rule: object; target?: object; cap?: number; code?: string; codeLimit?: number; perCustomer?: number; starts?: string; ends?: string },
): Promise<void> {
  const target = p.target ?? { all: true, productIds: [], categoryIds: [], brandIds: [] };
  const rows = (await db.execute(
    sql`INSERT INTO promotions (name, rule, target, cap, needs_code, limit_per_customer, starts_at, ends_at)
        VALUES (${p.name}, ${JSON.stringify(p.rule)}::jsonb, ${JSON.stringify(target)}::jsonb, ${p.cap ?? null}, ${Boolean(p.code)},
                ${p.perCustomer ?? null}, ${p.starts ?? null}, ${p.ends ?? null})
        RETURNING id`,
  )) as unknown as { rows: { id: number }[] };
  const id = rows.rows[0]!.id;
  if (p.code) await db.execute(sql`INSERT INTO promotion_codes (promotion_id, code, limit_total) VALUES (${id}, ${p.code}, ${p.codeLimit ?? null})`);
}

beforeAll(async () => {
  server = await startTestServer<Prepared>({
    label: 'promotions',
    seedProducts: 20,
    // Six seconds of reservation: an unpaid order with a code is released (and its use given back) in the test.
    // Each shopper from an address of their own, as behind a proxy: the checkout's per-address limit (200 in
    // 10 minutes) is not what this file tests.
    env: { PAYMENT_TIMEOUT_MINUTES: '0.1', TRUST_PROXY: '127.0.0.1,::1', EXCHANGE_LOGIN: 'onec', EXCHANGE_PASSWORD: 'акции-в-1с-2026' },
    prepare: async ({ db }: Database) => {
      const shoes = await makeCategory(db, { name: 'Обувь акции', slug: 'obuv-akcii' });
      const dresses = await makeCategory(db, { name: 'Платья акции', slug: 'platya-akcii' });
      const brand = await makeBrand(db, { name: 'Promotest', nameRu: 'Промотест', slug: 'promotest' });
      const other = await makeBrand(db, { name: 'Elsewhere', nameRu: 'Другой', slug: 'elsewhere' });
      const boots = await makeProduct(db, {
        name: 'Ботинки',
        slug: 'botinki-akcii',
        brand,
        category: shoes,
        price: 12_000,
        sizes: [{ label: '38', stock: 500, max: 10 }],
      });
      const dress = await makeProduct(db, {
        name: 'Платье',
        slug: 'plate-akcii',
        brand,
        category: dresses,
        price: 7_999.99,
        sizes: [{ label: 'S', stock: 500, max: 10 }],
      });
      const bag = await makeProduct(db, {
        name: 'Сумка',
        slug: 'sumka-akcii',
        brand: other,
        category: dresses,
        price: 3_000,
        sizes: [{ label: 'Единый', stock: 500, max: 10 }],
      });
      await promotion(db, {
        name: 'Обувь −20 %',
        rule: { kind: 'percent', percent: 20 },
        target: { all: false, productIds: [], categoryIds: [shoes.id], brandIds: [] },
      });
      await promotion(db, { name: 'Доставка бесплатно от 10 000 ₽', rule: { kind: 'delivery', percent: 100, threshold: 10_000_00, methods: [] } });
      await promotion(db, { name: 'Разовый', rule: { kind: 'order_percent', percent: 10, threshold: 0 }, code: 'ONCE', codeLimit: 1 });
      await promotion(db, { name: 'Скоро', rule: { kind: 'order_percent', percent: 10, threshold: 0 }, code: 'LATER', starts: '2099-01-01T00:00:00Z' });
      await promotion(db, { name: 'Прошло', rule: { kind: 'order_percent', percent: 10, threshold: 0 }, code: 'OLD', ends: '2020-01-01T00:00:00Z' });
      await promotion(db, { name: 'От 50 000', rule: { kind: 'order_amount', amount: 500_00, threshold: 50_000_00 }, code: 'BIG' });
      await promotion(db, { name: 'Один раз в руки', rule: { kind: 'order_amount', amount: 300_00, threshold: 0 }, code: 'MINE', perCustomer: 1 });
      await promotion(db, {
        name: 'Только Другой',
        rule: { kind: 'percent', percent: 5 },
        target: { all: false, productIds: [], categoryIds: [], brandIds: [other.id] },
        code: 'OTHER',
      });
      await promotion(db, {
        name: 'Размер S',
        rule: { kind: 'percent', percent: 10 },
        target: { all: true, productIds: [], categoryIds: [], brandIds: [], sizes: ['S'] },
        code: 'SIZE-S',
      });
      await promotion(db, {
        name: 'Слабый',
        rule: { kind: 'percent', percent: 1 },
        target: { all: false, productIds: [], categoryIds: [shoes.id], brandIds: [] },
        code: 'WEAK',
      });
      return { boots, dress, bag };
    },
  });
  if (postgres)
    second = await startTestServer({
      label: 'promotions-second',
      database: server.database,
      env: { AUTO_MIGRATE: 'false', PAYMENT_TIMEOUT_MINUTES: '0.1', TRUST_PROXY: '127.0.0.1,::1' },
    });
}, 120_000);
afterAll(async () => {
  await second?.stop();
  await server?.stop();
});

const contact = { name: 'Анна Иванова', email: 'anna@example.ru', phone: '+7 (999) 123-45-67' };
const delivery = { method: 'courier', city: 'Москва', address: 'Тверская, 7, кв. 12' };
const item = (p: MadeProduct, quantity = 1) => ({ id: p.id, quantity, variant_code: p.variants[0]!.code });

async function call<T>(
  path: string,
  init: RequestInit = {},
  base = server.baseUrl,
): Promise<{ status: number; body: { success: boolean; data?: T; message?: string; errors?: Record<string, string[]> } }> {
  const res = await fetch(new URL(path, base), init);
  const body = (await res.json()) as { success: boolean; data?: T; message?: string; errors?: Record<string, string[]> };
  // One build answers on both processes: its contract is read once, from the first (not asked for under the flood).
  await expectConforms(server.baseUrl, init.method ?? 'GET', path, res.status, body);
  return { status: res.status, body };
}
let shoppers = 0;
/** A shopper's own address (10.x.y.z), named to the server as its proxy would. */
const address = () => {
  const n = ++shoppers;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
};
const json = (body: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-forwarded-for': address(), ...headers },
  body: JSON.stringify(body),
});
const summary = (body: object) => call<CheckoutSummary>('/api/v1/ecommerce-core/checkout/summary', json({ delivery: { method: 'courier' }, ...body }));
const place = (body: object, base = server.baseUrl) =>
  call<PlacedAnswer>('/api/v1/ecommerce-core/checkout/place-order', json({ contact, delivery, ...body }, { 'idempotency-key': randomUUID() }), base);

describe('promotions at checkout', () => {
  it('an automatic sale on shoes and free delivery from 10,000 ₽ show in the summary and stay in the order', async () => {
    const s = await summary({ items: [item(fx().boots), item(fx().dress)] });
    expect(s.status).toBe(200);
    const d = s.body.data!;
    expect(d.items_total).toBe(12_000_00 + 7_999_99);
    expect(d.lines.map((l) => l.promo_discount)).toEqual([2_400_00, 0]);
    expect(d.promo_discount).toBe(2_400_00);
    expect(d.delivery_price).toBe(0);
    expect(d.delivery_discount).toBeGreaterThan(0);
    expect(d.promotions.map((p) => p.name)).toEqual(['Обувь −20 %', 'Доставка бесплатно от 10 000 ₽']);
    expect(d.total).toBe(9_600_00 + 7_999_99);

    const placed = await place({ items: [item(fx().boots), item(fx().dress)] });
    expect(placed.status).toBe(201);
    expect(placed.body.data!.total).toBe(d.total);
    // The order's page names each promotion with what it took off.
    const result = await (await fetch(new URL(placed.body.data!.result_url, server.baseUrl))).text();
    expect(result).toMatch(/data-testid="order-promotion"[^>]*>\s*<dt[^>]*>\s*Обувь −20 %/);
    expect(result).toContain(`−${formatPrice(2_400_00)}`);
    expect(result).toMatch(/Доставка бесплатно от 10 000 ₽\s*· Доставка/);
    // 1C reads the sale as the boots line's own discount, counted in its sum (docs/exchange-1c.md).
    const xml = await new OneC(`${server.baseUrl}/exchange/1c`, 'onec', 'акции-в-1с-2026').takeOrders(false);
    const document = new RegExp(`<Документ><Ид>${placed.body.data!.code}</Ид>[\\s\\S]*?</Документ>`).exec(xml)?.[0] ?? '';
    expect(document).toContain('<Наименование>Promotest Ботинки (38)</Наименование>');
    // The minus sign is not in windows-1251: a character reference, as every such character is.
    expect(document).toContain(
      '<ЦенаЗаЕдиницу>12000.00</ЦенаЗаЕдиницу><Количество>1</Количество><Сумма>9600.00</Сумма><Скидки><Скидка><Наименование>Обувь &#8722;20 %</Наименование><Сумма>2400.00</Сумма><УчтеноВСумме>true</УчтеноВСумме></Скидка></Скидки>',
    );
    expect(document).toContain('<ЦенаЗаЕдиницу>7999.99</ЦенаЗаЕдиницу><Количество>1</Количество><Сумма>7999.99</Сумма><ЗначенияРеквизитов>');
    // Free delivery by the promotion: still a line, at its price before, the promotion its Скидка, its sum 0.
    const deliveryBefore = (d.delivery_discount / 100).toFixed(2);
    expect(document).toMatch(
      new RegExp(
        `<ЦенаЗаЕдиницу>${deliveryBefore}</ЦенаЗаЕдиницу><Количество>1</Количество><Сумма>0.00</Сумма><Скидки><Скидка><Наименование>Доставка бесплатно от 10 000 [^<]+</Наименование><Сумма>${deliveryBefore}</Сумма><УчтеноВСумме>true</УчтеноВСумме>`,
      ),
    );
    // Under the threshold after the sale: delivery is paid.
    const small = await summary({ items: [item(fx().bag)] });
    expect(small.body.data!.delivery_discount).toBe(0);
    expect(small.body.data!.delivery_price).toBeGreaterThan(0);
  });

  it('a code for one size takes off that size only, and is refused for a cart without it', async () => {
    const s = await summary({ items: [item(fx().boots), item(fx().dress)], promo_code: 'size-s' });
    expect(s.body.data!.promo_code).toEqual({ code: 'size-s', applied: true, reason: null });
    expect(s.body.data!.lines.map((l) => l.promo_discount)).toEqual([2_400_00, 800_00]);
    const none = await summary({ items: [item(fx().boots)], promo_code: 'SIZE-S' });
    expect(none.body.data!.promo_code?.reason).toBe('В корзине нет товаров, на которые действует промокод');
  });

  it.each([
    ['NOPE', 'Такого промокода нет'],
    ['later', 'Промокод начнёт действовать 01.01.2099'],
    ['OLD', 'Срок действия промокода истёк'],
    ['BIG', `Промокод действует при заказе от ${formatPrice(50_000_00)}`],
    ['OTHER', 'В корзине нет товаров, на которые действует промокод'],
    ['WEAK', 'Промокод не применён: действующая акция выгоднее'],
  ])('a code %s is refused in the summary with its reason, and at placement with a 409', async (code, reason) => {
    const s = await summary({ items: [item(fx().boots)], promo_code: code });
    expect(s.status).toBe(200);
    expect(s.body.data!.promo_code).toEqual({ code, applied: false, reason });
    const placed = await place({ items: [item(fx().boots)], promo_code: code });
    expect(placed.status).toBe(409);
    expect(placed.body.message).toBe(reason);
  });

  it.each([
    ['a NUL', 'ONCE\u0000'],
    ['10 KB', 'A'.repeat(10_240)],
    ['spaces inside', 'ON CE'],
    ['markup', '<script>alert(1)</script>'],
    ['an empty string', '   '],
  ])('a code with %s is a 422 naming the field', async (_, code) => {
    const s = await summary({ items: [item(fx().dress)], promo_code: code });
    expect(s.status).toBe(422);
    expect(Object.keys(s.body.errors ?? {})).toEqual(['promo_code']);
  });

  it('200 checkouts at once with a single-use code make exactly one order with it; its release gives the use back once', async () => {
    const body = { items: [item(fx().dress)], promo_code: 'once' };
    expect((await summary(body)).body.data!.promo_code).toEqual({ code: 'once', applied: true, reason: null });
    const bases = second ? [server.baseUrl, second.baseUrl] : [server.baseUrl];
    const results = await Promise.all(Array.from({ length: 200 }, (_, i) => place(body, bases[i % bases.length])));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    // The rest: the limit (409), or turned away by admission on a slow machine (503).
    expect(statuses.every((s) => s === 201 || s === 409 || s === 503)).toBe(true);
    expect(results.find((r) => r.status === 409)?.body.message).toBe('Промокод уже использован максимальное число раз');
    const winner = results.find((r) => r.status === 201)!.body.data!;
    expect(winner.total).toBe(7_999_99 - 800_00 + (await summary({ items: [item(fx().dress)] })).body.data!.delivery_price);

    // The order stays unpaid: after its six seconds the next placement releases it, and the code is free again, once.
    await new Promise((done) => setTimeout(done, 6_500));
    await place({ items: [item(fx().bag)] });
    const again = await Promise.all([place(body), place(body), place(body)]);
    expect(again.map((r) => r.status).sort()).toEqual([201, 409, 409]);
  }, 120_000);

  it('guessing codes from one address: 20 unknown ones, then 429 with Retry-After, for a right code too', async () => {
    const from = { 'x-forwarded-for': '192.0.2.77' };
    const guess = (code: string) =>
      call<CheckoutSummary>(
        '/api/v1/ecommerce-core/checkout/summary',
        json({ delivery: { method: 'courier' }, items: [item(fx().dress)], promo_code: code }, from),
      );
    for (let i = 0; i < 20; i++) expect((await guess(`GUESS${i}`)).status).toBe(200);
    const blocked = await guess('GUESS20');
    expect(blocked.status).toBe(429);
    expect(blocked.body.message).toBe('Слишком много запросов. Попробуйте позже');
    expect((await guess('MINE')).status).toBe(429);
    // Another address is not held back, though its request may come on the same keep-alive connection from
    // the proxy (the server took the connection's previous visitor for its peer until this test).
    expect((await summary({ items: [item(fx().dress)], promo_code: 'GUESS21' })).status).toBe(200);
  });

  it('a per-customer limit holds for a guest who comes back with the same phone and another e-mail', async () => {
    const first = await place({ items: [item(fx().bag)], promo_code: 'MINE' });
    expect(first.status).toBe(201);
    const back = await place({ items: [item(fx().bag)], promo_code: 'MINE', contact: { ...contact, email: 'other@example.ru' } });
    expect(back.status).toBe(409);
    expect(back.body.message).toBe('Вы уже использовали этот промокод');
    const stranger = await place({
      items: [item(fx().bag)],
      promo_code: 'MINE',
      contact: { name: 'Олег', email: 'oleg@example.ru', phone: '+7 (999) 000-11-22' },
    });
    expect(stranger.status).toBe(201);
  });
});
