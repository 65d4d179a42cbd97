// The cart page in the browser (spec §2, §4; issue 9): a guest's lines checked against the catalogue and
// totalled over the selected ones, the stepper within its bounds, remove and clear; after logging in the
// same lines are the customer's server cart.
import { expect, test } from './fixtures.ts';
import type { Page } from '@playwright/test';
import { addFirstSize, hydrated, isMobile, open, signIn } from './helpers.ts';

/** A guest's cart of two products, open: its lines. */
async function guestCartOfTwo(page: Page) {
  await addFirstSize(page, 0);
  await addFirstSize(page, 1);
  await open(page, '/cart');
  const lines = page.getByRole('list', { name: 'Корзина' }).getByRole('listitem');
  await expect(lines).toHaveCount(2);
  return lines;
}

test('a guest’s cart: lines, totals over the selected ones, the stepper, remove and clear', async ({ page }) => {
  const lines = await guestCartOfTwo(page);
  const total = page.getByTestId('cart-total');
  const both = await total.textContent();

  // Unselecting a line takes it out of the total; the count badge still counts it.
  await lines.nth(1).getByRole('checkbox').uncheck();
  await expect(total).not.toHaveText(both!);
  await lines.nth(1).getByRole('checkbox').check();
  await expect(total).toHaveText(both!);

  await lines.first().getByRole('button', { name: 'Увеличить количество' }).click();
  await expect(lines.first().locator('output')).toHaveText('2');
  await lines.first().getByRole('button', { name: 'Уменьшить количество' }).click();
  await expect(lines.first().locator('output')).toHaveText('1');
  await expect(lines.first().getByRole('button', { name: 'Уменьшить количество' })).toBeDisabled();

  await lines.nth(1).getByRole('button', { name: 'Удалить' }).click();
  await expect(lines).toHaveCount(1);
  page.once('dialog', (dialog) => void dialog.accept());
  await page.getByRole('button', { name: 'Очистить корзину' }).click();
  await expect(page.getByText('В корзине пока пусто')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Перейти в каталог' })).toHaveAttribute('href', '/brands');
});

test('a guest’s cleared cart stays empty when the check of its earlier lines answers late', async ({ page }) => {
  const lines = await guestCartOfTwo(page);
  // The check of the one line left after «Удалить» is held until the cart has been cleared.
  let release = () => undefined as void;
  const cleared = new Promise<void>((resolve) => (release = resolve));
  const held = page.waitForRequest('**/cart/validate-cart-items');
  await page.route('**/cart/validate-cart-items', async (route) => {
    await cleared;
    await route.fallback();
  });
  await lines.nth(1).getByRole('button', { name: 'Удалить' }).click();
  await held;
  page.once('dialog', (dialog) => void dialog.accept());
  await page.getByRole('button', { name: 'Очистить корзину' }).click();
  await expect(page.getByText('В корзине пока пусто')).toBeVisible();
  const late = page.waitForResponse('**/cart/validate-cart-items');
  release();
  await late;
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await expect(page.getByText('В корзине пока пусто')).toBeVisible();
  await expect(lines).toHaveCount(0);
});

test('a customer’s cart lives on the server: added from the product page, shown on /cart after a reload', async ({ page, baseURL }) => {
  await signIn(page, baseURL!);
  await addFirstSize(page, 2);
  expect(await page.evaluate(() => localStorage.getItem('guest-products'))).toBeNull();
  const badge = isMobile(page) ? page.getByRole('navigation', { name: 'Мобильная навигация' }) : page.getByRole('banner');
  await expect(badge.getByLabel(/Корзина: 1/).first()).toBeVisible();
  await open(page, '/cart');
  await page.reload();
  await hydrated(page);
  await expect(page.getByRole('list', { name: 'Корзина' }).getByRole('listitem')).toHaveCount(1);
});

test('a guest who logs in keeps the lines: they join the server cart and leave the browser', async ({ page, baseURL }) => {
  const email = `e2e.cart.${Date.now().toString(36)}@example.ru`;
  const password = 'тёплый шарф на зиму';
  await fetch(`${baseURL}/api/v1/ecommerce-core/auth/customer-registration`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, phone: '+7 (999) 111-00-99', password }),
  });
  await addFirstSize(page, 3);
  const account = isMobile(page)
    ? page.getByRole('navigation', { name: 'Мобильная навигация' }).getByRole('button', { name: 'Профиль' })
    : page.getByRole('banner').getByRole('button', { name: 'Личный кабинет' });
  await account.click();
  const form = page.getByRole('dialog', { name: 'Личный кабинет' }).getByRole('form', { name: 'Вход' });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Пароль', { exact: true }).fill(password);
  await form.getByRole('button', { name: 'Войти' }).click();
  await expect(page.getByRole('dialog', { name: 'Личный кабинет' })).toBeHidden();
  expect(await page.evaluate(() => localStorage.getItem('guest-products'))).toBeNull();
  await open(page, '/cart');
  await expect(page.getByRole('list', { name: 'Корзина' }).getByRole('listitem')).toHaveCount(1);
});
