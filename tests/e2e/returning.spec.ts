// Returning shoppers (issue 22): a guest with three lines in the browser's cart, and a signed-in
// customer with a server cart, two products in the wishlist, bonus points and a delivered order, visit
// every page type. The server renders public pages the same for everyone and the islands apply what the
// browser holds after hydration, so no page may throw (React's #418 hydration mismatch was the fault)
// or log an error, and the header's badges say what is held.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { guestLines, inStock } from '../support/in-stock.ts';
import { e2eInfoFile } from '../support/server.ts';
import { expect, test, e2ePort } from './fixtures.ts';
import { hydrated, signIn } from './helpers.ts';

const API = '/api/v1/ecommerce-core';

async function api<T>(baseURL: string, path: string, token: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
  const res = await fetch(`${baseURL}${API}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const answer = (await res.json()) as { success: boolean; data: T; message?: string };
  if (!answer.success) throw new Error(`${path}: ${res.status} ${answer.message}`);
  return answer.data;
}

/** Every page type a shopper meets, with the addresses of this catalogue. */
async function publicPages(baseURL: string, productUrl: string): Promise<string[]> {
  const blogs = (await (await fetch(`${baseURL}${API}/blogs`)).json()) as { data: { posts: { url: string }[] } };
  const product = (await (await fetch(`${baseURL}${API}/product/${productUrl.split('/')[2]}`)).json()) as { data: { brand_url: string } };
  return [
    '/',
    '/catalog',
    '/c/3/platya',
    product.data.brand_url,
    `/product/search/${encodeURIComponent('платье')}`,
    productUrl,
    '/brands',
    '/i/4/contacts',
    '/i/12/razmery',
    '/blog',
    blogs.data.posts[0]?.url ?? '/blog',
    '/cart',
    '/checkout',
  ];
}

/**
 * Opens each page and answers what it threw or logged as an error, and each page whose header does not
 * show the cart the shopper holds (Preact's hydration raises no error on a mismatch: stale text is the
 * symptom, docs/decisions/015).
 */
async function sweep(page: Page, paths: string[], cartLines: number): Promise<string[]> {
  const faults: string[] = [];
  let current = '';
  page.on('pageerror', (error) => faults.push(`${current}: ${error.message.slice(0, 160)}`));
  page.on('console', (message) => message.type() === 'error' && faults.push(`${current}: console: ${message.text().slice(0, 160)}`));
  for (const path of paths) {
    current = path;
    await page.goto(path);
    await hydrated(page);
    // The islands' effects (session refresh, cart and wishlist loads) have run once the badge says what the
    // shopper holds: waited for as a condition, not as half a second of network quiet per page.
    const badge = page.getByRole('banner').getByLabel(`Корзина: ${cartLines}`);
    if (
      !(await badge.waitFor({ timeout: 5_000 }).then(
        () => true,
        () => false,
      ))
    )
      faults.push(`${path}: the header does not say «Корзина: ${cartLines}»`);
  }
  // A page's late effects show on the next one's navigation; the last page's are waited out here, and its
  // badge must still say the same once all is quiet.
  await page.waitForLoadState('networkidle');
  if (!(await page.getByRole('banner').getByLabel(`Корзина: ${cartLines}`).isVisible())) faults.push(`${current}: the badge changed once settled`);
  return faults;
}

test.describe('returning shoppers', () => {
  // Hydration does not depend on the width; one viewport is enough (the phone's islands render on both).
  test.skip(({ isMobile }) => isMobile, 'one viewport');
  test.setTimeout(120_000);

  test('a guest with three lines in the cart: every page type without an error, the badge says 3', async ({ page, baseURL }) => {
    const items = await inStock(baseURL!, 3);
    await page.addInitScript((lines) => {
      if (!localStorage.getItem('guest-products')) localStorage.setItem('guest-products', JSON.stringify(lines));
    }, guestLines(items));
    const paths = await publicPages(baseURL!, items[0]!.url);
    expect(await sweep(page, paths, 3)).toEqual([]);
  });

  test('a signed-in customer with a cart, a wishlist of two, points and an order: every page type without an error', async ({ page, baseURL }) => {
    const { token } = await signIn(page, baseURL!);
    const items = await inStock(baseURL!, 4);
    // A delivered order (its points are the customer's balance of bonuses), then a cart and a wishlist.
    await api(baseURL!, '/customer/cart/store-cart-item', token, {
      item: { id: items[3]!.id, variant_code: items[3]!.variant_code, quantity: 1, uid: randomUUID() },
    });
    const placed = await api<{ code: string; payment_url: string }>(
      baseURL!,
      '/checkout/place-order',
      token,
      {
        contact: { name: 'Ольга Смирнова', email: 'olga@example.ru', phone: '+7 (999) 111-22-33' },
        delivery: { method: 'courier', city: 'Казань', address: 'Баумана, 1' },
      },
      { 'idempotency-key': randomUUID() },
    );
    await api(baseURL!, `/payments/test/${placed.payment_url.split('/').pop()}`, token, { action: 'sbp' });
    const { dataDir } = JSON.parse(readFileSync(e2eInfoFile(e2ePort()), 'utf8')) as { dataDir: string };
    const operator = { 'x-operator-token': readFileSync(join(dataDir, 'operator-token'), 'utf8').trim() };
    for (const status of ['purchased', 'ready_to_ship', 'shipped', 'delivered']) await api(baseURL!, `/ops/orders/${placed.code}`, token, { status }, operator);
    for (const item of items.slice(0, 2)) {
      await api(baseURL!, '/customer/cart/store-cart-item', token, { item: { id: item.id, variant_code: item.variant_code, quantity: 1, uid: randomUUID() } });
      await api(baseURL!, '/customer/store-product-to-wishlist', token, { product_id: item.id });
    }
    const dashboard = await api<{ bonus_amount: number }>(baseURL!, '/customer/dashboard', token);
    expect(dashboard.bonus_amount).toBeGreaterThan(0);

    const paths = [
      ...(await publicPages(baseURL!, items[0]!.url)),
      '/dashboard',
      '/dashboard/orders',
      `/dashboard/order/${placed.code}`,
      '/dashboard/balance',
      '/dashboard/wishlist',
      '/dashboard/profile',
      '/dashboard/partners',
      '/dashboard/address',
      `/order-success/${placed.code}`,
    ];
    expect(await sweep(page, paths, 2)).toEqual([]);
    await page.goto('/');
    await hydrated(page);
    await expect(page.getByRole('banner').getByLabel('Избранное: 2')).toBeVisible();
  });
});
