// Delivery by CDEK in Chromium at 1440 and 390 px (issue 38), on a shop of its own whose carrier is the
// stand-in of CDEK's API (tests/support/cdek-standin.ts): a guest picks a pickup point from the list with
// JavaScript off, pays, and the order shows the point and the dates; a shopper picks a postamat on the map,
// whose code loads only then; a manager registers a paid order with CDEK and prints its waybill; the
// carrier's webhook moves the order to "at the pickup point", the customer sees it and gets the mail.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { acceptCookies, hydrated, operatorSignsIn, payWith, signIn } from './helpers.ts';
import { startCdekStandin, type CdekStandin } from '../support/cdek-standin.ts';
import { readOutbox } from '../support/mail.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const API = '/api/v1/ecommerce-core';
let standin: CdekStandin;
let shop: TestServer;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  standin = await startCdekStandin('e2e-cdek-account', 'e2e-cdek-secret');
  shop = await startTestServer({
    label: 'e2e-delivery',
    seedProducts: 60,
    env: {
      CDEK_API_URL: standin.url,
      CDEK_CLIENT_ID: 'e2e-cdek-account',
      CDEK_CLIENT_SECRET: 'e2e-cdek-secret',
      DELIVERY_SENDER_POINT: 'MSK1',
      // No tile server here: the map draws its points on a plain ground.
      MAP_TILES_URL: 'none',
    },
  });
});
test.afterAll(async () => {
  await shop?.stop();
  await standin?.close();
});

let next = 1;
/** A product of this shop with a size in stock, a different one each time. */
async function inStock(): Promise<{ id: number; variant_code: string }> {
  for (; next < 60; next++) {
    const res = await fetch(`${shop.baseUrl}${API}/product/${next}`);
    const product = res.ok ? ((await res.json()) as { data: { variants: { code: string; available: boolean }[] } }).data : undefined;
    const variant = product?.variants.find((v) => v.available);
    if (variant) return { id: next++, variant_code: variant.code };
  }
  throw new Error('nothing in stock');
}

async function guestCart(page: Page) {
  const item = await inStock();
  await page.goto(shop.baseUrl);
  await acceptCookies(page);
  await page.evaluate((line) => localStorage.setItem('guest-products', JSON.stringify([{ uid: String(Date.now()), quantity: 1, ...line }])), item);
}

async function contact(page: Page) {
  await page.getByRole('textbox', { name: 'Имя и фамилия' }).fill('Вера Получатель');
  await page.getByLabel('Email', { exact: true }).fill(`vera.${randomUUID().slice(0, 6)}@example.ru`);
  await page.getByLabel('Телефон').fill('9215554433');
}

test('a guest picks a pickup point from the list with JavaScript off, pays, and the order shows the point and the dates', async ({ page, browser }) => {
  await guestCart(page);
  // The list is a page of its own that needs no script: find the city, filter, choose.
  const plain = await browser.newContext({ javaScriptEnabled: false, viewport: page.viewportSize() ?? { width: 390, height: 844 } });
  const list = await plain.newPage();
  await list.goto(`${shop.baseUrl}/checkout/pickup?find=${encodeURIComponent('Санкт')}`);
  await list.getByRole('link', { name: 'Санкт-Петербург' }).click();
  await list.getByRole('checkbox', { name: 'Примерочная' }).check();
  await list.getByRole('radio', { name: 'Пункт выдачи' }).check();
  await list.getByRole('button', { name: 'Найти' }).last().click();
  const first = list.getByTestId('pickup-points').getByRole('listitem').first();
  await expect(first).toContainText('Примерочная');
  // Each point says its price and dates as the island's offers do (one item's parcel here: "от").
  await expect(first.getByTestId('point-way')).toHaveText(/^от \d[\d\s,]*\s₽ · Доставим \d{1,2}/);
  const address = (await first.locator('span.block').nth(1).textContent())?.trim() ?? '';
  await first.getByRole('link', { name: /^Выбрать/ }).click();
  await list.waitForURL(/\/checkout\?city=137/);
  const back = list.url();
  await plain.close();

  await page.goto(back);
  await hydrated(page);
  await expect(page.getByTestId('chosen-point')).toContainText(address);
  await expect(page.getByTestId('offer-arrival-cdek-pickup')).toHaveText(/^Доставим \d{1,2}(–\d{1,2})? [а-я]+/);
  const price = (await page.getByTestId('offer-price-cdek-pickup').textContent()) ?? '';
  await contact(page);
  await page.getByRole('button', { name: /Перейти к оплате/ }).click();
  await payWith(page, '4000 0000 0000 3220');
  await page.getByLabel('Код из SMS').fill('123456');
  await page.getByRole('button', { name: 'Подтвердить' }).click();
  await page.waitForURL(/order-success/);
  const shown = page.getByTestId('carrier-delivery');
  await expect(shown).toContainText('Пункт выдачи СДЭК');
  await expect(shown).toContainText(address);
  await expect(page.getByTestId('carrier-arrival')).toHaveText(/^\d{1,2}(–\d{1,2})? [а-я]+|^\d{1,2} [а-я]+ – \d{1,2} [а-я]+/);
  expect(price).toMatch(/₽/);
});

test('a shopper picks a postamat on the map, whose code loads only when the map opens', async ({ page }) => {
  await guestCart(page);
  const loaded: string[] = [];
  page.on('request', (r) => loaded.push(r.url()));
  await page.goto(`${shop.baseUrl}/checkout`);
  await hydrated(page);
  await page.getByTestId('delivery-city').fill('Каз');
  await page.getByRole('option', { name: /Казань/ }).click();
  await page.getByRole('radio', { name: /Постамат СДЭК/ }).check();
  expect(loaded.filter((url) => /leaflet|PickupMap/i.test(url))).toEqual([]);
  await page.getByRole('button', { name: 'Показать на карте' }).click();
  await expect(page.getByTestId('pickup-map')).toBeVisible();
  expect(loaded.some((url) => /PickupMap/i.test(url))).toBe(true);
  await page.locator('.leaflet-interactive').first().click();
  await expect(page.getByTestId('map-point')).toContainText('Постамат');
  await page.getByTestId('map-point').getByRole('button', { name: 'Выбрать' }).click();
  await expect(page.getByTestId('chosen-point')).toContainText('Постамат');
  await expect(page.getByTestId('pickup-map')).toBeHidden();
});

test('a manager registers the paid order with CDEK and prints its waybill; the carrier’s webhook puts it at the pickup point, the customer sees it and gets the mail', async ({
  page,
  browser,
}) => {
  // A customer's order to a pickup point in Kazan, placed with its quote and paid.
  const customer = await browser.newPage();
  const { token } = await signIn(customer, shop.baseUrl);
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const item = await inStock();
  await fetch(`${shop.baseUrl}${API}/customer/cart/store-cart-item`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ item: { ...item, quantity: 1, uid: randomUUID() } }),
  });
  const options = (await (
    await fetch(`${shop.baseUrl}${API}/delivery/options`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ city: 424, lines: [{ id: item.id, quantity: 1 }] }),
    })
  ).json()) as {
    data: { offers: { mode: string; quote: string }[] };
  };
  const point = (
    (await (await fetch(`${shop.baseUrl}${API}/delivery/points?city=424&kind=office`)).json()) as { data: { points: { code: string; hours: string }[] } }
  ).data.points[0];
  const placed = (await (
    await fetch(`${shop.baseUrl}${API}/checkout/place-order`, {
      method: 'POST',
      headers: { ...auth, 'idempotency-key': randomUUID() },
      body: JSON.stringify({
        contact: { name: 'Вера Получатель', email: 'vera.kazan@example.ru', phone: '+7 (921) 555-44-33' },
        delivery: {
          method: 'pickup',
          city: 'Казань',
          address: 'пункт выдачи',
          quote: options.data.offers.find((o) => o.mode === 'pickup')?.quote,
          point: point?.code,
        },
      }),
    })
  ).json()) as { data: { code: string; payment_url: string } };
  const code = placed.data.code;
  await fetch(`${shop.baseUrl}${API}/payments/test/${placed.data.payment_url.split('/').pop()}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ action: 'sbp' }),
  });

  const token2 = readFileSync(join(shop.database.env['DATA_DIR'] as string, 'operator-token'), 'utf8').trim();
  await operatorSignsIn(page, shop.baseUrl, token2, 'manager');
  await page.goto(`${shop.baseUrl}/ops/orders/${code}`);
  await expect(page.getByTestId('ops-carrier')).toContainText(point?.code ?? '');
  await page.getByRole('button', { name: 'Передать в службу доставки' }).click();
  await expect(page.getByTestId('ops-shipment')).toHaveText('Передан в СДЭК');
  const number = [...standin.orders.values()].find((o) => o.number === code)?.cdekNumber ?? '';
  await expect(page.getByTestId('ops-carrier')).toContainText(`Номер отправления: ${number}`);
  const pdf = await page.request.get(`${shop.baseUrl}/ops/orders/${code}/waybill.pdf`);
  expect(pdf.headers()['content-type']).toBe('application/pdf');
  expect((await pdf.body()).toString('latin1')).toContain(number);
  await expect(page.getByTestId('ops-waybill')).toHaveAttribute('href', `/ops/orders/${code}/waybill.pdf`);

  // The carrier's depots move the parcel; CDEK calls the shop's webhook.
  for (const status of ['RECEIVED_AT_SHIPMENT_WAREHOUSE', 'ACCEPTED_AT_PICK_UP_POINT'] as const) {
    const res = await fetch(`${shop.baseUrl}${API}/delivery/cdek/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(standin.advance(code, status)),
    });
    expect(res.status).toBe(200);
  }
  await customer.goto(`${shop.baseUrl}/dashboard/order/${code}`);
  await expect(customer.getByTestId('order-status')).toHaveText('Ожидает в пункте выдачи');
  await expect(customer.getByText('Принят на склад до востребования')).toBeVisible();
  await expect(customer.getByTestId('carrier-number')).toHaveText(number);
  await expect
    .poll(() => readOutbox(shop.database.env['DATA_DIR'] as string).filter((m) => m.body.includes(`Заказ ${code} ждёт вас в пункте выдачи`)).length)
    .toBe(1);
  const mail = readOutbox(shop.database.env['DATA_DIR'] as string).find((m) => m.body.includes(`Заказ ${code} ждёт вас`));
  expect(mail?.body).toContain(`Часы работы: ${point?.hours}`);
  await customer.close();
});
