import { describe, expect, it } from 'vitest';
import { cartTotals, type CartLine } from './cart.ts';

const line = (over: Partial<CartLine>): CartLine => ({
  uid: '1',
  id: 1,
  name: 'Платье',
  brand: 'Alpha',
  brand_id: 1,
  url: '/p/1/plate',
  image: null,
  price: 10_000,
  price_old: null,
  discount_percent: 0,
  currency_symbol: '₽',
  variant_code: '1-M',
  variant: 'M',
  min_item: 1,
  max_item: 5,
  quantity: 1,
  is_available: true,
  is_selected: true,
  ...over,
});

describe('spec §4 cart totals', () => {
  it('counts every quantity, but totals and discounts only selected, available lines', () => {
    const totals = cartTotals([
      line({ uid: 'a', quantity: 2, price: 10_000, price_old: 12_500 }),
      line({ uid: 'b', quantity: 1, price: 5_000, is_selected: false }),
      line({ uid: 'c', quantity: 3, price: 7_000, is_available: false }),
    ]);
    expect(totals).toEqual({ count: 6, total: 20_000, discount: 5_000, selectedCount: 2 });
  });

  it('an empty cart is all zeros', () => {
    expect(cartTotals([])).toEqual({ count: 0, total: 0, discount: 0, selectedCount: 0 });
  });
});
