// Every tap works from the first paint (issue 22, docs/decisions/014): the islands' code is held back by
// request interception, the shopper taps, and the tap does its job once the code arrives — never lost,
// never a page left behind. Then the whole journey with JavaScript off: links, forms and radios underneath.
import { createServer, request as forward } from 'node:http';
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
  test('«Каталог» opens its panel at once, with the top categories; the whole tree comes with the island', async ({ page }) => {
    const release = await paintedWithoutScripts(page, '/');
    const catalog = isMobile(page)
      ? page.getByRole('navigation', { name: 'Мобильная навигация' }).getByRole('button', { name: 'Каталог' })
      : page.getByRole('banner').getByRole('button', { name: 'Каталог' });
    await catalog.click();
    // A popover: the platform opens it, no island needed (docs/decisions/021).
    const panel = page.getByRole('dialog', { name: 'Каталог' });
    await expect(panel).toBeVisible();
    await expect(panel.getByRole('link', { name: 'Женщинам' })).toHaveAttribute('href', /^\/c\/\d+\/zhenshchinam$/);
    expect(new URL(page.url()).pathname).toBe('/');
    await release();
    // The island adopts the open panel and asks for the tree.
    await expect(panel.getByRole('link', { name: 'Платья' }).first()).toBeVisible();
    expect(new URL(page.url()).pathname).toBe('/');
  });

  test('the search works before hydration: the toggle shows the field at once, text typed is kept and suggested', async ({ page }) => {
    const release = await paintedWithoutScripts(page, '/');
    const input = page.getByRole('searchbox', { name: 'Поиск по товарам и брендам' });
    if (isMobile(page)) {
      await page.getByRole('button', { name: 'Поиск', exact: true }).click();
      await expect(input).toBeVisible();
      // Focused by the popover's own autofocus: the keyboard is up.
      await expect(input).toBeFocused();
      await page.keyboard.type('пла');
    } else {
      await input.fill('пла');
    }
    await release();
    await expect(input).toHaveValue('пла');
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

  test('the buyout request opens its dialog at once; its form fills in once the code has come', async ({ page }) => {
    const release = await paintedWithoutScripts(page, '/brands');
    await page.getByRole('button', { name: isMobile(page) ? 'Выкуп' : 'Заявка на выкуп' }).click();
    const modal = page.getByRole('dialog', { name: 'Заявка на поиск и выкуп товара' });
    await expect(modal).toBeVisible();
    await expect(modal).toContainText('Загрузка…');
    await release();
    await expect(modal.getByRole('button', { name: 'К созданию заявки' })).toBeVisible();
  });

  test('the buyout button tapped before the page has reached its dialog opens it once it has', async ({ page, baseURL }) => {
    // The shop behind a proxy that sends /brands up to the header's end, then holds the rest until told.
    let sendRest!: () => void;
    const rest = new Promise<void>((resolve) => (sendRest = resolve));
    const shop = new URL(baseURL as string);
    const proxy = createServer((req, res) => {
      const upstream = forward(
        new URL(req.url ?? '/', shop),
        { method: req.method, headers: { ...req.headers, host: shop.host, 'accept-encoding': 'identity' } },
        (answer) => {
          const headers = { ...answer.headers };
          if (req.url !== '/brands') {
            res.writeHead(answer.statusCode ?? 502, headers);
            answer.pipe(res);
            return;
          }
          const chunks: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => chunks.push(chunk));
          answer.on('end', () => {
            const html = Buffer.concat(chunks).toString('utf8');
            const cut = html.indexOf('</header>') + '</header>'.length;
            delete headers['content-length'];
            res.writeHead(answer.statusCode ?? 200, headers);
            res.write(html.slice(0, cut));
            void rest.then(() => res.end(html.slice(cut)));
          });
        },
      );
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = proxy.address() as { port: number };
      await page.goto(`http://127.0.0.1:${port}/brands`, { waitUntil: 'commit' });
      const button = page.getByRole('banner').getByRole('button', { name: isMobile(page) ? 'Выкуп' : 'Заявка на выкуп' });
      await expect(button).toBeVisible();
      // The dialog it names is not in the page yet.
      await expect(page.locator('#modal-buyout')).toHaveCount(0);
      await button.click();
      sendRest();
      await expect(page.getByRole('dialog', { name: 'Заявка на поиск и выкуп товара' })).toBeVisible();
    } finally {
      sendRest();
      proxy.close();
    }
  });

  test('a guest’s wishlist and account open the login dialog at once; the form fills in with the island', async ({ page }) => {
    const release = await paintedWithoutScripts(page, '/');
    const place = isMobile(page) ? page.getByRole('navigation', { name: 'Мобильная навигация' }) : page.getByRole('banner');
    await place.getByRole('button', { name: 'Избранное' }).click();
    const modal = page.getByRole('dialog', { name: 'Личный кабинет' });
    await expect(modal).toBeVisible();
    // Closed without script too, by its close button's command.
    await modal.getByRole('button', { name: 'Закрыть' }).click();
    await expect(modal).toBeHidden();
    await place.getByRole('button', { name: isMobile(page) ? 'Профиль' : 'Личный кабинет' }).click();
    await expect(modal).toBeVisible();
    await release();
    await expect(modal.getByRole('tab', { name: 'Вход' })).toHaveAttribute('aria-selected', 'true');
    await expect(modal.getByRole('textbox', { name: 'Email' })).toBeVisible();
    expect(new URL(page.url()).pathname).toBe('/');
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

  test('browsing works: the catalogue panel, a category, filters, pagination, a product, search and an info page', async ({ page }) => {
    await page.goto('/');
    // «Каталог» opens its panel without script (a popover), with the top categories.
    const catalog = isMobile(page)
      ? page.getByRole('navigation', { name: 'Мобильная навигация' }).getByRole('button', { name: 'Каталог' })
      : page.getByRole('banner').getByRole('button', { name: 'Каталог' });
    await catalog.click();
    await page.getByRole('dialog', { name: 'Каталог' }).getByRole('link', { name: 'Женщинам' }).click();
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

    // Search: the header's form on a desktop; on a phone the toggle shows it (a popover).
    if (isMobile(page)) await page.getByRole('button', { name: 'Поиск', exact: true }).click();
    const search = page.getByRole('searchbox', { name: 'Поиск по товарам и брендам' });
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
