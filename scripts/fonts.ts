// `npm run fonts [-- http://127.0.0.1:4321]`: which font files each page type's first screen paints, and
// how far the page moves when they arrive late (docs/decisions/016). In Debian's Chromium at 390 × 844
// and 1440 × 900: the text nodes inside the viewport, their face and characters, mapped to the subsets of
// scripts/subset-fonts.ts; then, with every font file held back 1.5 s, the layout shift (CLS) the swap
// causes. Without a URL it starts the built shop on a fresh database itself.
import type { Browser } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPath } from '../tests/e2e/chromium.ts';
import { pageTypes } from '../tests/support/page-types.ts';
import { commandLine, httpAddress } from './cli.ts';

const cli = commandLine('npm run fonts -- [URL]', { allowPositionals: true });
if (cli.positionals.length > 1) cli.fail(`one address, not ${cli.positionals.length}`);
const given = cli.positionals[0] === undefined ? undefined : httpAddress(cli, cli.positionals[0]);
// Loaded once the arguments are known: a wrong one is answered at once, not after Playwright and the database (scripts/cli.ts).
const { chromium } = await import('playwright-core');
const { startTestServer } = await import('../tests/support/server.ts');
const server = given ? undefined : await startTestServer({ label: 'fonts', seedProducts: 200, env: { LOG_LEVEL: 'warn' } });
const base = given ?? (server?.baseUrl as string);
const VIEWPORTS = [
  [390, 844],
  [1440, 900],
] as const;

/** The subsets whose glyphs the text inside the viewport uses (`manrope-cyrillic`, `cormorant-500-latin`…). */
async function firstScreenFaces(browser: Browser, width: number, height: number, path: string): Promise<string[]> {
  const page = await browser.newPage({ viewport: { width, height } });
  await page.goto(new URL(path, base).href, { waitUntil: 'load' });
  await page.evaluate(() => document.fonts.ready);
  const faces = await page.evaluate(() => {
    const found = new Set<string>();
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.replace(/\s+/g, '') ?? '';
      const element = node.parentElement;
      if (!text || !element) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const rect = range.getBoundingClientRect();
      const style = getComputedStyle(element);
      if (rect.width === 0 || rect.bottom <= 0 || rect.top >= innerHeight || style.visibility === 'hidden') continue;
      const family = (style.fontFamily.split(',')[0] ?? '').replace(/["']/g, '').trim();
      const face = family.startsWith('Manrope') ? 'manrope' : family.startsWith('Cormorant') ? 'cormorant-500' : null;
      if (!face) continue; // a system face (the payment logos' SVG text)
      for (const char of text) {
        const code = char.codePointAt(0) ?? 0;
        found.add(`${face}-${code === 0x20bd ? 'rouble' : code >= 0x400 && code <= 0x45f ? 'cyrillic' : 'latin'}`);
      }
    }
    return [...found].sort();
  });
  await page.close();
  return faces;
}

/** The layout shift while and after the fonts arrive 1.5 s late. */
async function swapShift(browser: Browser, width: number, height: number, path: string): Promise<number> {
  const context = await browser.newContext({ viewport: { width, height } });
  await context.addInitScript(() => {
    const shifts = { total: 0 };
    Object.assign(window, { __shifts: shifts });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[])
        if (!entry.hadRecentInput) shifts.total += entry.value;
    }).observe({ type: 'layout-shift', buffered: true });
  });
  const page = await context.newPage();
  await page.route(/\.woff2$/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await route.continue();
  });
  await page.goto(new URL(path, base).href, { waitUntil: 'domcontentloaded' });
  await page.waitForTimeout(3500);
  const total = await page.evaluate(() => (window as unknown as { __shifts: { total: number } }).__shifts.total);
  await context.close();
  return Math.round(total * 10000) / 10000;
}

try {
  const pages = (await pageTypes(base)).filter(([name]) => name !== 'brand');
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  console.log('| page | width | the first screen paints | CLS with the fonts 1.5 s late |\n|---|---|---|---|');
  for (const [name, path] of pages)
    for (const [width, height] of VIEWPORTS)
      console.log(
        `| ${name} | ${width} | ${(await firstScreenFaces(browser, width, height, path)).join(', ')} | ${await swapShift(browser, width, height, path)} |`,
      );
  await browser.close();
} finally {
  await server?.stop();
}
