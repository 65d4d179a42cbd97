// A shopper of a test server, through the public API only: registers, finds a size in stock, and places
// and pays an order (the test provider, SBP). Every answer is checked against the API's contract.
import { randomBytes, randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { PlacedAnswer } from '../../src/features/checkout/checkout.schema.ts';
import { expectConforms } from './api.ts';
import type { TestServer } from './server.ts';

const API = '/api/v1/ecommerce-core';

export const post = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

/** The shopper of the server `current()` gives (a test's server is started in beforeAll). */
export function shopper(current: () => TestServer) {
  async function call<T>(path: string, init: RequestInit = {}) {
    const server = current();
    const res = await fetch(new URL(path, server.baseUrl), init);
    const body = (await res.json()) as { success: boolean; data?: T; message?: string };
    await expectConforms(server.baseUrl, init.method ?? 'GET', path, res.status, body);
    return { status: res.status, body };
  }

  async function register(ref?: string) {
    const res = await call<{ access_token: string }>(
      `${API}/auth/customer-registration`,
      post({
        email: `orders.${randomBytes(4).toString('hex')}@example.ru`,
        phone: '+7 (999) 111-22-33',
        password: 'заказы идут своим чередом',
        ...(ref ? { ref } : {}),
      }),
    );
    return { authorization: `Bearer ${res.body.data!.access_token}` };
  }

  /** A product of the catalogue with a size in stock (the skip-th one found). */
  async function inStock(skip = 0, ids: Iterable<number> = Array.from({ length: 29 }, (_, i) => i + 1)): Promise<{ id: number; variant_code: string }> {
    let found = 0;
    for (const id of ids) {
      const res = await call<{ variants: { code: string; available: boolean }[] }>(`${API}/product/${id}`);
      const variant = res.body.data?.variants.find((v) => v.available);
      if (variant && found++ === skip) return { id, variant_code: variant.code };
    }
    throw new Error('nothing in stock');
  }

  /** A customer's paid order of one item. */
  async function paidOrder(auth: Record<string, string>, skip = 0, item?: { id: number; variant_code: string }): Promise<PlacedAnswer> {
    const chosen = item ?? (await inStock(skip));
    await call(`${API}/customer/cart/store-cart-item`, post({ item: { ...chosen, quantity: 1, uid: randomUUID() } }, auth));
    const placed = await call<PlacedAnswer>(
      `${API}/checkout/place-order`,
      post(
        {
          contact: { name: 'Ольга Смирнова', email: 'olga@example.ru', phone: '+7 (999) 111-22-33' },
          delivery: { method: 'courier', city: 'Казань', address: 'Баумана, 1' },
        },
        { ...auth, 'idempotency-key': randomUUID() },
      ),
    );
    const paid = await call(`${API}/payments/test/${placed.body.data!.payment_url!.split('/').pop()}`, post({ action: 'sbp' }));
    expect(paid.status).toBe(200);
    return placed.body.data!;
  }

  return { call, register, inStock, paidOrder };
}
