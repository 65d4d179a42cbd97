// Service timings on a seeded catalogue (run by `npm run bench`, never by `npm test`): search
// suggestions, filtered and sorted listings and product page data, each called the way the pages and
// the API call them, over the database in DATA_DIR or DATABASE_URL. Writes percentiles to BENCH_OUT.
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { test } from 'vitest';
import { getCatalogIndex } from '~/features/catalog/read-model.server.ts';
import { getCategoryContext, getListing, getSearchListing } from '~/features/catalog/listing.server.ts';
import { EMPTY_QUERY, SORTS, type ListingQuery } from '~/features/catalog/listing.ts';
import { productView } from '~/features/catalog/views.server.ts';
import { getSuggestions } from '~/features/search/search.server.ts';
import { getDatabase } from '~/lib/db/index.ts';

const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 400);

// A full collection before each memory reading, so that what is counted is what the index keeps, not the
// garbage its build left (the worker is not started with --expose-gc).
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;
/** Heap and typed arrays' memory in use after a full collection, in bytes. */
const retained = () => {
  collect();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Stats {
  n: number;
  mean: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

function stats(samples: number[]): Stats {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))] as number;
  const round = (x: number) => Math.round(x * 100) / 100;
  return {
    n: s.length,
    mean: round(s.reduce((a, b) => a + b, 0) / s.length),
    p50: round(at(0.5)),
    p95: round(at(0.95)),
    p99: round(at(0.99)),
    max: round(s.at(-1) as number),
  };
}

async function time<T>(samples: number[], fn: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await fn();
  samples.push(performance.now() - started);
  return result;
}

// What shoppers type: brands in both alphabets, plural and singular, typos, words being typed.
const WORDS = [
  'gucci',
  'гуччи',
  'гучи',
  'кросовки',
  'кроссовки',
  'платье',
  'черное платье',
  'сумка',
  'сумки prada',
  'джинсы',
  'куртка',
  'пальто',
  'рубашка',
  'лоферы',
  'ботинки',
  'кольцо',
  'серьги',
  'часы',
  'шарф',
  'balenciaga',
  'баленсиага',
  'prada',
  'прада',
  'max mara',
  'футболка',
  'свитер',
  'кеды',
  'туфли',
  'сапоги',
  'рюкзак',
  'клатч',
  'ремень',
  'очки',
  'платье миди',
  'кожаная куртка',
  'шёлк',
  'кашемир',
  'zzzz',
  'dior',
  'белые кеды',
];
const TYPING = WORDS.flatMap((w) => [w.slice(0, 3), w.slice(0, 5)]).filter((w) => w.length >= 3);

test('catalogue services', async () => {
  const database = await getDatabase();
  // The database opened and its statements prepared first: only the index's own memory is counted.
  await database.query('SELECT 1');
  const memoryBefore = retained();
  const buildStarted = performance.now();
  const index = await getCatalogIndex();
  const buildMs = performance.now() - buildStarted;
  const memoryAfter = retained();
  const rss = process.memoryUsage().rss;
  const random = rng(20261122);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const categories = [...index.categories.keys()];
  const brands = [...index.brands.keys()];
  const colors = [...index.colors.keys()];

  // One warm-up call of each kind: JIT and the first statement plans, not the measurement.
  await getSuggestions('платье', 10);
  await getListing({ categoryId: 1 }, EMPTY_QUERY);
  await productView('ru', index.ids[0] as number);

  const suggestions: number[] = [];
  const queries = [...WORDS, ...TYPING];
  for (let k = 0; k < ROUNDS; k++) await time(suggestions, () => getSuggestions(queries[k % queries.length] as string, 10));
  // The slowest texts, and whether they are slow every time or only the first (a correction looked up once).
  const slowest = suggestions
    .map((ms, k) => ({ text: queries[k % queries.length] as string, round: Math.floor(k / queries.length), ms: Math.round(ms * 10) / 10 }))
    .sort((x, y) => y.ms - x.ms)
    .slice(0, 12);

  // The search page's listing (issue 40): the same texts, relevance-ordered first page with its facets.
  const searches: number[] = [];
  for (let k = 0; k < ROUNDS; k++) await time(searches, () => getSearchListing(queries[k % queries.length] as string, EMPTY_QUERY));

  const listings: number[] = [];
  let totalSeen = 0;
  for (let k = 0; k < ROUNDS; k++) {
    const byBrand = random() < 0.3;
    const scope = byBrand ? { brandId: pick(brands), categoryId: random() < 0.3 ? pick(categories) : undefined } : { categoryId: pick(categories) };
    const q: ListingQuery = {
      ...EMPTY_QUERY,
      sort: pick(SORTS),
      page: random() < 0.8 ? 1 : 1 + Math.floor(random() * 4),
      brands: !byBrand && random() < 0.35 ? [pick(brands), pick(brands)] : [],
      color: random() < 0.25 ? [pick(colors)] : [],
      attr: random() < 0.25 ? [pick(index.sizeLabels), pick(index.sizeLabels)] : [],
      free_delivery: random() < 0.15,
      with_discount: random() < 0.2,
      top_rating: random() < 0.1,
      ...(random() < 0.15 ? { price_min: 10_000, price_max: 80_000 } : {}),
    };
    const listing = await time(listings, async () => {
      const [, result] = await Promise.all([scope.categoryId ? getCategoryContext(scope.categoryId) : null, getListing(scope, q)]);
      return result;
    });
    totalSeen += listing.total;
  }

  const products: number[] = [];
  for (let k = 0; k < ROUNDS; k++) await time(products, () => productView('ru', index.ids[Math.floor(random() * index.n)] as number));

  const result = {
    database: database.kind,
    products: index.n,
    index: {
      buildMs: Math.round(buildMs),
      // What the index keeps: heap and typed arrays after a full collection, against before its build.
      heapMB: Math.round((memoryAfter - memoryBefore) / 1e5) / 10,
      rssMB: Math.round(rss / 1e5) / 10,
    },
    suggestions: stats(suggestions),
    slowestSuggestions: slowest,
    search: stats(searches),
    listing: stats(listings),
    product: stats(products),
    averageListingTotal: Math.round(totalSeen / ROUNDS),
  };
  console.log(JSON.stringify(result, null, 2));
  if (process.env['BENCH_OUT']) writeFileSync(process.env['BENCH_OUT'], JSON.stringify(result, null, 2));
  await database.close();
});
