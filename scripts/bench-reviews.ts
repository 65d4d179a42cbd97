// `npm run bench -- --reviews [--products 100000] [--reviews-count 1000000] [--requests 400]` (issue 57): the
// listing with a million approved reviews' aggregates on the products, against the same catalogue with none;
// and product pages with 200 reviews each against the same pages with none. Two built shops on loopback
// from the same seeded template, one after the other. The million reviews are written in one statement and
// their aggregates in one more (as migration 0038's recount would leave them); 50 products get 200 more each.
// Reported: the listing's p50/p95/p99 (a category by popularity, by rating, with a price filter), and for
// the 50 product pages their first (uncached) render's p50/p95, their HTML's brotli bytes and the scripts
// they load — the figures that decide first paint on a phone.
import { brotliCompressSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import type { Database } from '../src/lib/db/client.ts';
import { commandLine, wholeNumber } from './cli.ts';

const cli = commandLine('npm run bench -- --reviews [--products N] [--reviews-count N] [--requests N]', {
  options: {
    reviews: { type: 'boolean', default: true },
    products: { type: 'string', default: '100000' },
    'reviews-count': { type: 'string', default: '1000000' },
    requests: { type: 'string', default: '400' },
  },
});
const products = wholeNumber(cli, '--products', cli.values.products, { min: 100, max: 200_000 });
const reviews = wholeNumber(cli, '--reviews-count', cli.values['reviews-count'], { min: 0, max: 5_000_000 });
const requests = wholeNumber(cli, '--requests', cli.values.requests, { min: 10, max: 100_000 });

const { startTestServer } = await import('../tests/support/server.ts');

/** The 50 products whose pages are measured: spread over the catalogue. */
const PAGE_PRODUCTS = Array.from({ length: 50 }, (_, k) => 1 + ((k * 1_999) % products));

const recount = sql`UPDATE products p SET (rating, reviews_count, fit_small, fit_true, fit_large) =
    (coalesce(a.rating, 0), coalesce(a.n, 0), coalesce(a.small, 0), coalesce(a.fits, 0), coalesce(a.large, 0))
  FROM products q LEFT JOIN (
    SELECT product_id, round(avg(rating)::numeric, 2) AS rating, count(*) AS n, count(*) FILTER (WHERE fit = 'small') AS small,
           count(*) FILTER (WHERE fit = 'true') AS fits, count(*) FILTER (WHERE fit = 'large') AS large
      FROM reviews WHERE status = 'approved' GROUP BY product_id) a ON a.product_id = q.id
  WHERE p.id = q.id`;

/** A million approved reviews over the catalogue (as buyers rate: mostly fours and fives), 200 on each measured page. */
async function manyReviews({ db }: Database): Promise<void> {
  const write = (count: number, product: ReturnType<typeof sql>, from = 1) =>
    db.execute(sql`INSERT INTO reviews (product_id, source, author, rating, fit, size_label, liked, comment, status, published_at, useful)
      SELECT ${product}, 'demo', 'Покупатель ' || (n % 97),
             CASE WHEN n % 10 < 6 THEN 5 WHEN n % 10 < 8 THEN 4 ELSE 1 + n % 3 END,
             (ARRAY['small', 'true', 'true', 'large', NULL])[1 + n % 5], (ARRAY['XS', 'S', 'M', 'L', 'XL'])[1 + n % 5],
             'Сидит хорошо, ткань плотная, цвет как на фото. Отзыв номер ' || n, 'Брала на подарок, подошло.',
             'approved', now() - make_interval(mins => n), n % 13
        FROM generate_series(${from}::int, ${from + count - 1}::int) AS n`);
  const step = async (what: string, work: () => Promise<unknown>) => {
    const started = performance.now();
    await work();
    console.log(`${what}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  };
  // In statements of 100,000 rows: PGlite took one statement of a million rows past 15 minutes.
  await step(`${reviews} reviews written`, async () => {
    for (let from = 1; from <= reviews; from += 100_000) await write(Math.min(100_000, reviews - from + 1), sql`1 + (n::bigint * 7919) % ${products}`, from);
  });
  await step('200 on each of 50 pages', async () => {
    for (const id of PAGE_PRODUCTS) await write(200, sql`${id}`);
  });
  await step("the products' aggregates", () => db.execute(recount));
  await db.execute(sql`ANALYZE reviews`);
}

/** The same catalogue without any review (the seed's demo reviews taken away too). */
async function noReviews({ db }: Database): Promise<void> {
  // TRUNCATE, not DELETE: a deleted approved review recounts its product (migration 0038), once a row.
  await db.execute(sql`TRUNCATE reviews CASCADE`);
  await db.execute(recount);
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;

interface Measured {
  listing: Map<string, number[]>;
  pages: { render: number[]; bytes: number[]; scripts: number };
  prepareSeconds: number;
}

async function measure(label: string, prepare: (database: Database) => Promise<void>): Promise<Measured> {
  let prepareSeconds = 0;
  const shop = await startTestServer({
    label: `bench-reviews-${label}`,
    seedProducts: products,
    env: { TRUST_PROXY: '127.0.0.1,::1', LOG_LEVEL: 'warn' },
    prepare: async (database) => {
      const started = performance.now();
      await prepare(database);
      prepareSeconds = (performance.now() - started) / 1000;
    },
  });
  const API = `${shop.baseUrl}/api/v1/ecommerce-core`;
  interface Menu {
    id: number;
    childs?: { data: Menu[] };
  }
  const flatten = (list: Menu[]): number[] => list.flatMap((c) => [c.id, ...flatten(c.childs?.data ?? [])]);
  const categories = flatten(((await (await fetch(`${API}/mega-categories`)).json()) as { data: Menu[] }).data);
  const asks: Record<string, (i: number) => Promise<Response>> = {
    'listing (a category, popular)': (i) => fetch(`${API}/products?category=${categories[i % categories.length]}&page=${1 + (i % 3)}`),
    'listing (a category, by rating)': (i) => fetch(`${API}/products?category=${categories[i % categories.length]}&sort=rating&page=${1 + (i % 3)}`),
    'listing (a category, a price filter)': (i) => fetch(`${API}/products?category=${categories[i % categories.length]}&price_min=${5_000 + (i % 20) * 1_000}`),
  };
  const timed = async (ask: (i: number) => Promise<Response>, i: number) => {
    const started = performance.now();
    const res = await ask(i);
    const body = await res.arrayBuffer();
    if (!res.ok) throw new Error(`${res.status} from the shop: ${new TextDecoder().decode(body)}`);
    return performance.now() - started;
  };
  // The product pages first, each once: its first render (the page cache keeps it afterwards).
  const render: number[] = [];
  const bytes: number[] = [];
  let scripts = 0;
  for (const id of PAGE_PRODUCTS) {
    const started = performance.now();
    const res = await fetch(`${shop.baseUrl}/p/${id}`, { redirect: 'follow' });
    const html = await res.text();
    render.push(performance.now() - started);
    bytes.push(brotliCompressSync(Buffer.from(html)).byteLength);
    scripts = Math.max(scripts, (html.match(/<script\b[^>]*\bsrc=/g) ?? []).length + (html.match(/<link rel="modulepreload"/g) ?? []).length);
  }
  for (const ask of Object.values(asks)) for (let i = 0; i < 60; i++) await timed(ask, i);
  await new Promise((resolve) => setTimeout(resolve, 20_000));
  const listing = new Map<string, number[]>();
  for (const [name, ask] of Object.entries(asks)) {
    const times: number[] = [];
    for (let i = 0; i < requests; i++) times.push(await timed(ask, i));
    listing.set(
      name,
      times.sort((a, b) => a - b),
    );
  }
  await shop.stop();
  return { listing, pages: { render: render.sort((a, b) => a - b), bytes: bytes.sort((a, b) => a - b), scripts }, prepareSeconds };
}

const on = await measure('on', manyReviews);
const off = await measure('off', noReviews);
const cell = (times: number[] | undefined) =>
  times ? `${quantile(times, 0.5).toFixed(1)} / ${quantile(times, 0.95).toFixed(1)} / ${quantile(times, 0.99).toFixed(1)}` : '—';
console.log(`\n${products} products; ${requests} requests each, one at a time, warm; p50 / p95 / p99 in ms:\n`);
console.log(`| request | ${reviews.toLocaleString('en')} reviews' aggregates | no reviews |\n| --- | --- | --- |`);
for (const [name, times] of on.listing) console.log(`| ${name} | ${cell(times)} | ${cell(off.listing.get(name))} |`);
const kb = (list: number[]) => `${(quantile(list, 0.5) / 1024).toFixed(1)} KB`;
console.log(`\nProduct pages (50, each rendered once, uncached): 200 reviews each | none`);
console.log(
  `| first render p50 / p95 ms | ${quantile(on.pages.render, 0.5).toFixed(0)} / ${quantile(on.pages.render, 0.95).toFixed(0)} | ${quantile(off.pages.render, 0.5).toFixed(0)} / ${quantile(off.pages.render, 0.95).toFixed(0)} |`,
);
console.log(`| HTML, brotli (median) | ${kb(on.pages.bytes)} | ${kb(off.pages.bytes)} |`);
console.log(`| scripts and module preloads | ${on.pages.scripts} | ${off.pages.scripts} |`);
console.log(`\nwriting ${reviews.toLocaleString('en')} reviews and their aggregates took ${on.prepareSeconds.toFixed(0)} s`);
