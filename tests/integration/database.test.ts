// Migrations, the seed and the data rules, on a database of its own (PGlite, or PostgreSQL when
// DATABASE_URL is set), opened directly rather than through the server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '~/lib/db/client.ts';
import { prepareDatabase } from '~/lib/db/prepare.ts';
import { readSeedState, seedCatalogue } from '~/lib/seed/seed.ts';
import { discountPercent } from '~/lib/format.ts';
import type { FreshDatabase } from '../support/fresh-database.ts';
import { initialisedDatabase } from '../support/seeded-database.ts';

const PRODUCTS = 300;
let fresh: FreshDatabase;
let database: Database;
const quiet = { log: () => {} };

async function rows<T = Record<string, unknown>>(sqlText: string, params: unknown[] = []): Promise<T[]> {
  return database.rawTransaction(async (q) => (await q(sqlText, params)).rows as T[]);
}

beforeAll(async () => {
  fresh = await initialisedDatabase('db');
  database = await openDatabase({ databaseUrl: fresh.databaseUrl, dataDir: fresh.dataDir });
  // The seed's progress bar would clutter the test output.
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = (() => true) as typeof process.stderr.write;
  try {
    await prepareDatabase(database, { migrate: true, seedProducts: PRODUCTS, seed: 7, ...quiet });
  } finally {
    process.stderr.write = write;
  }
});

afterAll(async () => {
  await database?.close();
  await fresh?.drop();
});

describe('first start', () => {
  it('migrates and seeds the catalogue', async () => {
    const [counts] = await rows<{ products: number; brands: number; categories: number; variants: number; images: number }>(
      `SELECT (SELECT count(*)::int FROM products) products, (SELECT count(*)::int FROM brands) brands,
              (SELECT count(*)::int FROM categories) categories, (SELECT count(*)::int FROM product_variants) variants,
              (SELECT count(*)::int FROM product_images) images`,
    );
    expect(counts).toMatchObject({ products: PRODUCTS, images: PRODUCTS * 2 });
    expect(counts!.brands).toBeGreaterThanOrEqual(30);
    expect(counts!.categories).toBeGreaterThan(60);
    expect(counts!.variants).toBeGreaterThanOrEqual(PRODUCTS);
    expect(await readSeedState(database)).toMatchObject({ status: 'done', seed: 7, products: PRODUCTS });
  });

  it('every product has a variant, two images with known sizes and widths, and a leaf category', async () => {
    const bad = await rows(
      `SELECT p.id FROM products p
       WHERE NOT EXISTS (SELECT 1 FROM product_variants v WHERE v.product_id = p.id)
          OR (SELECT count(*) FROM product_images i WHERE i.product_id = p.id AND i.width = 720 AND i.height = 960 AND i.widths = '{360,720}') <> 2
          OR EXISTS (SELECT 1 FROM categories c WHERE c.parent_id = p.category_id)`,
    );
    expect(bad).toEqual([]);
  });

  it('stores money as kopecks and computes discount_percent as spec §3 says', async () => {
    const products = await rows<{ price: number; price_old: number | null; discount_percent: number }>(
      'SELECT price, price_old, discount_percent FROM products',
    );
    for (const p of products) {
      expect(Number.isInteger(p.price)).toBe(true);
      expect(p.discount_percent).toBe(discountPercent(p.price, p.price_old));
    }
    expect(products.some((p) => p.discount_percent > 0)).toBe(true);
  });

  it('has pg_trgm for typo-tolerant search', async () => {
    const [row] = await rows<{ s: number }>(`SELECT similarity('гучи', 'гуччи') AS s`);
    expect(row!.s).toBeGreaterThan(0.3);
  });
});

describe('later starts', () => {
  it('do not reseed: edits to the catalogue survive', async () => {
    await rows(`UPDATE products SET name = 'Изменено редактором' WHERE id = 1`);
    await prepareDatabase(database, { migrate: true, seedProducts: PRODUCTS, seed: 7, ...quiet });
    const [row] = await rows<{ name: string; n: number }>(`SELECT name, (SELECT count(*)::int FROM products) n FROM products WHERE id = 1`);
    expect(row).toEqual({ name: 'Изменено редактором', n: PRODUCTS });
  });

  it('reseed after an interrupted seed', async () => {
    await rows(`UPDATE app_meta SET value = jsonb_set(value, '{status}', '"running"') WHERE key = 'seed'`);
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = (() => true) as typeof process.stderr.write;
    try {
      await prepareDatabase(database, { migrate: true, seedProducts: PRODUCTS, seed: 7, ...quiet });
    } finally {
      process.stderr.write = write;
    }
    const [row] = await rows<{ name: string }>(`SELECT name FROM products WHERE id = 1`);
    expect(row!.name).not.toBe('Изменено редактором');
    expect((await readSeedState(database))?.status).toBe('done');
  });
});

describe('determinism', () => {
  it('the same seed gives the same catalogue, another seed a different one', async () => {
    const fingerprint = async () =>
      (
        await rows<{ f: string }>(
          `SELECT md5(string_agg(id || name || price || coalesce(price_old, 0) || category_id || brand_id, ',' ORDER BY id)) f FROM products`,
        )
      )[0]!.f;
    const first = await fingerprint();
    await seedCatalogue(database, { products: PRODUCTS, seed: 7 });
    expect(await fingerprint()).toBe(first);
    await seedCatalogue(database, { products: PRODUCTS, seed: 8 });
    expect(await fingerprint()).not.toBe(first);
    await seedCatalogue(database, { products: PRODUCTS, seed: 7 });
  });
});

describe('data rules', () => {
  it('stock can never go negative', async () => {
    await expect(rows(`UPDATE product_variants SET stock = -1 WHERE id = (SELECT min(id) FROM product_variants)`)).rejects.toThrow(
      /product_variants_stock_nonneg/,
    );
  });

  it('customer e-mails are unique regardless of case', async () => {
    await rows(`INSERT INTO customers (email, password_hash) VALUES ('Anna@Example.com', 'x')`);
    await expect(rows(`INSERT INTO customers (email, password_hash) VALUES ('anna@example.com', 'y')`)).rejects.toThrow(/customers_email_lower_uq/);
  });

  it('a product price must be positive', async () => {
    await expect(rows(`UPDATE products SET price = 0 WHERE id = 1`)).rejects.toThrow(/products_price_positive/);
  });
});
