// Screenshots of the buying path at 1440 px and 390 px (issue 9): the cart, the checkout as a guest, the
// test provider's card page and its 3-D Secure step, the order-success page, and order-failed after the
// declined card. Two products are put in the guest cart the way the product page does (localStorage).
// Usage: node scripts/screenshot-checkout.ts http://127.0.0.1:4321
import { mkdirSync } from 'node:fs';
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
await browser.close();
console.log(`screenshots in ${out}/`);
