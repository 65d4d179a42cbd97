// Pay at the point after trying on (issue 55) in Chromium at 1440 and 390 px, on a shop of its own whose
// carrier is the CDEK stand-in and which offers payment on delivery: a guest orders one model in two sizes
// to a point with a fitting room, with «Примерка» and «Частичный выкуп», paying on receipt; the carrier
// reports one size kept and paid by card, the other refused; the order's page and the console say so, and
// the refused size is on sale again.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from './fixtures.ts';
import { acceptCookies, hydrated, operatorSignsIn } from './helpers.ts';
import { startCdekStandin, type CdekStandin } from '../support/cdek-standin.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const API = '/api/v1/ecommerce-core';
const HOOK_TOKEN = 'e2e-cod-hook-token-0123456789';
let standin: CdekStandin;
let shop: TestServer & { prepared: { ids: number[] } | undefined };

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  standin = await startCdekStandin('e2e-cod-account', 'e2e-cod-secret');
  shop = await startTestServer({
    label: 'e2e-cod',
    seedProducts: 30,
    env: {
      CDEK_API_URL: standin.url,
      CDEK_CLIENT_ID: 'e2e-cod-account',
      CDEK_CLIENT_SECRET: 'e2e-cod-secret',
      DELIVERY_SENDER_POINT: 'MSK1',
      CDEK_WEBHOOK_TOKEN: HOOK_TOKEN,
      MAP_TILES_URL: 'none',
      PAY_ON_DELIVERY: '1',
      COD_FEE_PERCENT: '2',
    },
    // Models in two sizes, one of each in stock, at 6,000 ₽: one per viewport's run.
    prepare: async (db) => {
      const { rows } = await db.query('SELECT product_id FROM product_variants GROUP BY product_id HAVING count(*) >= 2 ORDER BY product_id LIMIT 2');
      const ids = rows.map((r) => Number(r['product_id']));
      await db.query('UPDATE products SET price = 600000, price_old = NULL, free_delivery = false WHERE id = ANY($1)', [ids]);
      await db.query('UPDATE product_variants SET stock = 1, min_item = 1 WHERE product_id = ANY($1)', [ids]);
      return { ids };
    },
  });
});
test.afterAll(async () => {
  await shop?.stop();
  await standin?.close();
});

const hook = (body: unknown) =>
  fetch(`${shop.baseUrl}${API}/delivery/cdek/webhook?token=${HOOK_TOKEN}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

test('a guest orders two sizes with try-on, pays at the point for the one kept; the page and the console say so, and the other size is on sale again', async ({
  page,
  browser,
}, info) => {
  const ids = shop.prepared?.ids ?? [];
  const id = ids[info.project.name === 'mobile' ? 1 : 0] ?? 0;
  const product = ((await (await fetch(`${shop.baseUrl}${API}/product/${id}`)).json()) as { data: { variants: { code: string }[] } }).data;
  const sizes = product.variants.slice(0, 2).map((v) => v.code);
  const inStock = async () =>
    ((await (await fetch(`${shop.baseUrl}${API}/product/${id}`)).json()) as { data: { variants: { code: string; available: boolean }[] } }).data.variants
      .filter((v) => sizes.includes(v.code))
      .map((v) => v.available);

  await page.goto(shop.baseUrl);
  await acceptCookies(page);
  await page.evaluate(
    ({ id, sizes }) =>
      localStorage.setItem('guest-products', JSON.stringify(sizes.map((code, n) => ({ uid: `${Date.now()}-${n}`, id, variant_code: code, quantity: 1 })))),
    { id, sizes },
  );
  await page.goto(`${shop.baseUrl}/checkout`);
  await hydrated(page);
  await page.getByTestId('delivery-city').fill('Санкт');
  await page.getByRole('option', { name: /Санкт-Петербург/ }).click();
  await page.getByRole('radio', { name: /Пункт выдачи СДЭК/ }).check();
  await page.getByRole('link', { name: 'Выбрать из списка' }).click();
  // SPB1 has a fitting room and takes payment on receipt.
  const first = page.getByTestId('point-list').getByRole('listitem').first();
  await expect(first).toContainText('Оплата при получении');
  await first.getByRole('button', { name: /^Выбрать/ }).click();
  await expect(page.getByTestId('chosen-point')).toBeVisible();
  await page.getByRole('textbox', { name: 'Имя и фамилия' }).fill('Ольга Примеркина');
  await page.getByLabel('Email', { exact: true }).fill(`olga.${randomUUID().slice(0, 6)}@example.ru`);
  await page.getByLabel('Телефон').fill('9215554433');

  await page.getByRole('radio', { name: /При получении/ }).check();
  await expect(page.getByTestId('checkout-services')).toBeVisible();
  await page.getByRole('checkbox', { name: /Примерка/ }).check();
  await page.getByRole('checkbox', { name: /Частичный выкуп/ }).check();
  await expect(page.getByText('Комиссия за оплату при получении')).toBeVisible();
  await expect(page.getByText('К оплате при получении')).toBeVisible();
  await page.screenshot({ path: info.outputPath(`checkout-on-delivery-${info.project.name}.png`), fullPage: true });
  await page.getByRole('button', { name: 'Оформить заказ' }).click();
  await page.waitForURL(/order-success/);
  await expect(page.getByTestId('result-title')).toHaveText('Спасибо! Заказ оформлен');
  await expect(page.getByTestId('result-news')).toContainText('Оплатите его при получении');
  const code = (await page.getByTestId('order-code').textContent())?.trim() ?? '';
  await expect.poll(inStock, { timeout: 10_000 }).toEqual([false, false]);

  // The manager hands it to CDEK, which is asked to let the buyer try on and keep part.
  const token = readFileSync(join(shop.database.env['DATA_DIR'] as string, 'operator-token'), 'utf8').trim();
  const console_ = await browser.newPage({ viewport: page.viewportSize() ?? { width: 1440, height: 900 } });
  await operatorSignsIn(console_, shop.baseUrl, token, 'manager');
  await console_.goto(`${shop.baseUrl}/ops/orders/${code}`);
  await expect(console_.getByTestId('ops-order-payment')).toHaveText('При получении');
  await console_.getByRole('button', { name: 'Передать в службу доставки' }).click();
  await expect(console_.getByTestId('ops-shipment')).toHaveText('Передан в СДЭК');
  const sent = [...standin.orders.values()].find((o) => o.number === code)?.body as { services: { code: string }[] };
  expect(sent.services).toEqual([{ code: 'TRYING_ON' }, { code: 'PART_DELIV' }]);

  // At the point: the first size fits and is paid by card, the second goes back.
  expect((await hook(standin.advance(code, 'ACCEPTED_AT_PICK_UP_POINT'))).status).toBe(200);
  expect((await hook(standin.advance(code, 'DELIVERED', { kept: { [sizes[1] ?? '']: 0 }, paidBy: 'CARD' }))).status).toBe(200);
  await page.reload();
  await expect(page.getByTestId('result-title')).toHaveText('Заказ получен');
  await expect(page.getByTestId('line-kept')).toHaveText('Не выкуплено — вернётся в магазин');
  await expect(page.getByTestId('order-payment')).toContainText('Оплачено при получении картой');
  await page.screenshot({ path: info.outputPath(`order-kept-one-${info.project.name}.png`), fullPage: true });
  await console_.reload();
  await expect(console_.getByTestId('ops-order-payment')).toHaveText('Оплачен');
  await expect.poll(inStock, { timeout: 10_000 }).toEqual([false, true]);
  // What CDEK owes the shop for it, until its register says it was transferred.
  await console_.goto(`${shop.baseUrl}/ops/cod`);
  await expect(console_.getByTestId(`ops-cod-${code}`)).toContainText('Ждём перевода');
  await console_.screenshot({ path: info.outputPath(`ops-cod-${info.project.name}.png`), fullPage: true });
  await console_.close();
});
