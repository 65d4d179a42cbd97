import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Page } from '@playwright/test';
import { base32Decode, hotp, totpStep } from '../../src/features/ops/totp.server.ts';
import { e2eInfoFile } from '../support/server.ts';
import { e2ePort } from './fixtures.ts';

const API = '/api/v1/ecommerce-core';

/** The worker's shop's operator token (written into its data folder at start). */
export function operatorToken(): string {
  const { dataDir } = JSON.parse(readFileSync(e2eInfoFile(e2ePort()), 'utf8')) as { dataDir: string };
  return readFileSync(join(dataDir, 'operator-token'), 'utf8').trim();
}

/** One call of the shop's API: a GET, or a POST of `body` as JSON; its `data`. */
export async function call<T>(baseURL: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
  const res = await fetch(baseURL + API + path, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return ((await res.json()) as { data: T }).data;
}

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

/**
 * Signs a new customer in without the modal (tests that are not about the modal): registers through the
 * API and hands the browser what the modal would have stored — the session in localStorage and the cookie.
 */
export async function signIn(page: Page, baseURL: string): Promise<{ email: string; token: string }> {
  const email = `e2e.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}@example.ru`;
  const res = await fetch(`${baseURL}/api/v1/ecommerce-core/auth/customer-registration`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, phone: '+7 (999) 765-43-21', password: 'ключ от квартиры где деньги' }),
  });
  const { data } = (await res.json()) as { data: { access_token: string; user: unknown } };
  const session = { accessToken: data.access_token, user: data.user, dashboard: { balanceAmount: 0, bonusAmount: 0, bonusAvailableUntil: null } };
  await page.context().addCookies([{ name: 'bs_session', value: data.access_token, url: baseURL }]);
  await page.context().addInitScript((value) => {
    if (!localStorage.getItem('session')) localStorage.setItem('session', value);
  }, JSON.stringify(session));
  return { email, token: data.access_token };
}

/** Opens a product of the seeded catalogue and adds its first available size. */
export async function addFirstSize(page: Page, nth = 0) {
  // The category's HTML read, not shown: which product is the nth is all that is needed of it here (the
  // category page in the browser is catalog.spec.ts's), and a page drawn with its photos is a second of
  // Chromium's time per call.
  const html = await (await page.request.get('/c/3/platya')).text();
  const list = html.slice(html.indexOf('aria-label="Товары"'));
  const url = [...list.matchAll(/href="(\/p\/[^"]+)"/g)][nth * 2]?.[1];
  expect(url, `product ${nth} of the category`).toBeDefined();
  await open(page, url as string);
  await page.getByRole('radiogroup', { name: 'Размер' }).getByRole('radio').and(page.locator(':not([disabled])')).first().click();
  await page.getByRole('button', { name: 'Добавить в корзину' }).click();
  await expect(page.getByText('Товар добавлен в корзину').first()).toBeVisible();
}

/** Pays on the test provider's card page (a 3-D Secure card asks for the SMS code next). */
export async function payWith(page: Page, card: string) {
  await page.waitForURL(/\/test-payment\//);
  await hydrated(page);
  await page.getByLabel('Номер карты').fill(card);
  await page.getByLabel('Срок действия').fill('12/34');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: 'Оплатить' }).click();
}

/** An operator added by the operator's call (the shop's token), set up in the browser through the link and signed in with a code. */
export async function operatorSignsIn(page: Page, baseURL: string, operatorToken: string, role: 'manager' | 'admin'): Promise<string> {
  const email = `op.${randomUUID().slice(0, 8)}@shop.ru`;
  const res = await fetch(`${baseURL}/api/v1/ecommerce-core/ops/operators`, {
    method: 'POST',
    headers: { 'x-operator-token': operatorToken, 'content-type': 'application/json' },
    body: JSON.stringify({ action: 'add', email, role }),
  });
  const { data } = (await res.json()) as { data: { setup_url: string; otpauth: string } };
  const secret = base32Decode(new URL(data.otpauth).searchParams.get('secret') as string);
  const code = (ahead: number) => hotp(secret, totpStep(Date.now()) + ahead);
  const link = new URL(data.setup_url);
  await page.goto(`${baseURL}${link.pathname}${link.search}`);
  const password = 'длинная фраза для входа в панель';
  await page.getByLabel('Пароль', { exact: true }).fill(password);
  await page.getByLabel('Пароль ещё раз').fill(password);
  await page.getByLabel('Код из приложения').fill(code(0));
  await page.getByRole('button', { name: 'Сохранить и подтвердить' }).click();
  await expect(page.getByTestId('ops-recovery')).toBeVisible();
  await page.goto(`${baseURL}/ops/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Пароль').fill(password);
  await page.getByLabel('Код из приложения').fill(code(1));
  await page.getByRole('button', { name: 'Войти' }).click();
  await page.waitForURL('**/ops/orders');
  return email;
}
