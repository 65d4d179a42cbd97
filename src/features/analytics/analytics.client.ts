// E-commerce events for the analytics data layer (spec §1): product view, add to cart, purchase.
// Pushes are harmless when no counter is configured: the array simply collects them.

export interface EcommerceProduct {
  id: number;
  name: string;
  brand: string;
  price: number;
  category?: string;
  variant?: string;
  quantity?: number;
}

type Action = 'detail' | 'add' | 'remove' | 'purchase';

declare global {
  interface Window {
    dataLayer?: unknown[];
  }
}

/** Prices travel in kopecks inside the shop; the data layer wants roubles. */
export function ecommerceEvent(action: Action, products: EcommerceProduct[], orderId?: string) {
  const items = products.map((p) => ({
    id: String(p.id),
    name: p.name,
    brand: p.brand,
    price: p.price / 100,
    ...(p.category ? { category: p.category } : {}),
    ...(p.variant ? { variant: p.variant } : {}),
    ...(p.quantity ? { quantity: p.quantity } : {}),
  }));
  return { ecommerce: { currencyCode: 'RUB', [action]: { ...(orderId ? { actionField: { id: orderId } } : {}), products: items } } };
}

export function pushEcommerce(action: Action, products: EcommerceProduct[], orderId?: string): void {
  window.dataLayer ??= [];
  window.dataLayer.push(ecommerceEvent(action, products, orderId));
}
