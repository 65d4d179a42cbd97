// Payments (issue 9, DESIGN §6) on servers of their own: the built-in test provider (success, declined
// and 3-D Secure cards, a second press, the result pages and their hashes, a customer's cart kept until
// the payment goes through) and the YooKassa adapter against a local stand-in of its API (receipt lines,
// Idempotence-Key retries, notifications read back from the provider: duplicate, early, forged, late).
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/lib/db/client.ts';
import type { PlacedAnswer } from '../../src/features/checkout/checkout.schema.ts';
import type { OrderDetail } from '../../src/features/orders/orders.schema.ts';
import { expectConforms } from '../support/api.ts';
import { makeBrand, makeCategory, makeProduct, type MadeProduct } from '../support/factories.ts';
import { readOutbox, type OutboxMail } from '../support/mail.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { startYookassaStandin, type Standin } from '../support/yookassa-standin.ts';

interface Prepared {
  coat: MadeProduct;
  scarf: MadeProduct;
}

async function prepare({ db }: Database): Promise<Prepared> {
  const category = await makeCategory(db, { name: 'Оплата', slug: 'oplata' });
  const brand = await makeBrand(db, { name: 'Paytest', nameRu: 'Пейтест', slug: 'paytest' });
  const coat = await makeProduct(db, { name: 'Пальто', slug: 'palto', brand, category, price: 12_345, sizes: [{ label: 'M', stock: 50, max: 5 }] });
  const scarf = await makeProduct(db, {
    name: 'Шарф',
    slug: 'sharf',
    brand,
    category,
    price: 3_333,
    priceOld: 4_000,
    sizes: [{ label: 'One', stock: 50, max: 5 }],
  });
  return { coat, scarf };
}

const contact = { name: 'Анна Иванова', email: 'anna@example.ru', phone: '+7 (999) 123-45-67' };
const delivery = { method: 'courier', city: 'Москва', address: 'Тверская, 7, кв. 12' };
const API = '/api/v1/ecommerce-core';

function client(server: () => TestServer) {
  async function call<T>(
    path: string,
    init: RequestInit = {},
  ): Promise<{ status: number; body: { success: boolean; data?: T; message?: string; errors?: Record<string, string[]> }; location: string | null }> {
    const res = await fetch(new URL(path, server().baseUrl), { redirect: 'manual', ...init });
    const text = await res.text();
    const body = text.startsWith('{') ? JSON.parse(text) : { success: false, message: text };
    if (text.startsWith('{')) await expectConforms(server().baseUrl, init.method ?? 'GET', path, res.status, body);
    return { status: res.status, body, location: res.headers.get('location') };
  }
  const json = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const place = (body: unknown, key: string = randomUUID(), token?: string) =>
    call<PlacedAnswer>(`${API}/checkout/place-order`, json(body, { 'idempotency-key': key, ...(token ? { authorization: `Bearer ${token}` } : {}) }));
  const order = async (placed: PlacedAnswer) => (await call<OrderDetail>(`${API}/orders/${placed.code}?hash=${placed.hash}`)).body.data!;
  const stock = async (product: MadeProduct) => {
    const res = await call<{ variants: { code: string; max_item: number; available: boolean }[] }>(`${API}/product/${product.id}`);
    return res.body.data!.variants[0]!;
  };
  const page = async (path: string) => {
    const res = await fetch(new URL(path, server().baseUrl), { redirect: 'manual' });
    return { status: res.status, location: res.headers.get('location'), html: await res.text() };
  };
  return { call, json, place, order, stock, page };
}

describe('the test provider', () => {
  let server: TestServer & { prepared: Prepared | undefined };
  const fx = () => server.prepared!;
  const { call, json, place, order, page } = client(() => server);
  beforeAll(async () => {
    server = await startTestServer<Prepared>({ label: 'pay-test', seedProducts: 30, prepare });
  }, 120_000);
  afterAll(async () => server?.stop());

  const guestOrder = () => place({ items: [{ id: fx().coat.id, quantity: 1, variant_code: fx().coat.variants[0]!.code }], contact, delivery });
  const pay = (placed: PlacedAnswer, body: Record<string, string>) =>
    call<{ status: string; redirect: string }>(`${API}/payments/test/${placed.payment_url!.split('/').pop()}`, json(body));
  const card = (number: string) => ({ action: 'card', card_number: number, expiry: '12/34', cvc: '123' });

  it('a success card pays the order once: processing, the history, the mail, the result page; a second press changes nothing', async () => {
    const placed = (await guestOrder()).body.data!;
    expect(placed.payment_url).toMatch(/^\/test-payment\/tp_[0-9a-f]{24}$/);
    expect((await page(placed.payment_url!)).status).toBe(200);
    const paid = await pay(placed, card('2200 0000 0000 0004'));
    expect(paid.body.data).toEqual({ status: 'succeeded', redirect: placed.result_url });
    const after = await order(placed);
    expect(after).toMatchObject({ status: 'processing', status_label: 'В обработке', payment_status: 'paid', can_cancel: 1, can_return: 0 });
    expect(after.history.map((h) => h.status)).toEqual(['pending', 'processing']);
    expect((await pay(placed, card('4000 0000 0000 0002'))).body.data!.status).toBe('succeeded');
    expect((await order(placed)).history).toHaveLength(2);
    const result = await page(placed.result_url);
    expect(result.status).toBe(200);
    expect(result.html).toContain('Спасибо! Заказ оплачен');
    expect(result.html).toContain(placed.code);
    // The paid order's page on the failed route sends the shopper to the success one.
    expect((await page(placed.result_url.replace('order-success', 'order-failed'))).location).toContain(placed.result_url);
    // Written after the answer has gone: looked for for up to 5 s.
    let mail: OutboxMail | undefined;
    for (let i = 0; i < 50 && !mail; i++) {
      mail = readOutbox(server.database.env['DATA_DIR']!).find((m) => m.body.includes(`Заказ ${placed.code} оплачен`));
      if (!mail) await new Promise((r) => setTimeout(r, 100));
    }
    expect(mail?.to).toContain('anna@example.ru');
    expect(mail?.body).toContain('Paytest, Пальто, размер M × 1 — 12\u00a0345\u00a0₽');
    expect(mail?.body).toContain(placed.result_url);
  });

  it('SberPay in the test provider: confirmed in the app it pays; refused in the app or not confirmed in its hour it cancels the order with the reason', async () => {
    const sber = () => place({ items: [{ id: fx().coat.id, quantity: 1, variant_code: fx().coat.variants[0]!.code }], contact, delivery, payment: 'sber_pay' });
    const paid = (await sber()).body.data!;
    expect((await pay(paid, { action: 'sber_pay' })).body.data).toEqual({ status: 'succeeded', redirect: paid.result_url });
    expect(await order(paid)).toMatchObject({ status: 'processing', payment_status: 'paid', payment_method: 'sber_pay' });
    const declined = (await sber()).body.data!;
    expect((await pay(declined, { action: 'sber_pay_decline' })).body.data?.status).toBe('canceled');
    expect(await order(declined)).toMatchObject({ status: 'cancelled', payment_status: 'unpaid' });
    const expired = (await sber()).body.data!;
    expect((await pay(expired, { action: 'expire' })).body.data?.status).toBe('canceled');
    const failedPage = await page(expired.result_url.replace('order-success', 'order-failed'));
    expect(failedPage.html).toContain('Время на оплату истекло');
  });

  it('the declined card cancels the order and gives its stock back; the result page says why', async () => {
    const before = await client(() => server).stock(fx().coat);
    const placed = (await guestOrder()).body.data!;
    expect((await client(() => server).stock(fx().coat)).max_item).toBeLessThanOrEqual(before.max_item);
    const declined = await pay(placed, card('4000000000000002'));
    expect(declined.body.data!.status).toBe('canceled');
    const after = await order(placed);
    expect(after).toMatchObject({ status: 'cancelled', payment_status: 'unpaid', can_cancel: 0 });
    expect(after.history.at(-1)).toMatchObject({ status: 'cancelled', note: 'payment_declined' });
    const success = await page(placed.result_url);
    expect(success.status).toBe(302);
    expect(success.location).toContain(`/order-failed/${placed.code}/${placed.hash}`);
    const failed = await page(`/order-failed/${placed.code}/${placed.hash}`);
    expect(failed.html).toContain('Оплата не прошла');
    expect(failed.html).toContain('недостаточно средств');
  });

  it('the 3-D Secure card asks for a code: a wrong one declines, the right one pays', async () => {
    const first = (await guestOrder()).body.data!;
    expect((await pay(first, card('4000 0000 0000 3220'))).body.data!.status).toBe('challenge');
    expect((await order(first)).payment_status).toBe('unpaid');
    expect((await pay(first, { action: 'code', code: '000000' })).body.data!.status).toBe('canceled');
    expect((await order(first)).status).toBe('cancelled');
    const second = (await guestOrder()).body.data!;
    await pay(second, card('4000 0000 0000 3220'));
    expect((await pay(second, { action: 'code', code: '123456' })).body.data!.status).toBe('succeeded');
    expect((await order(second)).payment_status).toBe('paid');
  });

  it.each([
    ['a number that fails the Luhn check', card('4242 4242 4242 4241'), 'card_number', 'Проверьте номер карты'],
    ['an expired card', { ...card('4242424242424242'), expiry: '01/20' }, 'expiry', 'Проверьте срок действия карты'],
    ['a two-digit CVC', { ...card('4242424242424242'), cvc: '12' }, 'cvc', 'Введите три цифры с обратной стороны карты'],
  ])('refuses %s with a field message and leaves the payment open', async (_, body, field, message) => {
    const placed = (await guestOrder()).body.data!;
    const res = await pay(placed, body);
    expect(res.status).toBe(422);
    expect(res.body.errors![field]).toEqual([message]);
    expect((await order(placed)).payment_status).toBe('unpaid');
  });

  it('one Idempotency-Key is one order and one payment; a wrong or missing hash shows the 404 page; unknown payments are 404', async () => {
    const body = { items: [{ id: fx().scarf.id, quantity: 1 }], contact, delivery };
    const key = randomUUID();
    const [a, b] = await Promise.all([place(body, key), place(body, key)]);
    expect(a.body.data!.code).toBe(b.body.data!.code);
    expect(a.body.data!.payment_url).toBe(b.body.data!.payment_url);
    const placed = a.body.data!;
    expect((await page(`/order-success/${placed.code}/${'A'.repeat(32)}`)).location).toMatch(/\/404$/);
    expect((await page(`/order-success/${placed.code}`)).location).toMatch(/\/404$/);
    expect((await call(`${API}/orders/${placed.code}?hash=${'A'.repeat(32)}`)).status).toBe(404);
    expect((await call(`${API}/payments/test/tp_${'0'.repeat(24)}`, json({ action: 'sbp' }))).status).toBe(404);
    expect((await page(`/test-payment/tp_${'0'.repeat(24)}`)).location).toMatch(/\/404$/);
  });

  it("a customer's ordered lines stay in the cart until the payment goes through, and stay after a decline; only they see the order", async () => {
    const register = async () => {
      const reg = await call<{ access_token: string }>(
        `${API}/auth/customer-registration`,
        json({ email: `payer.${randomBytes(4).toString('hex')}@example.ru`, phone: '+7 (999) 765-43-21', password: 'оплата картой и бонусами' }),
      );
      return reg.body.data!.access_token;
    };
    const token = await register();
    const auth = { authorization: `Bearer ${token}` };
    await call(`${API}/customer/cart/store-cart-item`, json({ item: { id: fx().scarf.id, quantity: 2, uid: 's' } }, auth));
    const cart = async () => (await call<{ uid: string }[]>(`${API}/customer/cart/cart-items-list`, { headers: auth })).body.data!.map((l) => l.uid);

    const declined = (await place({ contact, delivery }, randomUUID(), token)).body.data!;
    expect(await cart()).toEqual(['s']);
    await pay(declined, card('4000000000000002'));
    expect(await cart()).toEqual(['s']);

    const paid = (await place({ contact, delivery }, randomUUID(), token)).body.data!;
    expect(paid.total).toBe(333_300 * 2 + 50_000);
    await pay(paid, { action: 'sbp' });
    expect(await cart()).toEqual([]);

    const mine = await call<OrderDetail>(`${API}/customer/orders/${paid.code}`, { headers: auth });
    expect(mine.body.data!.lines[0]).toMatchObject({ quantity: 2, unit_price: 333_300, price: 666_600, currency: '₽', can_cancel: 1, can_return: 0 });
    const list = await call<{ code: string }[]>(`${API}/customer/orders`, { headers: auth });
    expect(list.body.data!.map((o) => o.code)).toEqual([paid.code, declined.code]);
    const other = { authorization: `Bearer ${await register()}` };
    expect((await call(`${API}/customer/orders/${paid.code}`, { headers: other })).status).toBe(404);
    expect((await call(`${API}/customer/orders`, { headers: other })).body.data).toEqual([]);
  });
});

describe('the YooKassa adapter against a stand-in', () => {
  let server: TestServer & { prepared: Prepared | undefined };
  let standin: Standin;
  const fx = () => server.prepared!;
  const { call, json, place, order, stock, page } = client(() => server);
  beforeAll(async () => {
    standin = await startYookassaStandin('123456', 'test_secret_key_42');
    server = await startTestServer<Prepared>({
      label: 'pay-yookassa',
      seedProducts: 30,
      prepare,
      env: { PAYMENT_PROVIDER: 'yookassa', YOOKASSA_SHOP_ID: '123456', YOOKASSA_SECRET_KEY: 'test_secret_key_42', YOOKASSA_API_URL: `${standin.url}/v3` },
    });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await standin?.close();
  });

  const notify = (id: string, event = 'payment.succeeded') =>
    call<{ known: boolean }>(`${API}/payments/yookassa/notification`, json({ type: 'notification', event, object: { id, status: 'succeeded', paid: true } }));
  const paymentOf = (placed: PlacedAnswer) => {
    const found = [...standin.payments.values()].find((p) => placed.payment_url?.endsWith(p.id));
    if (!found) throw new Error('no stand-in payment');
    return found;
  };
  const twoLines = () => ({
    items: [
      { id: fx().coat.id, quantity: 1 },
      { id: fx().scarf.id, quantity: 3 },
    ],
    contact,
    delivery,
  });

  it('creates the payment with its Idempotence-Key, redirect confirmation and a 54-FZ receipt that adds up, delivery on its own line', async () => {
    const res = await place(twoLines());
    expect(res.status).toBe(201);
    const placed = res.body.data!;
    const payment = paymentOf(placed);
    expect(placed.payment_url).toBe(payment.confirmation!.confirmation_url);
    const request = standin.creates.at(-1)!;
    expect(request.key).toBe(`order-${placed.code}`);
    expect(request.body).toMatchObject({
      amount: { value: '22844.00', currency: 'RUB' },
      capture: true,
      confirmation: { type: 'redirect', return_url: `${server.baseUrl}${placed.result_url}` },
      payment_method_data: { type: 'bank_card' },
      metadata: { order_code: placed.code },
      receipt: { customer: { email: 'anna@example.ru', phone: '79991234567' } },
    });
    expect(request.body.receipt.items).toEqual([
      {
        description: 'Paytest, Пальто, M',
        quantity: '1.00',
        amount: { value: '12345.00', currency: 'RUB' },
        vat_code: 1,
        payment_subject: 'commodity',
        payment_mode: 'full_payment',
      },
      {
        description: 'Paytest, Шарф, One',
        quantity: '3.00',
        amount: { value: '3333.00', currency: 'RUB' },
        vat_code: 1,
        payment_subject: 'commodity',
        payment_mode: 'full_payment',
      },
      {
        description: 'Доставка',
        quantity: '1.00',
        amount: { value: '500.00', currency: 'RUB' },
        vat_code: 1,
        payment_subject: 'service',
        payment_mode: 'full_payment',
      },
    ]);
    // The same Idempotency-Key again: the same order and payment, and no second request to the provider.
    const creates = standin.creates.length;
    const key = randomUUID();
    const first = (await place(twoLines(), key)).body.data!;
    const second = (await place(twoLines(), key)).body.data!;
    expect(second).toMatchObject({ code: first.code, payment_url: first.payment_url, created: false });
    expect(standin.creates.length).toBe(creates + 1);
  });

  it('retries a failed creation with the same Idempotence-Key: one payment; when the provider stays down, 502 and the order waits for a retry', async () => {
    standin.failNext(1);
    const placed = (await place(twoLines())).body.data!;
    expect(placed.payment_url).toBeTruthy();
    expect(standin.creates.filter((c) => c.key === `order-${placed.code}`)).toHaveLength(1);

    standin.failNext(3);
    const key = randomUUID();
    const down = await place(twoLines(), key);
    expect(down.status).toBe(502);
    expect(down.body.message).toBe('Платёжный сервис сейчас недоступен. Заказ сохранён — попробуйте оплатить через минуту');
    const retry = await place(twoLines(), key);
    expect(retry.status).toBe(200);
    expect(retry.body.data!.payment_url).toBe(paymentOf(retry.body.data!).confirmation!.confirmation_url);
  });

  it('a notification is only a reason to look: early or forged it changes nothing, then success is applied once and stays', async () => {
    const placed = (await place(twoLines())).body.data!;
    const payment = paymentOf(placed);
    // Says "succeeded", but YooKassa still has it pending.
    expect((await notify(payment.id)).body.data).toEqual({ known: true });
    expect((await order(placed)).payment_status).toBe('unpaid');
    expect((await notify(randomUUID())).body.data).toEqual({ known: false });

    standin.settle(payment.id, 'succeeded');
    await notify(payment.id);
    const paid = await order(placed);
    expect(paid).toMatchObject({ status: 'processing', payment_status: 'paid' });
    await notify(payment.id);
    // Late and out of order: whatever arrives afterwards, a settled payment does not move.
    standin.settle(payment.id, 'canceled');
    await notify(payment.id, 'payment.canceled');
    expect(await order(placed)).toEqual(paid);
  });

  it('a decline read back from YooKassa cancels the order and returns its stock; the shopper returning is sent to order-failed', async () => {
    const before = (await stock(fx().coat)).max_item;
    const placed = (await place({ items: [{ id: fx().coat.id, quantity: 5 }], contact, delivery })).body.data!;
    expect((await stock(fx().coat)).max_item).toBeLessThanOrEqual(before);
    standin.settle(paymentOf(placed).id, 'canceled', 'insufficient_funds');
    // No notification: the shopper's return asks YooKassa.
    const back = await page(placed.result_url);
    expect(back.status).toBe(302);
    expect(back.location).toContain('/order-failed/');
    expect((await order(placed)).status).toBe('cancelled');
    expect((await stock(fx().coat)).max_item).toBe(before);
  });

  it('the shopper returning before YooKassa settles sees the payment being checked, with the way back to it', async () => {
    const placed = (await place(twoLines())).body.data!;
    const waiting = await page(placed.result_url);
    expect(waiting.status).toBe(200);
    expect(waiting.html).toContain('Проверяем оплату');
    expect(waiting.html).toContain(paymentOf(placed).confirmation!.confirmation_url.replace(/&/g, '&amp;'));
  });

  it("a customer's cancel of a paid order is refunded through YooKassa with the receipt, once", async () => {
    const reg = await call<{ access_token: string }>(
      `${API}/auth/customer-registration`,
      json({ email: `refund.${randomBytes(4).toString('hex')}@example.ru`, phone: '+7 (999) 765-43-21', password: 'деньги вернутся на карту' }),
    );
    const auth = { authorization: `Bearer ${reg.body.data!.access_token}` };
    await call(`${API}/customer/cart/store-cart-item`, json({ item: { id: fx().scarf.id, quantity: 2, uid: 'r' } }, auth));
    const placed = (await place({ contact, delivery }, randomUUID(), reg.body.data!.access_token)).body.data!;
    const payment = paymentOf(placed);
    standin.settle(payment.id, 'succeeded');
    await notify(payment.id);
    standin.failNext(3);
    const down = await call(`${API}/customer/orders/${placed.code}/cancel`, json({}, auth));
    expect(down.status).toBe(502);
    expect((await order(placed)).status).toBe('processing');
    const cancelled = await call<OrderDetail>(`${API}/customer/orders/${placed.code}/cancel`, json({}, auth));
    expect(cancelled.body.data).toMatchObject({ status: 'cancelled', payment_status: 'refunded' });
    const refunds = standin.refunds.filter((r) => r.body.payment_id === payment.id);
    expect(refunds).toHaveLength(1);
    expect(refunds[0]!.key).toBe(`refund-${placed.code}`);
    expect(refunds[0]!.body.amount).toEqual(payment.amount);
    expect(refunds[0]!.body.receipt!.items.map((i) => i.payment_subject)).toEqual(['commodity', 'service']);
  });

  it('SBP orders ask YooKassa for SBP; the notification endpoint refuses bodies that are not notifications', async () => {
    await place({ ...twoLines(), payment: 'sbp' });
    expect(standin.creates.at(-1)!.body.payment_method_data).toEqual({ type: 'sbp' });
    // SberPay is YooKassa's `sberbank`: the bank's app on a phone, YooKassa's page (a QR or the phone's number) on a desktop.
    const phone = await call<PlacedAnswer>(
      `${API}/checkout/place-order`,
      json(
        { ...twoLines(), payment: 'sber_pay' },
        { 'idempotency-key': randomUUID(), 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) Mobile/15E148' },
      ),
    );
    expect(standin.creates.at(-1)!.body).toMatchObject({ payment_method_data: { type: 'sberbank' }, confirmation: { type: 'mobile_application' } });
    expect(phone.body.data?.payment_url).toMatch(/^sberpay:\/\/invoicing\/v2\?bankInvoiceId=/);
    await place({ ...twoLines(), payment: 'sber_pay' });
    expect(standin.creates.at(-1)!.body).toMatchObject({ payment_method_data: { type: 'sberbank' }, confirmation: { type: 'redirect' } });
    // Its receipt is a card payment's: the same lines, adding up to the payment.
    expect(standin.creates.at(-1)!.body.receipt.items.map((i) => i.payment_subject)).toEqual(['commodity', 'commodity', 'service']);
    expect((await call(`${API}/payments/yookassa/notification`, json({ event: 'payment.succeeded', object: { id: '../../x' } }))).status).toBe(422);
    expect((await call(`${API}/payments/yookassa/notification`, json({ object: {} }))).status).toBe(422);
  });
});
