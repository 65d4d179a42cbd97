// Screenshots of the login/registration modal (both tabs, the forgot view) and every dashboard page at
// 1440 px and 390 px (issue 8). A customer is registered through the API and handed to the browser the
// way the modal does it: the stored session in localStorage and the cookie the server set.
// Usage: node scripts/screenshot-account.ts http://127.0.0.1:4321
import { mkdirSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { chromium } from 'playwright-core';
import { chromiumPath, CHROMIUM_ARGS } from '../tests/e2e/chromium.ts';

const base = process.argv[2] ?? 'http://127.0.0.1:4321';
const out = process.env['SCREENSHOT_DIR'] ?? 'screenshots';
mkdirSync(out, { recursive: true });

const json = { 'content-type': 'application/json' };
const reg = await fetch(`${base}/api/v1/ecommerce-core/auth/customer-registration`, {
  method: 'POST',
  headers: json,
  body: JSON.stringify({ email: `shot.${randomBytes(4).toString('hex')}@example.ru`, phone: '+7 (999) 123-45-67', password: 'снимки экрана для проверки' }),
});
const answer = (await reg.json()) as { data: { access_token: string; user: Record<string, unknown>; dashboard_content: Record<string, unknown> } };
const token = answer.data.access_token;
const auth = { ...json, authorization: `Bearer ${token}` };
await fetch(`${base}/api/v1/ecommerce-core/customer/update-customer-basic-info`, {
  method: 'POST',
  headers: auth,
  body: JSON.stringify({ name: 'Алиса', surname: 'Зайцева', patronymic: 'Петровна', email: answer.data.user['email'], phone: '+7 (999) 123-45-67' }),
});
await fetch(`${base}/api/v1/ecommerce-core/customer/addresses`, {
  method: 'POST',
  headers: auth,
  body: JSON.stringify({
    recipient: 'Алиса Зайцева',
    phone: '+7 (999) 123-45-67',
    city: 'Москва',
    street: 'Петровка',
    house: '5',
    apartment: '12',
    postcode: '107031',
  }),
});
const info = (await (await fetch(`${base}/api/v1/ecommerce-core/customer/customer-basic-info`, { headers: auth })).json()) as { data: Record<string, unknown> };
const session = {
  accessToken: token,
  user: info.data,
  dashboard: { balanceAmount: 0, bonusAmount: 0, bonusAvailableUntil: null },
};

const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
for (const [label, viewport] of [
  ['desktop', { width: 1440, height: 900 }],
  ['mobile', { width: 390, height: 844 }],
] as const) {
  const guest = await browser.newPage({ viewport });
  const hydrated = (page = guest) => page.waitForFunction(() => document.querySelectorAll('astro-island[ssr]:not([client="visible"])').length === 0);
  await guest.goto(base, { waitUntil: 'networkidle' });
  await hydrated();
  if (label === 'desktop') await guest.getByRole('banner').getByRole('button', { name: 'Личный кабинет' }).click();
  else await guest.getByRole('navigation', { name: 'Мобильная навигация' }).getByRole('button', { name: 'Профиль' }).click();
  const modal = guest.getByRole('dialog', { name: 'Личный кабинет' });
  await modal.getByRole('tab', { name: 'Вход' }).waitFor();
  await guest.waitForTimeout(300);
  await guest.screenshot({ path: `${out}/auth-login-${label}.png` });
  await modal.getByRole('tab', { name: 'Регистрация' }).click();
  await modal.getByLabel('Email').fill('не-адрес');
  await modal.getByLabel('Телефон').fill('999');
  await modal.getByLabel('Пароль', { exact: true }).focus();
  await guest.waitForTimeout(200);
  await guest.screenshot({ path: `${out}/auth-register-${label}.png` });
  await modal.getByRole('tab', { name: 'Вход' }).click();
  await modal.getByRole('button', { name: 'Забыли пароль?' }).click();
  await guest.waitForTimeout(200);
  await guest.screenshot({ path: `${out}/auth-forgot-${label}.png` });
  await guest.close();

  const context = await browser.newContext({ viewport });
  await context.addCookies([{ name: 'bs_session', value: token, url: base }]);
  await context.addInitScript((value) => localStorage.setItem('session', value), JSON.stringify(session));
  const page = await context.newPage();
  for (const path of [
    '/dashboard',
    '/dashboard/orders',
    '/dashboard/balance',
    '/dashboard/wishlist',
    '/dashboard/profile',
    '/dashboard/partners',
    '/dashboard/address',
  ]) {
    await page.goto(base + path, { waitUntil: 'networkidle' });
    await hydrated(page);
    const name = path.replace(/^\//, '').replace(/\//g, '-');
    await page.screenshot({ path: `${out}/${name}-${label}.png`, fullPage: true });
  }
  await page.goto(base, { waitUntil: 'networkidle' });
  await hydrated(page);
  if (label === 'desktop') await page.getByRole('banner').getByRole('button', { name: 'Личный кабинет' }).click();
  else await page.getByRole('navigation', { name: 'Мобильная навигация' }).getByRole('button', { name: 'Профиль' }).click();
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${out}/account-menu-${label}.png` });
  await context.close();
  console.log(`${out}/{auth-*,dashboard-*,account-menu}-${label}.png`);
}
await browser.close();
