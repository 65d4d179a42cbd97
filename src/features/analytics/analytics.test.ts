import { expect, it } from 'vitest';
import { ecommerceEvent } from './analytics.client.ts';

it('builds e-commerce events in roubles with the action as the key', () => {
  expect(ecommerceEvent('add', [{ id: 7, name: 'Платье', brand: 'Gucci', price: 1_234_500, variant: 'M', quantity: 2 }])).toEqual({
    ecommerce: { currencyCode: 'RUB', add: { products: [{ id: '7', name: 'Платье', brand: 'Gucci', price: 12_345, variant: 'M', quantity: 2 }] } },
  });
  expect(ecommerceEvent('purchase', [], 'BS-1').ecommerce.purchase).toEqual({ actionField: { id: 'BS-1' }, products: [] });
});

it('a purchase carries the order and its revenue; the checkout its step', () => {
  expect(ecommerceEvent('purchase', [], 'BS-12345678', 1_500_050).ecommerce.purchase).toEqual({
    actionField: { id: 'BS-12345678', revenue: 15_000.5 },
    products: [],
  });
  expect(ecommerceEvent('checkout', [{ id: 1, name: 'N', brand: 'B', price: 100 }]).ecommerce.checkout).toEqual({
    actionField: { step: 1 },
    products: [{ id: '1', name: 'N', brand: 'B', price: 1 }],
  });
});
