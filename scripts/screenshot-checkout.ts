// Screenshots of the buying path at 1440 px and 390 px (issue 9): the cart, the checkout as a guest, the
// test provider's card page and its 3-D Secure step, the order-success page, order-failed after the
// declined card, and a customer's order page with its map (tracking when DATA_DIR holds the operator key).
// Two products are put in the guest cart the way the product page does (localStorage).
// Usage: node scripts/screenshot-checkout.ts http://127.0.0.1:4321
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { chromiumPath, CHROMIUM_ARGS } from '../tests/e2e/chromium.ts';

const base = process.argv[2] ?? 'http://127.0.0.1:4321';
const out = process.env['SCREENSHOT_DIR'] ?? 'screenshots';
mkdirSync(out, { recursive: true });

interface Variant {
  code: string;
  available: boolean;
}
async function availableLines(count: number): Promise<{ id: number; variant_code: string }[]> {
  const lines: { id: number; variant_code: string }[] = [];
  for (let id = 1; lines.length < count && id < 200; id++) {
    const res = await fetch(`${base}/api/v1/ecommerce-core/product/${id}`);
    if (!res.ok) continue;
    const product = (await res.json()) as { data: { variants: Variant[] } };
    const variant = product.data.variants.find((v) => v.available);
    if (variant) lines.push({ id, variant_code: variant.code });
  }
  return lines;
}

const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
const shoot = (page: Page, name: string) => page.screenshot({ path: `${out}/${name}.png`, fullPage: true });
for (const [label, viewport] of [
  ['desktop', { width: 1440, height: 900 }],
  ['mobile', { width: 390, height: 844 }],
] as const) {
  for (const card of ['4000 0000 0000 3220', '4000 0000 0000 0002']) {
    const page = await browser.newPage({ viewport });
    const lines = await availableLines(2);
    await page.goto(base);
    await page.evaluate(
      (items) => localStorage.setItem('guest-products', JSON.stringify(items.map((l, i) => ({ uid: String(Date.now() + i), quantity: 1, ...l })))),
      lines,
    );
    const declined = card.endsWith('0002');
    if (!declined) {
      await page.goto(`${base}/cart`, { waitUntil: 'networkidle' });
      await shoot(page, `cart-${label}`);
    }
    await page.goto(`${base}/checkout`, { waitUntil: 'networkidle' });
    await page.getByTestId('checkout-total').waitFor();
    if (!declined) await shoot(page, `checkout-empty-${label}`);
    await page.getByRole('textbox', { name: 'Имя и фамилия' }).fill('Анна Иванова');
    await page.getByLabel('Email', { exact: true }).fill('anna@example.ru');
    await page.getByLabel('Телефон').fill('9991234567');
    await page.getByRole('textbox', { name: 'Город' }).fill('Москва');
    await page.getByLabel('Улица, дом, квартира').fill('Тверская, 7, кв. 12');
    if (!declined) await shoot(page, `checkout-filled-${label}`);
    await page.getByRole('button', { name: /Перейти к оплате/ }).click();
    await page.waitForURL(/test-payment/);
    await page.getByLabel('Номер карты').fill(card);
    await page.getByLabel('Срок действия').fill('12/34');
    await page.getByLabel('CVC').fill('123');
    if (!declined) await shoot(page, `test-payment-${label}`);
    await page.getByRole('button', { name: 'Оплатить' }).click();
    if (!declined) {
      await page.getByLabel('Код из SMS').fill('123456');
      await shoot(page, `test-payment-3ds-${label}`);
      await page.getByRole('button', { name: 'Подтвердить' }).click();
      await page.waitForURL(/order-success/);
      await page.waitForLoadState('networkidle');
      await shoot(page, `order-success-${label}`);
    } else {
      await page.waitForURL(/order-failed/);
      await page.waitForLoadState('networkidle');
      await shoot(page, `order-failed-${label}`);
    }
    await page.close();
  }
}
// A customer's order page (shipped, with tracking) and its map, when the operator key is at hand.
const api = `${base}/api/v1/ecommerce-core`;
const json = { 'content-type': 'application/json' };
const reg = await (
  await fetch(`${api}/auth/customer-registration`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ email: `shot.order.${Date.now().toString(36)}@example.ru`, phone: '+7 (999) 123-45-67', password: 'снимки страницы заказа' }),
  })
).json();
const auth = { ...json, authorization: `Bearer ${reg.data.access_token as string}` };
for (const [i, line] of (await availableLines(2)).entries())
  await fetch(`${api}/customer/cart/store-cart-item`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ item: { ...line, quantity: 1, uid: `s${i}` } }),
  });
const placed = await (
  await fetch(`${api}/checkout/place-order`, {
    method: 'POST',
    headers: { ...auth, 'idempotency-key': `shot-${Date.now()}` },
    body: JSON.stringify({
      contact: { name: 'Алиса Зайцева', email: 'alice@example.ru', phone: '+7 (999) 123-45-67' },
      delivery: { method: 'courier', city: 'Казань', address: 'Баумана, 15, кв. 3' },
    }),
  })
).json();
const code = placed.data.code as string;
await fetch(`${api}/payments/test/${(placed.data.payment_url as string).split('/').pop()}`, {
  method: 'POST',
  headers: json,
  body: JSON.stringify({ action: 'sbp' }),
});
try {
  const token = readFileSync(join(process.env['DATA_DIR'] ?? 'data', 'operator-token'), 'utf8').trim();
  const ops = (body: unknown) =>
    fetch(`${api}/ops/orders/${code}`, { method: 'POST', headers: { ...json, 'x-operator-token': token }, body: JSON.stringify(body) });
  await ops({ status: 'purchased' });
  await ops({ status: 'ready_to_ship', tracking_id: 'RA123456789RU' });
  await ops({ status: 'shipped', event: { status: 'Принято в отделении связи', place: 'Москва' } });
  await ops({ event: { status: 'Прибыло в сортировочный центр', place: 'Казань' } });
} catch {
  console.log('no operator key in DATA_DIR: the order page is shown as paid, without tracking');
}
const info = (await (await fetch(`${api}/customer/customer-basic-info`, { headers: auth })).json()) as { data: Record<string, unknown> };
for (const [label, viewport] of [
  ['desktop', { width: 1440, height: 900 }],
  ['mobile', { width: 390, height: 844 }],
] as const) {
  const context = await browser.newContext({ viewport });
  await context.addCookies([{ name: 'bs_session', value: reg.data.access_token as string, url: base }]);
  await context.addInitScript(
    (value) => localStorage.setItem('session', value),
    JSON.stringify({ accessToken: reg.data.access_token, user: info.data, dashboard: { balanceAmount: 0, bonusAmount: 0, bonusAvailableUntil: null } }),
  );
  const page = await context.newPage();
  await page.goto(`${base}/dashboard/order/${code}`, { waitUntil: 'networkidle' });
  await page.waitForFunction(() => document.querySelectorAll('astro-island[ssr]:not([client="visible"])').length === 0);
  await shoot(page, `order-page-${label}`);
  await page.getByRole('button', { name: 'Показать на карте' }).click();
  await page.getByRole('dialog').waitFor();
  await page.screenshot({ path: `${out}/order-map-${label}.png` });
  await context.close();
}
await browser.close();
console.log(`screenshots in ${out}/`);
