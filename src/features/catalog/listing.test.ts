import { describe, expect, it } from 'vitest';
import { LISTING_PARAMS } from '~/lib/http/page-cache.ts';
import { compareSizes, parsePathId } from './catalog.ts';
import { foldLexeme, parseTsvector } from './read-model.ts';
import { EMPTY_QUERY, listingQuerySchema, listingSearch, parseListingQueryLenient } from './listing.ts';

describe('listing query', () => {
  it('is what the page cache keys listing pages by (src/lib/http/page-cache.ts)', () => {
    expect([...LISTING_PARAMS].sort()).toEqual(Object.keys(listingQuerySchema.shape).sort());
  });

  it('accepts id lists comma separated or repeated, sizes only repeated', () => {
    const q = listingQuerySchema.parse({ brands: ['1,2', '3'], attr: ['16,5', 'M'] });
    expect(q.brands).toEqual([1, 2, 3]);
    expect(q.attr).toEqual(['16,5', 'M']);
  });

  it('writes short canonical URLs that parse back to the same query', () => {
    const q = { ...EMPTY_QUERY, brands: [4, 9], attr: ['16,5'], with_discount: true, price_max: 90000, sort: 'price_asc' as const, page: 3 };
    const search = listingSearch(q);
    expect(search).toBe('?brands=4%2C9&attr=16%2C5&with_discount=1&price_max=90000&sort=price_asc&page=3');
    expect(parseListingQueryLenient(new URLSearchParams(search)).query).toEqual(q);
    expect(listingSearch(EMPTY_QUERY)).toBe('');
  });

  it('pages drop only the broken parameters of a hand-edited link', () => {
    const { query, dropped } = parseListingQueryLenient(new URLSearchParams('price_min=abc&page=999999&brands=2&sort=nope'));
    expect(dropped.sort()).toEqual(['page', 'price_min', 'sort']);
    expect(query).toMatchObject({ page: 1, sort: 'popular', brands: [2] });
    expect(query.price_min).toBeUndefined();
  });

  it('empty price fields (the filter form submitted without its script) are no bound', () => {
    const { query, dropped } = parseListingQueryLenient(new URLSearchParams('with_discount=1&price_min=&price_max=+'));
    expect(dropped).toEqual([]);
    expect(query).toMatchObject({ with_discount: true, price_min: undefined, price_max: undefined });
  });
});

describe('sizes and ids', () => {
  it('orders sizes as shoppers read them', () => {
    expect(['XL', '40', 'S', 'Единый размер', '16,5', 'M', '104', 'XS', '16'].sort(compareSizes)).toEqual([
      'XS',
      'S',
      'M',
      'XL',
      '16',
      '16,5',
      '40',
      '104',
      'Единый размер',
    ]);
  });

  it.each([
    ['12', 12],
    ['0', null],
    ['012', null],
    ['-1', null],
    ['1e3', null],
    ['2147483648', null],
    [undefined, null],
  ])('path id %j → %j', (raw, id) => {
    expect(parsePathId(raw)).toBe(id);
  });
});

describe('tsvector text', () => {
  it('reads lexemes, folding ё so "черный" finds "Чёрный"', () => {
    expect(parseTsvector("'gucci':3 'плат':1,4 'чёрн':2 'it''s':5")).toEqual(['gucci', 'плат', 'черн', "it's"]);
    expect(foldLexeme('ёлка')).toBe('елка');
  });
});
