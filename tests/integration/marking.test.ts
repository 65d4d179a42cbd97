// Marked goods at packing (issue 39): the built shop with the CDEK stand-in, an order with marked and
// unmarked lines, a manager scanning codes on /ops/orders/{code}/pack — as a scanner types them (with GS,
// without, with `]d2`, in the Russian layout) and as they go wrong (another size's code, the same code
// twice, a code already sold, 10 KB, NUL, a script) — the slip listing the codes, and the carrier refused
// until every marked unit has its code.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCdekStandin, type CdekStandin } from '../support/cdek-standin.ts';
import { ean13, typedInRussian } from '../support/marking-codes.ts';
import { signedInOperator, Visitor } from '../support/ops.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const API = '/api/v1/ecommerce-core';
const ID = 'marking-cdek-account';
const SECRET = 'marking-cdek-secret-1';
const GS = '\u001d';

// Sizes' barcodes: product 1's first size, product 2's first size (marked by its category), product 3 unmarked.
const SHOES = ean13('460123456789');
const BOOTS = ean13('460123456790');

let serials = 0;
/** A real-shaped code of one unit of the product with this barcode. */
function codeOf(barcode: string, options: { gs?: string } = {}): string {
  const serial = `Ab${String(++serials).padStart(4, '0')}'x*Kp>Q`.slice(0, 13);
  const gs = options.gs ?? GS;
  return `01${barcode.padStart(14, '0')}21${serial}${gs}91EE06${gs}92${'Vm9A7kqXc3Rz1bYtP0wLs8dNf2Hj6GuQe4KyWiOaBnM='}`;
}
let standin: CdekStandin;
let shop: TestServer;
let manager: Visitor;
let admin: Visitor;

beforeAll(async () => {
  standin = await startCdekStandin(ID, SECRET);
  shop = await startTestServer({
    label: 'marking',
    seedProducts: 20,
    env: {
      CDEK_API_URL: standin.url,
      CDEK_CLIENT_ID: ID,
      CDEK_CLIENT_SECRET: SECRET,
      DELIVERY_SENDER_POINT: 'MSK1',
      MARKED_CATEGORIES: 'marking-test-*',
    },
    prepare: async (db) => {
      await db.query("INSERT INTO categories (name, slug, level) VALUES ('Маркированная обувь', 'marking-test-obuv', 0)");
      await db.query("UPDATE products SET category_id = (SELECT id FROM categories WHERE slug = 'marking-test-obuv') WHERE id = 2");
      await db.query('UPDATE products SET marked = true WHERE id = 1');
      await db.query('UPDATE product_variants SET stock = 100 WHERE product_id IN (1, 2, 3)');
      await db.query(`UPDATE product_variants SET barcode = '${SHOES}' WHERE id = (SELECT min(id) FROM product_variants WHERE product_id = 1)`);
      await db.query(`UPDATE product_variants SET barcode = '${BOOTS}' WHERE id = (SELECT min(id) FROM product_variants WHERE product_id = 2)`);
    },
  });
  manager = (await signedInOperator(shop, 'packer@example.ru', 'manager')).visitor;
  // The catalogue is the admins'.
  admin = (await signedInOperator(shop, 'catalogue@example.ru', 'admin')).visitor;
}, 120_000);
afterAll(async () => {
  await shop?.stop();
  await standin?.close();
});

async function json<T>(path: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(shop.baseUrl + path, { ...init, headers: { 'content-type': 'application/json', 'accept-language': 'ru', ...init.headers } });
  return ((await res.json()) as { data: T }).data;
}

/** The first size's code of a product (the one given a barcode). */
async function firstSize(id: number): Promise<string> {
  const product = await json<{ variants: { code: string }[] }>(`${API}/product/${id}`);
  return product.variants[0]?.code ?? '';
}

/** Each order's page at the test provider. */
const paymentPages = new Map<string, string>();

/** A guest's order by CDEK to a pickup point: two units of product 1, one of 2 (marked), one of 3 (not). */
async function placeOrder(pay = true): Promise<string> {
  const lines = [
    { id: 1, variant_code: await firstSize(1), quantity: 2 },
    { id: 2, variant_code: await firstSize(2), quantity: 1 },
    { id: 3, variant_code: await firstSize(3), quantity: 1 },
  ];
  const offers = await json<{ offers: { mode: string; quote: string }[] }>(`${API}/delivery/options`, {
    method: 'POST',
    body: JSON.stringify({ city: 137, lines: lines.map((l) => ({ id: l.id, quantity: l.quantity })) }),
  });
  const point = (await json<{ points: { code: string }[] }>(`${API}/delivery/points?city=137&kind=office`)).points[0]?.code;
  const placed = await json<{ code: string; payment_url: string }>(`${API}/checkout/place-order`, {
    method: 'POST',
    headers: { 'idempotency-key': crypto.randomUUID() },
    body: JSON.stringify({
      items: lines,
      contact: { name: 'Ирина Упаковкина', email: 'irina.pack@example.ru', phone: '+7 (921) 555-44-33' },
      delivery: { method: 'pickup', city: 'Санкт-Петербург', address: 'пункт выдачи', quote: offers.offers.find((o) => o.mode === 'pickup')?.quote, point },
      payment: 'card',
    }),
  });
  paymentPages.set(placed.code, placed.payment_url);
  if (pay)
    await fetch(`${shop.baseUrl}${API}/payments/test/${placed.payment_url.split('/').pop()}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'sbp' }),
    });
  return placed.code;
}

/** The packing page's fields, in order: `lineId:unit` for product 1's two units, then product 2's one. */
async function packFields(code: string): Promise<{ names: string[]; token: string; html: string }> {
  const page = await manager.go(`/ops/orders/${code}/pack`);
  expect(page.status).toBe(200);
  return { names: [...page.html.matchAll(/name="(\d+:\d+)"/g)].map((m) => m[1] as string), token: Visitor.formToken(page.html), html: page.html };
}
/** A page's HTML with the entities React writes in attribute values read back. */
const unescaped = (html: string) =>
  html
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
const notice = (html: string) =>
  /role="alert"[^>]*>\s*([^<]+)/.exec(html)?.[1]?.trim() ?? /data-testid="ops-notice-error"[^>]*>\s*([^<]+)/.exec(html)?.[1]?.trim();
const ship = async (code: string) => {
  const page = await manager.go(`/ops/orders/${code}`);
  return manager.go(`/ops/orders/${code}`, { _csrf: Visitor.formToken(page.html), action: 'ship' });
};

describe('packing marked goods', () => {
  it('asks a code of each marked unit only, refuses what is not the unit’s, keeps what is, and lets the parcel go once all are in', async () => {
    const code = await placeOrder();
    const { names, token, html } = await packFields(code);
    // Product 1 (marked by itself) twice and product 2 (marked by its category); product 3 is not marked.
    expect(names).toHaveLength(3);
    expect(html).toContain('Осталось отсканировать: 3');
    expect(html).toContain(`GTIN размера: ${SHOES.padStart(14, '0')}`);
    const [shoe1, shoe2, boot] = names as [string, string, string];

    // The carrier is not asked while a marked unit has no code.
    const early = await ship(code);
    expect(early.status).toBe(409);
    expect(early.html).toContain('Не у всех маркированных единиц есть код: осталось 3');
    expect([...standin.orders.values()].filter((o) => o.number === code)).toHaveLength(0);

    // Another size's code in a shoe's field: refused with the reason; the boot's own code beside it is kept.
    const bootCode = codeOf(BOOTS, { gs: '' });
    const wrong = await manager.go(`/ops/orders/${code}/pack`, { _csrf: token, [shoe1]: codeOf(BOOTS), [boot]: bootCode });
    expect(wrong.status).toBe(422);
    expect(wrong.html).toMatch(/Единица 1 «[^»]+»: это код другого товара или размера — GTIN не совпадает/);
    let state = await packFields(code);
    expect(state.html).toContain('Осталось отсканировать: 2');

    // The same code for both shoes: the second is refused.
    const shoeCode = codeOf(SHOES);
    const twice = await manager.go(`/ops/orders/${code}/pack`, { _csrf: token, [shoe1]: shoeCode, [shoe2]: shoeCode });
    expect(twice.status).toBe(422);
    expect(twice.html).toMatch(/Единица 2 «[^»]+»: этот код уже отсканирован для другой единицы/);

    // As scanners type them: with ]d2, and under the Russian layout with the GS written out.
    const typed = typedInRussian(codeOf(SHOES, { gs: '' }));
    const saved = await manager.go(`/ops/orders/${code}/pack`, { _csrf: token, [shoe1]: `]d2${shoeCode}`, [shoe2]: typed });
    expect(saved.status).toBe(303);
    state = await packFields(code);
    expect(state.html).toContain('У всех единиц есть коды — заказ можно передать в доставку.');
    // Kept in the one form, shown with the separators visible.
    expect(unescaped(state.html)).toContain(`value="${shoeCode.replaceAll(GS, '<GS>')}"`);

    // The slip lists each unit's code; the carrier takes the parcel.
    const slip = await manager.go(`/ops/orders/${code}/slip`);
    expect([...slip.html.matchAll(/<li>01\d{14}21/g)]).toHaveLength(3);
    expect((await ship(code)).status).toBe(303);
    const carried = [...standin.orders.values()].filter((o) => o.number === code);
    expect(carried).toHaveLength(1);
    // CDEK gets a position per marked unit with its code; the unmarked line stays one position.
    const positions = (carried[0]?.body['packages'] as { items: { marking?: string; amount: number; ware_key: string }[] }[])[0]?.items ?? [];
    expect(positions.filter((i) => i.marking).map((i) => [i.marking?.slice(0, 16), i.amount])).toEqual([
      [`01${SHOES.padStart(14, '0')}`, 1],
      [`01${SHOES.padStart(14, '0')}`, 1],
      [`01${BOOTS.padStart(14, '0')}`, 1],
    ]);
    expect(positions.filter((i) => i.marking).map((i) => i.marking)).toContain(shoeCode);
    expect(positions.filter((i) => !i.marking).map((i) => i.amount)).toEqual([1]);

    // Handed to the carrier: the settlement receipt went to the provider with the three codes, and the
    // test provider's page shows it as the payment's second receipt.
    const provider = await fetch(shop.baseUrl + (paymentPages.get(code) ?? '')).then((r) => r.text());
    expect(provider).toContain('Чек зачёта предоплаты');
    const shown = unescaped(provider);
    expect(shown).toContain(shoeCode.replaceAll(GS, '<GS>'));
    expect([...shown.matchAll(/<code[^>]*>01\d{14}21/g)]).toHaveLength(3);
    // The console's order page: both receipts and their state.
    const console = await manager.go(`/ops/orders/${code}`);
    expect(console.html).toContain('Чек предоплаты 100%');
    expect(console.html).toMatch(/Чек зачёта предоплаты[\s\S]*?зарегистрирован · коды маркировки: 3/);
  });

  it('refuses a code this shop sold and never took back, on another order', async () => {
    const first = await placeOrder();
    const { names, token } = await packFields(first);
    const sold = codeOf(SHOES);
    expect((await manager.go(`/ops/orders/${first}/pack`, { _csrf: token, [names[0] as string]: sold })).status).toBe(303);
    const second = await placeOrder();
    const other = await packFields(second);
    const refused = await manager.go(`/ops/orders/${second}/pack`, { _csrf: other.token, [other.names[0] as string]: sold });
    expect(refused.status).toBe(422);
    expect(refused.html).toMatch(/этот код уже продан и не возвращён/);
  });
});

describe('codes of orders that do not leave', () => {
  const cancel = async (code: string) => {
    const order = await manager.go(`/ops/orders/${code}`);
    return manager.go(`/ops/orders/${code}`, { _csrf: Visitor.formToken(order.html), action: 'move', status: 'cancelled' });
  };

  it('a packed order cancelled before handover frees its codes: the same pair is packed again into the next order', async () => {
    const first = await placeOrder();
    const a = await packFields(first);
    const shoe = codeOf(SHOES);
    const boot = codeOf(BOOTS);
    expect((await manager.go(`/ops/orders/${first}/pack`, { _csrf: a.token, [a.names[0] as string]: shoe, [a.names[2] as string]: boot })).status).toBe(303);
    expect((await cancel(first)).status).toBe(303);
    // The cancelled order keeps no code, and its form takes none.
    expect((await packFields(first)).html).toContain('Осталось отсканировать: 3');

    const second = await placeOrder();
    const b = await packFields(second);
    const again = await manager.go(`/ops/orders/${second}/pack`, { _csrf: b.token, [b.names[0] as string]: shoe, [b.names[2] as string]: boot });
    expect(again.status).toBe(303);
    expect((await packFields(second)).html).toContain('Осталось отсканировать: 1');
  });

  it('a packer clears a wrongly scanned code before handover: the unit waits for a new one and the code is free', async () => {
    const order = await placeOrder();
    const { names, token } = await packFields(order);
    const wrongPair = codeOf(SHOES);
    expect((await manager.go(`/ops/orders/${order}/pack`, { _csrf: token, [names[0] as string]: wrongPair })).status).toBe(303);
    const packed = await packFields(order);
    expect(packed.html).toContain(`data-testid="ops-pack-clear-${names[0]}"`);
    // A unit without a code has nothing to clear.
    expect(packed.html).not.toContain(`data-testid="ops-pack-clear-${names[1]}"`);

    const cleared = await manager.go(`/ops/orders/${order}/pack`, { _csrf: token, clear: names[0] as string });
    expect(cleared.status).toBe(303);
    expect(cleared.headers.get('location')).toBe(`/ops/orders/${order}/pack?done=cleared`);
    const after = await manager.go(`/ops/orders/${order}/pack?done=cleared`);
    expect(after.html).toContain('Код снят — единица ждёт нового');
    expect(after.html).toContain('Осталось отсканировать: 3');
    // A second click finds nothing to clear and changes nothing.
    expect((await manager.go(`/ops/orders/${order}/pack`, { _csrf: token, clear: names[0] as string })).status).toBe(303);
    // The code is free: another order takes it.
    const other = await placeOrder();
    const o = await packFields(other);
    expect((await manager.go(`/ops/orders/${other}/pack`, { _csrf: o.token, [o.names[0] as string]: wrongPair })).status).toBe(303);
    // Audited.
    const log = await admin.go('/ops/audit');
    expect(log.html).toContain('order.pack.clear');
  });

  it('clearing a unit of another order, a unit that does not exist or a code of a handed-over order changes nothing', async () => {
    const order = await placeOrder();
    const { names, token } = await packFields(order);
    const shoe = codeOf(SHOES);
    expect((await manager.go(`/ops/orders/${order}/pack`, { _csrf: token, [names[0] as string]: shoe })).status).toBe(303);
    const stranger = await placeOrder();
    const s2 = await packFields(stranger);
    for (const clear of [s2.names[0] as string, '999999:1', 'x', `${names[0]}'--`]) {
      const answer = await manager.go(`/ops/orders/${order}/pack`, { _csrf: token, clear });
      expect(answer.status).toBe(422);
    }
    expect((await packFields(order)).html).toContain('Осталось отсканировать: 2');
    // Without the form's token: refused as every console form is.
    expect((await manager.go(`/ops/orders/${order}/pack`, { clear: names[0] as string })).status).toBe(403);
    // Once the carrier holds the order (and its codes), only a return takes a code back.
    const all = await packFields(order);
    await manager.go(`/ops/orders/${order}/pack`, { _csrf: all.token, [names[1] as string]: codeOf(SHOES), [names[2] as string]: codeOf(BOOTS) });
    expect((await ship(order)).status).toBe(303);
    expect((await manager.go(`/ops/orders/${order}/pack`, { _csrf: all.token, clear: names[0] as string })).status).toBe(409);
    expect((await packFields(order)).html).toContain('У всех единиц есть коды');
  });
});

describe('returns of marked goods', () => {
  const returnPage = async (code: string) => {
    const page = await manager.go(`/ops/orders/${code}/return`);
    return { ...page, token: Visitor.formToken(page.html), key: /name="return_key" value="([0-9a-f]+)"/.exec(page.html)?.[1] ?? '' };
  };
  /** A packed, shipped and delivered order; its three codes. */
  async function deliveredOrder(): Promise<{ code: string; codes: string[] }> {
    const code = await placeOrder();
    const { names, token } = await packFields(code);
    const codes = [codeOf(SHOES), codeOf(SHOES), codeOf(BOOTS)];
    expect((await manager.go(`/ops/orders/${code}/pack`, { _csrf: token, ...Object.fromEntries(names.map((n, i) => [n, codes[i] ?? ''])) })).status).toBe(303);
    expect((await ship(code)).status).toBe(303);
    const page = await manager.go(`/ops/orders/${code}`);
    expect((await manager.go(`/ops/orders/${code}`, { _csrf: Visitor.formToken(page.html), action: 'move', status: 'delivered' })).status).toBe(303);
    return { code, codes };
  }

  it('takes back a unit by its code with a refund receipt carrying it, refuses a code not the order’s, and the code sells again', async () => {
    const { code, codes } = await deliveredOrder();
    const other = await deliveredOrder();
    let page = await returnPage(code);
    expect(page.html).toContain('Маркированных единиц у покупателя: 3');
    // Another order's unit, a code never sold, and the unmarked line counted by code: refused, nothing refunded.
    for (const [codesField, reason] of [
      [other.codes[0], 'Строка 1: этого кода нет среди проданных единиц заказа — возврат не принят'],
      [`${codes[0]}\n${codeOf(SHOES)}`, 'Строка 2: этого кода нет среди проданных единиц заказа — возврат не принят'],
      ['01046012345678', 'Строка 1: это не код маркировки'],
    ] as const) {
      const refused = await manager.go(`/ops/orders/${code}/return`, { _csrf: page.token, return_key: page.key, codes: codesField ?? '' });
      expect(refused.status).toBe(422);
      expect(refused.html).toContain(reason);
    }
    expect((await manager.go(`/ops/orders/${code}/return`, { _csrf: page.token, return_key: page.key, codes: '' })).html).toContain(
      'Отсканируйте коды вернувшихся единиц или укажите, сколько вернулось',
    );
    // One shoe back, typed as a scanner does (]d2, the Russian layout), with the unmarked line's one unit.
    const qty = /name="(qty_\d+)"/.exec(page.html)?.[1] ?? '';
    const taken = await manager.go(`/ops/orders/${code}/return`, { _csrf: page.token, return_key: page.key, codes: `]d2${codes[0]}\r\n`, [qty]: '1' });
    expect(taken.status).toBe(303);
    // The same form again (a double press): the same return, not a second refund.
    expect((await manager.go(`/ops/orders/${code}/return`, { _csrf: page.token, return_key: page.key, codes: codes[0] ?? '', [qty]: '1' })).status).toBe(303);
    page = await returnPage(code);
    expect(page.html).toContain('Маркированных единиц у покупателя: 2');
    expect([...page.html.matchAll(/деньги возвращены/g)]).toHaveLength(1);
    // Returned once: the code is refused a second time.
    const again = await manager.go(`/ops/orders/${code}/return`, {
      _csrf: page.token,
      return_key: page.key.replace(/.$/, (c) => (c === 'a' ? 'b' : 'a')),
      codes: codes[0] ?? '',
    });
    expect(again.html).toContain('Строка 1: эта единица уже возвращена');

    // The provider's page: the refund receipt with the returned code and the unmarked unit.
    const provider = unescaped(await fetch(shop.baseUrl + (paymentPages.get(code) ?? '')).then((r) => r.text()));
    const refund = provider.slice(provider.indexOf('data-receipt="refund"'));
    expect(refund).toContain('Чек возврата');
    expect(refund).toContain((codes[0] ?? '').replaceAll(GS, '<GS>'));
    expect([...refund.matchAll(/<code[^>]*>01/g)]).toHaveLength(1);
    expect((await manager.go(`/ops/orders/${code}`)).html).toContain('Чек возврата прихода');

    // Sold again: the returned code packs on a new order; the codes still sold do not.
    const next = await placeOrder();
    const fields = await packFields(next);
    expect((await manager.go(`/ops/orders/${next}/pack`, { _csrf: fields.token, [fields.names[0] as string]: codes[0] ?? '' })).status).toBe(303);
    const sold = await manager.go(`/ops/orders/${next}/pack`, { _csrf: fields.token, [fields.names[1] as string]: codes[1] ?? '' });
    expect(sold.html).toMatch(/этот код уже продан и не возвращён/);
  });

  it('hostile returns answer 4xx and refund nothing', async () => {
    const { code, codes } = await deliveredOrder();
    const page = await returnPage(code);
    const qty = /name="(qty_\d+)"/.exec(page.html)?.[1] ?? '';
    for (const [fields, status] of [
      [{ codes: 'A'.repeat(10_000) }, 422],
      [{ codes: `${codes[0]}\u0000` }, 403],
      [{ codes: '<script>alert(1)</script>' }, 422],
      [{ codes: '', [qty]: '5' }, 422],
      [{ codes: '', [qty]: '-1' }, 422],
      [{ codes: '', qty_999999: '1' }, 422],
      [{ codes: codes[0] ?? '', return_key: 'not-a-key' }, 400],
      [{ "codes'; DROP TABLE order_returns; --": codes[0] ?? '' }, 422],
    ] as const) {
      const answer = await manager.go(`/ops/orders/${code}/return`, { _csrf: page.token, return_key: page.key, ...fields });
      expect(answer.status, JSON.stringify(fields).slice(0, 80)).toBe(status);
      expect(answer.html).not.toContain('<script>alert(1)</script>');
    }
    expect((await returnPage(code)).html).toContain('Маркированных единиц у покупателя: 3');
    // An order not delivered yet takes no return.
    const early = await placeOrder();
    const closed = await returnPage(early);
    expect(closed.html).toContain('Заказ ещё не доставлен или не оплачен картой');
    const refused = await manager.go(`/ops/orders/${early}/return`, { _csrf: page.token, return_key: page.key, codes: codes[1] ?? '' });
    expect(refused.status).toBe(409);
  });
});

describe('the console’s marking of a product', () => {
  it('marks a product and gives its size a GTIN; packing then asks that size’s codes, and a GTIN with a typo is refused', async () => {
    const page = await admin.go('/ops/products/3');
    expect(page.status).toBe(200);
    // Product 3's category is not in MARKED_CATEGORIES, and it says nothing of its own.
    expect(page.html).toContain('Как у категории — сейчас не маркируется');
    const token = Visitor.formToken(page.html);
    const field = /name="(gtin_\d+)"/.exec(page.html)?.[1] ?? '';
    const typo = await admin.go('/ops/products/3', { _csrf: token, action: 'marking', marked: 'yes', [field]: '4601234567891' });
    expect(typo.status).toBe(422);
    expect(typo.html).toMatch(/GTIN размера [^:]+: нужен штрихкод EAN-13, EAN-8 или GTIN-14 с верной контрольной цифрой/);
    const bag = ean13('460123456791');
    expect((await admin.go('/ops/products/3', { _csrf: token, action: 'marking', marked: 'yes', [field]: ` ${bag}, ${bag} ` })).status).toBe(303);
    const saved = await admin.go('/ops/products/3');
    expect(unescaped(saved.html)).toContain(`value="${bag}"`);
    expect(saved.html).toMatch(/<input type="radio" name="marked" value="yes" checked/);

    // The next order's packing asks a code of product 3 too: four units, its code taken.
    const code = await placeOrder();
    const { names, token: packToken } = await packFields(code);
    expect(names).toHaveLength(4);
    const answer = await manager.go(`/ops/orders/${code}/pack`, { _csrf: packToken, [names[3] as string]: codeOf(bag) });
    expect(answer.status).toBe(303);
    expect((await packFields(code)).html).toContain('Осталось отсканировать: 3');

    // Back to its category's rule: not marked again.
    expect((await admin.go('/ops/products/3', { _csrf: token, action: 'marking', marked: 'category', [field]: bag })).status).toBe(303);
    expect((await packFields(await placeOrder())).names).toHaveLength(3);
  });
});

describe('hostile packing', () => {
  it.each([
    ['10 KB in a field', 422, (f: string) => ({ [f]: 'A'.repeat(10_000) })],
    // Any control character but the scanner's GS: the form is refused whole, as every console form is.
    ['a NUL in a code', 403, (f: string) => ({ [f]: `01${SHOES.padStart(14, '0')}21\u0000abc` })],
    ['a script as a code', 422, (f: string) => ({ [f]: '<script>alert(1)</script>' })],
    ['a field name that is not a unit', 422, () => ({ "1:1'; DROP TABLE order_marks; --": codeOf(SHOES) })],
    ['a code of a misread GTIN', 422, (f: string) => ({ [f]: codeOf(SHOES).replace(SHOES.padStart(14, '0'), '04601234567800') })],
  ])('%s is refused (%i) and nothing is kept', async (_name, status, body) => {
    const code = await placeOrder();
    const { names, token } = await packFields(code);
    const answer = await manager.go(`/ops/orders/${code}/pack`, { _csrf: token, ...body(names[0] as string) });
    expect(answer.status).toBe(status);
    expect(answer.html).not.toContain('<script>alert(1)</script>');
    expect((await packFields(code)).html).toContain('Осталось отсканировать: 3');
  });

  it('packing an unpaid order, a cancelled one or another order’s unit changes nothing', async () => {
    const unpaid = await placeOrder(false);
    const fields = await packFields(unpaid);
    expect(fields.html).toContain('Заказ не оплачен, отменён или уже передан в доставку');
    const refused = await manager.go(`/ops/orders/${unpaid}/pack`, { _csrf: fields.token, [fields.names[0] as string]: codeOf(SHOES) });
    expect(refused.status).toBe(409);
    expect((await packFields(unpaid)).html).toContain('Осталось отсканировать: 3');

    // A paid order cancelled by the manager: no codes either.
    const cancelled = await placeOrder();
    const order = await manager.go(`/ops/orders/${cancelled}`);
    expect((await manager.go(`/ops/orders/${cancelled}`, { _csrf: Visitor.formToken(order.html), action: 'move', status: 'cancelled' })).status).toBe(303);
    const gone = await packFields(cancelled);
    expect((await manager.go(`/ops/orders/${cancelled}/pack`, { _csrf: gone.token, [gone.names[0] as string]: codeOf(SHOES) })).status).toBe(409);
    expect((await packFields(cancelled)).html).toContain('Осталось отсканировать: 3');

    // A unit of another order named in this order's form is not this order's: ignored, nothing kept there.
    const paid = await placeOrder();
    const mine = await packFields(paid);
    const answer = await manager.go(`/ops/orders/${paid}/pack`, { _csrf: mine.token, [fields.names[0] as string]: codeOf(SHOES) });
    expect(answer.status).toBe(303);
    expect((await packFields(paid)).html).toContain('Осталось отсканировать: 3');
    expect((await packFields(unpaid)).html).toContain('Осталось отсканировать: 3');
    expect(notice(answer.html) ?? '').not.toMatch(/Ошибка/);
  });
});
