// Which cache tags a change queues for the CDN (migration 0027's triggers; docs/operations.md "A CDN in
// front"): exactly the pages that show what changed, whoever changed it — an UPDATE as the console makes
// it, a YML import, a prices-and-stock pass, a 1C exchange — and nothing when nothing changed. On PGlite,
// and on PostgreSQL in CI.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { applyCatalogueFile } from '~/features/exchange/catalogue.server.ts';
import { importYml } from '~/features/import/import.server.ts';
import type { Database } from '~/lib/db/client.ts';
import { emptyCatalogue } from '../support/fresh-database.ts';
import { migratedDatabase } from '../support/seeded-database.ts';

const FIXTURES = resolve('../shared/fixtures/import');
const work = mkdtempSync(join(tmpdir(), 'cdn-tags-'));
let opened: Awaited<ReturnType<typeof migratedDatabase>>;
let database: Database;

const rows = async <T>(text: string, params: unknown[] = []) => (await database.query(text, params)).rows as T[];
/** The distinct tags waiting, sorted; and the queue emptied for the next step. */
async function taken(): Promise<string[]> {
  const tags = (await rows<{ tag: string }>('SELECT DISTINCT tag FROM cdn_purges ORDER BY tag')).map((r) => r.tag);
  await database.query('DELETE FROM cdn_purges');
  return tags;
}
const sorted = (tags: string[]) => [...new Set(tags)].sort();

// Two dresses and a coat of one brand, in Одежда › Платья and Одежда › Пальто.
const offer = (id: string, category: string, price: number, count: number, name = 'Платье миди') =>
  `<offer id="${id}" available="true"><price>${price}</price><currencyId>RUR</currencyId><categoryId>${category}</categoryId>` +
  `<vendor>GUCCI</vendor><name>${name}</name><param name="Размер">42</param><count>${count}</count><description>Шёлк.</description></offer>\n`;
const feed = (offers: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<yml_catalog date="2026-11-28"><shop><name>T</name><currencies><currency id="RUR" rate="1"/></currencies>` +
  `<categories><category id="1">Одежда</category><category id="2" parentId="1">Платья</category><category id="3" parentId="1">Пальто</category></categories>` +
  `<offers>\n${offers}</offers></shop></yml_catalog>\n`;
const file = (name: string, text: string) => {
  const path = join(work, name);
  writeFileSync(path, text);
  return path;
};
const base = () => offer('d1', '2', 12990, 3) + offer('d2', '2', 14990, 5, 'Платье макси') + offer('c1', '3', 39990, 2, 'Пальто двубортное');

interface Product {
  id: number;
  brand: number;
  category: number;
  parent: number;
}
async function productOf(externalId: string): Promise<Product> {
  const [row] = await rows<Product>(
    `SELECT p.id, p.brand_id AS brand, p.category_id AS category, c.parent_id AS parent
       FROM product_variants v JOIN products p ON p.id = v.product_id JOIN categories c ON c.id = p.category_id WHERE v.external_id = $1`,
    [`yml:${externalId}`],
  );
  if (!row) throw new Error(`no product of offer ${externalId}`);
  return row;
}
/** What a change to a product's card queues: the product, its card, its category and the one above, its brand, the home page. */
const listed = (p: Product) => [`product-${p.id}`, `card-${p.id}`, `category-${p.category}`, `category-${p.parent}`, `brand-${p.brand}`];

beforeAll(async () => {
  opened = await migratedDatabase('cdn-tags');
  database = opened.database;
});
afterAll(async () => {
  await opened.dispose();
  rmSync(work, { recursive: true, force: true });
});
beforeEach(async () => {
  await emptyCatalogue(database);
  await importYml(database, file('base.yml', feed(base())));
  await taken();
});

describe('the tags a change queues', () => {
  it('a price: the product, its card, its categories up the tree, its brand and the home page', async () => {
    const dress = await productOf('d1');
    await database.query('UPDATE products SET price = price + 10000 WHERE id = $1', [dress.id]);
    expect(await taken()).toEqual(sorted([...listed(dress), 'home']));
  });

  it('a description: the product’s page alone; popularity and the updated_at touch: nothing', async () => {
    const dress = await productOf('d1');
    await database.query("UPDATE products SET description = 'Шёлк и кружево.' WHERE id = $1", [dress.id]);
    expect(await taken()).toEqual([`product-${dress.id}`, 'search']);
    await database.query('UPDATE products SET popularity = popularity + 7, updated_at = now() WHERE id = $1', [dress.id]);
    expect(await taken()).toEqual([]);
  });

  it('a unit sold of a size still in stock: the product’s page; its last unit: the listings too', async () => {
    const coat = await productOf('c1');
    await database.query("UPDATE product_variants SET stock = stock - 1 WHERE external_id = 'yml:c1'");
    expect(await taken()).toEqual([`product-${coat.id}`]);
    await database.query("UPDATE product_variants SET stock = 0 WHERE external_id = 'yml:c1'");
    expect(await taken()).toEqual(sorted(listed(coat)));
    // The same stock written again (an exchange's rests): nothing.
    await database.query("UPDATE product_variants SET stock = 0 WHERE external_id = 'yml:c1'");
    expect(await taken()).toEqual([]);
  });

  it('hidden: every listing that showed it, search and the brands page’s count', async () => {
    const dress = await productOf('d2');
    await database.query('UPDATE products SET is_active = false WHERE id = $1', [dress.id]);
    expect(await taken()).toEqual(sorted([...listed(dress), 'home', 'search', 'brands']));
  });

  it('photos: the product’s page and card', async () => {
    const coat = await productOf('c1');
    await database.query(
      "INSERT INTO product_images (product_id, position, url_template, widths, width, height) VALUES ($1, 0, '/media/x-w{w}.webp', '{360,720}', 720, 960)",
      [coat.id],
    );
    expect(await taken()).toEqual(sorted([`product-${coat.id}`, `card-${coat.id}`]));
    await database.query('DELETE FROM product_images WHERE product_id = $1', [coat.id]);
    expect(await taken()).toEqual(sorted([`product-${coat.id}`, `card-${coat.id}`]));
  });

  it('a brand’s name: its listings, the brands page, the home page, search, and every page and card of its products', async () => {
    const [d1, d2, c1] = [await productOf('d1'), await productOf('d2'), await productOf('c1')];
    await database.query("UPDATE brands SET name = 'Gucci' WHERE id = $1", [d1.brand]);
    const products = [d1, d2, c1].flatMap((p) => [`product-${p.id}`, `card-${p.id}`]);
    expect(await taken()).toEqual(sorted([`brand-${d1.brand}`, 'brands', 'home', 'search', ...products]));
    // Its description alone: its listing pages, the brands page and the home page; not its products.
    await database.query("UPDATE brands SET description = 'Флоренция, 1921' WHERE id = $1", [d1.brand]);
    expect(await taken()).toEqual(sorted([`brand-${d1.brand}`, 'brands', 'home']));
  });

  it('a category: every page (the menu); the same name again: nothing', async () => {
    const dress = await productOf('d1');
    await database.query("UPDATE categories SET name = 'Платья и сарафаны' WHERE id = $1", [dress.category]);
    expect(await taken()).toEqual(['menu']);
    await database.query("UPDATE categories SET name = 'Платья и сарафаны' WHERE id = $1", [dress.category]);
    expect(await taken()).toEqual([]);
  });

  it('is queued under the catalogue version before the change, which the change then moves past', async () => {
    const dress = await productOf('d1');
    const before = Number((await rows<{ v: string }>('SELECT last_value::text AS v FROM catalog_version'))[0]?.v);
    await database.query('UPDATE products SET price = price + 1 WHERE id = $1', [dress.id]);
    const versions = await rows<{ version: string }>('SELECT DISTINCT version::text AS version FROM cdn_purges');
    const after = Number((await rows<{ v: string }>('SELECT last_value::text AS v FROM catalog_version'))[0]?.v);
    expect(versions.map((v) => Number(v.version))).toEqual([before]);
    expect(after).toBeGreaterThan(before);
    await taken();
  });
});

describe('imports and exchanges', () => {
  it('the same feed again queues nothing', async () => {
    const result = await importYml(database, file('again.yml', feed(base())));
    expect(result.summary).toMatchObject({ new: 0, changed: 0 });
    expect(await taken()).toEqual([]);
  });

  it('a prices-and-stock pass queues only the products whose price or stock moved', async () => {
    const [d1, d2, c1] = [await productOf('d1'), await productOf('d2'), await productOf('c1')];
    const moved = offer('d1', '2', 11990, 3) + offer('d2', '2', 14990, 4, 'Платье макси') + offer('c1', '3', 39990, 2, 'Пальто двубортное');
    await importYml(database, file('prices.yml', feed(moved)), { pricesStock: true });
    // d1's price: its listings too; d2's stock, still in stock: its page; c1 as it was: nothing.
    expect(await taken()).toEqual(sorted([...listed(d1), 'home', `product-${d2.id}`]));
    expect(c1.id).toBeGreaterThan(0);
  });

  it('a 1C exchange of the same files again queues nothing', async () => {
    await emptyCatalogue(database);
    const options = { maxBytes: 50 * 1024 * 1024 };
    const files = ['cml-dobromyslov-commerceml-parser-import.xml', 'cml-dobromyslov-commerceml-parser-offers.xml'].map((f) => join(FIXTURES, f));
    for (const f of files) await applyCatalogueFile(database, f, options);
    expect((await taken()).length).toBeGreaterThan(0);
    for (const f of files) await applyCatalogueFile(database, f, options);
    expect(await taken()).toEqual([]);
  });
});
