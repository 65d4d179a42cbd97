// Orders after payment (issue 9) on a server of its own: the operator command's calls move a paid order
// along (forward only, e-mailing each status) and set its tracking; delivery credits the customer's points
// and the referring partner's commission; the customer cancels (the card money goes back through the
// provider, stock returns) or asks to return within the window; nobody else sees or touches the order.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderDetail } from '../../src/features/orders/orders.schema.ts';
import { readOutbox, type OutboxMail } from '../support/mail.ts';
import type { PlacedAnswer } from '../../src/features/checkout/checkout.schema.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { post, shopper } from '../support/shopper.ts';

let server: TestServer;
const API = '/api/v1/ecommerce-core';
beforeAll(async () => {
  server = await startTestServer({ label: 'orders', seedProducts: 30 });
}, 120_000);
afterAll(async () => server?.stop());

const { call, register, inStock, paidOrder } = shopper(() => server);
const operatorToken = () => readFileSync(join(server.database.env['DATA_DIR']!, 'operator-token'), 'utf8').trim();
const ops = (code: string, body?: unknown, token = operatorToken()) =>
  call<OrderDetail>(`${API}/ops/orders/${code}`, body === undefined ? { headers: { 'x-operator-token': token } } : post(body, { 'x-operator-token': token }));

/** Mail is written after the answer has gone: waits up to 5 s for a matching one. */
async function mailed(match: (mail: OutboxMail) => boolean): Promise<boolean> {
  for (let i = 0; i < 50; i++) {
    if (readOutbox(server.database.env['DATA_DIR']!).some(match)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

describe('the operator', () => {
  it('needs the operator token', async () => {
    const auth = await register();
    const order = await paidOrder(auth);
    expect((await ops(order.code, undefined, 'x'.repeat(64))).status).toBe(403);
    expect((await call(`${API}/ops/orders/${order.code}`)).status).toBe(403);
    expect((await ops(order.code)).body.data!.status).toBe('processing');
    expect((await ops('BS-00000000')).status).toBe(404);
  });

  it('moves a paid order forward to delivery with tracking, e-mails each status, credits points and the partner commission, and never moves back', async () => {
    const partner = await register();
    const programme = await call<{ code: string; commission_percent: number }>(`${API}/customer/partners`, { headers: partner });
    const auth = await register(programme.body.data!.code);
    const order = await paidOrder(auth, 1);

    expect((await ops(order.code, { status: 'purchased' })).body.data!.status_label).toBe('Выкуплен');
    expect((await ops(order.code, { status: 'ready_to_ship', tracking_id: 'RA123456789RU' })).body.data!.tracking_id).toBe('RA123456789RU');
    const shipped = await ops(order.code, { status: 'shipped', event: { status: 'Прибыло в сортировочный центр', place: 'Москва' } });
    expect(shipped.body.data!.lines[0]!.tracking_history).toEqual([expect.objectContaining({ status: 'Прибыло в сортировочный центр', place: 'Москва' })]);
    const back = await ops(order.code, { status: 'processing' });
    expect(back.status).toBe(409);
    expect(back.body.message).toBe('Нельзя перевести заказ из статуса shipped в processing');

    const before = await call<{ bonus_amount: number }>(`${API}/customer/dashboard`, { headers: auth });
    const delivered = await ops(order.code, { status: 'delivered' });
    expect(delivered.body.data).toMatchObject({ status: 'delivered', can_cancel: 0, can_return: 1 });
    expect(delivered.body.data!.history.map((h) => h.status)).toEqual(['pending', 'processing', 'purchased', 'ready_to_ship', 'shipped', 'delivered']);
    const after = await call<{ bonus_amount: number }>(`${API}/customer/dashboard`, { headers: auth });
    // 5 % of the goods paid for, as points.
    const goods = delivered.body.data!.items_total - delivered.body.data!.bonus_used;
    expect(after.body.data!.bonus_amount - before.body.data!.bonus_amount).toBe(Math.floor(goods * 0.05));
    const stats = await call<{ totals: { comission_earned: number; orders: number } }>(`${API}/customer/partners`, { headers: partner });
    expect(stats.body.data!.totals.comission_earned).toBe(Math.floor((goods * programme.body.data!.commission_percent) / 100));
    expect(stats.body.data!.totals.orders).toBe(1);

    expect(await mailed((m) => m.body.includes(`Заказ ${order.code}: Отправлен`))).toBe(true);
    expect(await mailed((m) => m.body.includes(`Заказ ${order.code}: Доставлен`))).toBe(true);

    // Returned once, within the window; the managers are told.
    const asked = await call<OrderDetail>(`${API}/customer/orders/${order.code}/return`, post({}, auth));
    expect(asked.body).toMatchObject({ success: true, message: 'Заявка на возврат принята: менеджер свяжется с вами в течение дня', data: { can_return: 0 } });
    expect((await call(`${API}/customer/orders/${order.code}/return`, post({}, auth))).status).toBe(409);
    expect(await mailed((m) => m.to.includes('managers@') && m.body.includes(order.code))).toBe(true);
    expect((await call(`${API}/customer/orders/${order.code}/cancel`, post({}, auth))).status).toBe(409);
  });

  it('the unpaid order stays with the payment: the operator cannot move it out of pending', async () => {
    const item = await inStock(2);
    const placed = await call<PlacedAnswer>(
      `${API}/checkout/place-order`,
      post(
        {
          items: [{ ...item, quantity: 1 }],
          contact: { name: 'Ольга Смирнова', email: 'olga@example.ru', phone: '+7 (999) 111-22-33' },
          delivery: { method: 'courier', city: 'Казань', address: 'Баумана, 1' },
        },
        { 'idempotency-key': randomUUID() },
      ),
    );
    expect((await ops(placed.body.data!.code, { status: 'purchased' })).status).toBe(409);
  });
});

describe('the customer', () => {
  it('cancels a paid order: the money goes back through the provider, the history says so; the same again is refused', async () => {
    const auth = await register();
    const order = await paidOrder(auth, 3);
    const cancelled = await call<OrderDetail>(`${API}/customer/orders/${order.code}/cancel`, post({}, auth));
    expect(cancelled.body).toMatchObject({
      message: 'Заказ отменён. Если он был оплачен, деньги вернутся на карту в течение нескольких дней',
      data: { status: 'cancelled', payment_status: 'refunded', can_cancel: 0 },
    });
    expect(cancelled.body.data!.history.at(-1)).toMatchObject({ status: 'cancelled', note: 'customer', label: 'Отменён' });
    const again = await call(`${API}/customer/orders/${order.code}/cancel`, post({}, auth));
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('Этот заказ уже нельзя отменить: мы выкупили его у бутика');
  });

  it("cannot see, cancel or return another customer's order, nor one too early", async () => {
    const owner = await register();
    const order = await paidOrder(owner, 4);
    const other = await register();
    for (const path of [`${API}/customer/orders/${order.code}/cancel`, `${API}/customer/orders/${order.code}/return`]) {
      expect((await call(path, post({}, other))).status).toBe(404);
    }
    expect((await call(`${API}/customer/orders/${order.code}`, { headers: other })).status).toBe(404);
    expect((await call(`${API}/customer/orders/${order.code}/return`, post({}, owner))).status).toBe(409);
    const page = await fetch(new URL(`/dashboard/order/${order.code}`, server.baseUrl), {
      redirect: 'manual',
      headers: { cookie: `bs_session=${other.authorization.slice(7)}` },
    });
    expect(page.status).toBe(302);
    expect(page.headers.get('location')).toMatch(/\/404$/);
    const own = await fetch(new URL(`/dashboard/order/${order.code}`, server.baseUrl), { headers: { cookie: `bs_session=${owner.authorization.slice(7)}` } });
    const html = await own.text();
    expect(html).toContain(`Заказ ${order.code}`);
    expect(html).toContain('В обработке');
    expect(own.headers.get('cache-control')).toContain('no-store');
  });
});

describe('npm run order', () => {
  it('shows and moves an order through the running shop', async () => {
    const auth = await register();
    const order = await paidOrder(auth, 5);
    const run = promisify(execFile);
    const environment = { ...process.env, ...server.database.env, OPERATOR_TOKEN: '' };
    const url = server.baseUrl;
    const moved = await run(process.execPath, ['scripts/order.ts', order.code, '--status', 'purchased', '--url', url], { env: environment });
    expect(moved.stdout).toContain(`${order.code}: Выкуплен`);
    const refused = await run(process.execPath, ['scripts/order.ts', order.code, '--status', 'processing', '--url', url], { env: environment }).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect('code' in refused && refused.code).toBe(1);
    expect((refused as { stderr: string }).stderr).toContain('409: Нельзя перевести заказ из статуса purchased в processing');
  });
});
