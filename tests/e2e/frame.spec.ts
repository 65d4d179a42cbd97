// The shop's frame (issue 3) in Chromium at 1440 px and 390 px.
import { expect, test } from './fixtures.ts';
import { acceptCookies, isMobile, newsletterForm, open } from './helpers.ts';

test.describe('header panels', () => {
  test('catalogue opens and closes with Escape and with the overlay; one panel at a time', async ({ page }) => {
    await open(page, '/');
    const panel = page.getByRole('dialog', { name: 'Каталог' });
    const catalogButton = isMobile(page)
      ? page.getByRole('navigation', { name: 'Мобильная навигация' }).getByRole('button', { name: 'Каталог' })
      : page.getByRole('banner').getByRole('button', { name: 'Каталог' });

    await catalogButton.click();
    await expect(panel).toBeVisible();
    await expect(panel.getByRole('link', { name: 'Платья' })).toHaveAttribute('href', /^\/c\/\d+\/platya$/);
    await page.keyboard.press('Escape');
    await expect(panel).toBeHidden();

    if (isMobile(page)) {
      // Burger menu, then the catalogue: opening one closes the other.
      await page.getByRole('button', { name: 'Меню' }).click();
      await expect(page.getByRole('dialog', { name: 'Меню' })).toBeVisible();
      await catalogButton.click();
      await expect(panel).toBeVisible();
      await expect(page.getByRole('dialog', { name: 'Меню' })).toBeHidden();
      await page.getByRole('button', { name: 'Закрыть' }).click();
      await expect(panel).toBeHidden();
      // The search toggle slides the bar down; Escape closes it and clears the text.
      await page.getByRole('button', { name: 'Поиск', exact: true }).click();
      const input = page.getByRole('searchbox', { name: 'Поиск по товарам и брендам' });
      await input.fill('платье');
      await page.keyboard.press('Escape');
      await expect(input).toBeHidden();
      await page.getByRole('button', { name: 'Поиск', exact: true }).click();
      await expect(page.getByRole('searchbox', { name: 'Поиск по товарам и брендам' })).toHaveValue('');
    } else {
      await catalogButton.click();
      await expect(panel).toBeVisible();
      await page.getByTestId('panel-overlay').click({ position: { x: 700, y: 850 } });
      await expect(panel).toBeHidden();
      // Typing in the search closes the catalogue; Escape clears the text.
      await catalogButton.click();
      const input = page.getByRole('searchbox', { name: 'Поиск по товарам и брендам' });
      await input.fill('пла');
      await expect(panel).toBeHidden();
      await page.keyboard.press('Escape');
      await expect(input).toHaveValue('');
    }
  });

  test('the catalogue on a built info page comes from the API, says so when it cannot, and tries again', async ({ page }) => {
    let fail = true;
    await page.route('**/api/v1/ecommerce-core/mega-categories', (route) =>
      fail ? route.fulfill({ status: 503, contentType: 'application/json', body: '{"success":false,"message":"busy"}' }) : route.fallback(),
    );
    await open(page, '/i/4/contacts');
    const catalogButton = isMobile(page)
      ? page.getByRole('navigation', { name: 'Мобильная навигация' }).getByRole('button', { name: 'Каталог' })
      : page.getByRole('banner').getByRole('button', { name: 'Каталог' });
    const panel = page.getByRole('dialog', { name: 'Каталог' });
    await catalogButton.click();
    await expect(panel.getByRole('status')).toHaveText('Не удалось загрузить каталог. Попробуйте ещё раз');
    await page.keyboard.press('Escape');
    fail = false;
    await catalogButton.click();
    await expect(panel.getByRole('link', { name: 'Платья' })).toHaveAttribute('href', /^\/c\/\d+\/platya$/);
  });

  test('submitting the search goes to the search route', async ({ page }) => {
    await open(page, '/i/4/contacts');
    if (isMobile(page)) await page.getByRole('button', { name: 'Поиск', exact: true }).click();
    await page.getByRole('searchbox', { name: 'Поиск по товарам и брендам' }).fill('кожаная сумка');
    const navigation = page.waitForRequest((req) => req.isNavigationRequest() && new URL(req.url()).pathname.startsWith('/product/search/'));
    await page.keyboard.press('Enter');
    expect(decodeURIComponent(new URL((await navigation).url()).pathname)).toBe('/product/search/кожаная сумка');
  });

  test('the header hides when scrolling down and shows when scrolling up', async ({ page }) => {
    await open(page, '/');
    const header = page.getByRole('banner');
    await expect(header).toHaveAttribute('data-hidden', 'false');
    await page.mouse.wheel(0, 1200);
    await expect(header).toHaveAttribute('data-hidden', 'true');
    await page.mouse.wheel(0, -300);
    await expect(header).toHaveAttribute('data-hidden', 'false');
  });

  test('a guest clicking the wishlist gets the login modal', async ({ page }) => {
    await open(page, '/');
    const wishlist = isMobile(page)
      ? page.getByRole('navigation', { name: 'Мобильная навигация' }).getByRole('button', { name: 'Избранное' })
      : page.getByRole('banner').getByRole('button', { name: 'Избранное' });
    await wishlist.click();
    const dialog = page.getByRole('dialog', { name: 'Личный кабинет' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('tab', { name: 'Вход' })).toHaveAttribute('aria-selected', 'true');
    await expect(page).toHaveURL(/\/$/);
  });
  test('the buyout modal from the keyboard alone: named, focus inside and kept there, Escape closes it, focus back on the opener', async ({ page }) => {
    await open(page, '/');
    const opener = page.getByRole('banner').getByRole('button', { name: isMobile(page) ? 'Выкуп' : 'Заявка на выкуп' });
    await opener.focus();
    await page.keyboard.press('Enter');
    // Its heading names it: what a screen reader announces on opening.
    const dialog = page.getByRole('dialog', { name: 'Заявка на поиск и выкуп товара' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'К созданию заявки' })).toBeVisible();
    const focusInDialog = () => page.evaluate(() => document.querySelector('dialog[open]')?.contains(document.activeElement) ?? false);
    expect(await focusInDialog()).toBe(true);
    // The page behind is inert: Tab never lands on it (past the last control the browser's own UI may take
    // the focus, which leaves the page's active element the body).
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('Tab');
      const where = await page.evaluate(() => {
        const active = document.activeElement;
        if (!active || active === document.body) return 'browser';
        return document.querySelector('dialog[open]')?.contains(active) ? 'dialog' : `page: ${active.outerHTML.slice(0, 80)}`;
      });
      expect(where).not.toMatch(/^page/);
    }
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(opener).toBeFocused();
  });
});

test.describe('pages and navigation', () => {
  test('an info page shows breadcrumbs with the last item not a link', async ({ page }) => {
    await open(page, '/i/9/o-dostavke');
    const crumbs = page.getByRole('navigation', { name: 'Хлебные крошки' });
    await expect(crumbs.getByRole('link', { name: 'Главная' })).toHaveAttribute('href', '/');
    await expect(crumbs.getByText('Доставка и пошлины')).toHaveAttribute('aria-current', 'page');
    await expect(crumbs.getByRole('link', { name: 'Доставка и пошлины' })).toHaveCount(0);
    await expect(page).toHaveTitle('Доставка и пошлины — Brandshop');
  });

  test('a product page’s breadcrumbs keep to one line, the fonts loaded or not: the page does not move when they come', async ({ page, request }) => {
    // The longest name of a listing: on a phone its trail is wider than the screen.
    const listing = (await (await request.get('/api/v1/ecommerce-core/products?category=3&per_page=60')).json()) as {
      data: { products: { name: string; url: string }[] };
    };
    const longest = [...listing.data.products].sort((a, b) => b.name.length - a.name.length)[0];
    if (!longest) throw new Error('no products in category 3');
    await open(page, longest.url);
    const trail = page.getByRole('navigation', { name: 'Хлебные крошки' }).locator('ol');
    const lines = () =>
      trail.evaluate((ol) => Math.round(ol.getBoundingClientRect().height / parseFloat(getComputedStyle(ol.querySelector('li') ?? ol).lineHeight)));
    expect(await lines()).toBe(1);
    // The web fonts come after the first screen has hydrated, all at once (src/lib/fonts.client.ts).
    await expect
      .poll(() => page.evaluate(() => [...document.fonts].some((f) => f.status === 'loaded' && f.family.replaceAll('"', '') === 'Manrope Variable')))
      .toBe(true);
    expect(await lines()).toBe(1);
    await expect(trail.locator('[aria-current="page"]')).toHaveText(longest.name);
  });

  test('an unknown path redirects to /404', async ({ page }) => {
    await page.goto('/totally/unknown/path');
    await expect(page).toHaveURL(/\/404$/);
    await expect(page.getByRole('heading', { name: 'Страница не найдена' })).toBeVisible();
  });

  test('the cookie notice is remembered after a reload', async ({ page }) => {
    await open(page, '/');
    const notice = page.getByRole('region', { name: 'Cookie' });
    await expect(notice).toBeVisible();
    await acceptCookies(page);
    await page.reload();
    // Hidden before the first paint, not removed later: never visible after the reload.
    await expect(notice).toBeHidden();
    await expect(page.locator('html')).toHaveAttribute('data-cookies', 'accepted');
  });

  test('the bottom navigation marks one active item (phones only)', async ({ page }) => {
    test.skip(!isMobile(page), 'the bottom navigation is hidden on large screens');
    await open(page, '/');
    const nav = page.getByRole('navigation', { name: 'Мобильная навигация' });
    await expect(nav.locator('[aria-current="page"]')).toHaveCount(1);
    await expect(nav.getByRole('link', { name: 'Главная' })).toHaveAttribute('aria-current', 'page');
    await nav.getByRole('button', { name: 'Каталог' }).click();
    await expect(nav.getByRole('button', { name: 'Каталог' })).toHaveAttribute('aria-current', 'page');
    await expect(nav.locator('[aria-current="page"]')).toHaveCount(1);
    await page.getByRole('dialog', { name: 'Каталог' }).getByRole('link', { name: 'Платья' }).first().click();
    // The route change closes the overlay; the catalogue item is active for a catalogue page.
    await expect(page.getByRole('dialog', { name: 'Каталог' })).toHaveCount(0);
    await open(page, '/blog');
    await expect(nav.locator('[aria-current="page"]')).toHaveCount(0);
  });
});

test.describe('footer newsletter', () => {
  test('rejects an invalid e-mail, then subscribes a valid one and confirms it', async ({ page }) => {
    const { footer: form, input, submit } = await newsletterForm(page);
    await input.fill('anna@');
    await submit.click();
    await expect(form.getByRole('alert')).toHaveText('Email не валиден');
    const email = `anna.${Date.now()}.${isMobile(page) ? 'm' : 'd'}@example.ru`;
    await input.fill(email);
    await submit.click();
    const dialog = page.getByRole('dialog', { name: 'Вы подписаны' });
    await expect(dialog).toContainText(`Вы подписаны на рассылку как ${email}`);
  });
});
