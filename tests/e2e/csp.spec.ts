// The Content-Security-Policy in a real browser (issue 10): every page type renders, hydrates and
// opens its panels with nothing refused (the cspGuard fixture fails a test on any refusal), and the
// policy it runs under allows no inline script or style by default.
import { expect, test } from './fixtures.ts';
import { hydrated, isMobile, open } from './helpers.ts';

const PAGES = ['/', '/c/3/platya', '/m/1', '/product/search/платье', '/brands', '/i/9/o-dostavke', '/blog', '/no/such/page'];

test('every page type runs under a policy without unsafe-inline, and nothing is refused', async ({ page }) => {
  for (const path of PAGES) {
    const response = await page.goto(path);
    const policy = (await response?.allHeaders())?.['content-security-policy'] ?? '';
    expect(policy, path).toMatch(/script-src 'self'[^;]* 'sha256-/);
    expect(policy, path).toMatch(/style-src 'self'/);
    expect(policy, path).not.toContain('unsafe-inline');
    expect(policy, path).toContain("frame-ancestors 'none'");
    await hydrated(page);
  }
  // A product page and a blog post, reached as a shopper would.
  await open(page, '/c/3/platya');
  await page.getByRole('list', { name: 'Товары' }).locator('article a').first().click();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await hydrated(page);
  await open(page, '/blog');
  await page.locator('main article a').first().click();
  await expect(page.locator('article h1')).toBeVisible();
  await hydrated(page);
  // Islands that draw with inline styles (panels, tooltips) do it through the DOM, which the policy allows.
  await open(page, '/');
  const catalogButton = isMobile(page)
    ? page.getByRole('navigation', { name: 'Мобильная навигация' }).getByRole('button', { name: 'Каталог' })
    : page.getByRole('banner').getByRole('button', { name: 'Каталог' });
  await catalogButton.click();
  await expect(page.getByRole('dialog', { name: 'Каталог' })).toBeVisible();
});
