// Every tap works from the first paint (issue 22, docs/decisions/014): the islands' code is held back by
// request interception, the shopper taps, and the tap does its job once the code arrives — never lost,
// never a page left behind. Then the whole journey with JavaScript off: links, forms and radios underneath.
import type { Page, Route } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { isMobile } from './helpers.ts';

/** Holds every script of the page until `release()`: the page paints, its islands cannot hydrate. */
async function holdScripts(page: Page): Promise<() => Promise<void>> {
  const held: Route[] = [];
  let released = false;
  await page.route(/\/_astro\/.*\.js$/, (route) => (released ? route.fallback() : void held.push(route)));
  return async () => {
    released = true;
    for (const route of held.splice(0)) await route.fallback();
  };
}

/** Opens a page whose scripts are held, and waits until it is painted. */
async function paintedWithoutScripts(page: Page, path: string) {
  const release = await holdScripts(page);
  await page.goto(path, { waitUntil: 'commit' });
  await expect(page.getByRole('banner')).toBeVisible();
  // Nothing hydrated: every island still carries its server HTML mark.
  expect(await page.locator('astro-island[ssr]').count()).toBeGreaterThan(0);
  expect(await page.locator('astro-island:not([ssr])').count()).toBe(0);
  return release;
}

test.describe('a tap before the islands have hydrated', () => {
  test('«Каталог» opens the catalogue once its island is ready, without leaving the page', async ({ page }) => {
    const release = await paintedWithoutScripts(page, '/');
    const catalog = isMobile(page)
      ? page.getByRole('navigation', { name: 'Мобильная навигация' }).getByRole('button', { name: 'Каталог' })
      : page.getByRole('banner').getByRole('button', { name: 'Каталог' });
    await catalog.click();
    // Held, not followed: still on the home page, the panel not there yet.
    await page.waitForTimeout(300);
    expect(new URL(page.url()).pathname).toBe('/');
    await release();
    const panel = page.getByRole('dialog', { name: 'Каталог' });
    await expect(panel).toBeVisible();
    await expect(panel.getByRole('link', { name: 'Платья' }).first()).toBeVisible();
    expect(new URL(page.url()).pathname).toBe('/');
  });

  test('the search works before hydration: text typed is kept and suggested, or the toggle opens the bar', async ({ page }) => {
    const release = await paintedWithoutScripts(page, '/');
    if (isMobile(page)) {
      await page.getByRole('button', { name: 'Поиск', exact: true }).click();
      await release();
      const input = page.getByRole('searchbox', { name: 'Поиск по товарам и брендам' });
      await expect(input).toBeVisible();
      await input.fill('пла');
    } else {
      await page.getByRole('searchbox', { name: 'Поиск по товарам и брендам' }).fill('пла');
      await release();
    }
    const suggestions = page.locator('[id$="search-suggestions"]');
    await expect(suggestions).toBeVisible();
    await expect(suggestions.getByRole('link', { name: 'Все результаты поиска' })).toBeVisible();
  });

  test('the search form submits before hydration and lands on the search route', async ({ page }) => {
    test.skip(isMobile(page), 'the phone opens its search bar from a toggle (previous test)');
    await paintedWithoutScripts(page, '/');
    const input = page.getByRole('searchbox', { name: 'Поиск по товарам и брендам' });
    await input.fill('платье');
    await input.press('Enter');
    await expect(page).toHaveURL(/\/product\/search\/%D0%BF%D0%BB%D0%B0%D1%82%D1%8C%D0%B5$/);
  });

  test('the buyout request opens its modal once the code has come', async ({ page }) => {
    const release = await paintedWithoutScripts(page, '/brands');
    await page.getByRole('button', { name: isMobile(page) ? 'Выкуп' : 'Заявка на выкуп' }).click();
    await release();
    const modal = page.getByRole('dialog', { name: 'Заявка на поиск и выкуп товара' });
    await expect(modal).toBeVisible();
    await expect(modal.getByRole('button', { name: 'К созданию заявки' })).toBeVisible();
  });

  test('a size and «Добавить в корзину» tapped before hydration put that size in the cart', async ({ page }) => {
    await page.goto('/c/3/platya');
    const url = (await page.getByRole('list', { name: 'Товары' }).locator('a[href^="/p/"]').first().getAttribute('href')) as string;
    const release = await paintedWithoutScripts(page, url);
    const sizes = page.getByRole('radiogroup', { name: 'Размер' }).getByRole('radio').and(page.locator(':not([disabled])'));
    const size = sizes.last();
    const code = await size.getAttribute('value');
    await size.click();
    // A real radio: checked at once, with no script.
    await expect(size).toBeChecked();
    await page.getByRole('button', { name: 'Добавить в корзину' }).click();
    await page.waitForTimeout(300);
    expect(new URL(page.url()).pathname).toBe(url);
    await release();
    await expect(page.getByText('Товар добавлен в корзину').first()).toBeVisible();
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('guest-products') ?? '[]'));
    expect(stored).toEqual([expect.objectContaining({ variant_code: code, quantity: 1 })]);
  });
});

test.describe('with JavaScript off', () => {
  test.use({ javaScriptEnabled: false });

  test('browsing works: catalogue page, a category, filters, pagination, a product, search and an info page', async ({ page }) => {
    await page.goto('/');
    // «Каталог» is a link underneath: the catalogue page.
    const catalog = isMobile(page)
      ? page.getByRole('navigation', { name: 'Мобильная навигация' }).getByRole('button', { name: 'Каталог' })
      : page.getByRole('banner').getByRole('button', { name: 'Каталог' });
    await catalog.click();
    await expect(page).toHaveURL(/\/catalog$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Каталог' })).toBeVisible();
    await page.getByRole('main').getByRole('heading', { name: 'Женщинам' }).getByRole('link').click();
    await expect(page).toHaveURL(/\/c\/1\/zhenshchinam$/);
    // Pagination is links.
    await page.getByRole('navigation', { name: 'Страницы' }).getByRole('link', { name: '2', exact: true }).click();
    await expect(page).toHaveURL(/page=2/);
    const total = await page.locator('[data-total]').textContent();

    // Filters are a GET form; on phones its panel opens as the page's #filters target.
    if (isMobile(page)) await page.getByRole('link', { name: /Фильтры/ }).click();
    const filters = page.getByRole('complementary', { name: 'Фильтры' });
    await filters.getByRole('checkbox', { name: /Со скидкой/ }).check();
    await filters.getByRole('button', { name: 'Применить' }).click();
    await expect(page).toHaveURL(/with_discount=1/);
    await expect(page.locator('[data-total]')).not.toHaveText(total ?? '');

    // A product page, with its sizes as radios that can be chosen.
    await page.getByRole('list', { name: 'Товары' }).locator('a[href^="/p/"]').first().click();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const size = page.getByRole('radiogroup', { name: 'Размер' }).getByRole('radio').and(page.locator(':not([disabled])')).first();
    await size.check();
    await expect(size).toBeChecked();

    // Search: the header's form on a desktop, the catalogue page's on a phone (the toggle leads there).
    if (isMobile(page)) {
      await page.getByRole('button', { name: 'Поиск', exact: true }).click();
      await expect(page).toHaveURL(/\/catalog#catalog-search$/);
    }
    const search = page.getByRole('searchbox', { name: 'Поиск по товарам и брендам' }).first();
    await search.fill('Gucci');
    await search.press('Enter');
    await expect(page).toHaveURL(/\/product\/search\/Gucci$/);
    await expect(page.getByRole('list', { name: 'Товары' }).getByRole('listitem').first()).toBeVisible();

    // An info page from the footer (its columns fold on phones: a native disclosure).
    const footer = page.getByRole('contentinfo');
    if (isMobile(page)) await footer.locator('summary', { hasText: 'Покупателям' }).click();
    await footer.getByRole('link', { name: 'Доставка и пошлины' }).click();
    await expect(page).toHaveURL(/\/i\/9\//);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  });
});
