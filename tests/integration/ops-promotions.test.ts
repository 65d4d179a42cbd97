// The console's promotions (issue 56, docs/promotions.md "The console") against a server of its own: a manager
// makes a sale on a brand and the checkout prices with it at once; a code promotion gets a typed code and a
// batch downloaded as CSV, and the codes work at checkout; absurd values are the form's messages, never rows;
// every change is in the audit log; a promotion paused while a shopper looks at the summary refuses the order
// (409) rather than charging more than was shown.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/lib/db/client.ts';
import type { CheckoutSummary, PlacedAnswer } from '../../src/features/checkout/checkout.schema.ts';
import { makeBrand, makeCategory, makeProduct, type MadeProduct } from '../support/factories.ts';
import { signedInOperator, Visitor } from '../support/ops.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

interface Prepared {
  coat: MadeProduct;
  scarf: MadeProduct;
  brandId: number;
  categoryId: number;
}

let server: TestServer & { prepared: Prepared | undefined };
let manager: Visitor;
const fx = () => server.prepared!;

beforeAll(async () => {
  server = await startTestServer<Prepared>({
    label: 'ops-promotions',
    seedProducts: 5,
    env: { TRUST_PROXY: '127.0.0.1,::1' },
    prepare: async ({ db }: Database) => {
      const coats = await makeCategory(db, { name: 'Пальто консоль', slug: 'palto-konsol' });
      const brand = await makeBrand(db, { name: 'Consolebrand', nameRu: 'Консольбренд', slug: 'consolebrand' });
      const other = await makeBrand(db, { name: 'Otherbrand', nameRu: 'Другойбренд', slug: 'otherbrand' });
      const coat = await makeProduct(db, {
        name: 'Пальто',
        slug: 'palto-konsol-1',
        brand,
        category: coats,
        price: 20_000,
        sizes: [{ label: 'M', stock: 100, max: 10 }],
      });
      const scarf = await makeProduct(db, {
        name: 'Шарф',
        slug: 'sharf-konsol-1',
        brand: other,
        category: coats,
        price: 5_000,
        sizes: [{ label: 'Единый', stock: 100, max: 10 }],
      });
      return { coat, scarf, brandId: brand.id, categoryId: coats.id };
    },
  });
  manager = (await signedInOperator(server, 'promo-manager@shop.ru', 'manager')).visitor;
}, 120_000);
afterAll(() => server?.stop());

let shoppers = 0;
const json = (body: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', 'accept-language': 'ru', 'x-forwarded-for': `10.9.0.${++shoppers}`, ...headers },
  body: JSON.stringify(body),
});
const item = (p: MadeProduct, quantity = 1) => ({ id: p.id, quantity, variant_code: p.variants[0]!.code });
const summary = async (items: object[], promo_code?: string) => {
  const res = await fetch(
    `${server.baseUrl}/api/v1/ecommerce-core/checkout/summary`,
    json({ items, delivery: { method: 'courier' }, ...(promo_code ? { promo_code } : {}) }),
  );
  return (await res.json()) as { data: CheckoutSummary };
};
const place = async (body: object) => {
  const res = await fetch(
    `${server.baseUrl}/api/v1/ecommerce-core/checkout/place-order`,
    json(
      {
        contact: { name: 'Вера Смирнова', email: `vera${++shoppers}@example.ru`, phone: '+7 (912) 000-11-22' },
        delivery: { method: 'courier', city: 'Москва', address: 'Арбат, 1' },
        ...body,
      },
      { 'idempotency-key': randomUUID() },
    ),
  );
  return { status: res.status, body: (await res.json()) as { data?: PlacedAnswer; message?: string } };
};

/** The promotion form as a manager fills it: a brand's percent off, unless told otherwise. */
const form = (fields: Record<string, string>) => ({
  action: 'save',
  name: 'Сезон Consolebrand',
  kind: 'percent',
  percent: '30',
  applies: 'some',
  [`brand_${fx().brandId}`]: 'on',
  status: 'active',
  ...fields,
});
/** Posts a promotion's form (new or saved) with the page's token: the answer and the promotion's id it went to. */
async function post(path: string, fields: Record<string, string>) {
  const page = await manager.go(path);
  const answer = await manager.go(path, { _csrf: Visitor.formToken(page.html), ...fields });
  const location = answer.headers.get('location') ?? '';
  return { ...answer, location, id: Number(/\/ops\/promotions\/(\d+)/.exec(location)?.[1] ?? 0) };
}
interface Shown {
  price: number;
  price_old: number | null;
  discount_percent: number;
  promotion?: string | null;
}
const product = async (id: number) => ((await (await fetch(`${server.baseUrl}/api/v1/ecommerce-core/product/${id}`)).json()) as { data: Shown }).data;
const listing = async (query: string) =>
  (
    (await (await fetch(`${server.baseUrl}/api/v1/ecommerce-core/products?category=${fx().categoryId}&${query}`)).json()) as {
      data: { products: (Shown & { id: number })[] };
    }
  ).data.products;
/** Asks until `check` holds: the other processes' and pages' caches follow the catalogue's version within seconds. */
async function eventually<T>(ask: () => Promise<T>, check: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await ask();
    if (check(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 250));
  }
}
/** A moment as the console's datetime-local field sends it with seconds (step=1), in Moscow time (UTC+3), `seconds` from now. */
const moscow = (seconds: number) => new Date(Date.now() + seconds * 1000 + 3 * 3_600_000).toISOString().slice(0, 19);
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/&nbsp;|\s+/g, ' ');

describe('promotions in the console', () => {
  it('a manager makes a sale on a brand: the list shows it running and the checkout prices with it at once', async () => {
    const before = await summary([item(fx().coat), item(fx().scarf)]);
    expect(before.data.promo_discount).toBe(0);

    const made = await post('/ops/promotions/new', form({}));
    expect(made.status).toBe(303);
    expect(made.location).toMatch(/^\/ops\/promotions\/\d+\?done=created$/);
    const page = await manager.go(made.location);
    expect(text(page.html)).toContain('Акция создана: цены на сайте обновятся через несколько секунд');
    expect(page.html).toContain('value="Сезон Consolebrand"');

    const list = await manager.go('/ops/promotions');
    expect(list.status).toBe(200);
    const row = new RegExp(`data-testid="ops-promotion-row-${made.id}"[\\s\\S]*?</tr>`).exec(list.html)?.[0] ?? '';
    expect(text(row)).toContain('Сезон Consolebrand');
    expect(text(row)).toContain('−30 % на товары');
    expect(text(row)).toContain('Действует');

    // The coat is Consolebrand's, the scarf is not.
    const after = await summary([item(fx().coat), item(fx().scarf)]);
    expect(after.data.lines.map((l) => l.promo_discount)).toEqual([6_000_00, 0]);
    expect(after.data.promotions.map((p) => p.name)).toEqual(['Сезон Consolebrand']);

    // Paused: the price is back, and the change is in the promotion's notes.
    const paused = await post(`/ops/promotions/${made.id}`, form({ status: 'paused' }));
    expect(paused.status).toBe(303);
    expect((await summary([item(fx().coat)])).data.promo_discount).toBe(0);
    const notes = await manager.go(`/ops/promotions/${made.id}`);
    expect(text(notes.html)).toContain('promotion.save: status: active → status: paused');
    expect(text(notes.html)).toContain('promo-manager@shop.ru');
    expect(text((await manager.go('/ops/promotions')).html)).toContain('На паузе');

    // Running again for the end sizes only: the coat in M is not among them; in the cart, M is priced as is.
    const ends = await post(`/ops/promotions/${made.id}`, form({ sizes: ' xs, 42/44 ;m ' }));
    expect(ends.status).toBe(303);
    expect((await manager.go(`/ops/promotions/${made.id}`)).html).toContain('value="XS, 42/44, M"');
    expect((await summary([item(fx().coat)])).data.promo_discount).toBe(6_000_00);
    await post(`/ops/promotions/${made.id}`, form({ sizes: 'XS, 42/44' }));
    expect((await summary([item(fx().coat)])).data.promo_discount).toBe(0);
    await post(`/ops/promotions/${made.id}`, form({ status: 'paused' }));
  });

  it.each([
    ['a percent of 0', { percent: '0' }, 'Процент — целое число от 1 до 100'],
    ['a percent over 100', { percent: '150' }, 'Процент — целое число от 1 до 100'],
    ['a negative percent', { percent: '-5' }, 'Процент — целое число от 1 до 100'],
    ['a percent kind without one', { percent: '' }, 'Процент — целое число от 1 до 100'],
    ['a negative amount', { kind: 'amount', amount: '-100' }, 'Сумма скидки — от 1 до 10 000 000 ₽'],
    ['an absurd amount', { kind: 'amount', amount: '99999999999' }, 'Сумма скидки — от 1 до 10 000 000 ₽'],
    ['a negative threshold', { kind: 'order_amount', amount: '500', threshold: '-1' }, 'Сумма заказа — от 0 до 10 000 000 ₽'],
    ['buy 0', { kind: 'buy_get', buy: '0', get: '1' }, '«Купи» и «получи» — целые числа от 1 до 99'],
    ['get missing', { kind: 'buy_get', buy: '2', get: '' }, '«Купи» и «получи» — целые числа от 1 до 99'],
    ['a cap of 0', { cap: '0' }, 'Предел скидки — от 1 до 10 000 000 ₽ или пусто'],
    ['a limit of 0', { limit_total: '0' }, 'Лимит — целое число от 1 до 10 000 000 или пусто'],
    ['an end before the start', { starts_at: '2027-03-01T10:00', ends_at: '2027-02-01T10:00' }, 'Акция должна закончиться позже, чем начнётся'],
    ['a date that is not one', { starts_at: '1 марта' }, 'Дата и время — в виде ДД.ММ.ГГГГ ЧЧ:ММ'],
    ['no target ticked', { products: '' }, 'Выберите, на что действует акция: категории, бренды или товары'],
    ['an unknown product', { products: '999999' }, 'Таких товаров нет: 999999'],
    ['products that are not numbers', { products: '1; DROP TABLE' }, 'Товары — номера через запятую, не больше 200'],
    ['sizes with markup', { sizes: 'XS, <script>' }, 'Размеры — через запятую, не больше 50, каждый до 20 знаков'],
    ['a size of 30 signs', { sizes: 'X'.repeat(30) }, 'Размеры — через запятую, не больше 50, каждый до 20 знаков'],
    ['a name of 10 KB', { name: 'Z'.repeat(10_240) }, 'Название акции — от 1 до 120 знаков'],
    ['an empty name', { name: '   ' }, 'Название акции — от 1 до 120 знаков'],
    ['an unknown kind', { kind: 'free_money' }, ''],
  ])("%s is refused with the form's message, the typed values kept, and no promotion made", async (_, fields, message) => {
    const count = async () => (text((await manager.go('/ops/promotions')).html).match(/Сезон Consolebrand|Проверка формы/g) ?? []).length;
    const before = await count();
    const sent = { ...form({ name: 'Проверка формы' }), ...fields };
    // "no target ticked": the brand's box left out.
    if (_ === 'no target ticked') delete (sent as Record<string, string>)[`brand_${fx().brandId}`];
    const refused = await post('/ops/promotions/new', sent);
    expect(refused.status).toBe(422);
    expect(text(refused.html)).toContain(message);
    // What was typed is still in the form (a 10 KB name is cut by the field's own length in a browser).
    const percent = (fields as Record<string, string>)['percent'];
    if (percent) expect(refused.html).toContain(`name="percent" value="${percent}"`);
    expect(await count()).toBe(before);
  });

  it('a code promotion: a typed code, a batch of 500 as CSV, each working at checkout once; clashes and an automatic promotion refused', async () => {
    const made = await post(
      '/ops/promotions/new',
      form({ name: 'Рассылка −10 %', kind: 'order_percent', percent: '10', threshold: '1000', applies: 'all', needs_code: 'on' }),
    );
    expect(made.status).toBe(303);
    const path = `/ops/promotions/${made.id}`;

    const typed = await post(path, { action: 'code', code: 'vesna26', code_limit: '' });
    expect(typed.location).toBe(`${path}?done=code`);
    const again = await post(path, { action: 'code', code: 'VESNA26', code_limit: '' });
    expect(again.status).toBe(409);
    expect(text(again.html)).toContain('Код VESNA26 уже есть');
    for (const [fields, message] of [
      [{ action: 'code', code: 'A B' }, 'Код — от 1 до 40 букв, цифр, «-» или «_»'],
      [{ action: 'code', code: 'X'.repeat(41) }, 'Код — от 1 до 40 букв, цифр, «-» или «_»'],
      [{ action: 'batch', count: '0', prefix: '' }, 'Количество кодов — от 1 до 10 000'],
      [{ action: 'batch', count: '10001', prefix: '' }, 'Количество кодов — от 1 до 10 000'],
      [{ action: 'batch', count: '5', prefix: 'с-кириллицей' }, 'Приставка — до 12 латинских букв и цифр'],
    ] as const) {
      const refused = await post(path, fields);
      expect(refused.status, JSON.stringify(fields)).toBe(422);
      expect(text(refused.html)).toContain(message);
    }

    const batch = await post(path, { action: 'batch', count: '500', prefix: 'mail', code_limit: '1' });
    expect(batch.location).toBe(`${path}?done=batch`);
    const csv = await fetch(`${server.baseUrl}${path}/codes.csv`, { headers: { cookie: [...manager.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toBe(`attachment; filename="promotion-${made.id}-codes.csv"`);
    const rows = (await csv.text()).trim().split('\r\n');
    expect(rows[0]).toBe('code,limit,uses,created_at');
    expect(rows[1]).toMatch(/^VESNA26,,0,\d{4}-/);
    const codes = rows.slice(2).map((r) => r.split(',')[0] as string);
    expect(codes).toHaveLength(500);
    expect(new Set(codes).size).toBe(500);
    for (const code of codes) expect(code).toMatch(/^MAIL[A-HJKMNP-Z2-9]{8}$/);
    // Without a session: the console's sign-in, never the codes.
    expect((await fetch(`${server.baseUrl}${path}/codes.csv`, { redirect: 'manual' })).status).toBe(303);

    // A batch code works once; the typed one applies too.
    const code = codes[0]!;
    expect((await summary([item(fx().scarf)], code)).data.promo_code).toEqual({ code, applied: true, reason: null });
    expect((await place({ items: [item(fx().scarf)], promo_code: code })).status).toBe(201);
    expect((await summary([item(fx().scarf)], code)).data.promo_code?.reason).toBe('Промокод уже использован максимальное число раз');
    expect((await summary([item(fx().scarf)], 'vesna26')).data.promo_discount).toBe(500_00);

    // Turning the code promotion automatic while it has codes, or codes for an automatic one: refused.
    const automatic = await post(path, form({ name: 'Рассылка −10 %', kind: 'order_percent', percent: '10', threshold: '1000', applies: 'all' }));
    expect(automatic.status).toBe(422);
    expect(text(automatic.html)).toContain('У акции есть коды (501): она может действовать только по промокоду');
    const sale = await post('/ops/promotions/new', form({ name: 'Без кода', status: 'paused' }));
    const refused = await post(`/ops/promotions/${sale.id}`, { action: 'code', code: 'NOCODE' });
    expect(text(refused.html)).toContain('Акция действует без кода');
    // A limit below the uses so far (two orders have used the promotion).
    expect((await place({ items: [item(fx().scarf)], promo_code: 'vesna26' })).status).toBe(201);
    const low = await post(
      path,
      form({ name: 'Рассылка −10 %', kind: 'order_percent', percent: '10', threshold: '1000', applies: 'all', needs_code: 'on', limit_total: '1' }),
    );
    expect(low.status).toBe(422);
    expect(text(low.html)).toContain('Лимит меньше, чем акцию уже применили (2)');
  });

  it('a promotion paused while the shopper looks at the summary: the order is refused with the reason, not charged more', async () => {
    const made = await post('/ops/promotions/new', form({ name: 'Полчаса скидок', percent: '25' }));
    const shown = await summary([item(fx().coat)]);
    expect(shown.data.promo_discount).toBe(5_000_00);
    await post(`/ops/promotions/${made.id}`, form({ name: 'Полчаса скидок', percent: '25', status: 'paused' }));

    const refused = await place({ items: [item(fx().coat)], shown_promo_discount: shown.data.promo_discount });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('Условия акции изменились. Проверьте сумму заказа');
    // An API client that sends no shown figure is charged what the order costs now.
    const placed = await place({ items: [item(fx().coat)] });
    expect(placed.status).toBe(201);
    expect(placed.body.data!.total).toBe(20_000_00 + (shown.data.delivery_price ?? 0));
  });

  it('a sale shows on the product page, the listing, its filters and sorting within seconds; one that starts at its time moves prices with nothing written', async () => {
    const coat = fx().coat.id;
    // The brand's sale of the test before is paused: its price is back within seconds.
    expect(
      await eventually(
        () => product(coat),
        (p) => p.price === 20_000_00,
      ),
    ).toMatchObject({ price: 20_000_00, price_old: null });
    const made = await post('/ops/promotions/new', form({ name: 'Пальто −40 %', percent: '40', cap: '7000' }));
    expect(made.status).toBe(303);
    // 40 % of 20,000 is 8,000, capped at 7,000.
    const sale = await eventually(
      () => product(coat),
      (p) => p.price === 13_000_00,
    );
    expect(sale).toMatchObject({ price: 13_000_00, price_old: 20_000_00, discount_percent: 35, promotion: 'Пальто −40 %' });
    const cheap = await listing('price_max=6000&sort=price_asc');
    expect(cheap.map((p) => p.id)).toEqual([fx().scarf.id]);
    const sorted = await listing('sort=price_asc&per_page=60');
    expect(sorted.find((p) => p.id === coat)).toMatchObject({ price: 13_000_00, price_old: 20_000_00, promotion: 'Пальто −40 %' });
    // The listing's card names the sale under its price, and the Yandex feed, at its next writing (its file
    // taken away, as when its refresh is due), offers the sale price with the price before as its oldprice.
    const page = await (await fetch(`${server.baseUrl}/c/${fx().categoryId}/x?sort=price_asc`)).text();
    expect(page).toMatch(/data-testid="card-promotion"[^>]*>\s*Пальто −40 %\s*</);
    rmSync(join(server.database.env['DATA_DIR']!, 'feeds', 'yandex.yml.gz'), { force: true });
    const feed = await (await fetch(`${server.baseUrl}/feeds/yandex.yml`)).text();
    expect(feed).toMatch(new RegExp(`group_id="${coat}"[^>]*>[\\s\\S]*?<price>13000</price><oldprice>20000</oldprice>`));
    expect((await listing('with_discount=1&per_page=60')).map((p) => p.id)).toContain(coat);
    // The product page's HTML (its JSON-LD offer too).
    const html = await (await fetch(`${server.baseUrl}/p/${coat}/palto-konsol-1`)).text();
    expect(html).toContain('"price":"13000.00"');
    expect(html).toMatch(/data-testid="product-promotion"[^>]*>\s*Пальто −40 %\s*</);
    // Archived: the price is back everywhere.
    await post(`/ops/promotions/${made.id}`, form({ name: 'Пальто −40 %', percent: '40', cap: '7000', status: 'archived' }));
    expect(
      await eventually(
        () => product(coat),
        (p) => p.price === 20_000_00,
      ),
    ).toMatchObject({ price: 20_000_00, price_old: null, promotion: null });

    // A sale that starts in eight seconds: the clock moves the prices when it starts, with no write then.
    const starts = moscow(8);
    const later = await post('/ops/promotions/new', form({ name: 'Через восемь секунд', percent: '10', starts_at: starts }));
    expect(later.status).toBe(303);
    expect((await product(coat)).price).toBe(20_000_00);
    const started = await eventually(
      () => product(coat),
      (p) => p.price === 18_000_00,
      30_000,
    );
    expect(started.price).toBe(18_000_00);
    await post(`/ops/promotions/${later.id}`, form({ name: 'Через восемь секунд', percent: '10', starts_at: starts, status: 'archived' }));
  }, 120_000);

  it('a shopper, or no one, cannot reach the promotions; the audit log lists them for an admin', async () => {
    const stranger = new Visitor(server.baseUrl);
    expect((await stranger.go('/ops/promotions')).status).toBe(303);
    expect((await stranger.go('/ops/promotions/new', { _csrf: 'x', ...form({}) })).status).toBe(403);
    const admin = (await signedInOperator(server, 'promo-admin@shop.ru', 'admin')).visitor;
    const log = await admin.go('/ops/audit?object=promotion');
    expect(log.status).toBe(200);
    expect(text(log.html)).toContain('promotion.create');
    expect(text(log.html)).toContain('promotion.batch');
  });
});
