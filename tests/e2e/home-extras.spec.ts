// Home carousel, analytics counter, toasts and the English interface (issue 3).
import { expect, test } from './fixtures.ts';
import { hydrated, newsletterForm, open } from './helpers.ts';

test('the carousel moves between slides with the arrows and the dots', async ({ page }) => {
  await open(page, '/');
  const carousel = page.getByRole('region', { name: 'Главное' });
  const dots = carousel.getByRole('button', { name: /^Слайд \d$/ });
  await expect(dots).toHaveCount(3);
  await expect(dots.nth(0)).toHaveAttribute('aria-current', 'true');
  await carousel.getByRole('button', { name: 'Следующий слайд' }).click();
  await expect(dots.nth(1)).toHaveAttribute('aria-current', 'true');
  await expect(carousel.getByRole('heading', { name: 'Скидки до 50 % на любимые бренды' })).toBeInViewport();
  await dots.nth(2).click();
  await expect(dots.nth(2)).toHaveAttribute('aria-current', 'true');
  await carousel.getByRole('button', { name: 'Следующий слайд' }).click();
  await expect(dots.nth(0)).toHaveAttribute('aria-current', 'true');
});

test('the analytics counter is initialised before islands hydrate, with the spec’s options', async ({ page }) => {
  await open(page, '/');
  const queue = await page.evaluate(() => (window as unknown as { ym: { a: unknown[][] } }).ym.a.map((args) => Array.from(args as ArrayLike<unknown>)));
  expect(queue[0]).toEqual([12345678, 'init', { clickmap: true, trackLinks: true, accurateTrackBounce: true, webvisor: true, ecommerce: 'dataLayer' }]);
  expect(await page.evaluate(() => Array.isArray((window as unknown as { dataLayer: unknown }).dataLayer))).toBe(true);
  // The counter sits in <head>, before the first island's script in <body>.
  const order = await page.evaluate(() => {
    const all = [...document.querySelectorAll('script, astro-island')];
    const counter = all.findIndex((el) => el.textContent?.includes('mc.yandex.ru/metrika/tag.js'));
    return { counter, island: all.findIndex((el) => el.tagName === 'ASTRO-ISLAND') };
  });
  expect(order.counter).toBeGreaterThanOrEqual(0);
  expect(order.counter).toBeLessThan(order.island);
  // The provider's script is fetched and run: its stand-in here (tests/support/analytics-stub.ts) leaves a mark.
  await expect.poll(() => page.evaluate(() => (window as unknown as { analyticsStub?: string }).analyticsStub)).toBe('/metrika/tag.js');
});

test('a failure that is not about the address shows an error toast that goes away', async ({ page }) => {
  // The page's clock is the test's, so the toast's 3 seconds are moved on rather than waited out.
  await page.clock.install();
  const { footer, input, submit } = await newsletterForm(page);
  // The connection drops on the way to the server.
  await page.route('**/newsletter/subscribe', (route) => route.abort('connectionreset'), { times: 1 });
  await input.fill('lost.connection@example.ru');
  await submit.click();
  const toast = page.getByRole('alert').filter({ hasText: 'Не удалось подписаться, попробуйте позже' });
  await expect(toast).toBeVisible();
  await expect(toast).toHaveAttribute('data-type', 'error');
  // The address itself was fine, so nothing is marked under the field.
  await expect(footer.getByRole('alert')).toHaveCount(0);
  // Toasts go away by themselves after 3 seconds.
  await page.clock.fastForward(3_000);
  await expect(toast).toBeHidden();
});

test('with the lang=en cookie the interface is English and the page is not publicly cached', async ({ page, context, baseURL }) => {
  await context.addCookies([{ name: 'lang', value: 'en', url: baseURL ?? 'http://127.0.0.1' }]);
  const response = await page.goto('/brands');
  await hydrated(page);
  expect(response?.headers()['cache-control']).toBe('private, no-store');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('heading', { level: 1, name: 'Brands from A to Z' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Accept' })).toBeVisible();
});
