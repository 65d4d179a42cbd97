// The wishlist calls (spec §7, issue 9) over real HTTP: a customer's own list, product cards newest
// first, unknown or hidden products refused, guests refused, and the dashboard page showing the cards.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { shared } from '../support/shared-shop.ts';
import { api, baseUrl } from '../support/api.ts';

const CUSTOMER = '/api/v1/ecommerce-core/customer';
const post = (body: unknown, token?: string) => ({
  method: 'POST',
  body: JSON.stringify(body),
  headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
});

async function customer(): Promise<string> {
  const res = await api<{ access_token: string }>(
    '/api/v1/ecommerce-core/auth/customer-registration',
    post({ email: `wish.${randomBytes(5).toString('hex')}@example.ru`, phone: '+7 (999) 222-11-00', password: 'вишнёвый сад весной' }),
  );
  expect(res.status).toBe(201);
  return res.body.data!.access_token;
}

describe('wishlist', () => {
  it('stores, lists newest first as product cards, removes; twice is once', async () => {
    const token = await customer();
    const [first, second] = shared().catalog.dressProducts;
    const added = await api<{ ids: number[] }>(`${CUSTOMER}/store-product-to-wishlist`, post({ product_id: first!.id }, token));
    expect(added.status).toBe(200);
    expect(added.body.data!.ids).toEqual([first!.id]);
    await api(`${CUSTOMER}/store-product-to-wishlist`, post({ product_id: second!.id }, token));
    expect((await api<{ ids: number[] }>(`${CUSTOMER}/store-product-to-wishlist`, post({ product_id: second!.id }, token))).body.data!.ids).toHaveLength(2);
    const list = await api<{ id: number; name: string; url: string; price: number }[]>(`${CUSTOMER}/get-customer-wishlist-product`, post({}, token));
    expect(list.body.data!.map((p) => p.id)).toEqual([second!.id, first!.id]);
    expect(list.body.data![0]).toMatchObject({ name: second!.name, url: second!.url });
    const removed = await api<{ ids: number[] }>(`${CUSTOMER}/product-remove-from-wishlist`, post({ product_id: second!.id }, token));
    expect(removed.body.data!.ids).toEqual([first!.id]);
    // Removing what is not there is not an error.
    expect((await api(`${CUSTOMER}/product-remove-from-wishlist`, post({ product_id: second!.id }, token))).status).toBe(200);
  });

  it('keeps each customer’s own list', async () => {
    const [a, b] = [await customer(), await customer()];
    const product = shared().catalog.shoeProducts[0]!;
    await api(`${CUSTOMER}/store-product-to-wishlist`, post({ product_id: product.id }, a));
    expect((await api<unknown[]>(`${CUSTOMER}/get-customer-wishlist-product`, post({}, b))).body.data).toEqual([]);
  });

  it.each([
    [{ product_id: 999_999 }, 404],
    [{ product_id: 'abc' }, 422],
    [{ product_id: -1 }, 422],
    [{ product_id: 1.5 }, 422],
    [{}, 422],
  ])('refuses %j with %i', async (body, status) => {
    const token = await customer();
    expect((await api(`${CUSTOMER}/store-product-to-wishlist`, post(body, token))).status).toBe(status);
  });

  it('refuses a hidden product, and guests', async () => {
    const token = await customer();
    expect((await api(`${CUSTOMER}/store-product-to-wishlist`, post({ product_id: shared().catalog.inactive.id }, token))).status).toBe(404);
    for (const path of ['get-customer-wishlist-product', 'store-product-to-wishlist', 'product-remove-from-wishlist']) {
      const res = await api(`${CUSTOMER}/${path}`, post({ product_id: 1 }));
      expect(res.status, path).toBe(401);
      expect(res.body.message).toBe('Необходимо авторизоваться');
    }
  });

  it('/dashboard/wishlist shows the cards', async () => {
    const token = await customer();
    const product = shared().catalog.dressProducts[2]!;
    await api(`${CUSTOMER}/store-product-to-wishlist`, post({ product_id: product.id }, token));
    const html = await (await fetch(new URL('/dashboard/wishlist', baseUrl()), { headers: { cookie: `bs_session=${token}` } })).text();
    expect(html).toContain(product.url);
    expect(html).toContain(`data-wishlist="${product.id}"`);
  });
});
