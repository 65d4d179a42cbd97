import { expect, it } from 'vitest';
import { navPath, routeItem } from './BottomNav.tsx';

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

it('keeps of an address only what the bottom navigation shows, so one frame serves a section', () => {
  expect(navPath('/p/12/kurtka')).toBe('');
  expect(navPath('/c/3/platya')).toBe('/catalog');
  expect(navPath('/brands')).toBe('/catalog');
  expect(navPath('/checkout')).toBe('/cart');
  expect(navPath('/')).toBe('/');
  expect(navPath('/dashboard/orders')).toBe('/dashboard/orders');
  for (const path of ['/p/12/kurtka', '/c/3/platya', '/checkout', '/dashboard/wishlist', '/dashboard/orders', '/blog'])
    expect(routeItem(navPath(path))).toBe(routeItem(path));
});
