import { expect, type Page } from '@playwright/test';

/** Waits until every island that hydrates without scrolling has hydrated (Astro drops its `ssr` attribute). */
export async function hydrated(page: Page): Promise<void> {
  await page.waitForFunction(() => document.querySelectorAll('astro-island[ssr]:not([client="visible"])').length === 0);
}

export async function open(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await hydrated(page);
}

export function isMobile(page: Page): boolean {
  return (page.viewportSize()?.width ?? 1440) < 1024;
}

export async function acceptCookies(page: Page): Promise<void> {
  const accept = page.getByRole('button', { name: 'Принять' });
  // A click that lands while the idle islands are still starting can go unheard: click again until the
  // notice is gone.
  await expect(async () => {
    if (await accept.isVisible()) await accept.click();
    await expect(accept).toHaveCount(0, { timeout: 1_000 });
  }).toPass();
}

/** Opens the home page with cookies accepted and the footer's newsletter island hydrated. */
export async function newsletterForm(page: Page) {
  await open(page, '/');
  await acceptCookies(page);
  const footer = page.getByRole('contentinfo');
  const input = footer.getByRole('textbox', { name: 'Ваш email' });
  await input.scrollIntoViewIfNeeded();
  // The newsletter island hydrates when it becomes visible.
  await page.waitForFunction(() => document.querySelectorAll('astro-island[ssr]').length === 0);
  return { footer, input, submit: footer.getByRole('button', { name: 'Подписаться' }) };
}
