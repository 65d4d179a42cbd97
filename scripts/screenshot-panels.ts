// Screenshots of the header's panels and the buyout modal at 1440 px and 390 px (issue 3).
// Usage: node scripts/screenshot-panels.ts http://127.0.0.1:4321
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
  const page = await browser.newPage({ viewport });
  const hydrated = () => page.waitForFunction(() => document.querySelectorAll('astro-island[ssr]:not([client="visible"])').length === 0);
  await page.goto(base, { waitUntil: 'networkidle' });
  await hydrated();
  if (label === 'desktop') await page.getByRole('button', { name: 'Каталог' }).first().click();
  else await page.getByRole('navigation', { name: 'Мобильная навигация' }).getByRole('button', { name: 'Каталог' }).click();
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${out}/mega-menu-${label}.png` });
  await page.keyboard.press('Escape');
  await page
    .getByRole('button', { name: label === 'desktop' ? 'Заявка на выкуп' : 'Выкуп', exact: true })
    .first()
    .click();
  await page.getByRole('dialog', { name: 'Заявка на поиск и выкуп товара' }).waitFor();
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${out}/buyout-info-${label}.png` });
  await page.getByRole('button', { name: 'К созданию заявки' }).click();
  await page.getByLabel('Имя *').waitFor();
  await page.waitForTimeout(200);
  await page.screenshot({ path: `${out}/buyout-form-${label}.png` });
  console.log(`${out}/{mega-menu,buyout-info,buyout-form}-${label}.png`);
  await page.close();
}
await browser.close();
