// Reviews in Chromium (issue 57) at 1440 and 390 px, read with JavaScript off: a seeded product's rating near
// its title, the newest reviews below, all of them on the reviews page, filtered and paged by links; and
// written: a buyer's review with a photo from the delivery mail's link, published by a manager, shown on
// the product page (its photo in the gallery, a useful vote) and counted on the listing's card.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { e2ePort, expect, test } from './fixtures.ts';
import { call, open, operatorSignsIn, operatorToken } from './helpers.ts';
import { readOutbox } from '../support/mail.ts';
import { e2eInfoFile } from '../support/server.ts';

test('reviews read without a script: the product page, the reviews page and its filters', async ({ browser, page, baseURL }, info) => {
  // A seeded product with more reviews than its page shows.
  let found: { id: number; url: string; reviews_count: number } | undefined;
  for (let id = 1; id < 200 && !found; id++) {
    const product = await call<{ url: string; reviews_count: number } | undefined>(baseURL!, `/product/${id}`);
    if (product && product.reviews_count > 5) found = { id, url: product.url, reviews_count: product.reviews_count };
  }
  expect(found, 'a seeded product with six reviews').toBeDefined();
  const plain = await browser.newContext({ javaScriptEnabled: false, viewport: page.viewportSize() ?? { width: 1440, height: 900 } });
  const reader = await plain.newPage();
  await reader.goto(`${baseURL}${found!.url}`);
  await expect(reader.getByTestId('product-rating')).toContainText(`Все отзывы (${found!.reviews_count})`);
  const section = reader.getByTestId('product-reviews');
  await section.scrollIntoViewIfNeeded();
  await expect(section.getByTestId('review')).toHaveCount(5);
  await section.screenshot({ path: info.outputPath(`reviews-product-${info.project.name}.png`) });
  await section.getByTestId('reviews-all').click();
  await reader.waitForURL(`**/p/${found!.id}/reviews`);
  await expect(reader.getByTestId('review')).toHaveCount(found!.reviews_count);
  await reader.screenshot({ path: info.outputPath(`reviews-page-${info.project.name}.png`), fullPage: true });
  await reader.getByRole('link', { name: 'Сначала полезные' }).click();
  await reader.waitForURL(/sort=useful/);
  await expect(reader.getByRole('link', { name: 'Сначала полезные' })).toHaveAttribute('aria-current', 'true');
  await plain.close();
});

const dataDir = () => (JSON.parse(readFileSync(e2eInfoFile(e2ePort()), 'utf8')) as { dataDir: string }).dataDir;

/** A customer's order of a seeded dress, paid and delivered through the API: its code and the product's page. */
async function deliveredDress(baseURL: string, nth: number): Promise<{ code: string; url: string; id: number }> {
  const api = `${baseURL}/api/v1/ecommerce-core`;
  const json = { 'content-type': 'application/json' };
  const email = `e2e.review.${Date.now().toString(36)}@example.ru`;
  const reg = (await (
    await fetch(`${api}/auth/customer-registration`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ email, phone: '+7 (999) 222-33-44', password: 'отзыв о платье с фото' }),
    })
  ).json()) as { data: { access_token: string } };
  const auth = { ...json, authorization: `Bearer ${reg.data.access_token}` };
  const html = await (await fetch(`${baseURL}/c/3/platya`)).text();
  const urls = [...html.slice(html.indexOf('aria-label="Товары"')).matchAll(/href="(\/p\/(\d+)\/[^"]+)"/g)].filter((_, k) => k % 2 === 0);
  for (const [, url, id] of urls.slice(nth)) {
    const detail = (await (await fetch(`${api}/product/${id}`)).json()) as { data: { variants: { code: string; available: boolean }[] } };
    const variant = detail.data.variants.find((v) => v.available);
    if (!variant) continue;
    await fetch(`${api}/customer/cart/store-cart-item`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ item: { id: Number(id), quantity: 1, variant_code: variant.code, uid: 'r' } }),
    });
    const placed = (await (
      await fetch(`${api}/checkout/place-order`, {
        method: 'POST',
        headers: { ...auth, 'idempotency-key': randomUUID() },
        body: JSON.stringify({
          contact: { name: 'Ольга Отзывова', email, phone: '+7 (999) 222-33-44' },
          delivery: { method: 'courier', city: 'Москва', address: 'Арбат, 1' },
        }),
      })
    ).json()) as { data: { code: string; payment_url: string } };
    await fetch(`${api}/payments/test/${placed.data.payment_url.split('/').pop()}`, { method: 'POST', headers: json, body: JSON.stringify({ action: 'sbp' }) });
    for (const status of ['purchased', 'ready_to_ship', 'shipped', 'delivered'])
      await fetch(`${api}/ops/orders/${placed.data.code}`, {
        method: 'POST',
        headers: { ...json, 'x-operator-token': operatorToken() },
        body: JSON.stringify({ status }),
      });
    return { code: placed.data.code, url: url!, id: Number(id) };
  }
  throw new Error('no dress in stock');
}

test('a buyer writes a review with a photo from the delivery mail; a manager publishes it; the product page, its gallery and the listing show it', async ({
  page,
  baseURL,
}, info) => {
  const dress = await deliveredDress(baseURL!, info.project.name === 'mobile' ? 3 : 1);
  const before = await call<{ reviews_count: number }>(baseURL!, `/product/${dress.id}`);
  let link = '';
  await expect
    .poll(() => {
      const mail = readOutbox(dataDir()).find((m) => m.body.includes(`Заказ ${dress.code}: Доставлен`));
      link = new RegExp(`Оставить отзыв: \\S+(/review/${dress.code}/[\\w-]+)`).exec(mail?.body ?? '')?.[1] ?? '';
      return link;
    })
    .not.toBe('');

  // The mail's link, as a guest would follow it: the order's lines, one form per line.
  await page.goto(`${baseURL}${link}`);
  await page.getByTestId('review-write').first().click();
  await expect(page.getByTestId('review-form')).toBeVisible();
  const words = `Плотная ткань, держит форму (${info.project.name})`;
  await page.getByTestId('review-send').click();
  await expect(page.getByText('Поставьте оценку от 1 до 5')).toBeVisible();
  await page.locator('label[for="rate-4"]').click();
  await page.getByText('Маломерит', { exact: true }).click();
  await page.getByLabel('Понравилось', { exact: true }).fill(words);
  await page.getByLabel('Не понравилось').fill('Рукава длинноваты');
  const photo = await sharp({ create: { width: 900, height: 1200, channels: 3, background: '#8a6d3b' } })
    .jpeg()
    .toBuffer();
  await page.getByTestId('review-photos').setInputFiles({ name: 'IMG_0042.jpg', mimeType: 'image/jpeg', buffer: photo });
  await page.screenshot({ path: info.outputPath(`review-form-${info.project.name}.png`), fullPage: true });
  await page.getByTestId('review-send').click();
  await expect(page.getByTestId('review-sent')).toHaveText('Спасибо! Отзыв появится на сайте после проверки.');
  await expect(page.locator('input[name="keep_photos"]')).toHaveCount(1);

  // The manager's queue: the review with its photo; published.
  await operatorSignsIn(page, baseURL!, operatorToken(), 'manager');
  await page.goto(`${baseURL}/ops/reviews`);
  const row = page.locator('[data-testid^="ops-review-"]', { hasText: words });
  await expect(row.getByTestId('ops-review-photos').locator('img')).toHaveCount(1);
  await page.screenshot({ path: info.outputPath(`review-queue-${info.project.name}.png`), fullPage: true });
  await row.getByRole('button', { name: 'Опубликовать' }).click();
  await expect(page.locator('[data-testid^="ops-review-"]', { hasText: words })).toHaveCount(0);

  // The product page within seconds: the review first, its photo in the gallery, a useful vote counted.
  await expect
    .poll(async () => (await call<{ reviews_count: number }>(baseURL!, `/product/${dress.id}`)).reviews_count, { timeout: 15_000 })
    .toBe(before.reviews_count + 1);
  await expect.poll(async () => (await (await fetch(`${baseURL}${dress.url}`)).text()).includes(words), { timeout: 15_000 }).toBe(true);
  await open(page, dress.url);
  const review = page.getByTestId('review').filter({ hasText: words });
  await review.scrollIntoViewIfNeeded();
  await expect(review.getByTestId('review-fit')).toHaveText('Маломерит');
  await review.locator('[data-review-photos] a').first().click();
  const gallery = review.locator('dialog.review-gallery');
  await expect(gallery).toBeVisible();
  await expect(gallery.locator('img').first()).toBeVisible();
  await page.screenshot({ path: info.outputPath(`review-gallery-${info.project.name}.png`) });
  await page.keyboard.press('Escape');
  await expect(gallery).toBeHidden();
  await review.getByTestId('review-useful').click();
  await expect(review.getByTestId('review-useful')).toHaveText('Полезно: 1');
  await review.screenshot({ path: info.outputPath(`review-published-${info.project.name}.png`) });

  // The listing's card counts it.
  await open(page, '/c/3/platya');
  await expect(page.locator(`article:has(a[href="${dress.url}"]) [data-testid="card-rating"]`)).toContainText(`· ${before.reviews_count + 1}`);
});
