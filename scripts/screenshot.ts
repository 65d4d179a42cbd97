// Screenshots of pages at desktop (1440 px) and mobile (390 px) widths, for looking at what we build.
// Usage: npm run screenshots -- http://127.0.0.1:4321 / /i/12/razmery …  → screenshots/<name>-{desktop,mobile}.png
import { mkdirSync } from 'node:fs';
import { chromiumPath, CHROMIUM_ARGS } from '../tests/e2e/chromium.ts';
import { commandLine, pageAddresses } from './cli.ts';

const { base, paths } = pageAddresses(commandLine('npm run screenshots -- [URL [PATH…]]', { allowPositionals: true }));
// Loaded once the arguments are known: a wrong one is answered at once, not after Playwright (scripts/cli.ts).
const { chromium } = await import('playwright-core');
const outDir = process.env['SCREENSHOT_DIR'] ?? 'screenshots';
mkdirSync(outDir, { recursive: true });
const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
for (const path of paths.length > 0 ? paths : ['/']) {
  const name = path === '/' ? 'home' : path.replace(/^\/|\/$/g, '').replace(/[^a-z0-9]+/gi, '-');
  for (const [label, viewport] of [
    ['desktop', { width: 1440, height: 900 }],
    ['mobile', { width: 390, height: 844 }],
  ] as const) {
    const page = await browser.newPage({ viewport, deviceScaleFactor: 1 });
    await page.goto(new URL(path, base).href, { waitUntil: 'networkidle' });
    await page.screenshot({ path: `${outDir}/${name}-${label}.png`, fullPage: true });
    await page.close();
    console.log(`${outDir}/${name}-${label}.png`);
  }
}
await browser.close();
