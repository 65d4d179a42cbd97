// The browser's cart calls (spec §7).
import { api } from '~/lib/api.client.ts';
import type { CartItem, CartLine } from './cart.ts';

const CART = '/api/v1/ecommerce-core/customer/cart';

/** `token`: the session the call belongs to (a follower of the session store passes its own). */
export const cartListCall = (token?: string) => api<CartLine[]>(`${CART}/cart-items-list`, token ? { token } : {});
/** spec §7: the item travels as a form field of JSON. */
export const storeCartCall = (item: CartItem, token?: string) => {
  const form = new FormData();
  form.append('item', JSON.stringify(item));
  return api<CartLine[]>(`${CART}/store-cart-item`, { method: 'POST', body: form, ...(token ? { token } : {}) });
};
export const updateCartCall = (item: { uid: string; quantity?: number; is_selected?: boolean }) =>
  api<CartLine>(`${CART}/update-cart-item`, { method: 'POST', body: { item } });
export const removeCartCall = (uid: string) => api<CartLine[]>(`${CART}/remove-item`, { method: 'POST', body: { uid } });
export const clearCartCall = () => api<CartLine[]>(`${CART}/clear`, { method: 'POST' });
export const validateItemsCall = (items: CartItem[]) =>
  api<{ items: CartLine[] }>('/api/v1/ecommerce-core/cart/validate-cart-items', { method: 'POST', body: { items } });
