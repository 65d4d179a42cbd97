// E-commerce events for the analytics data layer (spec §1, issue 9) in Yandex Metrika's documented format
// ({ ecommerce: { currencyCode, <action>: { actionField?, products } } }): product view (detail), add, remove,
// checkout (the Enhanced E-commerce action Metrika passes through; step 1 is the checkout page) and purchase.
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

type Action = 'detail' | 'add' | 'remove' | 'checkout' | 'purchase';

declare global {
  interface Window {
    dataLayer?: unknown[];
  }
}

/** Prices travel in kopecks inside the shop; the data layer wants roubles. */
export function ecommerceEvent(action: Action, products: EcommerceProduct[], orderId?: string, revenue?: number) {
  const items = products.map((p) => ({
    id: String(p.id),
    name: p.name,
    brand: p.brand,
    price: p.price / 100,
    ...(p.category ? { category: p.category } : {}),
    ...(p.variant ? { variant: p.variant } : {}),
    ...(p.quantity ? { quantity: p.quantity } : {}),
  }));
  const actionField = action === 'checkout' ? { step: 1 } : orderId ? { id: orderId, ...(revenue === undefined ? {} : { revenue: revenue / 100 }) } : undefined;
  return { ecommerce: { currencyCode: 'RUB', [action]: { ...(actionField ? { actionField } : {}), products: items } } };
}

export function pushEcommerce(action: Action, products: EcommerceProduct[], orderId?: string, revenue?: number): void {
  window.dataLayer ??= [];
  window.dataLayer.push(ecommerceEvent(action, products, orderId, revenue));
}
