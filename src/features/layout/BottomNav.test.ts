import { expect, it } from 'vitest';
import { routeItem } from './BottomNav.tsx';

it('maps routes to the active bottom-navigation item', () => {
  expect(routeItem('/')).toBe('home');
  expect(routeItem('/c/3/platya')).toBe('catalog');
  expect(routeItem('/m/1/gucci')).toBe('catalog');
  expect(routeItem('/brands')).toBe('catalog');
  expect(routeItem('/catalog')).toBe('catalog');
  expect(routeItem('/product/search/gucci')).toBe('catalog');
  expect(routeItem('/dashboard/wishlist')).toBe('wishlist');
  expect(routeItem('/cart')).toBe('cart');
  expect(routeItem('/dashboard/orders')).toBe('account');
  expect(routeItem('/i/4/contacts')).toBeNull();
  expect(routeItem('/blog')).toBeNull();
});
