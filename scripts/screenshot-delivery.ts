// Screenshots of delivery by a carrier (issue 38) at 1440 px and 390 px: checkout's city and offers, the
// point list in place, the map, the no-JavaScript point page, the order-success page with the point and
// dates — and with DATA_DIR (the shop's, for its operator token) the console's order page once shipped.
// The shop must run with a carrier: `node scripts/cdek-standin.ts` prints the URL for CDEK_API_URL.
// Usage: [DATA_DIR=…] node scripts/screenshot-delivery.ts http://127.0.0.1:4321
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { chromiumPath, CHROMIUM_ARGS } from '../tests/e2e/chromium.ts';
import { operatorSignsIn, payWith } from '../tests/e2e/helpers.ts';

const base = process.argv[2] ?? 'http://127.0.0.1:4321';
const out = process.env['SCREENSHOT_DIR'] ?? 'screenshots';
mkdirSync(out, { recursive: true });

async function inStock(skip: number): Promise<{ id: number; variant_code: string }> {
  let found = 0;
  for (let id = 1; id < 200; id++) {
    const res = await fetch(`${base}/api/v1/ecommerce-core/product/${id}`);
    if (!res.ok) continue;
    const variant = ((await res.json()) as { data: { variants: { code: string; available: boolean }[] } }).data.variants.find((v) => v.available);
    if (variant && found++ === skip) return { id, variant_code: variant.code };
  }
  throw new Error('nothing in stock');
}

const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
const shoot = (page: Page, name: string) => page.screenshot({ path: `${out}/${name}.png`, fullPage: true });
let orderCode = '';
for (const [label, viewport, skip] of [
  ['desktop', { width: 1440, height: 900 }, 0],
  ['mobile', { width: 390, height: 844 }, 1],
] as const) {
  const page = await browser.newPage({ viewport });
  const item = await inStock(skip);
  await page.goto(base);
  await page.evaluate((line) => localStorage.setItem('guest-products', JSON.stringify([{ uid: String(Date.now()), quantity: 1, ...line }])), item);
  await page.goto(`${base}/checkout`, { waitUntil: 'networkidle' });
  await page.getByTestId('delivery-city').fill('Санкт');
  await page.getByRole('option', { name: /Санкт-Петербург/ }).click();
  await page.getByTestId('offer-price-cdek-pickup').waitFor();
  await shoot(page, `delivery-offers-${label}`);
  await page.getByRole('link', { name: 'Выбрать из списка' }).click();
  await page.getByTestId('point-list').getByRole('button').first().waitFor();
  await shoot(page, `delivery-list-${label}`);
  await page
    .getByRole('button', { name: /^Выбрать:/ })
    .first()
    .click();
  await page.getByRole('button', { name: 'Показать на карте' }).click();
  await page.locator('.leaflet-interactive').first().waitFor();
  await page.locator('.leaflet-interactive').nth(1).click();
  await shoot(page, `delivery-map-${label}`);
  await page.getByTestId('map-point').getByRole('button', { name: 'Выбрать' }).click();
  await page.getByRole('textbox', { name: 'Имя и фамилия' }).fill('Вера Получатель');
  await page.getByLabel('Email', { exact: true }).fill('vera@example.ru');
  await page.getByLabel('Телефон').fill('9215554433');
  await page.getByRole('button', { name: /Перейти к оплате/ }).click();
  await payWith(page, '4242 4242 4242 4242');
  await page.waitForURL(/order-success/);
  await page.waitForLoadState('networkidle');
  orderCode = (await page.getByTestId('order-code').textContent()) ?? '';
  await shoot(page, `delivery-order-${label}`);
  await page.close();

  const plain = await browser.newContext({ viewport, javaScriptEnabled: false });
  const list = await plain.newPage();
  await list.goto(`${base}/checkout/pickup?city=137&city_name=${encodeURIComponent('Санкт-Петербург')}&fitting_room=1`);
  await shoot(list, `delivery-pickup-page-${label}`);
  await plain.close();
}

if (process.env['DATA_DIR'] && orderCode) {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await operatorSignsIn(page, base, readFileSync(join(process.env['DATA_DIR'], 'operator-token'), 'utf8').trim(), 'manager');
  await page.goto(`${base}/ops/orders/${orderCode}`);
  await page.getByRole('button', { name: 'Передать в службу доставки' }).click();
  await page.getByTestId('ops-shipment').waitFor();
  await shoot(page, 'delivery-ops-order-desktop');
}
await browser.close();
