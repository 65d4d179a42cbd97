// The cart line and its totals (spec §3, §4), safe on both sides and free of zod (the header's island
// reads the count).

/** spec §3 cart line as the server sends it: the product card's fields plus the line's own. */
export interface CartLine {
  uid: string;
  id: number;
  name: string;
  brand: string;
  brand_id: number;
  url: string;
  /** The first photo's address, or null. */
  image: string | null;
  price: number;
  price_old: number | null;
  discount_percent: number;
  currency_symbol: string;
  variant_code: string;
  /** The size as shown ('M', '38', 'One size'). */
  variant: string;
  min_item: number;
  max_item: number;
  quantity: number;
  is_available: boolean;
  is_selected: boolean;
}

/** A line as the client keeps it for a guest, or sends to be checked: what the customer chose, nothing priced. */
export interface CartItem {
  id: number;
  quantity: number;
  uid?: string | undefined;
  variant_code?: string | undefined;
  is_selected?: boolean | undefined;
}

export interface CartTotals {
  /** spec §4: the sum of quantities, every line. */
  count: number;
  /** Over selected and available lines only: what is paid. */
  total: number;
  /** What the old prices would have cost more, over the same lines. */
  discount: number;
  /** Selected and available lines' quantities (what the checkout takes). */
  selectedCount: number;
}

/** spec §4 cart totals. */
export function cartTotals(lines: readonly CartLine[]): CartTotals {
  let count = 0;
  let total = 0;
  let discount = 0;
  let selectedCount = 0;
  for (const line of lines) {
    count += line.quantity;
    if (!line.is_selected || !line.is_available) continue;
    selectedCount += line.quantity;
    total += line.price * line.quantity;
    if (line.price_old && line.price_old > line.price) discount += (line.price_old - line.price) * line.quantity;
  }
  return { count, total, discount, selectedCount };
}
