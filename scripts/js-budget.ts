// Measures the JavaScript a page ships (gzip), as a browser loads it: at first load, after scrolling to
// the bottom (islands hydrated when visible), and optionally after a click that loads more.
// Usage: npm run js-budget -- http://127.0.0.1:4321 / /i/12/razmery …
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { chromiumPath, CHROMIUM_ARGS } from '../tests/e2e/chromium.ts';
import { commandLine, pageAddresses } from './cli.ts';

const { base, paths } = pageAddresses(commandLine('npm run js-budget -- [URL [PATH…]]', { allowPositionals: true }));
// Loaded once the arguments are known: a wrong one is answered at once, not after Playwright (scripts/cli.ts).
const { chromium } = await import('playwright-core');
const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });

async function measure(page: Page, path: string) {
  const seen = new Map<string, number>();
  page.on('response', async (res) => {
    if (!res.url().endsWith('.js') && !(res.headers()['content-type'] ?? '').includes('javascript')) return;
    try {
      seen.set(res.url(), gzipSync(await res.body(), { level: 9 }).length);
    } catch {
      // a redirect or an aborted response has no body
    }
  });
  const total = () => [...seen.values()].reduce((a, b) => a + b, 0);
  const inline = async () => page.evaluate(() => [...document.querySelectorAll('script:not([src])')].reduce((n, s) => n + (s.textContent?.length ?? 0), 0));
  await page.goto(new URL(path, base).href, { waitUntil: 'networkidle' });
  const atLoad = total();
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await page.waitForTimeout(800);
  await page.waitForLoadState('networkidle');
  return { atLoad, afterScroll: total(), inlineChars: await inline(), files: seen.size };
}

for (const path of paths.length > 0 ? paths : ['/']) {
  for (const [label, viewport] of [
    ['desktop', { width: 1440, height: 900 }],
    ['mobile', { width: 390, height: 844 }],
  ] as const) {
    const page = await browser.newPage({ viewport });
    const r = await measure(page, path);
    console.log(
      `${path} ${label}: ${(r.atLoad / 1024).toFixed(1)} KB gzip JS at load, ${(r.afterScroll / 1024).toFixed(1)} KB after scrolling to the footer (${r.files} files, ${r.inlineChars} chars inline)`,
    );
    await page.close();
  }
}
await browser.close();
