// The catalogue read model (docs/decisions/007): every active product's filterable fields, sizes in
// stock and full-text lexemes in typed arrays, with the listing, facet counting and text matching that
// run over them. Pure functions, no I/O: read-model.server.ts loads the rows from the database and keeps
// one index per process; unit tests build indexes from hand-made rows.
// Facets count the way shoppers expect: each group's counts apply every other selected filter but not
// its own, so ticking one brand still shows how many the other brands would add.
import type { brands, colors, products } from '~/lib/db/schema.ts';
import { unitSale, type Promotion } from '~/features/promotions/promotions.ts';
import { compareSizes, type CategoryRecord } from './catalog.ts';

export type { CategoryRecord } from './catalog.ts';
import { TOP_RATING, type Facets, type FacetValue, type ListingQuery, type Sort } from './listing.ts';

type Product = typeof products.$inferSelect;
export type BrandRecord = Pick<typeof brands.$inferSelect, 'id' | 'name' | 'nameRu' | 'slug' | 'isPopular'>;
export type ColorRecord = Pick<typeof colors.$inferSelect, 'id' | 'name' | 'hex'>;

/** What an index is built from: the rows read-model.server.ts selects, typed by the schema. */
/** Sorting by rating: the average pulled towards 4 by five made-up reviews, so that one review of 5 does not
 * outrank 4.8 of three hundred; a product without reviews comes after every one with them. */
export const RATING_PRIOR = { mean: 4, weight: 5 } as const;
export function ratingScoreOf(rating: number, count: number): number {
  if (count <= 0) return -1;
  return (rating * count + RATING_PRIOR.mean * RATING_PRIOR.weight) / (count + RATING_PRIOR.weight);
}

export interface IndexSource {
  /** Where the catalogue stood when the rows were read (the `catalog_version` sequence). */
  version: string;
  /** Active products in ascending id; `created` in epoch ms, `lexemes` the search_vector's. */
  products: (Pick<Product, 'id' | 'categoryId' | 'brandId' | 'colorId' | 'price' | 'rating' | 'freeDelivery' | 'popularity'> & {
    /** The product's own old price (struck through), when it has one. */
    priceOld?: number | null;
    discountPercent: number;
    /** Approved reviews (issue 57): how much the rating is believed when sorting by it. */
    reviewsCount?: number;
    created: number;
    lexemes: readonly string[];
    /** The name's own lexemes (stemmed): a word found in the name weighs more than one found elsewhere. */
    nameLexemes?: readonly string[];
    /** The description's stems: found at the lowest weight. */
    descriptionLexemes?: readonly string[];
    /** Whole words as typed (unstemmed, lower-cased) of the name and the article, and the article whole: numbers and articles match these exactly. */
    tokens?: readonly string[];
  })[];
  /** Size labels in stock, per product. */
  sizes: { productId: number; labels: readonly string[] }[];
  /** With the lexemes of their names (Latin and Cyrillic for brands), for suggestions. */
  brands: (BrandRecord & { lexemes: readonly string[] })[];
  colors: ColorRecord[];
  categories: (CategoryRecord & { lexemes: readonly string[] })[];
  /** The words of every product's search text as typed (search_words), for typos trigrams miss. */
  words?: readonly string[];
  /** Synonym groups, each word with its stems: every word finds the others, or with `oneWay` the first finds the rest. */
  synonyms?: { terms: readonly (readonly string[])[]; oneWay: boolean }[];
  /** Shoppers' names of brands ('гуччи') and the brand's own name ('Gucci'). */
  aliases?: { alias: string; brand: string }[];
  /** The automatic promotions off each unit in force when the rows were read (issue 56: the prices shown). */
  promotions?: readonly Promotion[];
}

export interface CatalogIndex {
  version: string;
  /** Number of active products; every per-product array is indexed by position 0…n-1 (ascending id). */
  n: number;
  ids: Int32Array;
  category: Int32Array;
  brand: Int32Array;
  /** 0 when the product has no colour. */
  color: Int32Array;
  /** Kopecks the shopper pays for one unit: after the automatic promotions in `promotions`. */
  price: Int32Array;
  /** Percent off the struck-through price (the product's own old price, or its price before a sale). */
  discount: Uint8Array;
  /** The promotions the prices were shown with; `shownPrice` prices a card or a page with the same. */
  promotions: readonly Promotion[];
  /** Category id → itself and every category above it: what a promotion's categories are matched against. */
  chain: Map<number, readonly number[]>;
  /** The promotions by what they name, so a product is weighed only against those that can apply to it. */
  promotionLookup: PromotionLookup;
  rating: Float32Array;
  free: Uint8Array;
  /** Sizes in stock of position i: sizeIds[sizeStart[i] … sizeStart[i+1]). */
  sizeStart: Int32Array;
  sizeIds: Uint16Array;
  /** Size label by size id; ids follow compareSizes, so sorting ids sorts sizes. */
  sizeLabels: string[];
  sizeIdByLabel: Map<string, number>;
  /** Positions in the order of each sort. */
  orders: Record<Sort, Int32Array>;
  /** Lexeme → ascending positions of the products whose search_vector (or article) holds it. */
  postings: Postings;
  /** Lexeme → positions whose name holds it. */
  namePostings: Postings;
  /** Whole word as typed (a number, an article or one of its parts) → positions. */
  tokenPostings: Postings;
  /** Lexeme → positions whose description holds it. */
  descriptionPostings: Postings;
  /** 1 where some size is in stock. */
  inStock: Uint8Array;
  /** Each position's place in the popular order: relevance's tie-break. */
  popularRank: Int32Array;
  positionOf(id: number): number;
  brands: Map<number, BrandRecord>;
  colors: Map<number, ColorRecord>;
  categories: Map<number, CategoryRecord>;
  /** Category id → the ids of itself and all its descendants. */
  subtree: Map<number, number[]>;
  /** Category id → active products in its subtree. */
  categoryCounts: Map<number, number>;
  /** Lexemes of each brand's names (Latin and Cyrillic) and each category's name, for suggestions. */
  brandLexemes: Map<number, readonly string[]>;
  categoryLexemes: Map<number, readonly string[]>;
  /** The catalogue's words as typed, sorted. */
  words: readonly string[];
  /** Stem → the stems a synonym adds to it. */
  synonyms: Map<string, readonly string[]>;
  /** A brand's other names as query words, longest first, and its own name's words to read instead. */
  aliases: { words: readonly string[]; brand: readonly string[] }[];
}

/** Every distinct word of an index's postings, numbered as first seen; each string kept once. */
class Vocabulary {
  readonly words: string[] = [];
  private readonly ids = new Map<string, number>();
  id(word: string): number {
    let id = this.ids.get(word);
    if (id === undefined) {
      id = this.words.length;
      this.ids.set(word, id);
      this.words.push(word);
    }
    return id;
  }
}

/**
 * Word → ascending positions, laid out flat: the words sorted (for prefixes), one array of where each
 * word's positions start and one of all positions. At 100,000 products a typed array per word (about
 * 400,000 of them with the articles' parts) cost ~150 MB of object headers; this costs the positions.
 */
export class Postings {
  /** The words, sorted. */
  readonly keys: readonly string[];
  private readonly starts: Int32Array;
  private readonly positions: Int32Array;

  constructor(keys: readonly string[], starts: Int32Array, positions: Int32Array) {
    this.keys = keys;
    this.starts = starts;
    this.positions = positions;
  }

  private find(key: string): number {
    const k = lowerBound(this.keys, key);
    return this.keys[k] === key ? k : -1;
  }

  private at(k: number): Int32Array {
    return this.positions.subarray(this.starts[k], this.starts[k + 1]);
  }

  has(key: string): boolean {
    return this.find(key) >= 0;
  }

  get(key: string): Int32Array | undefined {
    const k = this.find(key);
    return k < 0 ? undefined : this.at(k);
  }

  /** The lists of the words starting with `prefix`; capped so a two-letter stem cannot make one keystroke walk the whole vocabulary. */
  *startingWith(prefix: string, limit = 200): Generator<Int32Array> {
    for (let k = lowerBound(this.keys, prefix), seen = 0; k < this.keys.length && seen < limit; k++, seen++) {
      if (!(this.keys[k] as string).startsWith(prefix)) return;
      yield this.at(k);
    }
  }
}

/** Collects (word, position) pairs, positions ascending, a word once per position; then lays them out. */
class PostingsBuilder {
  private words = new Int32Array(0);
  private places = new Int32Array(0);
  private length = 0;
  /** Per word id, the last position it was added at, plus one: a word twice in one product counts once. */
  private last = new Int32Array(0);

  constructor(expectedProducts: number) {
    this.grow(Math.max(1024, expectedProducts * 8));
  }

  private grow(capacity: number): void {
    const words = new Int32Array(capacity);
    const places = new Int32Array(capacity);
    words.set(this.words.subarray(0, this.length));
    places.set(this.places.subarray(0, this.length));
    this.words = words;
    this.places = places;
  }

  add(word: number, position: number): void {
    if (word >= this.last.length) {
      const last = new Int32Array(Math.max(1024, (word + 1) * 2));
      last.set(this.last);
      this.last = last;
    }
    if (this.last[word] === position + 1) return;
    this.last[word] = position + 1;
    if (this.length === this.words.length) this.grow(this.length * 2);
    this.words[this.length] = word;
    this.places[this.length++] = position;
  }

  build(vocabulary: Vocabulary): Postings {
    const all = vocabulary.words;
    const counts = new Int32Array(all.length);
    for (let j = 0; j < this.length; j++) counts[this.words[j] as number]!++;
    const used: number[] = [];
    for (let w = 0; w < counts.length; w++) if (counts[w]! > 0) used.push(w);
    used.sort((a, b) => ((all[a] as string) < (all[b] as string) ? -1 : 1));
    const starts = new Int32Array(used.length + 1);
    // Where the next position of each word goes; filled in the order added, so each list stays ascending.
    const next = new Int32Array(all.length);
    used.forEach((w, k) => {
      next[w] = starts[k] as number;
      starts[k + 1] = (starts[k] as number) + (counts[w] as number);
    });
    const positions = new Int32Array(this.length);
    for (let j = 0; j < this.length; j++) positions[next[this.words[j] as number]!++] = this.places[j] as number;
    return new Postings(
      used.map((w) => all[w] as string),
      starts,
      positions,
    );
  }
}

export function buildIndex(source: IndexSource): CatalogIndex {
  const steps = indexSteps(source);
  for (let step = steps.next(); ; step = steps.next()) if (step.done) return step.value;
}

/**
 * The same index, built a step at a time with the event loop let go between steps (a few milliseconds
 * each): a 100,000-product index takes about 100 ms to build, which shoppers' requests would otherwise
 * wait behind (docs/performance.md "The shop during an import, again").
 */
export async function buildIndexYielding(source: IndexSource): Promise<CatalogIndex> {
  const steps = indexSteps(source);
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done) return step.value;
    await new Promise((resume) => setImmediate(resume));
  }
}

/** Rows per step of the build. */
const STEP_ROWS = 4000;

/** Category id → itself and its ancestors, from the categories' parents. */
function categoryChains(categories: readonly Pick<CategoryRecord, 'id' | 'parentId'>[]): Map<number, readonly number[]> {
  const parent = new Map(categories.map((c) => [c.id, c.parentId]));
  const chains = new Map<number, readonly number[]>();
  for (const c of categories) {
    const chain = [c.id];
    // Bounded by the number of categories: a parent loop in bad data ends here, not in a hang.
    for (let up = parent.get(c.id); up !== null && up !== undefined && chain.length <= categories.length; up = parent.get(up)) chain.push(up);
    chains.set(c.id, chain);
  }
  return chains;
}

export interface PromotionLookup {
  all: readonly Promotion[];
  product: Map<number, Promotion[]>;
  brand: Map<number, Promotion[]>;
  category: Map<number, Promotion[]>;
}

/** Files each promotion under every product, brand and category it names (or under `all`). */
export function promotionLookup(promotions: readonly Promotion[]): PromotionLookup {
  const lookup: PromotionLookup = { all: [], product: new Map(), brand: new Map(), category: new Map() };
  const file = (into: Map<number, Promotion[]>, id: number, p: Promotion) => into.set(id, [...(into.get(id) ?? []), p]);
  for (const p of promotions) {
    if (p.target.all) {
      (lookup.all as Promotion[]).push(p);
      continue;
    }
    for (const id of p.target.productIds) file(lookup.product, id, p);
    for (const id of p.target.brandIds) file(lookup.brand, id, p);
    for (const id of p.target.categoryIds) file(lookup.category, id, p);
  }
  return lookup;
}

/** The promotions that can apply to a product: those for all, its own, its brand's and its categories'. */
function candidatesFor(lookup: PromotionLookup, productId: number, brandId: number, categoryIds: readonly number[]): readonly Promotion[] {
  const found: Promotion[] = [...lookup.all, ...(lookup.product.get(productId) ?? []), ...(lookup.brand.get(brandId) ?? [])];
  for (const id of categoryIds) found.push(...(lookup.category.get(id) ?? []));
  return found;
}

export interface ShownPrice {
  price: number;
  priceOld: number | null;
  discountPercent: number;
  /** The promotion the price is after, when one is (its name is the sale's badge). */
  promotion: Promotion | null;
}

/**
 * What a product costs as the storefront shows it under an index's promotions (issue 56): the price after
 * the best automatic promotion off a unit, the price before it (or the product's own old price, when higher)
 * struck through, and the percent between them. Without a promotion, the product's own figures.
 */
export function shownPrice(
  index: Pick<CatalogIndex, 'promotions' | 'chain' | 'promotionLookup'>,
  p: { id: number; categoryId: number | null; brandId: number; price: number; priceOld: number | null; discountPercent: number },
): ShownPrice {
  const own = { price: p.price, priceOld: p.priceOld, discountPercent: p.discountPercent, promotion: null };
  if (index.promotions.length === 0) return own;
  const categoryIds = p.categoryId === null ? [] : (index.chain.get(p.categoryId) ?? [p.categoryId]);
  // A promotion filed twice (its brand and its category) is weighed twice to the same amount: harmless.
  const candidates = candidatesFor(index.promotionLookup, p.id, p.brandId, categoryIds);
  if (candidates.length === 0) return own;
  const sale = unitSale({ productId: p.id, categoryIds, brandId: p.brandId, unitPrice: p.price }, candidates);
  if (sale.off <= 0) return own;
  const price = p.price - sale.off;
  const priceOld = Math.max(p.price, p.priceOld ?? 0);
  return { price, priceOld, discountPercent: Math.max(1, Math.round(((priceOld - price) * 100) / priceOld)), promotion: sale.promotion };
}

function* indexSteps(source: IndexSource): Generator<void, CatalogIndex> {
  const rows = source.products;
  const promotions = source.promotions ?? [];
  const chain = categoryChains(source.categories);
  const lookup = promotionLookup(promotions);
  const pricing = { promotions, chain, promotionLookup: lookup };
  const n = rows.length;
  const ids = new Int32Array(n);
  const category = new Int32Array(n);
  const brand = new Int32Array(n);
  const color = new Int32Array(n);
  const price = new Int32Array(n);
  const discount = new Uint8Array(n);
  const rating = new Float32Array(n);
  const ratingScore = new Float32Array(n);
  const free = new Uint8Array(n);
  const popularity = new Int32Array(n);
  const created = new Float64Array(n);
  // One vocabulary for the three postings: a word's string is kept once however many lists hold it.
  const vocabulary = new Vocabulary();
  const lists = new PostingsBuilder(n);
  const nameLists = new PostingsBuilder(n);
  const tokenLists = new PostingsBuilder(n);
  const descriptionLists = new PostingsBuilder(n);
  const add = (into: PostingsBuilder, words: readonly string[] | undefined, i: number) => {
    if (words) for (const word of words) into.add(vocabulary.id(word), i);
  };
  let maxId = 0;
  for (let i = 0; i < n; i++) {
    if (i > 0 && i % STEP_ROWS === 0) yield;
    const r = rows[i] as (typeof rows)[number];
    ids[i] = r.id;
    maxId = Math.max(maxId, r.id);
    category[i] = r.categoryId;
    brand[i] = r.brandId;
    color[i] = r.colorId ?? 0;
    if (promotions.length > 0) {
      const shown = shownPrice(pricing, { ...r, priceOld: r.priceOld ?? null });
      price[i] = shown.price;
      discount[i] = shown.discountPercent;
    } else {
      price[i] = r.price;
      discount[i] = r.discountPercent;
    }
    rating[i] = r.rating;
    ratingScore[i] = ratingScoreOf(r.rating, r.reviewsCount ?? 0);
    free[i] = r.freeDelivery ? 1 : 0;
    popularity[i] = r.popularity;
    created[i] = r.created;
    // The article's words are found as the name's are (an article typed from a tag finds its product).
    add(lists, r.lexemes, i);
    add(lists, r.tokens, i);
    add(nameLists, r.nameLexemes, i);
    add(tokenLists, r.tokens, i);
    add(descriptionLists, r.descriptionLexemes, i);
  }
  yield;
  const positions = new Int32Array(maxId + 1).fill(-1);
  ids.forEach((id, i) => (positions[id] = i));
  const positionOf = (id: number) => (Number.isInteger(id) && id >= 0 && id <= maxId ? (positions[id] as number) : -1);

  // Sizes: labels get ids in shopper's order.
  const labelsOf = new Map<number, readonly string[]>();
  const allLabels = new Set<string>();
  for (const r of source.sizes) {
    r.labels.forEach((l) => allLabels.add(l));
    labelsOf.set(r.productId, r.labels);
  }
  const sizeLabels = [...allLabels].sort(compareSizes);
  const sizeIdByLabel = new Map(sizeLabels.map((l, i) => [l, i]));
  const sizeStart = new Int32Array(n + 1);
  const sizeList: number[] = [];
  for (let i = 0; i < n; i++) {
    sizeStart[i] = sizeList.length;
    const labels = labelsOf.get(ids[i] as number);
    if (labels) sizeList.push(...labels.map((l) => sizeIdByLabel.get(l) as number).sort((a, b) => a - b));
  }
  sizeStart[n] = sizeList.length;
  yield;
  const order = (cmp: (a: number, b: number) => number) => Int32Array.from({ length: n }, (_, i) => i).sort(cmp);
  // Ties fall back to the newer id so every order is total and pages never overlap. One sort a step.
  const comparisons: [Sort, (a: number, b: number) => number][] = [
    ['popular', (a, b) => (popularity[b] as number) - (popularity[a] as number) || b - a],
    ['new', (a, b) => (created[b] as number) - (created[a] as number) || b - a],
    ['price_asc', (a, b) => (price[a] as number) - (price[b] as number) || b - a],
    ['price_desc', (a, b) => (price[b] as number) - (price[a] as number) || b - a],
    ['discount', (a, b) => (discount[b] as number) - (discount[a] as number) || (popularity[b] as number) - (popularity[a] as number) || b - a],
    ['rating', (a, b) => (ratingScore[b] as number) - (ratingScore[a] as number) || (popularity[b] as number) - (popularity[a] as number) || b - a],
  ];
  const orders = {} as Record<Sort, Int32Array>;
  for (const [sort, compare] of comparisons) {
    orders[sort] = order(compare);
    yield;
  }

  const postings = lists.build(vocabulary);
  yield;
  const namePostings = nameLists.build(vocabulary);
  yield;
  const tokenPostings = tokenLists.build(vocabulary);
  yield;
  const descriptionPostings = descriptionLists.build(vocabulary);
  yield;
  const inStock = new Uint8Array(n);
  for (let i = 0; i < n; i++) inStock[i] = (sizeStart[i + 1] as number) > (sizeStart[i] as number) ? 1 : 0;
  const popularRank = new Int32Array(n);
  orders.popular.forEach((i, k) => (popularRank[i] = k));

  const categoryRecords: CategoryRecord[] = source.categories.map(({ lexemes: _, ...c }) => c);
  const categories = new Map(categoryRecords.map((c) => [c.id, c]));
  const children = new Map<number, number[]>();
  for (const c of categoryRecords) if (c.parentId !== null) children.set(c.parentId, [...(children.get(c.parentId) ?? []), c.id]);
  const subtree = new Map<number, number[]>();
  const collect = (id: number): number[] => {
    const known = subtree.get(id);
    if (known) return known;
    const all = [id, ...(children.get(id) ?? []).flatMap(collect)];
    subtree.set(id, all);
    return all;
  };
  categoryRecords.forEach((c) => collect(c.id));
  const perCategory = new Map<number, number>();
  category.forEach((c) => perCategory.set(c, (perCategory.get(c) ?? 0) + 1));
  const categoryCounts = new Map([...subtree].map(([id, all]) => [id, all.reduce((sum, c) => sum + (perCategory.get(c) ?? 0), 0)]));

  return {
    version: source.version,
    n,
    ids,
    category,
    brand,
    color,
    price,
    discount,
    promotions,
    chain,
    promotionLookup: lookup,
    rating,
    free,
    sizeStart,
    sizeIds: Uint16Array.from(sizeList),
    sizeLabels,
    sizeIdByLabel,
    orders,
    postings,
    namePostings,
    tokenPostings,
    descriptionPostings,
    inStock,
    popularRank,
    positionOf,
    brands: new Map(source.brands.map(({ lexemes: _, ...b }) => [b.id, b])),
    colors: new Map(source.colors.map((c) => [c.id, c])),
    categories,
    subtree,
    categoryCounts,
    brandLexemes: new Map(source.brands.map((b) => [b.id, b.lexemes])),
    categoryLexemes: new Map(source.categories.map((c) => [c.id, c.lexemes])),
    words: [...(source.words ?? [])].sort(),
    synonyms: synonymStems(source.synonyms ?? []),
    aliases: (source.aliases ?? [])
      .map((a) => ({ words: queryWords(a.alias).map(foldLexeme), brand: queryWords(a.brand) }))
      .filter((a) => a.words.length > 0 && a.brand.length > 0)
      .sort((a, b) => b.words.length - a.words.length),
  };
}

/**
 * The index with these sizes sold out (a sale's last unit): its sizes in stock and in-stock marks copied
 * without them, everything else shared. What the selling process answers from until its next rebuild has
 * read the sale from the database (docs/search.md "Freshness"); `version` names the patched index, so
 * that cards and listings kept per version are read again.
 */
export function withSoldOut(index: CatalogIndex, sold: readonly { productId: number; label: string }[], version: string): CatalogIndex {
  const gone = new Map<number, Set<number>>();
  for (const { productId, label } of sold) {
    const i = index.positionOf(productId);
    const size = index.sizeIdByLabel.get(label);
    if (i < 0 || size === undefined) continue;
    const set = gone.get(i) ?? new Set<number>();
    set.add(size);
    gone.set(i, set);
  }
  if (gone.size === 0) return { ...index, version };
  const sizeStart = new Int32Array(index.n + 1);
  const sizeIds = new Uint16Array(index.sizeIds.length);
  const inStock = index.inStock.slice();
  let w = 0;
  for (let i = 0; i < index.n; i++) {
    sizeStart[i] = w;
    const drop = gone.get(i);
    for (let s = index.sizeStart[i] as number; s < (index.sizeStart[i + 1] as number); s++)
      if (!drop?.has(index.sizeIds[s] as number)) sizeIds[w++] = index.sizeIds[s] as number;
    if (drop) inStock[i] = w > (sizeStart[i] as number) ? 1 : 0;
  }
  sizeStart[index.n] = w;
  return { ...index, version, sizeStart, sizeIds: sizeIds.subarray(0, w), inStock };
}

/** Stem → the stems its synonyms add: each group's words (or, one way, its first) to the other words'. */
function synonymStems(groups: NonNullable<IndexSource['synonyms']>): Map<string, readonly string[]> {
  const more = new Map<string, Set<string>>();
  for (const group of groups)
    group.terms.forEach((stems, k) => {
      if (group.oneWay && k > 0) return;
      const others = group.terms.filter((_, j) => j !== k).flat();
      for (const stem of stems) {
        const set = more.get(stem) ?? new Set<string>();
        for (const other of others) if (other !== stem) set.add(other);
        more.set(stem, set);
      }
    });
  return new Map([...more].map(([stem, set]) => [stem, [...set]]));
}

/**
 * The query's words with a brand's other name read as the brand's own ('гуччи' → 'gucci', 'ив сен лоран' →
 * 'saint laurent'): the longest name first, each place once.
 */
export function readAliases(index: Pick<CatalogIndex, 'aliases'>, words: readonly string[]): string[] {
  if (index.aliases.length === 0) return [...words];
  const folded = words.map(foldLexeme);
  const out: string[] = [];
  for (let k = 0; k < words.length;) {
    const alias = index.aliases.find((a) => a.words.every((w, j) => folded[k + j] === w));
    if (alias) {
      out.push(...alias.brand);
      k += alias.words.length;
    } else out.push(words[k++] as string);
  }
  return out;
}

/** Shoppers rarely type 'ё': 'черный' must find 'Чёрный'. Applied to both sides of every match. */
export function foldLexeme(word: string): string {
  // eslint-disable-next-line shop/no-cyrillic-literal -- letters of the language being searched, not interface text
  return word.replaceAll('ё', 'е');
}

/** Parses PostgreSQL's text form of a tsvector: `'lexeme':1,2 'other':3`. */
export function parseTsvector(text: string): string[] {
  const out: string[] = [];
  const re = /'((?:[^']|'')*)'/g;
  for (let m = re.exec(text); m; m = re.exec(text)) out.push(foldLexeme((m[1] as string).replaceAll("''", "'")));
  return out;
}

export interface ListingScope {
  /** The category page's category: its whole subtree. */
  categoryId?: number | undefined;
  brandId?: number | undefined;
  /** Search hits, one flag per position. */
  matches?: Uint8Array | undefined;
  /** The positions in the order to list them (a search's relevance) instead of the sort's. */
  order?: Int32Array | undefined;
}

export interface IndexListing {
  positions: number[];
  total: number;
  facets: Facets;
}

const GROUPS = 8;
const [BRAND, CATEGORY, COLOR, SIZE, FREE, DISCOUNT, TOP, PRICE] = [0, 1, 2, 3, 4, 5, 6, 7] as const;

function mask(size: number, ids: readonly number[]): Uint8Array {
  const m = new Uint8Array(size);
  for (const id of ids) if (id >= 0 && id < size) m[id] = 1;
  return m;
}

function maxKey(map: Map<number, unknown>): number {
  let max = 0;
  for (const k of map.keys()) max = Math.max(max, k);
  return max + 1;
}

export function queryIndex(index: CatalogIndex, scope: ListingScope, q: ListingQuery): IndexListing {
  const catSize = maxKey(index.categories);
  const brandSize = maxKey(index.brands);
  const colorSize = maxKey(index.colors);
  const scopeCats = scope.categoryId === undefined ? null : mask(catSize, index.subtree.get(scope.categoryId) ?? []);
  const scopeBrand = scope.brandId ?? -1;
  const matches = scope.matches ?? null;

  const fBrand = q.brands.length ? mask(brandSize, q.brands) : null;
  const fCat = q.categories.length
    ? mask(
        catSize,
        q.categories.flatMap((id) => index.subtree.get(id) ?? []),
      )
    : null;
  const fColor = q.color.length ? mask(colorSize, q.color) : null;
  const fSize = q.attr.length
    ? mask(
        index.sizeLabels.length,
        q.attr.map((l) => index.sizeIdByLabel.get(l) ?? -1),
      )
    : null;
  const minPrice = q.price_min === undefined ? -Infinity : q.price_min * 100;
  const maxPrice = q.price_max === undefined ? Infinity : q.price_max * 100;
  const hasPrice = q.price_min !== undefined || q.price_max !== undefined;

  const brandCounts = new Int32Array(brandSize);
  const catCounts = new Int32Array(catSize);
  const colorCounts = new Int32Array(colorSize);
  const sizeCounts = new Int32Array(index.sizeLabels.length);
  const flagCounts = new Int32Array(GROUPS);
  let priceLow = Infinity;
  let priceHigh = -Infinity;

  const offset = (q.page - 1) * q.per_page;
  const page: number[] = [];
  let total = 0;
  const { brand, category, color, price, discount, rating, free, sizeStart, sizeIds } = index;
  const order = scope.order ?? index.orders[q.sort];

  for (let k = 0; k < order.length; k++) {
    const i = order[k] as number;
    if (matches && !matches[i]) continue;
    if (scopeCats && !scopeCats[category[i] as number]) continue;
    if (scopeBrand >= 0 && brand[i] !== scopeBrand) continue;

    let fails = 0;
    let failed = -1;
    if (fBrand && !fBrand[brand[i] as number]) {
      fails++;
      failed = BRAND;
    }
    if (fCat && !fCat[category[i] as number]) {
      fails++;
      failed = CATEGORY;
    }
    if (fColor && !fColor[color[i] as number]) {
      fails++;
      failed = COLOR;
    }
    if (fails > 1) continue;
    if (fSize) {
      let has = false;
      for (let s = sizeStart[i] as number; s < (sizeStart[i + 1] as number); s++) if (fSize[sizeIds[s] as number]) has = true;
      if (!has) {
        fails++;
        failed = SIZE;
      }
    }
    if (q.free_delivery && !free[i]) {
      fails++;
      failed = FREE;
    }
    if (q.with_discount && !discount[i]) {
      fails++;
      failed = DISCOUNT;
    }
    if (q.top_rating && (rating[i] as number) < TOP_RATING) {
      fails++;
      failed = TOP;
    }
    const p = price[i] as number;
    if (hasPrice && (p < minPrice || p > maxPrice)) {
      fails++;
      failed = PRICE;
    }
    if (fails > 1) continue;

    const all = fails === 0;
    if (all || failed === BRAND) brandCounts[brand[i] as number]!++;
    if (all || failed === CATEGORY) catCounts[category[i] as number]!++;
    if (all || failed === COLOR) colorCounts[color[i] as number]!++;
    if (all || failed === SIZE) for (let s = sizeStart[i] as number; s < (sizeStart[i + 1] as number); s++) sizeCounts[sizeIds[s] as number]!++;
    if ((all || failed === FREE) && free[i]) flagCounts[FREE]!++;
    if ((all || failed === DISCOUNT) && discount[i]) flagCounts[DISCOUNT]!++;
    if ((all || failed === TOP) && (rating[i] as number) >= TOP_RATING) flagCounts[TOP]!++;
    if (all || failed === PRICE) {
      if (p < priceLow) priceLow = p;
      if (p > priceHigh) priceHigh = p;
    }
    if (all) {
      if (total >= offset && page.length < q.per_page) page.push(i);
      total++;
    }
  }

  const values = (counts: Int32Array, selected: readonly (number | string)[], describe: (id: number) => Omit<FacetValue, 'count'> | undefined) => {
    const out: FacetValue[] = [];
    counts.forEach((count, id) => {
      const d = describe(id);
      if (d && (count > 0 || selected.includes(d.id))) out.push({ ...d, count });
    });
    return out;
  };

  return {
    positions: page,
    total,
    facets: {
      brands: values(brandCounts, q.brands, (id) => {
        const b = index.brands.get(id);
        return b && { id: b.id, name: b.name };
      }).sort((a, b) => a.name.localeCompare(b.name, 'en')),
      categories: values(catCounts, q.categories, (id) => {
        const c = index.categories.get(id);
        return c && { id: c.id, name: c.name };
      }).sort((a, b) => b.count - a.count || a.name.localeCompare(b.name, 'ru')),
      color: values(colorCounts, q.color, (id) => {
        const c = index.colors.get(id);
        return c && { id: c.id, name: c.name, hex: c.hex };
      }).sort((a, b) => b.count - a.count),
      attr: values(sizeCounts, q.attr, (id) => {
        const label = index.sizeLabels[id];
        return label === undefined ? undefined : { id: label, name: label };
      }),
      free_delivery: flagCounts[FREE] as number,
      with_discount: flagCounts[DISCOUNT] as number,
      top_rating: flagCounts[TOP] as number,
      price: priceLow === Infinity ? null : { min: Math.floor(priceLow / 100), max: Math.ceil(priceHigh / 100) },
    },
  };
}

/** Root … the category itself, following parents in the index. */
export function ancestry(index: CatalogIndex, id: number): CategoryRecord[] {
  const path: CategoryRecord[] = [];
  for (let c = index.categories.get(id); c; c = c.parentId === null ? undefined : index.categories.get(c.parentId)) path.unshift(c);
  return path;
}

/** The same name sits under Women, Men and Kids: the top level tells them apart ('Платья · Женщинам'). */
export function qualifiedCategoryName(index: CatalogIndex, id: number): string {
  const path = ancestry(index, id);
  const [root, own] = [path[0], path.at(-1)];
  if (!root || !own) return '';
  return root === own ? own.name : `${own.name} · ${root.name}`;
}

/** The first `limit` positions of the given order that pass `keep`. */
export function topPositions(order: Int32Array, limit: number, keep: (i: number) => boolean): number[] {
  const out: number[] = [];
  for (let k = 0; k < order.length && out.length < limit; k++) {
    const i = order[k] as number;
    if (keep(i)) out.push(i);
  }
  return out;
}

// ---------------------------------------------------------------- text matching

const MAX_WORDS = 8;
const MAX_WORD_CHARS = 40;

/** Lower-cased words of letters and digits; punctuation and operators are never passed to SQL as syntax. */
export function queryWords(text: string): string[] {
  return (
    text
      .normalize('NFC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  )
    .slice(0, MAX_WORDS)
    .map((w) => w.slice(0, MAX_WORD_CHARS));
}

function lowerBound(sorted: readonly string[], value: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] as string) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Marks in `hits` the positions holding this lexeme, or, with `prefix`, any lexeme that starts with it
 * (the word being typed). Answers whether the catalogue knows the lexeme at all.
 */
function markPostings(index: CatalogIndex, lexeme: string, prefix: boolean, hits: Uint8Array): boolean {
  let any = false;
  const exact = index.postings.get(lexeme);
  if (exact) {
    exact.forEach((i) => (hits[i] = 1));
    any = true;
  }
  if (prefix)
    for (const list of index.postings.startingWith(lexeme)) {
      list.forEach((i) => (hits[i] = 1));
      any = true;
    }
  return any;
}

export interface WordQuery {
  /** The word's stems, matched exactly ('платье' → 'плат' must not find 'платок'). */
  lexemes: readonly string[];
  /** The word as typed, matched as the start of a lexeme while the shopper may still be typing it ('крос'). */
  prefix: string | null;
  /** The word as typed (folded), matched whole against the names' and articles' words: '123' is not '1239'. */
  raw?: string | null;
  /** 1 as typed; less for a word the shop guessed (a typo corrected, the other keyboard layout). */
  weight?: number;
}

/**
 * Category id → 1 for the categories a word names (one of its lexemes in the category's name) and all
 * their descendants: 'обувь' names every shoe, 'женские' (through its synonyms) everything for women.
 */
function namedCategories(index: CatalogIndex, lexemes: readonly string[]): Map<number, boolean> {
  const named = new Map<number, boolean>();
  if (lexemes.length === 0) return named;
  for (const [id, own] of index.categoryLexemes) if (own.some((x) => lexemes.includes(x))) for (const c of index.subtree.get(id) ?? [id]) named.set(c, true);
  return named;
}

/** Positions matching any of the word's lexemes, or null when none of them is in the catalogue. */
export function wordHits(index: CatalogIndex, word: WordQuery, descriptions = true): Uint8Array | null {
  const hits = new Uint8Array(index.n);
  let any = false;
  for (const lexeme of word.lexemes) any = markPostings(index, lexeme, false, hits) || any;
  // The description by its stems only: a start of a word there would find too much.
  if (descriptions)
    for (const lexeme of word.lexemes) {
      const list = index.descriptionPostings.get(lexeme);
      if (!list) continue;
      list.forEach((i) => (hits[i] = 1));
      any = true;
    }
  if (word.raw) any = markPostings(index, word.raw, false, hits) || any;
  if (word.prefix !== null) any = markPostings(index, word.prefix, true, hits) || any;
  const categories = namedCategories(index, word.lexemes);
  if (categories.size > 0)
    for (let i = 0; i < index.n; i++)
      if (categories.has(index.category[i] as number)) {
        hits[i] = 1;
        any = true;
      }
  return any ? hits : null;
}

/** Products holding every word (AND, as shoppers narrow a search by adding words). */
export function intersect(index: CatalogIndex, sets: readonly Uint8Array[]): Uint8Array {
  const [first, ...rest] = sets;
  const result = first ? Uint8Array.from(first) : new Uint8Array(index.n);
  for (const set of rest) for (let i = 0; i < index.n; i++) result[i] = result[i]! & set[i]!;
  return result;
}

/** Whether any of the word's lexemes equals (or, for a prefix, starts) one of these. */
export function wordMatchesLexemes(word: WordQuery, lexemes: readonly string[]): boolean {
  return lexemes.some((x) => word.lexemes.includes(x) || (word.prefix !== null && x.startsWith(word.prefix)));
}

/**
 * Optimal string alignment distance (Levenshtein with adjacent swaps), or `limit + 1` as soon as it must
 * be more than `limit`: «клтачи» is one swap from «клатчи», «брюи» one letter from «брюки».
 */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  const rows = [new Array<number>(b.length + 1).fill(0), new Array<number>(b.length + 1).fill(0), Array.from({ length: b.length + 1 }, (_, j) => j)];
  for (let i = 1; i <= a.length; i++) {
    const [before, previous, current] = [rows[1] as number[], rows[2] as number[], rows[0] as number[]];
    current[0] = i;
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, (before[j - 2] as number) + 1);
      current[j] = d;
      if (d < best) best = d;
    }
    if (best > limit) return limit + 1;
    rows[0] = before;
    rows[1] = previous;
    rows[2] = current;
  }
  return rows[2]?.[b.length] ?? limit + 1;
}

/**
 * The catalogue's word nearest a typo trigrams could not place (short words share too few trigrams): one
 * edit for words of four to seven letters, two from eight; the same first letter; the nearest, then the
 * closest in length, then the first in order. Null when none is that near.
 */
export function nearestWord(words: readonly string[], typed: string): string | null {
  if (typed.length < 4 || /^\d+$/.test(typed)) return null;
  const limit = typed.length >= 8 ? 2 : 1;
  let found: string | null = null;
  let distance = limit + 1;
  for (let k = lowerBound(words, typed[0] as string); k < words.length; k++) {
    const word = words[k] as string;
    if (word[0] !== typed[0]) break;
    const d = editDistance(typed, word, Math.min(limit, distance));
    if (d < distance || (d === distance && found !== null && Math.abs(word.length - typed.length) < Math.abs(found.length - typed.length))) {
      found = word;
      distance = d;
    }
  }
  return distance <= limit ? found : null;
}

// Price words: «до 10000», «дешевле 5 000», «до 15 тысяч», «от 20000» — a bound, not words to find.
const PRICE_WORDS = /(?:^|\s)(до|дешевле|не дороже|от|дороже)\s+(\d{1,3}(?:[\s\u00a0]\d{3})+|\d{1,9})\s*(тыс\S*|к|руб\S*|₽|р\.?)?(?=\s|$)/giu;

/** The text without its price words, and the bounds they set (roubles). */
export function priceBounds(text: string): { text: string; min?: number; max?: number } {
  let min: number | undefined;
  let max: number | undefined;
  const rest = text.replace(PRICE_WORDS, (_all, word: string, digits: string, unit: string | undefined) => {
    const roubles = Number(digits.replace(/[\s\u00a0]/g, '')) * (unit && /^(тыс|к)/iu.test(unit) ? 1000 : 1);
    if (/^(от|дороже)$/iu.test(word)) min = roubles;
    else max = roubles;
    return ' ';
  });
  return { text: rest, ...(min === undefined ? {} : { min }), ...(max === undefined ? {} : { max }) };
}

// ---------------------------------------------------------------- relevance
// What a shopper typed first: each word scores by the best place it is found in a product — the article or
// a number whole, the name, the brand, the category, anywhere else — a whole word above the start of one,
// a guessed word (a corrected typo, the other layout) below one typed; a product with something in stock
// gains a point; equal scores keep the popular order. The weights are tuned on the judged query set
// (tests/search, docs/search.md).
export const WEIGHTS = { token: 6, name: 4, brand: 4, category: 2, other: 1, description: 0.5, prefix: 0.35, inStock: 1, wholeName: 2 } as const;

/** The sorted keys that start with `prefix` (at most 200: a short prefix must not walk the vocabulary). */
let scratch = { score: new Float32Array(0), best: new Float32Array(0), inName: new Uint8Array(0) };

/** The k-th largest score among the positions: a bounded sorted list for a page's few, a native sort beyond. */
function kthLargest(positions: readonly number[], score: Float32Array, k: number): number {
  if (k > 256) {
    const all = Float32Array.from(positions, (i) => score[i]!).sort();
    return all[all.length - k] as number;
  }
  // The k largest so far, ascending: a score below the smallest of them is passed over at once.
  const top: number[] = [];
  for (const i of positions) {
    const value = score[i]!;
    if (top.length === k && value <= (top[0] as number)) continue;
    if (top.length === k) top.shift();
    let at = 0;
    while (at < top.length && (top[at] as number) < value) at++;
    top.splice(at, 0, value);
  }
  return top[0] ?? 0;
}

/**
 * The hits' positions, most relevant first. With `first`, only that many are put in order (the rest follow
 * as they come): what a page or the suggestions show, at a fraction of the sort on a broad query.
 */
export function relevanceOrder(index: CatalogIndex, words: readonly WordQuery[], hits: Uint8Array, first?: number): Int32Array {
  const positions: number[] = [];
  for (let i = 0; i < index.n; i++) if (hits[i]) positions.push(i);
  // Scratch arrays kept between calls (the call is synchronous, so never shared by two at once): a new
  // set of catalogue-sized arrays per keystroke was mostly the garbage collector's work. Only the hits'
  // places are read, so only they are cleared.
  if (scratch.score.length !== index.n) scratch = { score: new Float32Array(index.n), best: new Float32Array(index.n), inName: new Uint8Array(index.n) };
  const { score, best, inName } = scratch;
  for (const i of positions) {
    score[i] = 0;
    inName[i] = 0;
  }
  let brandSlots = 0;
  for (const id of index.brands.keys()) brandSlots = Math.max(brandSlots, id + 1);
  let categorySlots = 0;
  for (const id of index.categories.keys()) categorySlots = Math.max(categorySlots, id + 1);
  const raise = (list: Int32Array | undefined, value: number) => list?.forEach((i) => hits[i] && best[i]! < value && (best[i] = value));
  for (const word of words) {
    for (const i of positions) best[i] = 0;
    const exact = (lexemes: readonly string[]) => lexemes.some((x) => word.lexemes.includes(x) || x === word.raw);
    const starts = (lexemes: readonly string[]) => word.prefix !== null && lexemes.some((x) => x.startsWith(word.prefix as string));
    // The description, anywhere else (colour, category words), then the fields that weigh more.
    for (const lexeme of word.lexemes) raise(index.descriptionPostings.get(lexeme), WEIGHTS.description);
    for (const lexeme of word.lexemes) raise(index.postings.get(lexeme), WEIGHTS.other);
    if (word.prefix !== null) for (const list of index.postings.startingWith(word.prefix)) raise(list, WEIGHTS.other * WEIGHTS.prefix);
    // Weights by brand and category id in typed arrays: looked up once per hit, a Map's lookup was the cost.
    const brands = new Float32Array(brandSlots);
    let named = false;
    for (const [id, lexemes] of index.brandLexemes) {
      const value = exact(lexemes) ? WEIGHTS.brand : starts(lexemes) ? WEIGHTS.brand * WEIGHTS.prefix : 0;
      if (value > 0 && id < brandSlots) {
        brands[id] = value;
        named = true;
      }
    }
    // A category named by the word counts for everything under it ('обувь': every shoe).
    const categories = new Float32Array(categorySlots);
    for (const [id, lexemes] of index.categoryLexemes) {
      const value = exact(lexemes) ? WEIGHTS.category : starts(lexemes) ? WEIGHTS.category * WEIGHTS.prefix : 0;
      if (value > 0)
        for (const c of index.subtree.get(id) ?? [id])
          if (c < categorySlots && categories[c]! < value) {
            categories[c] = value;
            named = true;
          }
    }
    if (named)
      for (const i of positions) {
        const value = Math.max(brands[index.brand[i] as number] ?? 0, categories[index.category[i] as number] ?? 0);
        if (best[i]! < value) best[i] = value;
      }
    if (word.prefix !== null) for (const list of index.namePostings.startingWith(word.prefix)) raise(list, WEIGHTS.name * WEIGHTS.prefix);
    for (const lexeme of word.lexemes) raise(index.namePostings.get(lexeme), WEIGHTS.name);
    if (word.raw) raise(index.tokenPostings.get(word.raw), WEIGHTS.token);
    const weight = word.weight ?? 1;
    for (const i of positions) {
      score[i] = score[i]! + best[i]! * weight;
      if (best[i]! >= WEIGHTS.name) inName[i] = inName[i]! + 1;
    }
  }
  for (const i of positions) {
    if (index.inStock[i]) score[i] = score[i]! + WEIGHTS.inStock;
    // Every word in the name: the product the shopper named.
    if (inName[i]! >= words.length) score[i] = score[i]! + WEIGHTS.wholeName;
  }
  const byRelevance = (a: number, b: number) => score[b]! - score[a]! || index.popularRank[a]! - index.popularRank[b]!;
  if (first === undefined || positions.length <= first * 2) return Int32Array.from(positions).sort(byRelevance);
  // Only the first `first` need their order (a page, a few suggestions): the score they must reach is found
  // by a native numeric sort of the scores, and only those at or above it are sorted by the comparator.
  const bar = kthLargest(positions, score, first);
  // Those above the bar, and of those on it (a brand's products often all score the same) the most popular
  // that fill the first places: popular ranks are unique, so the cut is exact.
  const top: number[] = [];
  const tied: number[] = [];
  for (const i of positions)
    if (score[i]! > bar) top.push(i);
    else if (score[i] === bar) tied.push(i);
  const need = first - top.length;
  // The scratch `best` is free once scored: it holds the tied ones' popular ranks, negated (largest = most popular).
  for (const i of tied) best[i] = -index.popularRank[i]!;
  const rankBar = need >= tied.length ? Infinity : -kthLargest(tied, best, need);
  for (const i of tied) if (index.popularRank[i]! <= rankBar) top.push(i);
  top.sort(byRelevance);
  const taken = new Set(top);
  const out = new Int32Array(positions.length);
  let w = 0;
  for (const i of top) out[w++] = i;
  for (const i of positions) if (!taken.has(i)) out[w++] = i;
  return out;
}

// A catalogue that keeps changing (an import writes a batch every fraction of a second) would have the
// index rebuilt on every poll; on a large catalogue each rebuild costs a second or more of the process's
// time, taken from shoppers. So after a rebuild the next waits at least ten times as long as it took:
// rebuilds take at most about a tenth of the process, a small catalogue still follows every poll (its
// rebuilds are quick), and a large one follows within ten or twenty seconds while an import runs.
const REBUILD_SHARE = 10;

/** Whether the index may be rebuilt now, given when the last rebuild ended and how long it took. */
export function rebuildDue(now: number, last: { at: number; ms: number }): boolean {
  return now - last.at >= last.ms * REBUILD_SHARE;
}
