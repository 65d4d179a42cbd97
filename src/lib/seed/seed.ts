// Writes the generated catalogue into the database in batches. Rows go in through unnest() of
// parameter arrays: one statement per table per batch, the same SQL on PGlite and PostgreSQL.
import type { Database, RawQuery } from '../db/client.ts';
import { buildSkeleton, makeProductGenerator, type ProductRow } from './generate.ts';

export interface SeedOptions {
  products: number;
  seed: number;
  batchSize?: number;
  onProgress?: (done: number, total: number) => void;
}

export interface SeedState {
  status: 'running' | 'done';
  seed: number;
  products: number;
  finishedAt?: string;
}

const CATALOGUE_TABLES = ['product_attributes', 'product_images', 'product_variants', 'products', 'categories', 'colors', 'brands'];

async function insertProducts(query: RawQuery, rows: ProductRow[]): Promise<void> {
  const col = <K extends keyof ProductRow>(k: K) => rows.map((r) => r[k]);
  await query(
    `INSERT INTO products (id, brand_id, category_id, color_id, name, slug, description, price, price_old, rating, reviews_count, popularity, free_delivery, created_at, vendor_code,
                           fit_small, fit_true, fit_large)
     SELECT * FROM unnest($1::int[], $2::int[], $3::int[], $4::int[], $5::text[], $6::text[], $7::text[], $8::int[], $9::int[], $10::real[], $11::int[], $12::int[], $13::bool[], $14::timestamptz[], $15::text[],
                          $16::int[], $17::int[], $18::int[])`,
    [
      col('id'),
      col('brandId'),
      col('categoryId'),
      col('colorId'),
      col('name'),
      col('slug'),
      col('description'),
      col('price'),
      col('priceOld'),
      col('rating'),
      col('reviewsCount'),
      col('popularity'),
      col('freeDelivery'),
      rows.map((r) => r.createdAt.toISOString()),
      col('vendorCode'),
      col('fitSmall'),
      col('fitTrue'),
      col('fitLarge'),
    ],
  );
  // The demo's reviews, approved: the products' figures above are theirs (reviewFigures), so no trigger recounts.
  const reviews = rows.flatMap((r) => r.reviews.map((v) => ({ ...v, productId: r.id })));
  await query(
    `INSERT INTO reviews (product_id, source, author, rating, fit, size_label, liked, disliked, status, created_at, published_at)
     SELECT p, 'demo', a, r, f, s, l, d, 'approved', t, t FROM unnest($1::int[], $2::text[], $3::smallint[], $4::text[], $5::text[], $6::text[], $7::text[], $8::timestamptz[])
       AS x(p, a, r, f, s, l, d, t)`,
    [
      reviews.map((v) => v.productId),
      reviews.map((v) => v.author),
      reviews.map((v) => v.rating),
      reviews.map((v) => v.fit),
      reviews.map((v) => v.sizeLabel),
      reviews.map((v) => v.liked),
      reviews.map((v) => v.disliked),
      reviews.map((v) => v.publishedAt.toISOString()),
    ],
  );
  const variants = rows.flatMap((r) => r.variants.map((v) => ({ ...v, productId: r.id })));
  await query(
    `INSERT INTO product_variants (product_id, code, label, sort, stock, min_item, max_item)
     SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::smallint[], $5::int[], $6::int[], $7::int[])`,
    [
      variants.map((v) => v.productId),
      variants.map((v) => v.code),
      variants.map((v) => v.label),
      variants.map((v) => v.sort),
      variants.map((v) => v.stock),
      variants.map((v) => v.minItem),
      variants.map((v) => v.maxItem),
    ],
  );
  const images = rows.flatMap((r) => r.images.map((i) => ({ ...i, productId: r.id })));
  // unnest() would flatten a two-dimensional widths array, so each row's widths travel as array text.
  await query(
    `INSERT INTO product_images (product_id, position, url_template, widths, width, height, alt)
     SELECT p, pos, url, w::int[], wd, ht, alt FROM unnest($1::int[], $2::smallint[], $3::text[], $4::text[], $5::int[], $6::int[], $7::text[]) AS t(p, pos, url, w, wd, ht, alt)`,
    [
      images.map((i) => i.productId),
      images.map((i) => i.position),
      images.map((i) => i.urlTemplate),
      images.map((i) => `{${i.widths.join(',')}}`),
      images.map((i) => i.width),
      images.map((i) => i.height),
      images.map((i) => i.alt),
    ],
  );
  const attrs = rows.flatMap((r) => r.attributes.map((a) => ({ ...a, productId: r.id })));
  await query(
    `INSERT INTO product_attributes (product_id, name, value, position)
     SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::smallint[])`,
    [attrs.map((a) => a.productId), attrs.map((a) => a.name), attrs.map((a) => a.value), attrs.map((a) => a.position)],
  );
}

async function setState(query: RawQuery, state: SeedState): Promise<void> {
  await query(
    `INSERT INTO app_meta (key, value, updated_at) VALUES ('seed', $1::jsonb, now())
     ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
    [JSON.stringify(state)],
  );
}

export async function readSeedState(database: Database): Promise<SeedState | null> {
  return database.rawTransaction(async (query) => {
    const { rows } = await query(`SELECT value FROM app_meta WHERE key = 'seed'`);
    const value = rows[0]?.['value'];
    return value ? (value as SeedState) : null;
  });
}

/** Replaces the catalogue with a freshly generated one. Carts, wishlists and orders that point at products are cleared too. */
export async function seedCatalogue(database: Database, options: SeedOptions): Promise<void> {
  const { products, seed, onProgress } = options;
  const batchSize = options.batchSize ?? 1000;
  const skeleton = buildSkeleton();
  await database.rawTransaction(async (query) => {
    await query(`TRUNCATE ${CATALOGUE_TABLES.join(', ')} RESTART IDENTITY CASCADE`);
    await setState(query, { status: 'running', seed, products });
    const { brands, categories, colors } = skeleton;
    await query(
      `INSERT INTO brands (id, name, slug, name_ru, country, description, is_popular)
       SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bool[])`,
      [
        brands.map((b) => b.id),
        brands.map((b) => b.name),
        brands.map((b) => b.slug),
        brands.map((b) => b.nameRu),
        brands.map((b) => b.country),
        brands.map((b) => b.description),
        brands.map((b) => b.isPopular),
      ],
    );
    await query(
      `INSERT INTO categories (id, parent_id, name, slug, icon, level, sort)
       SELECT * FROM unnest($1::int[], $2::int[], $3::text[], $4::text[], $5::text[], $6::smallint[], $7::int[])`,
      [
        categories.map((c) => c.id),
        categories.map((c) => c.parentId),
        categories.map((c) => c.name),
        categories.map((c) => c.slug),
        categories.map((c) => c.icon),
        categories.map((c) => c.level),
        categories.map((c) => c.sort),
      ],
    );
    await query(`INSERT INTO colors (id, name, slug, hex) SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::text[])`, [
      colors.map((c) => c.id),
      colors.map((c) => c.name),
      colors.map((c) => c.slug),
      colors.map((c) => c.hex),
    ]);
  });

  const generate = makeProductGenerator(seed, skeleton);
  onProgress?.(0, products);
  for (let start = 1; start <= products; start += batchSize) {
    const end = Math.min(products, start + batchSize - 1);
    const rows: ProductRow[] = [];
    for (let id = start; id <= end; id++) rows.push(generate(id));
    await database.rawTransaction((query) => insertProducts(query, rows));
    onProgress?.(end, products);
  }

  await database.rawTransaction(async (query) => {
    // Rows were written with explicit ids; move the sequences past them so new rows don't collide.
    for (const table of ['brands', 'categories', 'colors', 'products']) {
      await query(`SELECT setval(pg_get_serial_sequence('${table}', 'id'), GREATEST((SELECT max(id) FROM ${table}), 1))`);
    }
    await query('ANALYZE');
    await setState(query, { status: 'done', seed, products, finishedAt: new Date().toISOString() });
  });
}
