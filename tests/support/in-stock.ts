// Products of a running shop's catalogue with a size in stock, read through its API, and a guest's cart
// lines made of them (spec §3: kept in the browser under guest-products, uid from a timestamp): what the
// returning-shopper e2e sweep, `npm run lighthouse`'s profiles and `npm run interactions` put in a cart.
const API = '/api/v1/ecommerce-core';

export interface InStock {
  id: number;
  variant_code: string;
  url: string;
}

export async function inStock(baseUrl: string, count: number, category = 3): Promise<InStock[]> {
  const read = async <T>(path: string) => ((await (await fetch(new URL(`${API}${path}`, baseUrl))).json()) as { data: T }).data;
  const listing = await read<{ products: { id: number; url: string }[] }>(`/products?category=${category}&per_page=20`);
  const found: InStock[] = [];
  for (const p of listing.products) {
    const product = await read<{ variants: { code: string; available: boolean }[] }>(`/product/${p.id}`);
    const variant = product.variants.find((v) => v.available);
    if (variant) found.push({ id: p.id, variant_code: variant.code, url: p.url });
    if (found.length === count) return found;
  }
  throw new Error(`fewer than ${count} products with a size in stock`);
}

/** A guest's cart lines, one of each product. */
export function guestLines(items: readonly InStock[]): { uid: string; id: number; quantity: number; variant_code: string }[] {
  return items.map((item, k) => ({ uid: String(1_700_000_000_000 + k), id: item.id, quantity: 1, variant_code: item.variant_code }));
}

/** A guest's order of one item (card payment, courier): the API's answer. */
export async function placeGuestOrder(
  baseUrl: string,
  item: { id: number; variant_code: string },
  idempotencyKey: string = crypto.randomUUID(),
): Promise<{ status: number; body: { success: boolean; data?: { code: string; payment_url: string | null; total: number } } }> {
  const res = await fetch(new URL(`${API}/checkout/place-order`, baseUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': idempotencyKey, 'accept-language': 'ru' },
    body: JSON.stringify({
      items: [{ id: item.id, quantity: 1, variant_code: item.variant_code }],
      contact: { name: 'Ольга Смирнова', email: 'olga@example.ru', phone: '+7 (999) 111-22-33' },
      delivery: { method: 'courier', city: 'Казань', address: 'Баумана, 1' },
      payment: 'card',
    }),
  });
  return { status: res.status, body: (await res.json()) as { success: boolean; data?: { code: string; payment_url: string | null; total: number } } };
}
