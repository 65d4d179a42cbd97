import { expect, it } from 'vitest';
import { ecommerceEvent } from './analytics.client.ts';

it('builds e-commerce events in roubles with the action as the key', () => {
  expect(ecommerceEvent('add', [{ id: 7, name: 'Платье', brand: 'Gucci', price: 1_234_500, variant: 'M', quantity: 2 }])).toEqual({
    ecommerce: { currencyCode: 'RUB', add: { products: [{ id: '7', name: 'Платье', brand: 'Gucci', price: 12_345, variant: 'M', quantity: 2 }] } },
  });
  expect(ecommerceEvent('purchase', [], 'BS-1').ecommerce.purchase).toEqual({ actionField: { id: 'BS-1' }, products: [] });
});
