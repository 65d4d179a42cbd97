// The browser's wishlist calls (spec §7).
import { api } from '~/lib/api.client.ts';
import type { ProductCard } from '~/features/catalog/catalog.ts';

const CUSTOMER = '/api/v1/ecommerce-core/customer';

/** `token`: the session the call belongs to (a follower of the session store passes its own). */
export const wishlistCall = (token?: string) =>
  api<ProductCard[]>(`${CUSTOMER}/get-customer-wishlist-product`, { method: 'POST', ...(token ? { token } : {}) });
export const storeWishlistCall = (productId: number) =>
  api<{ ids: number[] }>(`${CUSTOMER}/store-product-to-wishlist`, { method: 'POST', body: { product_id: productId } });
export const removeWishlistCall = (productId: number) =>
  api<{ ids: number[] }>(`${CUSTOMER}/product-remove-from-wishlist`, { method: 'POST', body: { product_id: productId } });
