// Payment on delivery (issue 55, docs/payments.md "Payment on delivery") through the shop's API, on the
// built server with its database, against the CDEK stand-in: offered only for a carrier's delivery to a
// point that takes payment (or by courier), within the owner's limit, to a shopper who has not refused
// too many such orders; the fee passed on shown before placing and exactly what is collected; the order
// goes to work at once and is registered with every item's amount to collect and the recipient's delivery
// fee, adding up to the total to the kopeck; the carrier's "delivered" makes it paid, its refusal counts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectConforms, type Envelope } from '../support/api.ts';
import { startCdekStandin, type CdekStandin } from '../support/cdek-standin.ts';
import { untilJobRuns } from '../support/jobs.ts';
import { until } from '../support/shop-process.ts';
import { readOutbox } from '../support/mail.ts';
import { signedInOperator, Visitor } from '../support/ops.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { formatPrice } from '../../src/lib/format.ts';
import { ean13 } from '../support/marking-codes.ts';

const API = '/api/v1/ecommerce-core';
const ID = 'cod-shop-account';
const SECRET = 'cod-shop-secret-42';
const METRICS_TOKEN = 'metrics-token-for-the-cod-tests-0123456';
const HOOK_TOKEN = 'cod-hook-token-0123456789';
let standin: CdekStandin;
let shop: TestServer & {
  prepared: { id: number; sizes: [string, string]; single: { id: number; variant_code: string }; marked: { id: number; variant_code: string } } | undefined;
};
const GS = '\u001d';
/** Product 27's first size is marked goods with this barcode: its units are packed with codes. */
const MARKED_BARCODE = ean13('460765432102');
let serials = 0;
const codeOf = () =>
  `01${MARKED_BARCODE.padStart(14, '0')}21${`Cd${String(++serials).padStart(4, '0')}-r/Tk%w`.slice(0, 13)}${GS}91FF01${GS}92${'Qm8Z6jpWb2Sy0aXsO9vKr7cMe1Gi5FtPd3JxVhNzAlL='}`;
let manager: Visitor;
/** Orders paid at the door and delivered by the tests, in order: the registers reconcile them. */
const deliveredAtDoor: { code: string; collected: number }[] = [];
/** A model in two sizes, one of each in stock: ordered both, kept one. */
let model: { id: number; sizes: [string, string] };

beforeAll(async () => {
  standin = await startCdekStandin(ID, SECRET);
  shop = await startTestServer({
    label: 'pay-on-delivery',
    seedProducts: 40,
    env: {
      CDEK_API_URL: standin.url,
      CDEK_CLIENT_ID: ID,
      CDEK_CLIENT_SECRET: SECRET,
      CARRIER_TIMEOUT_MS: '1000',
      DELIVERY_SENDER_POINT: 'MSK1',
      CDEK_WEBHOOK_TOKEN: HOOK_TOKEN,
      METRICS_TOKEN,
      PAY_ON_DELIVERY: '1',
      COD_FEE_PERCENT: '2',
      // Between the catalogue's cheap (5,000 ₽) and dear (80,000 ₽) products, set below: both are bought.
      COD_MAX_TOTAL: '30000',
      COD_REFUSALS_LIMIT: '1',
      SELLER_NAME: 'ООО «Брендшоп»',
      SELLER_INN: '7700000000',
      SELLER_PHONE: '+74951234567',
      SELLER_OWNERSHIP_FORM: '63',
    },
    prepare: async (db) => {
      await db.query('UPDATE products SET price = CASE WHEN id <= 30 THEN 500000 ELSE 8000000 END, price_old = NULL, free_delivery = false');
      const { rows } = await db.query(
        'SELECT product_id FROM product_variants WHERE product_id <= 30 GROUP BY product_id HAVING count(*) >= 2 ORDER BY product_id DESC LIMIT 2',
      );
      const [id, other] = rows.map((r) => Number(r['product_id']));
      const codes = async (product: number | undefined) =>
        (await db.query('SELECT code FROM product_variants WHERE product_id = $1 ORDER BY id LIMIT 2', [product])).rows.map((r) => String(r['code']));
      const sizes = await codes(id);
      const single = (await codes(other))[0] ?? '';
      // One of each: bought, a size is sold out; refused, it is on sale again.
      await db.query('UPDATE product_variants SET stock = 1, min_item = 1 WHERE code = ANY($1)', [[...sizes, single]]);
      // Product 26's first size, ten in stock: a customer orders two and keeps one.
      await db.query(
        'UPDATE product_variants SET stock = 10, min_item = 1, max_item = 5 WHERE id = (SELECT min(id) FROM product_variants WHERE product_id = 26)',
      );
      // Marked goods: product 27's first size, with its barcode (docs/marking.md).
      await db.query('UPDATE products SET marked = true WHERE id = 27');
      const marked =
        (await db.query('SELECT code FROM product_variants WHERE product_id = 27 ORDER BY id LIMIT 1')).rows.map((r) => String(r['code']))[0] ?? '';
      await db.query('UPDATE product_variants SET stock = 10, min_item = 1, max_item = 5, barcode = $1 WHERE code = $2', [MARKED_BARCODE, marked]);
      return {
        id: id ?? 0,
        sizes: [sizes[0] ?? '', sizes[1] ?? ''] as [string, string],
        single: { id: other ?? 0, variant_code: single },
        marked: { id: 27, variant_code: marked },
      };
    },
  });
  model = shop.prepared ?? { id: 0, sizes: ['', ''] };
  taken.add(model.id);
  taken.add(shop.prepared?.single.id ?? 0);
  taken.add(27);
  taken.add(26);
  manager = (await signedInOperator(shop, 'cod.manager@example.ru', 'admin')).visitor;
  // The shop's own poll of the carrier (a few seconds after the start) is over before the tests follow the webhook.
  await untilJobRuns(shop.baseUrl, METRICS_TOKEN, 'poll-shipments', 1);
}, 120_000);
afterAll(async () => {
  await shop?.stop();
  await standin?.close();
});

async function call<T>(path: string, init: RequestInit = {}, language = 'ru'): Promise<{ status: number; body: Envelope<T> }> {
  const res = await fetch(shop.baseUrl + path, { ...init, headers: { 'accept-language': language, 'content-type': 'application/json', ...init.headers } });
  const body = (await res.json()) as Envelope<T>;
  await expectConforms(shop.baseUrl, init.method ?? 'GET', path, res.status, body);
  return { status: res.status, body };
}

const taken = new Set<number>();
/** A product in stock not bought by another test: a cheap one (5,000 ₽), or a dear one (80,000 ₽) over the 30,000 ₽ limit. */
async function inStockItem(dear = false): Promise<{ id: number; variant_code: string }> {
  for (let id = dear ? 31 : 1; id <= (dear ? 40 : 30); id++) {
    if (taken.has(id)) continue;
    const product = (await call<{ variants: { code: string; available: boolean }[] }>(`${API}/product/${id}`)).body.data;
    const variant = product?.variants.find((v) => v.available);
    if (!variant) continue;
    taken.add(id);
    return { id, variant_code: variant.code };
  }
  throw new Error('nothing in stock at that price');
}

type Mode = 'pickup' | 'postamat' | 'courier';
async function quote(id: number, mode: Mode, quantity = 1): Promise<string> {
  const answer = await call<{ offers: { mode: string; quote: string }[] }>(`${API}/delivery/options`, {
    method: 'POST',
    body: JSON.stringify({ city: 137, lines: [{ id, quantity }] }),
  });
  const offer = answer.body.data?.offers.find((o) => o.mode === mode);
  if (!offer) throw new Error(`no ${mode} offer`);
  return offer.quote;
}

interface Summary {
  total: number;
  cod_fee: number;
  items_total: number;
  delivery_price: number;
  on_delivery: { available: boolean; reason: string | null };
  services: { try_on: boolean; partial: boolean };
}
const summary = (body: unknown, language = 'ru') => call<Summary>(`${API}/checkout/summary`, { method: 'POST', body: JSON.stringify(body) }, language);

interface Placed {
  code: string;
  total: number;
  status: string;
  payment_status: string;
  payment_url: string | null;
  result_url: string;
}
function place(body: Record<string, unknown>, language = 'ru') {
  return call<Placed>(
    `${API}/checkout/place-order`,
    { method: 'POST', headers: { 'idempotency-key': crypto.randomUUID() }, body: JSON.stringify(body) },
    language,
  );
}
const contact = (email: string) => ({ name: 'Ольга Примеркина', email, phone: '+7 (921) 555-44-33' });
const delivery = (q: string, point?: string) => ({
  method: 'pickup',
  city: 'Санкт-Петербург',
  address: 'Невский пр-т, 1',
  quote: q,
  ...(point ? { point } : {}),
});

const ship = async (code: string) => {
  const page = await manager.go(`/ops/orders/${code}`);
  return manager.go(`/ops/orders/${code}`, { _csrf: Visitor.formToken(page.html), action: 'ship' });
};
const hook = (body: unknown) =>
  fetch(`${shop.baseUrl}${API}/delivery/cdek/webhook?token=${HOOK_TOKEN}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
const carrierOrder = (code: string) => [...standin.orders.values()].find((o) => o.number === code);

describe('payment on delivery', () => {
  it('is offered for a point that takes it, with its fee in the total; not for one that does not, nor for the fixed methods — and says why', async () => {
    const item = await inStockItem();
    const q = await quote(item.id, 'pickup');
    const items = [{ ...item, quantity: 1 }];
    const card = await summary({ items, delivery: { method: 'pickup', quote: q, point: 'SPB1' }, payment: 'card' });
    expect(card.status).toBe(200);
    expect(card.body.data?.on_delivery).toEqual({ available: true, reason: null });
    expect(card.body.data?.cod_fee).toBe(0);
    const cod = await summary({ items, delivery: { method: 'pickup', quote: q, point: 'SPB1' }, payment: 'on_delivery' });
    const base = card.body.data?.total ?? 0;
    // 2 % of what is collected, to the kopeck, and in the total.
    expect(cod.body.data?.cod_fee).toBe(Math.round(base * 0.02));
    expect(cod.body.data?.total).toBe(base + Math.round(base * 0.02));
    // SPB4 does not take payment on delivery (the stand-in's allowed_cod), nor a fixed method.
    const refused = await summary({ items, delivery: { method: 'pickup', quote: q, point: 'SPB4' }, payment: 'on_delivery' });
    expect(refused.body.data?.on_delivery).toEqual({
      available: false,
      reason: 'Этот пункт выдачи не принимает оплату при получении — выберите другой или оплатите онлайн',
    });
    expect(refused.body.data?.cod_fee).toBe(0);
    const fixed = await summary({ items, delivery: { method: 'courier' }, payment: 'on_delivery' }, 'en');
    expect(fixed.body.data?.on_delivery.reason).toBe('Payment on delivery is for delivery by a carrier to a pickup point or by courier only');
  });

  it('places the order to work at once, registers it with every amount to collect adding up to the total, and is paid when the carrier delivers it', async () => {
    const item = await inStockItem();
    const q = await quote(item.id, 'pickup');
    const placed = await place({
      items: [{ ...item, quantity: 1 }],
      contact: contact('olga.cod@example.ru'),
      delivery: delivery(q, 'SPB1'),
      payment: 'on_delivery',
    });
    expect(placed.status).toBe(201);
    const order = placed.body.data;
    expect(order).toMatchObject({ status: 'processing', payment_status: 'on_delivery', payment_url: null });
    const code = order?.code ?? '';

    // It never waits for a payment: its history begins at processing.
    const hash = new URL(order?.result_url ?? '', shop.baseUrl).pathname.split('/').pop();
    const detail = await call<{ history: { status: string }[] }>(`${API}/orders/${code}?hash=${hash}`);
    expect(detail.body.data?.history.map((h) => h.status)).toEqual(['processing']);
    // The result page the shopper lands on says what to pay and how.
    const result = await (await fetch(`${shop.baseUrl}${order?.result_url}`)).text();
    expect(result).toContain('Спасибо! Заказ оформлен');
    expect(result).toContain('Оплатите его при получении');
    expect(result).toContain('Комиссия за оплату при получении');
    expect(result).toContain('К оплате при получении');
    expect(result).toContain('выдаст служба доставки при получении — на то, что вы оставите');
    // The confirmation mail (no payment mail will come).
    const dataDir = shop.database.env['DATA_DIR'] as string;
    for (let i = 0; i < 50 && !readOutbox(dataDir).some((m) => m.raw.includes(code)); i++) await new Promise((r) => setTimeout(r, 100));
    expect(readOutbox(dataDir).find((m) => m.raw.includes(code))?.body).toContain('Оплата при получении');

    // The console shows it to be paid on delivery, with the shopper's record, and may ship it before any payment.
    const page = await manager.go(`/ops/orders/${code}`);
    expect(page.html).toContain('При получении');
    expect(page.html).toContain('Отказы при получении: 0 из 0');
    expect((await ship(code)).status).toBe(303);
    const body = carrierOrder(code)?.body as {
      delivery_recipient_cost: { value: number };
      packages: { items: { amount: number; payment: { value: number; vat_rate: number | null } }[] }[];
      seller: Record<string, unknown>;
    };
    // CDEK's register names the seller on the receipt it issues as the shop's agent; the shop is without VAT here.
    expect(body.seller).toEqual({ name: 'ООО «Брендшоп»', inn: '7700000000', phone: '+74951234567', ownership_form: 63 });
    expect(body.packages[0]?.items.every((i) => i.payment.vat_rate === null)).toBe(true);
    const goods = body.packages[0]?.items.reduce((s, i) => s + Math.round(i.payment.value * 100) * i.amount, 0) ?? 0;
    expect(goods).toBeGreaterThan(0);
    expect(goods + Math.round(body.delivery_recipient_cost.value * 100)).toBe(order?.total);

    // Delivered: the carrier took the money.
    expect((await hook(standin.advance(code, 'DELIVERED'))).status).toBe(200);
    deliveredAtDoor.push({ code, collected: order?.total ?? 0 });
    const delivered = await manager.go(`/ops/orders/${code}`);
    expect(/data-testid="ops-order-payment">\s*([^<]+?)\s*</.exec(delivered.html)?.[1]).toBe('Оплачен');
  });

  it('refuses payment on delivery at a point that does not take it, over the limit, for a fixed method, and after a refusal at the door — 422 with the reason', async () => {
    const item = await inStockItem();
    const q = await quote(item.id, 'pickup');
    const items = [{ ...item, quantity: 1 }];
    const cases: [string, Record<string, unknown>, string, string][] = [
      [
        'a point without it',
        { delivery: delivery(q, 'SPB4') },
        'ru',
        'Этот пункт выдачи не принимает оплату при получении — выберите другой или оплатите онлайн',
      ],
      [
        'a postamat without it',
        { delivery: delivery(await quote(item.id, 'postamat'), 'SPBP6') },
        'en',
        'This pickup point does not take payment on delivery: choose another or pay online',
      ],
      [
        'a fixed method',
        { delivery: { method: 'courier', city: 'Казань', address: 'Баумана, 1' } },
        'ru',
        'Оплата при получении — только при доставке службой доставки в пункт выдачи или курьером',
      ],
    ];
    for (const [what, extra, language, reason] of cases) {
      const refused = await place({ items, contact: contact('refused.cases@example.ru'), payment: 'on_delivery', ...extra }, language);
      expect(refused.status, what).toBe(422);
      expect(refused.body.errors?.['payment'], what).toEqual([reason]);
    }
    const dear = await inStockItem(true);
    const over = await place({
      items: [{ ...dear, quantity: 1 }],
      contact: contact('refused.cases@example.ru'),
      delivery: delivery(await quote(dear.id, 'pickup'), 'SPB1'),
      payment: 'on_delivery',
    });
    expect(over.status).toBe(422);
    expect(over.body.errors?.['payment']).toEqual([`Заказ дороже ${formatPrice(3_000_000)} оплачивается только онлайн`]);
    // An order that comes back undelivered is a refusal at the door: with COD_REFUSALS_LIMIT=1 the shopper pays online from then on.
    const first = await place({ items, contact: contact('came.back@example.ru'), delivery: delivery(q, 'SPB1'), payment: 'on_delivery' });
    const code = first.body.data?.code ?? '';
    expect((await ship(code)).status).toBe(303);
    expect((await hook(standin.advance(code, 'ACCEPTED_AT_PICK_UP_POINT'))).status).toBe(200);
    expect((await hook(standin.advance(code, 'NOT_DELIVERED'))).status).toBe(200);
    const next = await inStockItem();
    const again = await place({
      items: [{ ...next, quantity: 1 }],
      contact: contact('Came.Back@example.ru'),
      delivery: delivery(await quote(next.id, 'pickup'), 'SPB1'),
      payment: 'on_delivery',
    });
    expect(again.status).toBe(422);
    expect(again.body.errors?.['payment']).toEqual(['Вам доступна только онлайн-оплата: несколько прошлых заказов не были выкуплены']);
    // The same order paid by card goes through.
    expect(
      (
        await place({
          items: [{ ...next, quantity: 1 }],
          contact: contact('came.back@example.ru'),
          delivery: delivery(await quote(next.id, 'pickup'), 'SPB1'),
          payment: 'card',
        })
      ).status,
    ).toBe(201);
    expect((await manager.go(`/ops/orders/${code}`)).html).toContain('Отказы при получении: 1 из 1');
  });

  /** Whether each of the model's two sizes can be bought now (the product page's sizes). */
  const sizesInStock = async () => {
    const product = (await call<{ variants: { code: string; available: boolean }[] }>(`${API}/product/${model.id}`)).body.data;
    return model.sizes.map((code) => product?.variants.find((v) => v.code === code)?.available);
  };

  it('tries on two sizes at a point with a fitting room, keeps one: the carrier is asked for both services, takes the money for the kept size, and the other is back on sale', async () => {
    const items = model.sizes.map((code) => ({ id: model.id, variant_code: code, quantity: 1 }));
    const q = await quote(model.id, 'pickup', 2);
    const services = async (point: string, payment = 'on_delivery', mode: Mode = 'pickup') =>
      (await summary({ items, delivery: { method: 'pickup', quote: mode === 'pickup' ? q : await quote(model.id, mode, 2), point }, payment })).body.data
        ?.services;
    // SPB1 has a fitting room, SPB2 does not; a postamat takes neither; paid online, neither is offered.
    expect(await services('SPB1')).toEqual({ try_on: true, partial: true });
    expect(await services('SPB2')).toEqual({ try_on: false, partial: true });
    expect(await services('SPBP7', 'on_delivery', 'postamat')).toEqual({ try_on: false, partial: false });
    expect(await services('SPB1', 'card')).toEqual({ try_on: false, partial: false });

    const order = { items, contact: contact('two.sizes@example.ru'), payment: 'on_delivery' };
    const refusals: [string, Record<string, unknown>, string, string][] = [
      [
        'trying on without a fitting room',
        { delivery: { ...delivery(q, 'SPB2'), try_on: true } },
        'delivery.try_on',
        'Здесь примерка недоступна: выберите пункт выдачи с примерочной или доставку курьером',
      ],
      [
        'paid online',
        { payment: 'card', delivery: { ...delivery(q, 'SPB1'), partial: true } },
        'delivery.partial',
        'Примерка и частичный выкуп — только при оплате при получении',
      ],
    ];
    for (const [what, extra, field, reason] of refusals) {
      const refused = await place({ ...order, ...extra });
      expect(refused.status, what).toBe(422);
      expect(refused.body.errors?.[field], what).toEqual([reason]);
    }
    expect(await sizesInStock()).toEqual([true, true]);

    const placed = await place({ ...order, delivery: { ...delivery(q, 'SPB1'), try_on: true, partial: true } });
    expect(placed.status).toBe(201);
    const code = placed.body.data?.code ?? '';
    // The catalogue follows a change of stock within its 2 s version poll.
    expect(await until(sizesInStock, (v) => v.every((a) => a === false), 'both sizes sold out')).toEqual([false, false]);
    expect((await ship(code)).status).toBe(303);
    const body = carrierOrder(code)?.body as { services?: { code: string }[]; packages: { items: { ware_key: string; payment: { value: number } }[] }[] };
    expect(body.services).toEqual([{ code: 'TRYING_ON' }, { code: 'PART_DELIV' }]);

    // The buyer keeps the first size and pays for it by card; the second goes back.
    const [kept, refusedSize] = model.sizes;
    const keptItem = body.packages[0]?.items.find((i) => i.ware_key === kept);
    expect((await hook(standin.advance(code, 'ACCEPTED_AT_PICK_UP_POINT'))).status).toBe(200);
    const handedOver = standin.advance(code, 'DELIVERED', { kept: { [refusedSize]: 0 }, paidBy: 'CARD' });
    expect((await hook(handedOver)).status).toBe(200);
    // The sizes' stock as the console shows it: the kept one sold, the refused one back (1 again).
    const stocks = async () => {
      const html = (await manager.go(`/ops/products/${model.id}`)).html;
      return [...html.matchAll(/name="stock_\d+"[^>]*value="(\d+)"/g)].slice(0, 2).map((m) => Number(m[1]));
    };
    expect(await stocks()).toEqual([0, 1]);
    // The same hand-over again (CDEK repeats, or someone replays it): nothing moves, nothing comes back twice.
    expect(await (await hook(handedOver)).json()).toMatchObject({ data: { status: 'delivered', moved: false } });
    expect(await stocks()).toEqual([0, 1]);
    expect(await until(sizesInStock, (v) => v[1] === true, 'the refused size on sale again')).toEqual([false, true]);

    // The order's pages say what was kept and what was paid.
    const detail = await call<{ payment_status: string; lines: { variant: string; kept: number | null }[]; delivery_result: { collected: number } | null }>(
      `${API}/orders/${code}?hash=${new URL(placed.body.data?.result_url ?? '', shop.baseUrl).pathname.split('/').pop()}`,
    );
    expect(detail.status).toBe(200);
    expect(detail.body.data?.payment_status).toBe('paid');
    expect(detail.body.data?.lines.map((l) => l.kept)).toEqual([1, 0]);
    const collected =
      Math.round((keptItem?.payment.value ?? 0) * 100) +
      Math.round(((body as unknown as { delivery_recipient_cost: { value: number } }).delivery_recipient_cost.value ?? 0) * 100);
    expect(detail.body.data?.delivery_result?.collected).toBe(collected);
    deliveredAtDoor.push({ code, collected });
    const page = await (await fetch(`${shop.baseUrl}${placed.body.data?.result_url}`)).text();
    expect(page).toContain('Не выкуплено — вернётся в магазин');
    expect(page).toContain(`Оплачено при получении картой: ${formatPrice(collected)}`);
    // The carrier's register's receipt, read back at once: its fiscal numbers, for the money taken.
    const receipt = /data-receipt="door"[\s\S]*?<\/li>/.exec(page)?.[0] ?? '';
    expect(receipt).toContain('Чек службы доставки');
    expect(receipt).toContain(formatPrice(collected));
    expect(receipt).toMatch(/ФН 9960440300000001, ФД \d+, ФП 3512345678/);
    expect(page.match(/data-receipt="door"/g)).toHaveLength(1);
  });

  it('marked goods at the door: each unit goes with its code and amount; the refused unit’s code is free to be packed again, the receipt carries the kept one’s', async () => {
    const marked = shop.prepared?.marked ?? { id: 0, variant_code: '' };
    const orderOf = async (email: string) => {
      const placed = await place({
        items: [{ ...marked, quantity: 2 }],
        contact: contact(email),
        delivery: { ...delivery(await quote(marked.id, 'pickup', 2), 'SPB1'), partial: true },
        payment: 'on_delivery',
      });
      expect(placed.status).toBe(201);
      return placed.body.data!;
    };
    const packWith = async (code: string, codes: string[]) => {
      const page = await manager.go(`/ops/orders/${code}/pack`);
      const fields = [...page.html.matchAll(/name="(\d+:\d+)"/g)].map((m) => m[1] as string);
      return manager.go(`/ops/orders/${code}/pack`, { _csrf: Visitor.formToken(page.html), ...Object.fromEntries(fields.map((f, i) => [f, codes[i] ?? ''])) });
    };
    const first = await orderOf('marked.door@example.ru');
    const codes = [codeOf(), codeOf()];
    expect((await packWith(first.code, codes)).status).toBe(303);
    expect((await ship(first.code)).status).toBe(303);
    const body = carrierOrder(first.code)?.body as {
      packages: { items: { ware_key: string; marking?: string; amount: number; payment: { value: number } }[] }[];
    };
    const positions = body.packages[0]?.items ?? [];
    expect(positions.map((i) => [i.marking, i.amount])).toEqual([
      [codes[0], 1],
      [codes[1], 1],
    ]);
    // The buyer keeps the first unit; the second, with its code, goes back.
    expect((await hook(standin.advance(first.code, 'ACCEPTED_AT_PICK_UP_POINT'))).status).toBe(200);
    expect((await hook(standin.advance(first.code, 'DELIVERED', { kept: { [positions[1]!.ware_key]: 0 }, paidBy: 'CASH' }))).status).toBe(200);
    const page = await (await fetch(`${shop.baseUrl}${first.result_url}`)).text();
    expect(page).toContain('Выкуплено 1 из 2');
    const receipt = /data-receipt="door"[\s\S]*?<\/li>/.exec(page)?.[0] ?? '';
    expect(receipt).toContain('коды маркировки: 1');
    expect(receipt).toContain(
      formatPrice(
        Math.round(positions[0]!.payment.value * 100) +
          Math.round((body as unknown as { delivery_recipient_cost: { value: number } }).delivery_recipient_cost.value * 100),
      ),
    );
    // The refused unit's code is sold no more: the same pair packs into the next order; the kept one's cannot.
    const second = await orderOf('marked.next@example.ru');
    const taken = await packWith(second.code, [codes[0]!, codeOf()]);
    expect(taken.status).toBe(422);
    expect((await packWith(second.code, [codes[1]!, codeOf()])).status).toBe(303);
  });

  it('a customer keeps one of two at the door: bonus points on the kept one only', async () => {
    const signed = await call<{ access_token: string }>(`${API}/auth/customer-registration`, {
      method: 'POST',
      body: JSON.stringify({ email: `kept.one.${crypto.randomUUID().slice(0, 8)}@example.ru`, phone: '+7 (921) 555-44-33', password: 'одну оставлю себе' }),
    });
    const auth = { authorization: `Bearer ${signed.body.data?.access_token}` };
    const product = (await call<{ variants: { code: string }[] }>(`${API}/product/26`)).body.data;
    const size = product?.variants[0]?.code ?? '';
    await call(`${API}/customer/cart/store-cart-item`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ item: { id: 26, variant_code: size, quantity: 2, uid: crypto.randomUUID() } }),
    });
    const placed = await call<Placed>(`${API}/checkout/place-order`, {
      method: 'POST',
      headers: { ...auth, 'idempotency-key': crypto.randomUUID() },
      body: JSON.stringify({
        contact: contact('kept.one@example.ru'),
        delivery: { ...delivery(await quote(26, 'pickup', 2), 'SPB1'), partial: true },
        payment: 'on_delivery',
      }),
    });
    expect(placed.status).toBe(201);
    const code = placed.body.data?.code ?? '';
    expect((await ship(code)).status).toBe(303);
    const bonus = async () => (await call<{ bonus_amount: number }>(`${API}/customer/dashboard`, { headers: auth })).body.data?.bonus_amount;
    expect(await bonus()).toBe(0);
    // One position of two units: the buyer takes one.
    expect((await hook(standin.advance(code, 'DELIVERED', { kept: { [size]: 1 }, paidBy: 'CASH' }))).status).toBe(200);
    // 5 % of the kept unit's 5,000 ₽, not of both.
    expect(await bonus()).toBe(25_000);
  });

  it('refused whole at the door: nothing charged, the stock back, the order ends as not collected', async () => {
    const item = shop.prepared?.single ?? { id: 0, variant_code: '' };
    const available = async () =>
      (await call<{ variants: { code: string; available: boolean }[] }>(`${API}/product/${item.id}`)).body.data?.variants.find(
        (v) => v.code === item.variant_code,
      )?.available;
    const placed = await place({
      items: [{ ...item, quantity: 1 }],
      contact: contact('refused.whole@example.ru'),
      delivery: delivery(await quote(item.id, 'pickup'), 'SPB3'),
      payment: 'on_delivery',
    });
    const code = placed.body.data?.code ?? '';
    // The last one: sold out (the catalogue follows within its 2 s version poll).
    expect(await until(available, (v) => v === false, 'sold out')).toBe(false);
    expect((await ship(code)).status).toBe(303);
    expect((await hook(standin.advance(code, 'ACCEPTED_AT_PICK_UP_POINT'))).status).toBe(200);
    expect((await hook(standin.advance(code, 'NOT_DELIVERED'))).status).toBe(200);
    expect(await until(available, (v) => v === true, 'on sale again')).toBe(true);
    const page = await (await fetch(`${shop.baseUrl}${placed.body.data?.result_url}`)).text();
    expect(page).toContain('Заказ не выкуплен');
    expect(page).toContain('ничего не списано');
    const ops = await manager.go(`/ops/orders/${code}`);
    expect(/data-testid="ops-order-payment">\s*([^<]+?)\s*</.exec(ops.html)?.[1]).toBe('Не выкуплен');
  });

  it('reconciles the carrier’s registers: each order’s money marked received once, the console listing what is still owed', async () => {
    const [first, second] = deliveredAtDoor;
    expect(second).toBeDefined();
    const row = (html: string, code: string) => new RegExp(`data-testid="ops-cod-${code}" data-state="(\\w+)"[\\s\\S]*?</tr>`).exec(html);
    const before = await manager.go('/ops/cod');
    expect(row(before.html, first!.code)?.[1]).toBe('owed');
    expect(row(before.html, second!.code)?.[1]).toBe('owed');
    // What is owed: every order paid at the door and delivered so far (these two among them).
    const owed = (html: string) =>
      Math.round(Number((/Должны магазину: ([\d\s\u00a0\u202f,]+)/.exec(html)?.[1] ?? '').replace(/[\s\u00a0\u202f]/g, '').replace(',', '.')) * 100);
    expect(owed(before.html)).toBeGreaterThanOrEqual(first!.collected + second!.collected);

    // CDEK pays the first order's money today, keeping 3 %; the shop reads the register at once.
    const today = new Date(Date.now() + 3 * 3_600_000).toISOString().slice(0, 10);
    standin.transfer(first!.code, today, 501);
    const reconcile = async () => {
      const page = await manager.go('/ops/cod');
      return manager.go('/ops/cod', { _csrf: Visitor.formToken(page.html), action: 'reconcile' });
    };
    expect((await reconcile()).status).toBe(303);
    const after = await manager.go('/ops/cod');
    const fee = Math.round(first!.collected * 0.03);
    expect(row(after.html, first!.code)?.[0]).toContain(`Переведено ${formatPrice(first!.collected - fee)} по реестру 501, комиссия ${formatPrice(fee)}`);
    expect(row(after.html, second!.code)?.[1]).toBe('owed');
    expect(owed(after.html)).toBe(owed(before.html) - first!.collected);

    // Listed again in another register, and the registers read again: nothing is marked twice.
    standin.transfer(first!.code, today, 502);
    expect((await reconcile()).status).toBe(303);
    const again = await manager.go('/ops/cod');
    expect(row(again.html, first!.code)?.[0]).toContain('по реестру 501');
    expect(standin.calls.filter((c) => c.path === '/registries').at(-1)?.query).toEqual({ date: today });
  });
});

describe('returns through the carrier', () => {
  /** A customer's order by card to SPB1, paid, shipped: its code and the customer's token. */
  async function shippedOrder(): Promise<{ code: string; auth: Record<string, string> }> {
    const signed = await call<{ access_token: string }>(`${API}/auth/customer-registration`, {
      method: 'POST',
      body: JSON.stringify({
        email: `return.${crypto.randomUUID().slice(0, 8)}@example.ru`,
        phone: '+7 (921) 555-44-33',
        password: 'вернуть через пункт выдачи',
      }),
    });
    const auth = { authorization: `Bearer ${signed.body.data?.access_token}` };
    const item = await inStockItem();
    await call(`${API}/customer/cart/store-cart-item`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ item: { ...item, quantity: 1, uid: crypto.randomUUID() } }),
    });
    const placed = await call<Placed>(`${API}/checkout/place-order`, {
      method: 'POST',
      headers: { ...auth, 'idempotency-key': crypto.randomUUID() },
      body: JSON.stringify({ contact: contact('return.buyer@example.ru'), delivery: delivery(await quote(item.id, 'pickup'), 'SPB1'), payment: 'card' }),
    });
    expect(placed.status).toBe(201);
    const paid = await call(`${API}/payments/test/${placed.body.data?.payment_url?.split('/').pop()}`, {
      method: 'POST',
      body: JSON.stringify({ action: 'sbp' }),
    });
    expect(paid.status).toBe(200);
    const code = placed.body.data?.code ?? '';
    expect((await ship(code)).status).toBe(303);
    return { code, auth };
  }

  it('a customer returns a delivered order through CDEK: the client return is made once, the order says where to hand it in, the console sees it', async () => {
    const { code, auth } = await shippedOrder();
    expect((await hook(standin.advance(code, 'DELIVERED'))).status).toBe(200);
    const asked = await call<{ delivery: { carrier: { return: string | null } } }>(`${API}/customer/orders/${code}/return`, { method: 'POST', headers: auth });
    expect(asked.status).toBe(200);
    const number = carrierOrder(code)?.cdekNumber ?? '';
    expect(asked.body.data?.delivery.carrier.return).toBe(
      `Возврат оформлен в СДЭК: отнесите посылку в любой пункт выдачи СДЭК и назовите номер отправления ${number}. Деньги вернём, когда посылка придёт в магазин.`,
    );
    expect(standin.clientReturns).toEqual([{ uuid: carrierOrder(code)?.uuid, body: { tariff_code: 136 } }]);
    // Asked again: the window's answer, and the carrier is not asked twice.
    expect((await call(`${API}/customer/orders/${code}/return`, { method: 'POST', headers: auth })).status).toBe(409);
    expect(standin.clientReturns).toHaveLength(1);
    expect((await manager.go(`/ops/orders/${code}`)).html).toContain('Покупатель оформил возврат через службу доставки');
  });

  it('the shop refuses a parcel before handing it over: CDEK is told once, the parcel comes back; a delivered one cannot be refused', async () => {
    const { code } = await shippedOrder();
    const refuse = async () => {
      const page = await manager.go(`/ops/orders/${code}`);
      return manager.go(`/ops/orders/${code}`, { _csrf: Visitor.formToken(page.html), action: 'refuse' });
    };
    expect((await hook(standin.advance(code, 'ACCEPTED_AT_PICK_UP_POINT'))).status).toBe(200);
    expect((await refuse()).status).toBe(303);
    expect(standin.refusals).toEqual([carrierOrder(code)?.uuid]);
    const page = await manager.go(`/ops/orders/${code}`);
    expect(page.html).toContain('Отказ от отправки передан в службу доставки');
    expect(page.html).not.toContain('Отказаться от отправки');
    // CDEK's NOT_DELIVERED comes back by the webhook: the order is returned.
    const order = carrierOrder(code);
    expect((await hook({ type: 'ORDER_STATUS', uuid: order?.uuid, attributes: { number: code, code: 'NOT_DELIVERED' } })).status).toBe(200);
    expect(/data-testid="ops-order-status">\s*([^<]+?)\s*</.exec((await manager.go(`/ops/orders/${code}`)).html)?.[1]).toBe('Возвращён отправителю');

    const delivered = await shippedOrder();
    expect((await hook(standin.advance(delivered.code, 'DELIVERED'))).status).toBe(200);
    const late = await manager.go(`/ops/orders/${delivered.code}`);
    expect(late.html).not.toContain('Отказаться от отправки');
    const forced = await manager.go(`/ops/orders/${delivered.code}`, { _csrf: Visitor.formToken(late.html), action: 'refuse' });
    expect(forced.status).toBe(409);
    expect(forced.html).toContain('Заказ уже вручён или вернулся: отказаться от отправки нельзя');
  });
});
