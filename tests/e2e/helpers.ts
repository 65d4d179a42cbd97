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

/** Accepts the cookie notice: it is in the page from the start, and live once its script has run. */
export async function acceptCookies(page: Page): Promise<void> {
  const notice = page.getByRole('region', { name: 'Cookie' });
  await expect(notice).toHaveAttribute('data-ready', '');
  await notice.getByRole('button', { name: 'Принять' }).click();
  await expect(notice).toBeHidden();
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
