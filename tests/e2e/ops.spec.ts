// The managers' console in Chromium (issue 24) at 1440 and 390 px: an operator set up through the one-time
// link signs in with a TOTP code and finds a guest's order placed a moment ago; moves a customer's order to
// shipped with a tracking number, which the customer's order page shows; cancels a paid order (the test
// provider refunds it, the stock returns); a manager takes a buyout request to "offer sent"; an admin
// changes a price, the product page shows it, and the audit log lists it.
import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { call, open, operatorSignsIn, operatorToken, signIn } from './helpers.ts';
import { sendBuyoutRequest } from '../support/ops.ts';
import { formatPrice } from '../../src/lib/format.ts';

/** A product in stock (from the n-th on) and its first size that is. */
async function inStock(baseURL: string, from: number): Promise<{ id: number; variant_code: string; left: number; slug: string }> {
  for (let id = from; id < from + 60; id++) {
    const product = await call<{ slug: string; variants: { code: string; available: boolean; left: number }[] } | undefined>(baseURL, `/product/${id}`);
    const variant = product?.variants.find((v) => v.available && v.left >= 2);
    if (product && variant) return { id, variant_code: variant.code, left: variant.left, slug: product.slug };
  }
  throw new Error('nothing in stock');
}

/** An order of one item, paid through the test provider: a guest's (no token) or a customer's. */
async function paidOrder(baseURL: string, item: { id: number; variant_code: string }, token?: string, email = `guest.${randomUUID().slice(0, 8)}@example.ru`) {
  const auth: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  const cart = token
    ? (await call(baseURL, '/customer/cart/store-cart-item', { item: { ...item, quantity: 1, uid: randomUUID() } }, auth), {})
    : { items: [{ ...item, quantity: 1 }] };
  const placed = await call<{ code: string; payment_url: string }>(
    baseURL,
    '/checkout/place-order',
    { ...cart, contact: { name: 'Вера Гостева', email, phone: '+7 (999) 222-33-44' }, delivery: { method: 'courier', city: 'Казань', address: 'Баумана, 1' } },
    { ...auth, 'idempotency-key': randomUUID() },
  );
  await call(baseURL, `/payments/test/${placed.payment_url.split('/').pop()}`, { action: 'sbp' });
  return { code: placed.code, email };
}

/** Submits the order page's move form to each status in turn. */
async function moveThrough(page: Page, statuses: string[]) {
  for (const status of statuses) {
    await page.getByLabel('Перевести в статус').selectOption({ label: status });
    await page.getByRole('button', { name: 'Перевести', exact: true }).click();
    await expect(page.getByTestId('ops-order-status')).toHaveText(status);
  }
}

test('an operator signs in with TOTP and finds the order a guest placed a moment ago', async ({ page, baseURL }) => {
  const item = await inStock(baseURL!, 20);
  await paidOrder(baseURL!, item);
  const { code, email } = await paidOrder(baseURL!, item);
  await operatorSignsIn(page, baseURL!, operatorToken(), 'manager');
  const rows = page.getByTestId('ops-orders').locator('tbody tr');
  await expect(rows.first()).toContainText(code);
  // From the keyboard: ↓ from the first row's link to the second's.
  await rows.nth(0).getByRole('link').first().focus();
  await page.keyboard.press('ArrowDown');
  await expect(rows.nth(1).getByRole('link').first()).toBeFocused();
  await page.getByRole('searchbox', { name: 'Код заказа, email, телефон или фамилия' }).fill(email);
  await page.getByRole('button', { name: 'Показать' }).click();
  await expect(page.getByTestId('ops-orders').locator('tbody tr')).toHaveCount(1);
  await page.getByRole('link', { name: code }).click();
  await expect(page.getByTestId('ops-order-status')).toHaveText('В обработке');
  await expect(page.getByText(email).first()).toBeVisible();
});

test('the operator moves a customer’s order to shipped with a tracking number; the customer’s order page shows it', async ({ page, browser, baseURL }) => {
  const customer = await browser.newPage();
  const { token } = await signIn(customer, baseURL!);
  const { code } = await paidOrder(baseURL!, await inStock(baseURL!, 30), token);
  await operatorSignsIn(page, baseURL!, operatorToken(), 'manager');
  await page.goto(`/ops/orders/${code}`);
  await moveThrough(page, ['Выкуплен', 'Готов к отправке']);
  await page.getByLabel('Трек-номер').fill('RA123456785RU');
  await page.getByRole('button', { name: 'Сохранить трек-номер' }).click();
  await expect(page.getByTestId('ops-toast')).toHaveText('Готово: заказ обновлён');
  await moveThrough(page, ['Отправлен']);
  await open(customer, `/dashboard/order/${code}`);
  await expect(customer.getByTestId('tracking-id')).toHaveText('RA123456785RU');
  await expect(customer.getByText('Отправлен').first()).toBeVisible();
  await customer.close();
});

test('the operator cancels a paid order: the test provider refunds it and the stock returns', async ({ page, baseURL }) => {
  const item = await inStock(baseURL!, 40);
  const { code } = await paidOrder(baseURL!, item);
  const left = async () =>
    (await call<{ variants: { code: string; left: number }[] }>(baseURL!, `/product/${item.id}`)).variants.find((v) => v.code === item.variant_code)?.left;
  await expect.poll(left, { timeout: 10_000 }).toBe(item.left - 1);
  await operatorSignsIn(page, baseURL!, operatorToken(), 'manager');
  await page.goto(`/ops/orders/${code}`);
  await page.getByRole('button', { name: 'Отменить заказ' }).click();
  await expect(page.getByTestId('ops-order-status')).toHaveText('Отменён');
  await expect(page.getByTestId('ops-order-payment')).toHaveText('Возвращён');
  await expect.poll(left, { timeout: 10_000 }).toBe(item.left);
});

test('a manager takes a buyout request to “offer sent”', async ({ page, baseURL }) => {
  // A request from the shop's form; the form takes five an hour from one address and the storefront's own
  // tests send some too, so when this one is refused (429) the newest new request is worked instead.
  await sendBuyoutRequest(baseURL!, { description: 'Hermès Birkin 30' });
  await operatorSignsIn(page, baseURL!, operatorToken(), 'manager');
  await page.getByRole('navigation', { name: 'Панель управления' }).getByRole('link', { name: 'Выкуп' }).click();
  await page.getByTestId('ops-buyout-tab-new').click();
  await page.getByTestId('ops-buyouts').locator('tbody a').first().click();
  await expect(page.getByTestId('ops-buyout-chat')).toHaveAttribute('href', /^(https:\/\/t\.me\/\+7|https:\/\/wa\.me\/7|viber:\/\/chat\?number=%2B7)\d{10}$/);
  await page.getByRole('button', { name: 'Взять себе' }).click();
  await expect(page.getByTestId('ops-buyout-status')).toHaveText('В работе');
  await expect(page.getByTestId('ops-toast')).toHaveText('Заявка ваша');
  await page.getByLabel('Перевести в статус').selectOption({ label: 'Предложение отправлено' });
  await page.getByRole('button', { name: 'Перевести', exact: true }).click();
  await expect(page.getByTestId('ops-buyout-status')).toHaveText('Предложение отправлено');
  await expect(page.getByTestId('ops-toast')).toHaveText('Статус заявки изменён');
});

test('an admin changes a price; the product page shows it and the audit log lists it', async ({ page, baseURL }) => {
  // Each viewport's run its own product and price: they share the server.
  const mobile = test.info().project.name === 'mobile';
  const item = await inStock(baseURL!, mobile ? 80 : 50);
  const [typed, shown, stored] = mobile ? ['66 600', '66600₽', '6660000'] : ['77 700', '77700₽', '7770000'];
  const email = await operatorSignsIn(page, baseURL!, operatorToken(), 'admin');
  await page.getByRole('navigation', { name: 'Панель управления' }).getByRole('link', { name: 'Каталог' }).click();
  await page.getByRole('searchbox', { name: /Название, артикул/ }).fill(`#${item.id}`);
  await page.getByRole('button', { name: 'Показать' }).click();
  await page.getByTestId('ops-products').locator('tbody a').first().click();
  await page.getByTestId('ops-product-price').fill(typed);
  await page.getByLabel(/Старая цена/).fill('');
  await page.getByRole('button', { name: 'Сохранить', exact: true }).click();
  await expect(page.getByTestId('ops-toast')).toContainText('Сохранено');
  const shop = await page.context().newPage();
  await expect
    .poll(
      async () => {
        await shop.goto(`/p/${item.id}/${item.slug}`);
        return (await shop.locator('main').textContent())?.replace(/\s/g, '') ?? '';
      },
      // The save rebuilds the process's catalogue index and drops its stored pages (read-model.server.ts): the
      // page shows the new price as soon as the index is built, not PAGE_CACHE_SECONDS (10 s) later.
      { timeout: 5_000 },
    )
    .toContain(shown);
  await shop.close();
  await page.getByRole('navigation', { name: 'Панель управления' }).getByRole('link', { name: 'Журнал' }).click();
  const first = page.getByTestId('ops-audit').locator('tbody tr').first();
  await expect(first).toContainText('product.save');
  await expect(first).toContainText(email);
  await expect(first).toContainText(`price: ${stored}`);
});

test('a manager makes a sale on one product in the console; its page shows the sale price with the old one struck through, and the price comes back when it is archived', async ({
  page,
  baseURL,
}, info) => {
  // A product of its own per project (desktop and mobile run at once), far from the ones other tests buy.
  const id = info.project.name === 'mobile' ? 398 : 397;
  const product = await call<{ slug: string; price: number; price_old: number | null; category: { url: string } }>(baseURL!, `/product/${id}`);
  const sale = Math.round(product.price * 0.75);
  // Struck through: the price before the sale, or the product's own old price when that is higher.
  const old = Math.max(product.price, product.price_old ?? 0);
  await operatorSignsIn(page, baseURL!, operatorToken(), 'manager');
  await page.getByRole('link', { name: 'Акции', exact: true }).click();
  await page.getByTestId('ops-promotions-new').click();
  const name = `Распродажа ${info.project.name}`;
  await page.getByLabel('Название (его видит покупатель)').fill(name);
  await page.getByLabel('Скидка в процентах на товары').check();
  await page.getByLabel('Процент скидки (1–100)').fill('25');
  // A kind's own fields only: the amount field hides while a percent is ticked.
  await expect(page.getByLabel('Сумма скидки, ₽')).toBeHidden();
  await page.getByLabel('На выбранные категории, бренды и товары').check();
  await page.getByRole('textbox', { name: /^Товары/ }).fill(String(id));
  await page.getByTestId('ops-promotion-save').click();
  await expect(page.getByTestId('ops-toast')).toHaveText('Акция создана: цены на сайте обновятся через несколько секунд');
  await page.screenshot({ path: info.outputPath(`ops-promotion-${info.project.name}.png`), fullPage: true });
  await page.getByRole('link', { name: '← Все акции' }).click();
  await expect(page.getByTestId('ops-promotions')).toContainText(name);
  await expect(page.getByTestId('ops-promotions').locator('tr', { hasText: name })).toContainText('Действует');
  await page.screenshot({ path: info.outputPath(`ops-promotions-${info.project.name}.png`), fullPage: true });

  // The storefront follows within seconds: the product page, then its category's listing sorted by price.
  await expect.poll(async () => (await call<{ price: number }>(baseURL!, `/product/${id}`)).price, { timeout: 15_000 }).toBe(sale);
  await open(page, `/p/${id}/${product.slug}`);
  const price = page.locator('main').getByText(formatPrice(sale), { exact: true }).first();
  await expect(price).toBeVisible();
  await expect(page.locator('main s').first()).toHaveText(formatPrice(old));
  await expect(page.getByTestId('product-promotion')).toHaveText(name);
  await expect(
    page
      .locator('main')
      .getByText(`-${Math.round(((old - sale) * 100) / old)}%`)
      .first(),
  ).toBeVisible();
  await page.getByTestId('product-promotion').scrollIntoViewIfNeeded();
  await page.screenshot({ path: info.outputPath(`sale-product-${info.project.name}.png`) });

  // Archived: the price is back.
  await page.goBack();
  await page.goto(`${baseURL}/ops/promotions`);
  await page.getByRole('link', { name }).click();
  await page.getByLabel('Статус').selectOption({ label: 'В архиве' });
  await page.getByTestId('ops-promotion-save').click();
  await expect(page.getByTestId('ops-toast')).toContainText('Сохранено');
  await expect.poll(async () => (await call<{ price: number }>(baseURL!, `/product/${id}`)).price, { timeout: 15_000 }).toBe(product.price);
});
