// Screenshots of the managers' console (issue 24) at 1440 px and 390 px: the set-up page with its QR code,
// the recovery codes, the sign-in page with an error, the list of orders, an order and its packing slip, the
// buyout inbox and a request, the customers and a customer, the catalogue and a product, imports and the
// audit log. An operator is added through
// the operator call (as `npm run operator -- add` does) and set up in the browser with codes computed here.
// Usage: node scripts/screenshot-ops.ts http://127.0.0.1:4321 <operator token>
import { mkdirSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { chromium, type Page } from 'playwright-core';
import { chromiumPath, CHROMIUM_ARGS } from '../tests/e2e/chromium.ts';
import { base32Decode, hotp, totpStep } from '../src/features/ops/totp.server.ts';

const base = process.argv[2] ?? 'http://127.0.0.1:4321';
const token = process.argv[3] ?? '';
const out = process.env['SCREENSHOT_DIR'] ?? 'screenshots';
mkdirSync(out, { recursive: true });

const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
for (const [label, viewport] of [
  ['desktop', { width: 1440, height: 900 }],
  ['mobile', { width: 390, height: 844 }],
] as const) {
  const email = `shot.${randomBytes(3).toString('hex')}@shop.ru`;
  const res = await fetch(`${base}/api/v1/ecommerce-core/ops/operators`, {
    method: 'POST',
    headers: { 'x-operator-token': token, 'content-type': 'application/json' },
    body: JSON.stringify({ action: 'add', email, role: 'admin' }),
  });
  const { data } = (await res.json()) as { data: { setup_url: string; otpauth: string } };
  const secret = base32Decode(new URL(data.otpauth).searchParams.get('secret') ?? '');
  const code = (ahead: number) => hotp(secret, totpStep(Date.now()) + ahead);
  const page: Page = await browser.newPage({ viewport });
  // A script the policy blocked, or one that failed, is a fault to see.
  page.on('console', (message) => message.type() === 'error' && console.error(`[${label}] ${message.text()}`));
  page.on('pageerror', (error) => console.error(`[${label}] ${error.message}`));
  const shot = (name: string) => page.screenshot({ path: `${out}/ops-${name}-${label}.png`, fullPage: true });
  // The link names SITE_URL; the screenshots go to the address given.
  const link = new URL(data.setup_url);
  await page.goto(new URL(link.pathname + link.search, base).href);
  await shot('setup');
  const password = 'длинная фраза для входа';
  await page.getByLabel('Пароль', { exact: true }).fill(password);
  await page.getByLabel('Пароль ещё раз').fill(password);
  await page.getByLabel('Код из приложения').fill(code(0));
  await page.getByRole('button', { name: 'Сохранить и подтвердить' }).click();
  await page.getByTestId('ops-recovery').waitFor();
  await shot('recovery');
  await page.goto(`${base}/ops/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Пароль').fill('не тот пароль');
  await page.getByLabel('Код из приложения').fill('000000');
  await page.getByRole('button', { name: 'Войти' }).click();
  await page.getByTestId('ops-error').waitFor();
  await shot('login-error');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Пароль').fill(password);
  await page.getByLabel('Код из приложения').fill(code(1));
  await page.getByRole('button', { name: 'Войти' }).click();
  await page.waitForURL('**/ops/orders');
  await shot('orders');
  // The list polls for newer orders: its notice stays hidden until there are some.
  if (!(await page.locator('#ops-newer').isHidden())) console.error(`[${label}] the new-orders notice shows with nothing new`);
  const first = page.locator('[data-testid="ops-orders"] tbody a').first();
  if ((await first.count()) > 0) {
    await first.click();
    await page.waitForURL('**/ops/orders/BS-*');
    await shot('order');
    await page.getByTestId('ops-slip-link').click();
    await page.waitForURL('**/slip');
    await shot('slip');
  }
  // Keyboard: from the first row's link, ↓ moves to the second row's.
  await page.goto(`${base}/ops/orders`);
  const rows = page.locator('[data-testid="ops-orders"] tbody tr');
  if ((await rows.count()) > 1) {
    await rows.nth(0).locator('a').first().focus();
    await page.keyboard.press('ArrowDown');
    const focused = await page.evaluate(() => document.activeElement?.textContent ?? '');
    if (focused !== (await rows.nth(1).locator('a').first().textContent())) console.error(`[${label}] ↓ did not move to the next row`);
  }
  await page.goto(`${base}/ops/buyout`);
  await shot('buyouts');
  const request = page.locator('[data-testid="ops-buyouts"] tbody a').first();
  if ((await request.count()) > 0) {
    await request.click();
    await page.waitForURL('**/ops/buyout/*');
    await shot('buyout');
  }
  await page.goto(`${base}/ops/customers`);
  await shot('customers');
  const customer = page.locator('[data-testid="ops-customers"] tbody a').first();
  if ((await customer.count()) > 0) {
    await customer.click();
    await page.waitForURL('**/ops/customers/*');
    await shot('customer');
  }
  // The admin's pages.
  await page.goto(`${base}/ops/products`);
  await shot('products');
  const product = page.locator('[data-testid="ops-products"] tbody a').first();
  if ((await product.count()) > 0) {
    await product.click();
    await page.waitForURL('**/ops/products/*');
    await shot('product');
  }
  await page.goto(`${base}/ops/imports`);
  await shot('imports');
  await page.goto(`${base}/ops/audit`);
  await shot('audit');
  await page.close();
}
await browser.close();
console.log(`Screenshots in ${out}/ops-*.png`);
