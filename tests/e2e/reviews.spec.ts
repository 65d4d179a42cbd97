// Reviews in Chromium (issue 57) at 1440 and 390 px, read with JavaScript off: a seeded product's rating near
// its title, the newest reviews below, all of them on the reviews page, filtered and paged by links.
import { expect, test } from './fixtures.ts';
import { call } from './helpers.ts';

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
