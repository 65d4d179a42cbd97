// Screenshots of the catalogue's interactive states at 1440 px and 390 px (issue 4): a category with
// filters open and chosen, the search suggestions panel, a product page with a size chosen.
// Usage: node scripts/screenshot-catalog.ts http://127.0.0.1:4321
import { mkdirSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { chromiumPath, CHROMIUM_ARGS } from '../tests/e2e/chromium.ts';

const base = process.argv[2] ?? 'http://127.0.0.1:4321';
const out = process.env['SCREENSHOT_DIR'] ?? 'screenshots';
mkdirSync(out, { recursive: true });
const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
for (const [label, viewport] of [
  ['desktop', { width: 1440, height: 900 }],
  ['mobile', { width: 390, height: 844 }],
] as const) {
  const context = await browser.newContext({ viewport });
  // The cookie notice would cover what these pictures are for.
  await context.addInitScript(() => localStorage.setItem('cookie-accepted', '1'));
  const page = await context.newPage();
  const hydrated = () => page.waitForFunction(() => document.querySelectorAll('astro-island[ssr]:not([client="visible"])').length === 0);

  await page.goto(`${base}/c/3/platya?attr=M&with_discount=1${label === 'mobile' ? '#filters' : ''}`, { waitUntil: 'networkidle' });
  await page.screenshot({ path: `${out}/catalog-filters-${label}.png` });

  await page.goto(base, { waitUntil: 'networkidle' });
  await hydrated();
  if (label === 'mobile') await page.getByRole('button', { name: 'Поиск' }).first().click();
  const search = page.getByRole('searchbox').filter({ visible: true }).first();
  await search.pressSequentially('гучи', { delay: 50 });
  await page.getByText('Все результаты поиска').filter({ visible: true }).first().waitFor();
  await page.screenshot({ path: `${out}/search-suggestions-${label}.png` });

  const productUrl = await page.locator('[id$="-suggestions"] a[href^="/p/"]').filter({ visible: true }).first().getAttribute('href');
  await page.goto(`${base}${productUrl}`, { waitUntil: 'networkidle' });
  await hydrated();
  await page.locator('[role=radio]:not([disabled])').first().click();
  await page.waitForTimeout(400);
  await page.screenshot({ path: `${out}/product-${label}.png` });
  console.log(`${out}/{catalog-filters,search-suggestions,product}-${label}.png`);
  await context.close();
}
await browser.close();
