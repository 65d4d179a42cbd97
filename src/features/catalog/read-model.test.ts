// The catalogue read model over a hand-made catalogue: facet counting (each group counted with every
// other group's filter applied, not its own), scopes, flags, price, sizes, sorting, paging, and the
// text matching primitives. No database: the rows are what read-model.server.ts would select.
import { describe, expect, it } from 'vitest';
import { EMPTY_QUERY, type ListingQuery } from './listing.ts';
import { unitSale, type Promotion } from '~/features/promotions/promotions.ts';
import {
  buildIndex,
  buildIndexYielding,
  intersect,
  editDistance,
  nearestWord,
  priceBounds,
  rebuildDue,
  relevanceOrder,
  queryIndex,
  queryWords,
  readAliases,
  shownPrice,
  withSoldOut,
  wordHits,
  wordMatchesLexemes,
  type IndexSource,
  type ListingScope,
  ratingScoreOf,
} from './read-model.ts';

const DAY = 86_400_000;
const product = (
  id: number,
  categoryId: number,
  brandId: number,
  colorId: number | null,
  roubles: number,
  discountPercent: number,
  rating: number,
  freeDelivery: boolean,
  lexemes: string[],
) => ({
  id,
  categoryId,
  brandId,
  colorId,
  price: roubles * 100,
  discountPercent,
  rating,
  freeDelivery,
  popularity: 100 - id,
  created: id * DAY,
  lexemes,
});

// Women (1) → Clothes (2) → Dresses (3); Women → Shoes (4); Men (5) is empty.
const source: IndexSource = {
  version: 'test',
  products: [
    { ...product(1, 3, 1, 1, 10_000, 0, 4.8, true, ['плат', 'gucci', 'черн']), reviewsCount: 300 },
    { ...product(2, 3, 2, 2, 20_000, 20, 4.0, false, ['плат', 'prada', 'бел']), reviewsCount: 2 },
    { ...product(3, 4, 1, 2, 30_000, 10, 4.6, false, ['кроссовк', 'gucci', 'бел']), reviewsCount: 20 },
    product(4, 4, 2, 1, 5_000, 0, 3.0, true, ['туфл', 'prada', 'черн']),
    { ...product(5, 4, 2, null, 7_000, 0, 5.0, false, ['туфл', 'prada']), reviewsCount: 1 },
  ],
  sizes: [
    { productId: 1, labels: ['M', 'S'] },
    { productId: 2, labels: ['M'] },
    { productId: 3, labels: ['41', '40'] },
    { productId: 4, labels: ['40'] },
  ],
  brands: [
    { id: 1, name: 'Gucci', nameRu: 'Гуччи', slug: 'gucci', isPopular: true, lexemes: ['gucci', 'гучч'] },
    { id: 2, name: 'Prada', nameRu: 'Прада', slug: 'prada', isPopular: false, lexemes: ['prada', 'прад'] },
  ],
  colors: [
    { id: 1, name: 'Чёрный', hex: '#000000' },
    { id: 2, name: 'Белый', hex: '#ffffff' },
  ],
  categories: [
    { id: 1, parentId: null, name: 'Женщинам', slug: 'zhenshchinam', icon: null, level: 0, sort: 0, lexemes: ['женщин'] },
    { id: 2, parentId: 1, name: 'Одежда', slug: 'odezhda', icon: null, level: 1, sort: 0, lexemes: ['одежд'] },
    { id: 3, parentId: 2, name: 'Платья', slug: 'platya', icon: null, level: 2, sort: 0, lexemes: ['плат'] },
    { id: 4, parentId: 1, name: 'Обувь', slug: 'obuv', icon: null, level: 1, sort: 1, lexemes: ['обув'] },
    { id: 5, parentId: null, name: 'Мужчинам', slug: 'muzhchinam', icon: null, level: 0, sort: 1, lexemes: ['мужчин'] },
  ],
};
const index = buildIndex(source);

const list = (scope: ListingScope, q: Partial<ListingQuery> = {}) => {
  const result = queryIndex(index, scope, { ...EMPTY_QUERY, ...q });
  return { ...result, ids: result.positions.map((i) => index.ids[i]) };
};
const counts = (values: { id: number | string; count: number }[]) => Object.fromEntries(values.map((v) => [v.id, v.count]));

describe('facet counting', () => {
  it('counts every value of every group over the scope when nothing is chosen', () => {
    const { total, facets } = list({ categoryId: 1 });
    expect(total).toBe(5);
    expect(counts(facets.brands)).toEqual({ 1: 2, 2: 3 });
    expect(counts(facets.categories)).toEqual({ 3: 2, 4: 3 });
    expect(counts(facets.color)).toEqual({ 1: 2, 2: 2 });
    expect(counts(facets.attr)).toEqual({ S: 1, M: 2, 40: 2, 41: 1 });
    expect(facets).toMatchObject({ free_delivery: 2, with_discount: 2, top_rating: 3, price: { min: 5_000, max: 30_000 } });
  });

  it('a chosen brand narrows the other groups but not its own', () => {
    const { total, ids, facets } = list({ categoryId: 1 }, { brands: [1] });
    expect(total).toBe(2);
    expect(ids.sort()).toEqual([1, 3]);
    expect(counts(facets.brands)).toEqual({ 1: 2, 2: 3 });
    expect(counts(facets.color)).toEqual({ 1: 1, 2: 1 });
    expect(counts(facets.categories)).toEqual({ 3: 1, 4: 1 });
  });

  it('two groups chosen: each is counted with the other applied', () => {
    const { ids, facets } = list({ categoryId: 1 }, { brands: [1], color: [2] });
    expect(ids).toEqual([3]);
    // Brands under white: Gucci's white trainers and Prada's white dress.
    expect(counts(facets.brands)).toEqual({ 1: 1, 2: 1 });
    // Colours under Gucci: one black dress, one white pair of trainers.
    expect(counts(facets.color)).toEqual({ 1: 1, 2: 1 });
  });

  it('sizes count only sizes in stock, and a chosen size keeps its siblings countable', () => {
    const { ids, facets } = list({}, { attr: ['40'] });
    expect(ids.sort()).toEqual([3, 4]);
    expect(counts(facets.attr)).toEqual({ S: 1, M: 2, 40: 2, 41: 1 });
    expect(counts(facets.brands)).toEqual({ 1: 1, 2: 1 });
  });

  it('a chosen value that matches nothing in the scope still shows, with 0', () => {
    const { total, facets } = list({ categoryId: 3 }, { brands: [1], attr: ['41'] });
    expect(total).toBe(0);
    expect(facets.attr.find((v) => v.id === '41')).toMatchObject({ count: 0 });
  });

  it('flags and the price range filter, and the price facet ignores its own range', () => {
    expect(list({}, { free_delivery: true }).ids.sort()).toEqual([1, 4]);
    expect(list({}, { with_discount: true }).ids.sort()).toEqual([2, 3]);
    expect(list({}, { top_rating: true }).ids.sort()).toEqual([1, 3, 5]);
    const priced = list({}, { price_min: 6_000, price_max: 20_000 });
    expect(priced.ids.sort()).toEqual([1, 2, 5]);
    expect(priced.facets.price).toEqual({ min: 5_000, max: 30_000 });
  });

  it('scopes: a category holds its whole subtree, a brand only its products, search only its hits', () => {
    expect(list({ categoryId: 2 }).ids.sort()).toEqual([1, 2]);
    expect(list({ categoryId: 5 }).total).toBe(0);
    expect(list({ brandId: 2, categoryId: 4 }).ids.sort()).toEqual([4, 5]);
    const hits = new Uint8Array(index.n);
    hits[index.positionOf(2)] = 1;
    expect(list({ matches: hits }).ids).toEqual([2]);
  });

  it('sorts and pages without overlap', () => {
    expect(list({}, { sort: 'price_asc' }).ids).toEqual([4, 5, 1, 2, 3]);
    expect(list({}, { sort: 'price_desc' }).ids).toEqual([3, 2, 1, 5, 4]);
    expect(list({}, { sort: 'discount' }).ids.slice(0, 2)).toEqual([2, 3]);
    expect(list({}, { sort: 'new' }).ids).toEqual([5, 4, 3, 2, 1]);
    // By rating, believed by its count: 4.8 of 300 before 4.6 of 20 before one review of 5; none last.
    expect(list({}, { sort: 'rating' }).ids).toEqual([1, 3, 5, 2, 4]);
    expect(ratingScoreOf(5, 1)).toBeCloseTo(4.17, 2);
    expect(ratingScoreOf(3, 0)).toBeLessThan(ratingScoreOf(1, 1));
    const pages = [1, 2, 3].map((page) => list({}, { sort: 'price_asc', per_page: 2, page }).ids);
    expect(pages).toEqual([[4, 5], [1, 2], [3]]);
  });

  it('category counts and the subtree map cover descendants', () => {
    expect(index.categoryCounts.get(1)).toBe(5);
    expect(index.categoryCounts.get(2)).toBe(2);
    expect(index.subtree.get(1)?.sort()).toEqual([1, 2, 3, 4]);
  });
});

describe('text matching', () => {
  const ids = (hits: Uint8Array | null) => (hits ? [...hits].flatMap((h, i) => (h ? [index.ids[i]] : [])) : null);

  it('finds a stem exactly, and the word being typed as a prefix', () => {
    expect(ids(wordHits(index, { lexemes: ['плат'], prefix: null }))).toEqual([1, 2]);
    expect(ids(wordHits(index, { lexemes: [], prefix: 'крос' }))).toEqual([3]);
    // A stem is not a prefix: 'плат' (dress) must not find anything else starting with it.
    expect(ids(wordHits(index, { lexemes: ['пла'], prefix: null }))).toBeNull();
  });

  it('answers null for a word the catalogue does not know, so it can be corrected', () => {
    expect(wordHits(index, { lexemes: ['кросовк'], prefix: null })).toBeNull();
  });

  it('every word must match (AND)', () => {
    const dress = wordHits(index, { lexemes: ['плат'], prefix: null }) as Uint8Array;
    const gucci = wordHits(index, { lexemes: ['gucci'], prefix: null }) as Uint8Array;
    expect(ids(intersect(index, [dress, gucci]))).toEqual([1]);
  });

  it('names brands and categories by their lexemes, Latin or Cyrillic', () => {
    expect(wordMatchesLexemes({ lexemes: ['гучч'], prefix: null }, index.brandLexemes.get(1) ?? [])).toBe(true);
    expect(wordMatchesLexemes({ lexemes: [], prefix: 'пра' }, index.brandLexemes.get(2) ?? [])).toBe(true);
    expect(wordMatchesLexemes({ lexemes: ['плат'], prefix: null }, index.brandLexemes.get(2) ?? [])).toBe(false);
  });

  it('reads at most eight lower-cased words of letters and digits, never SQL syntax', () => {
    expect(queryWords("Платье  GUCCI's & | !черное:*")).toEqual(['платье', 'gucci', 's', 'черное']);
    expect(queryWords('a b c d e f g h i j')).toHaveLength(8);
    expect(queryWords('—')).toEqual([]);
  });
});

describe('index rebuilds while the catalogue keeps changing', () => {
  it('waits ten times as long as the last rebuild took, so a small catalogue follows every poll and a large one is not rebuilt back to back', () => {
    expect(rebuildDue(1_000, { at: 0, ms: 0 })).toBe(true);
    // 40 ms to build (2,000 products): due again 0.4 s later, within the 2 s poll.
    expect(rebuildDue(400, { at: 0, ms: 40 })).toBe(true);
    // 1.5 s to build (100,000 products): not before 15 s.
    expect(rebuildDue(14_999, { at: 0, ms: 1_500 })).toBe(false);
    expect(rebuildDue(15_000, { at: 0, ms: 1_500 })).toBe(true);
  });
});

describe('the index built a step at a time', () => {
  it('is the same index as the one built at once, the event loop let go between steps', async () => {
    // More rows than one step holds, so the steps really split the work.
    const many: IndexSource = {
      ...source,
      products: Array.from({ length: 9_000 }, (_, i) => ({ ...(source.products[i % source.products.length] as IndexSource['products'][number]), id: i + 1 })),
    };
    let turns = 0;
    const ticking = setInterval(() => turns++, 0);
    const stepped = await buildIndexYielding(many);
    clearInterval(ticking);
    const whole = buildIndex(many);
    expect(turns).toBeGreaterThan(0);
    const { positionOf: a, ...steppedData } = stepped;
    const { positionOf: b, ...wholeData } = whole;
    expect(steppedData).toEqual(wholeData);
    expect([1, 4_500, 9_000, 9_001].map(a)).toEqual([1, 4_500, 9_000, 9_001].map(b));
  });
});

describe('relevance: what the shopper typed first (issue 40)', () => {
  // A catalogue of one coat model after another, as a feed writes them: the exact model must come first.
  const models = [123, 1239, 1123, 4123, 12, 230];
  const coats: IndexSource = {
    version: 'coats',
    products: [
      ...models.map((m, k) => ({
        ...product(k + 1, 3, 1, null, 10_000, 0, 4, false, ['пальт', 'модел', String(m), 'gucci']),
        nameLexemes: ['пальт', 'модел', String(m)],
        tokens: ['пальто', 'модель', String(m), `sl${m}`, 'sl'],
      })),
      // Sold out, otherwise the same words as the first.
      {
        ...product(7, 3, 1, null, 10_000, 0, 4, false, ['пальт', 'модел', '123', 'gucci']),
        nameLexemes: ['пальт', 'модел', '123'],
        tokens: ['пальто', 'модель', '123'],
      },
      // 'Gucci' only as the brand, a coat by its category.
      { ...product(8, 3, 1, null, 10_000, 0, 4, false, ['плат', 'gucci']), nameLexemes: ['плат'], tokens: ['платье'] },
    ],
    sizes: [...models.map((_, k) => ({ productId: k + 1, labels: ['M'] }))],
    brands: [{ id: 1, name: 'Gucci', nameRu: 'Гуччи', slug: 'gucci', isPopular: true, lexemes: ['gucci', 'гучч'] }],
    colors: [],
    categories: [{ id: 3, parentId: null, name: 'Пальто', slug: 'palto', icon: null, level: 0, sort: 0, lexemes: ['пальт'] }],
  };
  const index = buildIndex(coats);
  const ranked = (words: { lexemes: string[]; prefix?: string | null; raw?: string; weight?: number }[]) => {
    const queries = words.map((w) => ({ lexemes: w.lexemes, prefix: w.prefix ?? null, raw: w.raw ?? null, weight: w.weight ?? 1 }));
    const hits = intersect(
      index,
      queries.map((q) => wordHits(index, q) ?? new Uint8Array(index.n)),
    );
    return [...relevanceOrder(index, queries, hits)].map((i) => index.ids[i]);
  };

  it('puts the exact model first and does not take 123 for 1239 or 1123', () => {
    const order = ranked([
      { lexemes: ['пальт'], raw: 'пальто' },
      { lexemes: ['модел'], raw: 'модель' },
      { lexemes: ['123'], raw: '123' },
    ]);
    // The model itself, in stock, then the same model sold out; no other number matches.
    expect(order).toEqual([1, 7]);
  });

  it('orders only the first few when asked, the same as the whole order, and keeps every hit', () => {
    const query = [{ lexemes: ['gucci'], prefix: null, raw: 'gucci', weight: 1 }];
    const hits = wordHits(index, query[0]!) as Uint8Array;
    const whole = [...relevanceOrder(index, query, hits)];
    const firstTwo = [...relevanceOrder(index, query, hits, 2)];
    expect(firstTwo.slice(0, 2)).toEqual(whole.slice(0, 2));
    expect([...firstTwo].sort()).toEqual([...whole].sort());
  });

  it('finds an article whole or by its parts, the article first', () => {
    expect(ranked([{ lexemes: [], raw: 'sl1239' }])).toEqual([2]);
    expect(ranked([{ lexemes: ['1239'], raw: '1239' }])).toEqual([2]);
  });

  it('ranks a word in the name above the same word as the category, a whole word above a start, in stock above sold out', () => {
    // 'пальто' names products 1–7 and is product 8's category only: 8 comes last, after the sold-out coat.
    expect(ranked([{ lexemes: ['пальт'], raw: 'пальто' }]).slice(-2)).toEqual([7, 8]);
    const byPrefix = ranked([{ lexemes: [], prefix: 'пальт', raw: 'пальт' }]);
    expect(byPrefix.slice(0, 6)).toEqual([1, 2, 3, 4, 5, 6]);
    // Whole brand word: every Gucci product; in stock before sold out, the popular order among equals.
    expect(ranked([{ lexemes: ['gucci'], raw: 'gucci' }])).toEqual([1, 2, 3, 4, 5, 6, 7, 8].filter((id) => id !== 7 && id !== 8).concat([7, 8]));
  });
});

describe('typos, price words (issue 40)', () => {
  it('measures edits with swaps as one, and stops past the limit', () => {
    expect(editDistance('клтачи', 'клатчи', 1)).toBe(1);
    expect(editDistance('брюи', 'брюки', 1)).toBe(1);
    expect(editDistance('шрафы', 'шарфы', 1)).toBe(1);
    expect(editDistance('кроссовки', 'кросовки', 2)).toBe(1);
    expect(editDistance('платья', 'сапоги', 1)).toBe(2);
  });

  it('finds the catalogue word one edit from a short typo, two from a long one, never for numbers', () => {
    const words = ['брюки', 'брюгге', 'клатчи', 'кроссовки', 'шарфы', 'шорты'].sort();
    expect(nearestWord(words, 'клтачи')).toBe('клатчи');
    expect(nearestWord(words, 'брюи')).toBe('брюки');
    expect(nearestWord(words, 'шрафы')).toBe('шарфы');
    expect(nearestWord(words, 'кросовкии')).toBe('кроссовки');
    expect(nearestWord(words, 'плать')).toBeNull();
    expect(nearestWord(words, 'брю')).toBeNull();
    expect(nearestWord(words, '1234')).toBeNull();
  });

  it.each([
    ['платья до 10000', { text: 'платья', max: 10_000 }],
    ['кроссовки дешевле 5 000', { text: 'кроссовки', max: 5_000 }],
    ['сумки до 15 тысяч', { text: 'сумки', max: 15_000 }],
    ['пальто от 20000 до 90к', { text: 'пальто', min: 20_000, max: 90_000 }],
    ['пальто модель 123', { text: 'пальто модель 123' }],
  ])('«%s» is words and a price bound', (typed, expected) => {
    const { text, ...bounds } = priceBounds(typed);
    const { text: words, ...want } = expected;
    expect(text.trim().replace(/\s+/g, ' ')).toBe(words);
    expect(bounds).toEqual(want);
  });
});

describe("postings, synonyms, brands' other names and a sale (issue 40, second session)", () => {
  it("keeps each word's positions ascending and once, finds words by prefix in order, and knows what it does not hold", () => {
    const twice: IndexSource = { ...source, products: source.products.map((p) => ({ ...p, lexemes: [...p.lexemes, ...p.lexemes] })) };
    const built = buildIndex(twice);
    expect([...(built.postings.get('prada') ?? [])]).toEqual([1, 3, 4]);
    expect([...(built.postings.get('плат') ?? [])]).toEqual([0, 1]);
    expect(built.postings.has('платок')).toBe(false);
    expect(built.postings.get('платок')).toBeUndefined();
    expect([...built.postings.startingWith('т')].map((l) => [...l])).toEqual([[3, 4]]);
    expect([...built.postings.startingWith('')].length).toBe(built.postings.keys.length);
    expect(built.postings.keys).toEqual([...built.postings.keys].sort());
  });

  it('finds a word of the description, at the lowest weight: below the same word in the name, the category or the colour', () => {
    const built = buildIndex({
      ...source,
      products: source.products.map((p) =>
        p.id === 2
          ? { ...p, descriptionLexemes: ['кашемир', 'плат'] }
          : p.id === 4
            ? { ...p, lexemes: [...p.lexemes, 'кашемир'], nameLexemes: ['кашемир'] }
            : p,
      ),
    });
    const word = { lexemes: ['кашемир'], prefix: null, raw: 'кашемир', weight: 1 };
    const hits = wordHits(built, word);
    expect(hits && [...hits].flatMap((hit, i) => (hit ? [built.ids[i]] : []))).toEqual([2, 4]);
    expect([...relevanceOrder(built, [word], hits!)].map((i) => built.ids[i])).toEqual([4, 2]);
    // A start of a word is not looked for in descriptions.
    expect(wordHits(built, { lexemes: [], prefix: 'кашем', raw: 'кашем', weight: 1 })?.[built.positionOf(2)]).toBe(0);
  });

  it("adds a group's stems to each of its words, or one way only to the first", () => {
    const built = buildIndex({
      ...source,
      synonyms: [
        { terms: [['кед'], ['кроссовк'], ['сникер']], oneWay: false },
        { terms: [['пуховик'], ['куртк']], oneWay: true },
      ],
    });
    expect(built.synonyms.get('кед')).toEqual(['кроссовк', 'сникер']);
    expect(built.synonyms.get('сникер')).toEqual(['кед', 'кроссовк']);
    expect(built.synonyms.get('пуховик')).toEqual(['куртк']);
    expect(built.synonyms.has('куртк')).toBe(false);
  });

  it("reads a brand's other name as the brand's own, the longest first, with ё as е", () => {
    const built = buildIndex({
      ...source,
      aliases: [
        { alias: 'сен', brand: 'Sen' },
        { alias: 'ив сен лоран', brand: 'Saint Laurent' },
        { alias: 'гуччи', brand: 'Gucci' },
      ],
    });
    expect(readAliases(built, queryWords('Сумка ИВ СЕН ЛОРАН чёрная'))).toEqual(['сумка', 'saint', 'laurent', 'чёрная']);
    expect(readAliases(built, queryWords('гуччи сен'))).toEqual(['gucci', 'sen']);
    expect(readAliases(built, queryWords('гучи'))).toEqual(['гучи']);
  });

  it('drops a sold-out size from a copy of the index, the product out of stock when it was its last, the index itself untouched', () => {
    const sold = withSoldOut(
      index,
      [
        { productId: 1, label: 'M' },
        { productId: 4, label: '40' },
        { productId: 99, label: 'M' },
      ],
      'test~1',
    );
    const sizesOf = (built: typeof index, id: number) => {
      const i = built.positionOf(id);
      return Array.from(built.sizeIds.subarray(built.sizeStart[i], built.sizeStart[i + 1]), (s) => built.sizeLabels[s]);
    };
    expect(sizesOf(sold, 1)).toEqual(['S']);
    expect(sizesOf(sold, 3)).toEqual(['40', '41']);
    expect(sizesOf(sold, 4)).toEqual([]);
    expect(sold.inStock[sold.positionOf(4)]).toBe(0);
    expect(sold.inStock[sold.positionOf(1)]).toBe(1);
    expect(sold.version).toBe('test~1');
    expect(sizesOf(index, 1)).toEqual(['S', 'M']);
    expect(index.inStock[index.positionOf(4)]).toBe(1);
    // The size filter and its counts follow the copy.
    const withM = queryIndex(sold, {}, { ...EMPTY_QUERY, attr: ['M'] });
    expect(withM.positions.map((i) => sold.ids[i])).toEqual([2]);
  });
});

describe('a sale in force (issue 56): the price the shopper pays is the one filtered, sorted and shown', () => {
  // −50 % on Clothes (2, so the dresses under it), at most 6,000 ₽; 1,000 ₽ off product 4.
  const sale = buildIndex({
    ...source,
    products: source.products.map((p) => (p.id === 2 ? { ...p, priceOld: 25_000_00 } : p)),
    promotions: [
      {
        id: 1,
        name: 'Платья −50 %',
        rule: { kind: 'percent', percent: 50 },
        target: { all: false, productIds: [], categoryIds: [2], brandIds: [] },
        cap: 6_000_00,
        needsCode: false,
      },
      {
        id: 2,
        name: 'Туфли −1000',
        rule: { kind: 'amount', amount: 1_000_00 },
        target: { all: false, productIds: [4], categoryIds: [], brandIds: [] },
        cap: null,
        needsCode: false,
      },
    ],
  });
  const on = (q: Partial<ListingQuery>) => queryIndex(sale, {}, { ...EMPTY_QUERY, ...q }).positions.map((i) => sale.ids[i]);

  it('sorts and filters by the sale price, and counts a sale as a discount', () => {
    // 1: 10,000 → 5,000; 2: 20,000 → 14,000 (capped); 3: 30,000; 4: 5,000 → 4,000; 5: 7,000.
    expect(on({ sort: 'price_asc' })).toEqual([4, 1, 5, 2, 3]);
    expect(on({ price_max: 5_000 }).sort()).toEqual([1, 4]);
    expect(on({ with_discount: true }).sort()).toEqual([1, 2, 3, 4]);
    expect(queryIndex(sale, {}, EMPTY_QUERY).facets.price).toEqual({ min: 4_000, max: 30_000 });
  });

  it('shows the price before the sale struck through, or the own old price when it is higher', () => {
    const of = (id: number) => {
      const p = source.products.find((x) => x.id === id)!;
      return shownPrice(sale, { ...p, priceOld: id === 2 ? 25_000_00 : null });
    };
    expect(of(1)).toMatchObject({ price: 5_000_00, priceOld: 10_000_00, discountPercent: 50, promotion: { id: 1 } });
    expect(of(2)).toMatchObject({ price: 14_000_00, priceOld: 25_000_00, discountPercent: 44, promotion: { id: 1 } });
    expect(of(3)).toEqual({ price: 30_000_00, priceOld: null, discountPercent: 10, promotion: null });
    expect(of(4)).toMatchObject({ price: 4_000_00, priceOld: 5_000_00, discountPercent: 20 });
  });
});

describe('the promotions filed by what they name (issue 56)', () => {
  it('price every product as weighing it against all promotions would, over 2,000 generated products and 60 promotions', () => {
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    const promotions: Promotion[] = Array.from({ length: 60 }, (_, i) => ({
      id: i + 1,
      name: `p${i}`,
      rule: rand(3) === 0 ? { kind: 'amount', amount: 1 + rand(50_000) } : { kind: 'percent', percent: 1 + rand(100) },
      target:
        rand(10) === 0
          ? { all: true, productIds: [], categoryIds: [], brandIds: [] }
          : { all: false, productIds: rand(2) ? [1 + rand(2_000)] : [], categoryIds: rand(2) ? [1 + rand(5)] : [], brandIds: rand(2) ? [1 + rand(2)] : [] },
      cap: rand(4) === 0 ? 1 + rand(20_000) : null,
      needsCode: false,
    }));
    const products = Array.from({ length: 2_000 }, (_, i) => product(i + 1, 1 + rand(5), 1 + rand(2), null, 100 + rand(100_000), 0, 4, false, []));
    const built = buildIndex({ ...source, products, promotions });
    for (const p of products) {
      const chain = built.chain.get(p.categoryId) ?? [p.categoryId];
      const all = unitSale({ productId: p.id, categoryIds: chain, brandId: p.brandId, unitPrice: p.price }, promotions);
      expect(shownPrice(built, { ...p, priceOld: null }).price).toBe(p.price - all.off);
      expect(built.price[built.positionOf(p.id)]).toBe(p.price - all.off);
    }
  });
});
