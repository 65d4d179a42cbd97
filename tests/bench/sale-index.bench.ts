// The catalogue index's build with and without 150 automatic item promotions (issue 56; run by
// `npm run bench -- --promotions --index-only`, never by `npm test`): each product's shown price is `unitSale`
// over them. A synthetic catalogue of BENCH_PRODUCTS rows (100,000 by default), medians of 3 builds each.
import { performance } from 'node:perf_hooks';
import { test } from 'vitest';
import { buildIndex } from '~/features/catalog/read-model.ts';

const products = Number(process.env['BENCH_PRODUCTS'] ?? 100_000);

test('the index builds with 150 automatic item promotions', () => {
  const categories = Array.from({ length: 100 }, (_, i) => ({
    id: i + 1,
    parentId: i < 10 ? null : 1 + (i % 10),
    name: `c${i}`,
    slug: `c${i}`,
    icon: null,
    level: i < 10 ? 0 : 1,
    sort: i,
    lexemes: [],
  }));
  const rows = Array.from({ length: products }, (_, i) => ({
    id: i + 1,
    categoryId: 11 + (i % 90),
    brandId: 1 + (i % 60),
    colorId: null,
    price: 5_000_00 + ((i * 7_919) % 200_000_00),
    priceOld: i % 4 === 0 ? 300_000_00 : null,
    discountPercent: 0,
    rating: 4,
    freeDelivery: false,
    popularity: i,
    created: i,
    lexemes: [],
  }));
  const promotionsShown = Array.from({ length: 150 }, (_, i) => ({
    id: i + 1,
    name: `p${i}`,
    rule: i % 4 === 0 ? ({ kind: 'amount', amount: 500_00 } as const) : ({ kind: 'percent', percent: 5 + (i % 40) } as const),
    target:
      i % 3 === 0
        ? { all: false, productIds: [], categoryIds: [1 + (i % 100), 1 + ((i * 7) % 100)], brandIds: [] }
        : i % 3 === 1
          ? { all: false, productIds: [], categoryIds: [], brandIds: [1 + (i % 60), 1 + ((i * 5) % 60)] }
          : { all: false, productIds: Array.from({ length: 20 }, (_, k) => 1 + ((i * 97 + k * 13) % products)), categoryIds: [], brandIds: [] },
    cap: i % 5 === 0 ? 3_000_00 : null,
    needsCode: false,
  }));
  const source = { version: 'bench', products: rows, sizes: [], brands: [], colors: [], categories };
  const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? 0;
  const time = (promotions: typeof promotionsShown) =>
    median(
      [0, 1, 2].map(() => {
        const started = performance.now();
        buildIndex({ ...source, promotions });
        return performance.now() - started;
      }),
    );
  const none = time([]);
  const many = time(promotionsShown);
  console.log(`Index build, ${products} products (median of 3): ${none.toFixed(0)} ms without promotions, ${many.toFixed(0)} ms with 150 item promotions.`);
});
