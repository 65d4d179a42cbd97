// Marked goods' receipts against YooKassa (issue 39, docs/marking.md "Receipts"): the built shop with the
// YooKassa and CDEK stand-ins. An order of two marked units and an unmarked line is paid with a full-
// prepayment receipt without codes; handed to the carrier, it gets one settlement receipt (POST
// /v3/receipts) with a line per marked unit and its code — sent again by the housekeeping job when the
// provider failed, never twice — shown on the customer's and the console's pages; a return refunds one
// unit with its code on the refund receipt; 1C's orders document carries the codes still sold.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCdekStandin, type CdekStandin } from '../support/cdek-standin.ts';
import { ean13 } from '../support/marking-codes.ts';
import { OneC } from '../support/one-c.ts';
import { signedInOperator, Visitor } from '../support/ops.ts';
import { afterJobRuns } from '../support/jobs.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { itemCode, startYookassaStandin, type Standin } from '../support/yookassa-standin.ts';

const API = '/api/v1/ecommerce-core';
const GS = '\u001d';
const SHOES = ean13('460765432101');
const LOGIN = 'onec';
const PASSWORD = 'marking-exchange-2026';
const METRICS_TOKEN = 'metrics-token-for-the-receipt-tests-0123';

let serials = 0;
const codeOf = (barcode: string) =>
  `01${barcode.padStart(14, '0')}21${`Zq${String(++serials).padStart(4, '0')}-r/Tk%w`.slice(0, 13)}${GS}91FF01${GS}92${'Qm8Z6jpWb2Sy0aXsO9vKr7cMe1Gi5FtPd3JxVhNzAlL='}`;

let yookassa: Standin;
let cdek: CdekStandin;
let shop: TestServer;
let manager: Visitor;

beforeAll(async () => {
  yookassa = await startYookassaStandin('654321', 'marking_secret_key');
  cdek = await startCdekStandin('receipts-cdek', 'receipts-cdek-secret');
  shop = await startTestServer({
    label: 'marking-receipts',
    seedProducts: 10,
    env: {
      PAYMENT_PROVIDER: 'yookassa',
      YOOKASSA_SHOP_ID: '654321',
      YOOKASSA_SECRET_KEY: 'marking_secret_key',
      YOOKASSA_API_URL: `${yookassa.url}/v3`,
      CDEK_API_URL: cdek.url,
      CDEK_CLIENT_ID: 'receipts-cdek',
      CDEK_CLIENT_SECRET: 'receipts-cdek-secret',
      DELIVERY_SENDER_POINT: 'MSK1',
      EXCHANGE_LOGIN: LOGIN,
      EXCHANGE_PASSWORD: PASSWORD,
      // The housekeeping jobs every second: the settlement a failing provider did not take goes on the next run.
      JOBS_EVERY_SECONDS: '1',
      // Read by the tests that a job leaves something alone: they wait for its runs (tests/support/jobs.ts).
      METRICS_TOKEN,
    },
    prepare: async (db) => {
      await db.query('UPDATE products SET marked = true WHERE id = 1');
      await db.query('UPDATE product_variants SET stock = 100 WHERE product_id IN (1, 3)');
      await db.query(`UPDATE product_variants SET barcode = '${SHOES}' WHERE id = (SELECT min(id) FROM product_variants WHERE product_id = 1)`);
    },
  });
  manager = (await signedInOperator(shop, 'receipts@example.ru', 'manager')).visitor;
}, 120_000);
afterAll(async () => {
  await shop?.stop();
  await yookassa?.close();
  await cdek?.close();
});

async function json<T>(path: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(shop.baseUrl + path, { ...init, headers: { 'content-type': 'application/json', 'accept-language': 'ru', ...init.headers } });
  return ((await res.json()) as { data: T }).data;
}

const firstSize = async (id: number) => (await json<{ variants: { code: string }[] }>(`${API}/product/${id}`)).variants[0]?.code ?? '';

/** A guest's paid order by CDEK to a pickup point: these products and quantities. */
async function paidOrder(lines: [id: number, quantity: number][]): Promise<{ code: string; hash: string; paymentId: string }> {
  const items = await Promise.all(lines.map(async ([id, quantity]) => ({ id, quantity, variant_code: await firstSize(id) })));
  const offers = await json<{ offers: { mode: string; quote: string }[] }>(`${API}/delivery/options`, {
    method: 'POST',
    body: JSON.stringify({ city: 137, lines: items.map((l) => ({ id: l.id, quantity: l.quantity })) }),
  });
  const point = (await json<{ points: { code: string }[] }>(`${API}/delivery/points?city=137&kind=office`)).points[0]?.code;
  const placed = await json<{ code: string; hash: string; payment_url: string }>(`${API}/checkout/place-order`, {
    method: 'POST',
    headers: { 'idempotency-key': crypto.randomUUID() },
    body: JSON.stringify({
      items,
      contact: { name: 'Пётр Чеков', email: 'petr.chekov@example.ru', phone: '+7 (912) 345-67-89' },
      delivery: { method: 'pickup', city: 'Санкт-Петербург', address: 'пункт выдачи', quote: offers.offers.find((o) => o.mode === 'pickup')?.quote, point },
      payment: 'card',
    }),
  });
  const payment = [...yookassa.payments.values()].find((p) => placed.payment_url.endsWith(p.id));
  if (!payment) throw new Error('no payment at the stand-in');
  yookassa.settle(payment.id, 'succeeded');
  await json(`${API}/payments/yookassa/notification`, {
    method: 'POST',
    body: JSON.stringify({ type: 'notification', event: 'payment.succeeded', object: { id: payment.id, status: 'succeeded', paid: true } }),
  });
  return { code: placed.code, hash: placed.hash, paymentId: payment.id };
}

async function act(code: string, fields: Record<string, string>) {
  const page = await manager.go(`/ops/orders/${code}`);
  return manager.go(`/ops/orders/${code}`, { _csrf: Visitor.formToken(page.html), ...fields });
}

const decoded = (text: string) =>
  text
    .replace(/&#39;|&#x27;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

describe('the receipts of marked goods at YooKassa', () => {
  it('prepays without codes, settles once with a code per unit when handed over (retried after a failure), refunds a return with its code, and tells 1C', async () => {
    const order = await paidOrder([
      [1, 2],
      [3, 1],
    ]);
    // The payment's own receipt: a full prepayment, no line marked, no code (no unit is picked yet).
    const create = yookassa.creates.find((c) => c.key === `order-${order.code}`);
    const prepaid = create?.body.receipt.items ?? [];
    expect(prepaid.map((i) => i.payment_mode)).toEqual(prepaid.map(() => 'full_prepayment'));
    expect(prepaid.slice(0, 2).map((i) => [i.payment_subject, i.quantity])).toEqual([
      ['commodity', '2.00'],
      ['commodity', '1.00'],
    ]);
    expect(create?.body.receipt.items.some((i) => 'mark_code_info' in i)).toBe(false);
    const paid = Math.round(Number(create?.body.amount.value) * 100);

    // Packed, then handed to the carrier while YooKassa answers 500: the parcel goes, the receipt waits.
    const pack = await manager.go(`/ops/orders/${order.code}/pack`);
    const fields = [...pack.html.matchAll(/name="(\d+:\d+)"/g)].map((m) => m[1] as string);
    const codes = [codeOf(SHOES), codeOf(SHOES)];
    const packed = await manager.go(`/ops/orders/${order.code}/pack`, {
      _csrf: Visitor.formToken(pack.html),
      [fields[0]!]: codes[0]!,
      [fields[1]!]: `]d2${codes[1]}`,
    });
    expect(packed.status).toBe(303);
    yookassa.failNext(3);
    expect((await act(order.code, { action: 'ship' })).status).toBe(303);

    // The next run of the job sends it: one receipt, whatever else happens to the order after.
    await expect.poll(() => yookassa.receipts.length, { timeout: 15_000, interval: 200 }).toBe(1);
    expect((await act(order.code, { action: 'move', status: 'delivered' })).status).toBe(303);
    await afterJobRuns(shop.baseUrl, METRICS_TOKEN, 'settle-receipts');
    expect(yookassa.receipts).toHaveLength(1);
    const [receipt] = yookassa.receipts;
    expect(receipt?.key).toBe(`settlement-${order.code}`);
    expect(receipt?.body).toMatchObject({
      type: 'payment',
      payment_id: order.paymentId,
      send: true,
      customer: { email: 'petr.chekov@example.ru', phone: '79123456789' },
      settlements: [{ type: 'prepayment', amount: { value: create?.body.amount.value, currency: 'RUB' } }],
    });
    const items = receipt?.body.items ?? [];
    const marked = items.filter((i) => i.payment_subject === 'marked');
    expect(marked.map(itemCode)).toEqual(codes);
    for (const item of marked) expect(item).toMatchObject({ payment_mode: 'full_payment', measure: 'piece', mark_mode: '0', quantity: '1.00' });
    // The unmarked line (and delivery, when it is paid) as the payment had them, now settled in full.
    expect(items.filter((i) => i.payment_subject !== 'marked')).toEqual(prepaid.slice(1).map((i) => ({ ...i, payment_mode: 'full_payment' })));
    expect(items.reduce((s, i) => s + Math.round(Number(i.amount.value) * 100) * Number(i.quantity), 0)).toBe(paid);

    // Pending at the register, then registered: the console and the customer's page say so.
    expect((await manager.go(`/ops/orders/${order.code}`)).html).toMatch(/Чек зачёта предоплаты[\s\S]*?регистрируется в кассе · коды маркировки: 2/);
    yookassa.register(yookassa.receiptId(`settlement-${order.code}`));
    await expect
      .poll(async () => (await manager.go(`/ops/orders/${order.code}`)).html, { timeout: 10_000, interval: 250 })
      .toMatch(/зарегистрирован · коды маркировки: 2/);
    const customer = await fetch(`${shop.baseUrl}/order-success/${order.code}/${order.hash}`).then((r) => r.text());
    expect(customer).toContain('Чек предоплаты 100%');
    expect(customer).toMatch(/Чек зачёта предоплаты[\s\S]*?зарегистрирован · коды маркировки: 2/);
    expect(customer).toContain('Чеки приходят на petr.chekov@example.ru');

    // A return of the second shoe: its share back to the card, its code on the refund receipt.
    const page = await manager.go(`/ops/orders/${order.code}/return`);
    const key = /name="return_key" value="([0-9a-f]+)"/.exec(page.html)?.[1] ?? '';
    const taken = await manager.go(`/ops/orders/${order.code}/return`, { _csrf: Visitor.formToken(page.html), return_key: key, codes: codes[1]! });
    expect(taken.status).toBe(303);
    const refund = yookassa.refunds.at(-1);
    expect(refund?.body.payment_id).toBe(order.paymentId);
    expect(refund?.body.amount.value).toBe(marked[1]?.amount.value);
    expect(refund?.body.receipt?.items.map((i) => [i.payment_subject, i.payment_mode, itemCode(i)])).toEqual([['marked', 'full_payment', codes[1]]]);
    expect(decoded((await manager.go(`/ops/orders/${order.code}`)).html)).toContain('Чек возврата прихода');

    // 1C: the unit still sold carries its code (GS1.M in base64); the returned one does not.
    const onec = new OneC(`${shop.baseUrl}/exchange/1c`, LOGIN, PASSWORD);
    await onec.begin('sale');
    const document = new RegExp(`<Документ><Ид>${order.code}</Ид>[\\s\\S]*?</Документ>`).exec(await onec.takeOrders(false))?.[0] ?? '';
    const sent = [...document.matchAll(/<Наименование>КодМаркировки<\/Наименование><Значение>([^<]+)<\/Значение>/g)].map((m) =>
      Buffer.from(m[1] ?? '', 'base64').toString('utf8'),
    );
    expect(sent).toEqual([codes[0]]);
  });

  it('an order without marked goods is paid in full, with no settlement to follow', async () => {
    const order = await paidOrder([[3, 2]]);
    const create = yookassa.creates.find((c) => c.key === `order-${order.code}`);
    expect(new Set(create?.body.receipt.items.map((i) => i.payment_mode))).toEqual(new Set(['full_payment']));
    expect((await act(order.code, { action: 'ship' })).status).toBe(303);
    await afterJobRuns(shop.baseUrl, METRICS_TOKEN, 'settle-receipts');
    expect(yookassa.receipts.filter((r) => r.key === `settlement-${order.code}`)).toHaveLength(0);
    const page = (await manager.go(`/ops/orders/${order.code}`)).html;
    expect(page).toContain('Чек прихода');
    expect(page).not.toContain('Чек зачёта предоплаты');
  });
});
