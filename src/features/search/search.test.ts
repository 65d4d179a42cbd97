import { describe, expect, it } from 'vitest';
import { searchUrl } from '~/features/catalog/catalog.ts';
import { isEmpty, searchTextFromPath, shouldSuggest, suggestionLimit } from './search.ts';

describe('suggestionLimit (spec §7)', () => {
  it.each([
    [1440, false, 10],
    [1440, true, 8],
    [1280, false, 10],
    [1100, false, 8],
    [1024, true, 6],
    [800, false, 6],
    [768, true, 4],
    [390, false, 4],
    [390, true, 4],
  ])('width %i, brands %s → %i', (width, brands, limit) => {
    expect(suggestionLimit(width, brands)).toBe(limit);
  });
});

it('suggests only above two characters', () => {
  expect(shouldSuggest('гу')).toBe(false);
  expect(shouldSuggest('  гу  ')).toBe(false);
  expect(shouldSuggest('гуч')).toBe(true);
});

it('builds the search route with the text encoded', () => {
  expect(searchUrl(' платье миди ')).toBe('/product/search/%D0%BF%D0%BB%D0%B0%D1%82%D1%8C%D0%B5%20%D0%BC%D0%B8%D0%B4%D0%B8');
  expect(searchUrl('a/b?c')).toBe('/product/search/a%2Fb%3Fc');
});

it('is empty only when all three groups are', () => {
  const none = { products: { data: [] }, brands: { data: [] }, categories: { data: [] } };
  expect(isEmpty(none)).toBe(true);
  expect(isEmpty({ ...none, brands: { data: [{ id: 1, name: 'Gucci', url: '/m/1/gucci' }] } })).toBe(false);
});

it.each([
  ['gucci%2Fprada', 'gucci/prada'],
  ['платье', 'платье'],
  ['100%', '100%'],
  ['a%41', 'a%41'],
  ['  туфли\u0000 ', 'туфли'],
  ['x'.repeat(150), 'x'.repeat(100)],
  [undefined, ''],
])('the search path %j reads as %j', (param, text) => {
  expect(searchTextFromPath(param)).toBe(text);
});
