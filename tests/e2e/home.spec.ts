import { expect, test } from './fixtures.ts';

test.describe('home page', () => {
  test('renders the hero, seeded products with sized images, and the footer', async ({ page }) => {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));

    await page.goto('/');
    await expect(page).toHaveTitle('Brandshop — оригинальная одежда, обувь и сумки премиальных брендов');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Осень в оттенках камня и карамели');
    await expect(page.getByRole('heading', { name: 'Новинки' })).toBeVisible();

    const cards = page.locator('section[aria-labelledby="new-arrivals"] article');
    await expect(cards).toHaveCount(8);
    const firstImage = cards.first().locator('img');
    await expect(firstImage).toHaveAttribute('width', '720');
    await expect(firstImage).toHaveAttribute('height', '960');
    await expect.poll(() => firstImage.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await expect(cards.first().getByText(/₽/).first()).toBeVisible();

    // No breadcrumbs on the home page: the trail would only say 'Главная'.
    await expect(page.getByRole('navigation', { name: 'Хлебные крошки' })).toHaveCount(0);
    await expect(page.getByText('Принимаем оплату картами')).toBeVisible();
    const footer = page.getByRole('contentinfo');
    if ((page.viewportSize()?.width ?? 1440) < 1024) {
      // Link columns are folded on phones until opened.
      await expect(footer.getByRole('link', { name: 'Таблицы размеров' })).toBeHidden();
      await footer.getByText('Покупателям').click();
    }
    await expect(footer.getByRole('link', { name: 'Таблицы размеров' })).toHaveAttribute('href', '/i/12/razmery');
    expect(errors).toEqual([]);
  });

  test('a product card leads to its product url', async ({ page }) => {
    await page.goto('/');
    const link = page.locator('section[aria-labelledby="new-arrivals"] article h3 a').first();
    await expect(link).toHaveAttribute('href', /^\/p\/\d+\/[a-z0-9-]+$/);
  });

  test('an unknown page shows the 404 page', async ({ page }) => {
    const response = await page.goto('/no/such/page');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Страница не найдена' })).toBeVisible();
    await page.getByRole('link', { name: 'На главную', exact: true }).click();
    await expect(page).toHaveURL(/\/$/);
  });
});
