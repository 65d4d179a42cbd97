// The wishlist in the browser (spec §4, issue 9): a guest's heart asks to log in; a customer's heart
// fills, the badge counts, the dashboard lists the product and its heart takes it away again.
import { expect, test } from './fixtures.ts';
import { isMobile, open, signIn } from './helpers.ts';

test('a guest’s heart says to log in', async ({ page }) => {
  await open(page, '/c/1/zhenshchinam');
  await page.locator('[data-wishlist]').first().click();
  await expect(page.getByText('Необходимо авторизоваться')).toBeVisible();
});

test('a customer’s heart fills, counts in the badge, and the dashboard lists and removes the product', async ({ page, baseURL }) => {
  await signIn(page, baseURL!);
  await open(page, '/c/1/zhenshchinam');
  const heart = page.locator('[data-wishlist]').first();
  const productId = await heart.getAttribute('data-wishlist');
  await heart.click();
  await expect(heart).toHaveAttribute('aria-pressed', 'true');
  const badge = isMobile(page)
    ? page.getByRole('navigation', { name: 'Мобильная навигация' }).getByLabel('Избранное: 1')
    : page.getByRole('banner').getByLabel('Избранное: 1');
  await expect(badge).toBeVisible();

  await open(page, '/dashboard/wishlist');
  const card = page.locator(`[data-wishlist-card="${productId}"]`);
  await expect(card).toBeVisible();
  await expect(card.locator('[data-wishlist]')).toHaveAttribute('aria-pressed', 'true');
  await card.locator('[data-wishlist]').click();
  await expect(card).toHaveCount(0);
  await page.reload();
  await expect(page.getByText('В избранном пока ничего нет')).toBeVisible();
});
