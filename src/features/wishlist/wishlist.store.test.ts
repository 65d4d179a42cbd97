// Right after login the session's followers load the wishlist and the cart: each call must carry the
// new session's token (issue 22: the wishlist call went out once without it and was refused with 401).
import { afterEach, expect, it, vi } from 'vitest';
import { clearSession, startSession } from '~/features/auth/auth.store.ts';
import { followCart } from '~/features/cart/cart.store.ts';
import { followWishlist } from './wishlist.store.ts';

afterEach(() => {
  clearSession();
  vi.unstubAllGlobals();
});

it('the wishlist and cart calls made on login carry the new token, and none goes out without it', async () => {
  const sent: { path: string; authorization: string | null }[] = [];
  vi.stubGlobal('fetch', async (input: Request | string | URL, init?: RequestInit) => {
    const request = new Request(new URL(String(input instanceof Request ? input.url : input), 'http://shop.test'), init);
    sent.push({ path: new URL(request.url).pathname, authorization: request.headers.get('authorization') });
    return new Response(JSON.stringify({ success: true, data: [] }), { headers: { 'content-type': 'application/json' } });
  });
  followWishlist();
  followCart();
  const token = 't'.repeat(43);
  startSession({
    access_token: token,
    expires_in: 3600,
    user: { id: 7, email: 'anna@example.ru', phone: '', name: 'Анна', surname: '', patronymic: '' },
    dashboard_content: { balance_amount: 0, bonus_amount: 0, bonus_available_until: null },
  });
  await vi.waitFor(() =>
    expect(sent.map((s) => s.path).sort()).toEqual([
      '/api/v1/ecommerce-core/customer/cart/cart-items-list',
      '/api/v1/ecommerce-core/customer/get-customer-wishlist-product',
    ]),
  );
  expect(sent.every((s) => s.authorization === `Bearer ${token}`)).toBe(true);
});
