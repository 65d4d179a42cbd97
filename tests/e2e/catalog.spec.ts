import { expect, test } from './fixtures.ts';
import { acceptCookies, hydrated, isMobile, open } from './helpers.ts';

const total = async (page: import('@playwright/test').Page) => Number((await page.locator('[data-total]').innerText()).replace(/\D/g, ''));

test.describe('catalogue', () => {
  test('a filter applies, survives a reload and can be reset', async ({ page }) => {
    await open(page, '/c/3/platya');
    await acceptCookies(page);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Платья');
    const all = await total(page);
    expect(all).toBeGreaterThan(0);

    if (isMobile(page)) await page.getByRole('link', { name: /Фильтры/ }).click();
    const filters = page.getByRole('complementary', { name: 'Фильтры' });
    await filters.getByText('Со скидкой').click();
    // Desktop applies at once; phones apply with the button.
    if (isMobile(page)) await filters.getByRole('button', { name: 'Применить' }).click();
    await expect(page).toHaveURL(/with_discount=1/);
    const discounted = await total(page);
    expect(discounted).toBeLessThan(all);
    await expect(page.getByRole('list', { name: 'Выбранные фильтры' }).getByText('Со скидкой')).toBeVisible();

    await page.reload();
    await expect(page).toHaveURL(/with_discount=1/);
    expect(await total(page)).toBe(discounted);
    await expect(page.locator('input[name="with_discount"]')).toBeChecked();
    // Every card on the page shows a discount.
    const cards = page.getByRole('list', { name: 'Товары' }).locator('article');
    await expect(cards.first()).toBeVisible();
    for (const text of await cards.allInnerTexts()) expect(text).toMatch(/-\d+%/);

    await page.getByRole('link', { name: 'Сбросить все' }).click();
    await expect(page).not.toHaveURL(/with_discount/);
    expect(await total(page)).toBe(all);
  });

  test('the far cards of a listing are in the page from the start and drawn as they near, without a jump', async ({ page }) => {
    await page.addInitScript(() => {
      const shifts: number[] = [];
      (window as unknown as { shifts: number[] }).shifts = shifts;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[])
          if (!entry.hadRecentInput) shifts.push(entry.value);
      }).observe({ type: 'layout-shift', buffered: true });
    });
    await open(page, '/c/3/platya');
    await acceptCookies(page);
    const cards = page.getByRole('list', { name: 'Товары' }).locator(':scope > li');
    const count = await cards.count();
    expect(count).toBeGreaterThan(12);
    const last = cards.last();
    // Deferred, not hidden: its name and link are in the document before it is scrolled to.
    await expect(last.getByRole('heading', { level: 3 })).not.toHaveText('');
    await expect(last.locator('a[href^="/p/"]').first()).toHaveAttribute('href', /^\/p\/\d+\//);
    expect(await last.evaluate((li) => getComputedStyle(li).contentVisibility)).toBe('auto');

    const before = await page.evaluate(() => (window as unknown as { shifts: number[] }).shifts.reduce((a, b) => a + b, 0));
    for (let i = 0; i < count; i += 2) {
      await cards.nth(i).scrollIntoViewIfNeeded();
      await page.waitForTimeout(50);
    }
    await expect(last.locator('img')).toBeVisible();
    // A drawn far card is as tall as a first-screen card of its kind (not its 20–24rem placeholder).
    const heights = await cards.evaluateAll((items) => items.map((li) => li.getBoundingClientRect().height));
    expect(Math.abs((heights.at(-1) ?? 0) - Math.max(...heights.slice(0, 4)))).toBeLessThan(60);
    const after = await page.evaluate(() => (window as unknown as { shifts: number[] }).shifts.reduce((a, b) => a + b, 0));
    expect(after - before).toBeLessThan(0.01);
  });

  test('sorting by price and following the pagination links', async ({ page }) => {
    await page.goto('/c/1/zhenshchinam');
    await page.locator('select[name="sort"]').selectOption('price_asc');
    await expect(page).toHaveURL(/sort=price_asc/);
    const next = page.getByRole('navigation', { name: 'Страницы' }).getByRole('link', { name: '2', exact: true });
    await expect(next).toHaveAttribute('href', /sort=price_asc&page=2|page=2.*sort=price_asc/);
    await next.click();
    await expect(page).toHaveURL(/page=2/);
    await expect(page.getByRole('navigation', { name: 'Страницы' }).locator('[aria-current="page"]')).toHaveText('2');
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', /\/c\/1\/zhenshchinam\?page=2$/);
  });

  test('an empty result says so and offers to reset', async ({ page }) => {
    await page.goto('/c/3/platya?brands=999999');
    await expect(page.getByText('По выбранным фильтрам ничего не нашлось')).toBeVisible();
    await page.getByRole('link', { name: 'Сбросить фильтры' }).click();
    await expect(page).toHaveURL(/\/c\/3\/platya$/);
    expect(await total(page)).toBeGreaterThan(0);
  });

  test('a wrong slug redirects to the canonical address, an unknown id to the 404 page', async ({ page }) => {
    await page.goto('/c/3/wrong?with_discount=1');
    await expect(page).toHaveURL(/\/c\/3\/platya\?with_discount=1$/);
    await page.goto('/c/999999/x');
    await expect(page).toHaveURL(/\/404$/);
    await page.goto('/m/1');
    await expect(page).toHaveURL(/\/m\/1\/gucci$/);
    await expect(page.getByRole('navigation', { name: 'Категории бренда' }).getByRole('link').first()).toBeVisible();
  });
});

test.describe('search suggestions', () => {
  test('appear after the third character, not before, and lead to all results', async ({ page }) => {
    await open(page, '/');
    await acceptCookies(page);
    if (isMobile(page)) await page.getByRole('button', { name: 'Поиск' }).first().click();
    const box = page.getByRole('searchbox').filter({ visible: true }).first();
    const requests: string[] = [];
    page.on('request', (r) => r.url().includes('search-suggestions') && requests.push(r.url()));
    // The page's timers run on a clock the test moves: the debounce is checked without waiting for it.
    await page.clock.install();

    await box.pressSequentially('гу');
    await page.clock.runFor(2_000);
    expect(requests).toHaveLength(0);
    await expect(page.getByText('Все результаты поиска').filter({ visible: true })).toHaveCount(0);

    await box.pressSequentially('чи');
    await page.clock.runFor(600);
    const panel = page.locator('[id$="-suggestions"]').filter({ visible: true });
    await expect(panel.getByRole('link', { name: /Gucci\s*Бренд/ })).toBeVisible();
    // Debounced: typing two letters quickly makes one request, not two.
    expect(requests).toHaveLength(1);
    await expect(panel.locator('a[href^="/p/"]').first()).toBeVisible();

    await panel.getByRole('link', { name: 'Все результаты поиска' }).click();
    await expect(page).toHaveURL(/\/product\/search\/%D0%B3%D1%83%D1%87%D0%B8$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Результаты поиска «гучи»');
    await expect(page.getByText('Показаны результаты по запросу «гуччи»')).toBeVisible();
    expect(await total(page)).toBeGreaterThan(0);
  });

  test('says when nothing matches', async ({ page }) => {
    await open(page, '/');
    if (isMobile(page)) await page.getByRole('button', { name: 'Поиск' }).first().click();
    await page.getByRole('searchbox').filter({ visible: true }).first().pressSequentially('qqqzzz', { delay: 20 });
    await expect(page.getByText('По вашему запросу нет совпадений').filter({ visible: true })).toBeVisible();
    await expect(page.getByText('Попробуйте изменить условия поиска').filter({ visible: true })).toBeVisible();
  });
});

test.describe('product page', () => {
  test('choose a size, add to the cart; the badge counts it and the limit holds', async ({ page }) => {
    await page.goto('/c/3/platya');
    const url = await page.getByRole('list', { name: 'Товары' }).locator('a[href^="/p/"]').first().getAttribute('href');
    await open(page, url as string);
    await acceptCookies(page);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const ld = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) as string);
    expect(ld).toMatchObject({
      '@type': 'Product',
      offers: { '@type': 'Offer', priceCurrency: 'RUB', availability: expect.stringMatching(/InStock|OutOfStock/) },
    });
    await expect(page.getByRole('link', { name: 'Таблица размеров' })).toHaveAttribute('href', '/i/12/razmery');
    await expect(page.getByText('Доставка в среднем 14 дней')).toBeVisible();

    const add = page.getByRole('button', { name: 'Добавить в корзину' });
    await add.click();
    await expect(page.getByRole('alert').filter({ hasText: 'Выберите размер' })).toBeVisible();

    const size = page.getByRole('radiogroup', { name: 'Размер' }).getByRole('radio').and(page.locator(':not([disabled])')).first();
    await size.click();
    await expect(size).toBeChecked();
    await add.click();
    await expect(page.getByText('Товар добавлен в корзину')).toBeVisible();
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('guest-products') ?? '[]'));
    expect(stored).toEqual([{ uid: expect.any(String), id: expect.any(Number), quantity: 1, variant_code: expect.stringContaining('-') }]);
    const badge = isMobile(page) ? page.getByRole('navigation', { name: 'Мобильная навигация' }) : page.getByRole('banner');
    await expect(badge.getByLabel(/Корзина: 1/).first()).toBeVisible();

    // Keep adding until the line maximum refuses with the spec's message.
    for (let k = 0; k < 12; k++) {
      await add.click();
      if (await page.getByText(/Вы не можете добавить в корзину больше \d+ товаров/).isVisible()) break;
    }
    await expect(page.getByText(/Вы не можете добавить в корзину больше \d+ товаров/).first()).toBeVisible();
  });

  test('the gallery moves with the arrow keys', async ({ page }) => {
    await page.goto('/c/3/platya');
    const url = await page.getByRole('list', { name: 'Товары' }).locator('a[href^="/p/"]').first().getAttribute('href');
    await page.goto(url as string);
    await hydrated(page);
    const track = page.locator('[data-track]');
    await track.focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => track.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
  });

  test('a guest’s wishlist heart asks to log in', async ({ page }) => {
    await open(page, '/c/3/platya');
    await acceptCookies(page);
    await page.locator('[data-wishlist]').first().click();
    await expect(page.getByText('Необходимо авторизоваться')).toBeVisible();
  });
});
