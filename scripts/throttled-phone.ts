// The phone every first-second measurement lives on (`npm run interactions`, `npm run taps`): Debian's
// Chromium throttled as Lighthouse's mobile profile (4× CPU, 1.6 Mbit/s down, 750 kbit/s up, 150 ms round
// trip), with DevTools' own throttling (real time, not simulated), at 390 × 844 with touch, in Russian.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchedChromiumPid, quietBrowser } from './quiet-browser.ts';

export const THROTTLING = { latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8, cpu: 4 };

export async function throttle(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: THROTTLING.latency,
    downloadThroughput: THROTTLING.downloadThroughput,
    uploadThroughput: THROTTLING.uploadThroughput,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLING.cpu });
}

/** A fresh context (an empty cache: a first visit) with one throttled page; `prepare` runs before the page opens. */
export async function phonePage(browser: Browser, prepare?: (context: BrowserContext) => Promise<void>, { throttled = true } = {}): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: 'ru-RU' });
  await context.route('https://mc.yandex.ru/**', (route) => route.fulfill({ status: 200, contentType: 'text/javascript', body: '' }));
  await prepare?.(context);
  const page = await context.newPage();
  // A new window starts the browser's own WebUI work; measured before it settles, the page shared the CPU
  // with it (scripts/quiet-browser.ts). Waited for before throttling: the throttled renderer never goes quiet.
  if (throttled) {
    await quietBrowser(launchedChromiumPid());
    await throttle(page);
  }
  return page;
}

export const median = (values: number[]): number => {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  return sorted.length ? (sorted[Math.floor((sorted.length - 1) / 2)] as number) : NaN;
};
