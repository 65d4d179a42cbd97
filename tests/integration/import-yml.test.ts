// The YML import (docs/import.md) on real feeds written by other shops' software, read in place from
// ../shared/fixtures/import/, and on hostile and changed files made here; on PGlite, and on PostgreSQL in CI.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ImportInputError, importYml } from '~/features/import/import.server.ts';
import { applyCatalogueFile } from '~/features/exchange/catalogue.server.ts';
import type { Database } from '~/lib/db/client.ts';
import { plainText } from '~/lib/html.ts';
import { createFreshDatabase, emptyCatalogue } from '../support/fresh-database.ts';
import { initialisedDatabase, migratedDatabase } from '../support/seeded-database.ts';
import { startTestServer } from '../support/server.ts';

const FIXTURES = resolve('../shared/fixtures/import');
const fixture = (name: string) => join(FIXTURES, name);
const work = mkdtempSync(join(tmpdir(), 'import-yml-'));
const file = (name: string, text: string | Buffer) => {
  const path = join(work, name);
  writeFileSync(path, text);
  return path;
};

let opened: Awaited<ReturnType<typeof migratedDatabase>>;
let database: Database;

async function rows<T>(text: string, params: unknown[] = []): Promise<T[]> {
  return (await database.query(text, params)).rows as T[];
}
const version = async () => (await rows<{ v: string }>('SELECT last_value::text || is_called::text AS v FROM catalog_version'))[0]?.v;

beforeAll(async () => {
  opened = await migratedDatabase('import');
  database = opened.database;
});
afterAll(async () => {
  await opened.dispose();
  rmSync(work, { recursive: true, force: true });
});
beforeEach(() => emptyCatalogue(database));

const feed = (offers: string, categories = '<category id="1">Одежда</category><category id="2" parentId="1">Платья</category>') =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<yml_catalog date="2026-11-25"><shop><name>T</name><currencies><currency id="RUR" rate="1"/></currencies>` +
  `<categories>${categories}</categories><offers>\n${offers}</offers></shop></yml_catalog>\n`;
const dress = (id: string, size: string, extra = '', price = '12990') =>
  `<offer id="${id}" group_id="77" available="true"><price>${price}</price><currencyId>RUR</currencyId><categoryId>2</categoryId>` +
  `<picture>https://cdn.example.ru/d-${id}.jpg</picture><vendor>GUCCI</vendor><name>Платье миди</name><param name="Размер" unit="RU">${size}</param>` +
  `<param name="Цвет">чёрный</param><param name="Материал">шёлк</param><count>3</count>${extra}</offer>\n`;

describe('real feeds from other software', () => {
  it('reads a real clothing shop (Tilda export): the brand, the tree, prices with decimals', async () => {
    const result = await importYml(database, fixture('yml-Zverushko-Excel-to-Yandex-YML-yandex_market.xml'));
    expect(result.summary).toMatchObject({ new: 3, changed: 0, errors: 0 });
    const products = await rows<{ name: string; brand: string; price: number; category: string; parent: string }>(
      `SELECT p.name, b.name AS brand, p.price, c.name AS category, pc.name AS parent FROM products p JOIN brands b ON b.id = p.brand_id
         JOIN categories c ON c.id = p.category_id LEFT JOIN categories pc ON pc.id = c.parent_id ORDER BY p.id`,
    );
    expect(products[0]).toEqual({
      name: 'Тёплая женская тельняшка оверсайз',
      brand: 'Aglae Michon',
      price: 365000,
      category: 'Женские тельняшки',
      parent: 'Женская одежда',
    });
  });

  it('decodes windows-1251 from the declaration', async () => {
    const result = await importYml(database, fixture('yml-lireincore-ymlparser-example-cp1251.xml'));
    expect(result.summary.errors).toBe(0);
    const names = (await rows<{ name: string }>('SELECT name FROM categories ORDER BY id')).map((r) => r.name);
    expect(names.some((n) => /[а-я]/i.test(n))).toBe(true);
    expect(names.join(' ')).not.toMatch(/Ð|Ñ|\uFFFD/);
  });

  it('survives hostile whitespace and matches a Cyrillic Н in a Latin brand to the brand', async () => {
    await database.query("INSERT INTO brands (name, slug) VALUES ('HP', 'hp')");
    const result = await importYml(database, fixture('yml-artempyanykh-goods-simple_catalog.xml'));
    expect(result.summary.errors).toBe(0);
    const variants = await rows<{ external_id: string }>('SELECT external_id FROM product_variants ORDER BY external_id');
    expect(variants.map((v) => v.external_id)).toContain('yml:123');
    const brands = await rows<{ name: string }>('SELECT b.name FROM products p JOIN brands b ON b.id = p.brand_id');
    expect(brands.map((b) => b.name)).toContain('HP');
  });

  it('puts offers of undeclared categories in «Без категории», one warning line each', async () => {
    const result = await importYml(database, fixture('yml-serkin-ymlparser-valid_xml.xml'));
    expect(result.summary).toMatchObject({ new: 5, errors: 0 });
    expect(result.problems.filter((p) => p.reason.includes('Без категории'))).toHaveLength(5);
    expect(await rows('SELECT 1 FROM categories WHERE name = $1', ['Без категории'])).toHaveLength(1);
  });

  it('reads every offer type of the format (an artist.title offer is named by its title), and CDATA HTML as safe HTML', async () => {
    const result = await importYml(database, fixture('yml-stefanitsky-yandex_market_language-valid_feed.xml'));
    expect(result.summary).toMatchObject({ new: 8, errors: 0 });
    expect(await rows('SELECT name FROM products WHERE external_id = $1', ['yml:o:1511AT'])).toEqual([{ name: 'Свадьба Мюриэл' }]);
    const [brother] = await rows<{ description: string }>("SELECT description FROM products WHERE name LIKE 'Принтер Brother%'");
    expect(brother?.description).toBe('<h3>Принтер Brother.</h3>\n<p>Неплохой.</p>');
    // <weight> in kilograms and <dimensions> "L/W/H" in centimetres: grams and whole centimetres, rounded up.
    expect(await rows(`SELECT external_id, weight_g, length_cm, width_cm, height_cm FROM products WHERE weight_g IS NOT NULL ORDER BY external_id`)).toEqual([
      { external_id: 'yml:o:1511AB', weight_g: 3600, length_cm: 21, width_cm: 21, height_cm: 23 },
      { external_id: 'yml:o:A1VV', weight_g: 1030, length_cm: 21, width_cm: 24, height_cm: 9 },
    ]);
  });
});

describe('mapping', () => {
  it('makes one product of a group, with a size per offer, brand by any case, colour facet and attributes', async () => {
    await database.query("INSERT INTO brands (name, slug, name_ru) VALUES ('Gucci', 'gucci', 'Гуччи')");
    const path = file('group.yml', feed(dress('a1', '42') + dress('a2', '44', '<oldprice>15990</oldprice>') + dress('a3', '46').replace('GUCCI', 'Гуччи')));
    const result = await importYml(database, path);
    expect(result.summary).toMatchObject({ new: 3, changed: 0, unchanged: 0, errors: 0 });
    const products = await rows<{ id: number; price: number; price_old: number | null; brand: string; color: string }>(
      'SELECT p.id, p.price, p.price_old, b.name AS brand, c.name AS color FROM products p JOIN brands b ON b.id = p.brand_id JOIN colors c ON c.id = p.color_id',
    );
    expect(products).toEqual([{ id: expect.any(Number), price: 1299000, price_old: null, brand: 'Gucci', color: 'Чёрный' }]);
    const sizes = await rows<{ label: string; stock: number }>('SELECT label, stock FROM product_variants ORDER BY sort');
    expect(sizes).toEqual([
      { label: '42', stock: 3 },
      { label: '44', stock: 3 },
      { label: '46', stock: 3 },
    ]);
    expect(await rows('SELECT name, value FROM product_attributes')).toEqual([{ name: 'Материал', value: 'шёлк' }]);
  });

  it('refuses a price in a currency without a rate, reads "1 990,50", and reports a duplicate id (the later wins)', async () => {
    const offers =
      dress('b1', 'S', '', '1 990,50') +
      dress('b2', 'M').replace('<currencyId>RUR</currencyId>', '<currencyId>USD</currencyId>') +
      dress('b1', 'L', '', '2500');
    const result = await importYml(database, file('currency.yml', feed(offers)));
    expect(result.problems.map((p) => [p.id, p.severity])).toEqual([
      ['b2', 'error'],
      ['b1', 'warning'],
    ]);
    const [product] = await rows<{ price: number }>('SELECT price FROM products');
    expect(product?.price).toBe(250000);
    expect(await rows('SELECT label FROM product_variants')).toEqual([{ label: 'L' }]);
  });
});

describe('parcels', () => {
  const own = (id: string, extra: string) => dress(id, '42', extra).replace('group_id="77"', `group_id="${id}"`);

  it('keeps a product’s own weight and size, leaves out what is not one with a warning, and a zero weight as unknown', async () => {
    const offers =
      own('w1', '<weight>0,45</weight><dimensions>35/25/12</dimensions>') +
      own('w2', '<weight>1.2</weight>') +
      own('w3', '<weight>0</weight><dimensions>10/20</dimensions>') +
      own('w4', '<weight>abc</weight><dimensions>10/x/5</dimensions>') +
      own('w5', '<weight>150</weight><dimensions>400/10/10</dimensions>') +
      own('w6', '');
    const result = await importYml(database, file('parcels.yml', feed(offers)));
    expect(result.summary).toMatchObject({ new: 6, errors: 0 });
    expect(await rows('SELECT external_id, weight_g, length_cm, width_cm, height_cm FROM products ORDER BY external_id')).toEqual([
      { external_id: 'yml:g:w1', weight_g: 450, length_cm: 35, width_cm: 25, height_cm: 12 },
      { external_id: 'yml:g:w2', weight_g: 1200, length_cm: null, width_cm: null, height_cm: null },
      { external_id: 'yml:g:w3', weight_g: null, length_cm: null, width_cm: null, height_cm: null },
      { external_id: 'yml:g:w4', weight_g: null, length_cm: null, width_cm: null, height_cm: null },
      { external_id: 'yml:g:w5', weight_g: null, length_cm: null, width_cm: null, height_cm: null },
      { external_id: 'yml:g:w6', weight_g: null, length_cm: null, width_cm: null, height_cm: null },
    ]);
    expect(result.problems.map((p) => [p.id, p.severity, p.reason])).toEqual([
      ['w3', 'warning', 'the dimensions are not three positive lengths: left out'],
      ['w4', 'warning', 'the weight "abc" is not a positive number of kilograms: left out'],
      ['w4', 'warning', 'the dimensions are not three positive lengths: left out'],
      ['w5', 'warning', 'the weight 150 kg is over 100 kg: left out'],
      ['w5', 'warning', 'a side is over 300 cm: the dimensions are left out'],
    ]);
    // The same feed again changes nothing; a new weight is a changed product.
    expect((await importYml(database, file('parcels.yml', feed(offers)))).summary).toMatchObject({ changed: 0, unchanged: 6 });
    const heavier = offers.replace('<weight>1.2</weight>', '<weight>1.3</weight>');
    expect((await importYml(database, file('parcels.yml', feed(heavier)))).summary).toMatchObject({ changed: 1, unchanged: 5 });
    expect(await rows("SELECT weight_g FROM products WHERE external_id = 'yml:g:w2'")).toEqual([{ weight_g: 1300 }]);
  });
});

describe('idempotent and incremental', () => {
  it('writes nothing the second time: the catalogue version does not move', async () => {
    const path = file('same.yml', feed(dress('c1', '42') + dress('c2', '44')));
    await importYml(database, path);
    const before = await version();
    const again = await importYml(database, path);
    expect(again.summary).toMatchObject({ new: 0, changed: 0, unchanged: 2, hidden: 0 });
    expect(await version()).toBe(before);
  });

  it('updates only what changed, hides what a whole feed no longer lists, keeps it with --partial', async () => {
    await importYml(database, file('v1.yml', feed(dress('d1', '42') + dress('d2', '44') + dress('d3', '46').replaceAll('group_id="77"', 'group_id="78"'))));
    const changed = await importYml(database, file('v2.yml', feed(dress('d1', '42').replace('<count>3</count>', '<count>0</count>') + dress('d2', '44'))));
    expect(changed.summary).toMatchObject({ new: 0, changed: 1, unchanged: 1, hidden: 1 });
    expect(await rows('SELECT stock FROM product_variants WHERE external_id = $1', ['yml:d1'])).toEqual([{ stock: 0 }]);
    // Hidden, not deleted: orders refer to it.
    expect(await rows('SELECT is_active FROM products WHERE external_id = $1', ['yml:g:78'])).toEqual([{ is_active: false }]);

    await importYml(database, file('v3.yml', feed(dress('d3', '46').replaceAll('group_id="77"', 'group_id="78"'))), { partial: true });
    expect(await rows('SELECT external_id, is_active FROM products ORDER BY external_id')).toEqual([
      { external_id: 'yml:g:77', is_active: true },
      { external_id: 'yml:g:78', is_active: true },
    ]);
  });

  it("leaves the shop's reviews and a product's figures from them alone: a changed feed, a hidden product, its return, a 1C exchange", async () => {
    await importYml(database, file('r1.yml', feed(dress('r1', '42') + dress('r2', '44'))));
    const [product] = await rows<{ id: number }>("SELECT id FROM products WHERE external_id = 'yml:g:77'");
    await database.query(
      `INSERT INTO reviews (product_id, author, rating, fit, status, published_at)
       VALUES ($1, 'Анна', 5, 'small', 'approved', now()), ($1, 'Вера', 3, 'true', 'approved', now()), ($1, 'Спам', 1, NULL, 'pending', NULL)`,
      [product!.id],
    );
    const figures = () => rows(`SELECT rating, reviews_count, fit_small, fit_true, fit_large FROM products WHERE id = $1`, [product!.id]);
    const reviews = () => rows('SELECT id, product_id, author, rating, fit, status, useful, photos, reply FROM reviews ORDER BY id');
    const before = { figures: await figures(), reviews: await reviews() };
    expect(before.figures).toEqual([{ rating: 4, reviews_count: 2, fit_small: 1, fit_true: 1, fit_large: 0 }]);
    await importYml(database, file('r2.yml', feed(dress('r1', '42', '', '9990') + dress('r2', '44'))));
    await importYml(database, file('r2p.yml', feed(dress('r1', '42', '', '8990'))), { pricesStock: true });
    await importYml(database, file('r3.yml', feed(dress('x1', '42').replaceAll('group_id="77"', 'group_id="79"'))));
    expect(await rows('SELECT is_active FROM products WHERE id = $1', [product!.id])).toEqual([{ is_active: false }]);
    await importYml(database, file('r4.yml', feed(dress('r1', '42') + dress('r2', '44'))));
    // 1C's exchange writes the catalogue through its own reader: other products, the same reviews.
    for (const f of ['cml-dobromyslov-commerceml-parser-import.xml', 'cml-dobromyslov-commerceml-parser-offers.xml'])
      await applyCatalogueFile(database, fixture(f), { maxBytes: 50 * 1024 * 1024 });
    expect(await reviews()).toEqual(before.reviews);
    expect(await figures()).toEqual(before.figures);
  });

  it('--prices-stock changes only prices and stock of offers the catalogue has, and nothing when nothing differs', async () => {
    await importYml(database, file('full.yml', feed(dress('h1', '42') + dress('h2', '44'))));
    const names = await rows('SELECT name, description FROM products');
    const update = feed(
      dress('h1', '42', '', '9990').replace('<count>3</count>', '<count>7</count>').replace('Платье миди', 'Другое имя') +
        dress('h2', '44', '', '9990') +
        dress('h9', '48').replaceAll('group_id="77"', 'group_id="99"'),
    );
    const result = await importYml(database, file('prices.yml', update), { pricesStock: true });
    expect(result.summary).toMatchObject({ new: 0, changed: 2, unchanged: 0, hidden: 0, errors: 0 });
    expect(result.problems).toEqual([{ severity: 'warning', id: 'h9', line: expect.any(Number), reason: 'not in the catalogue: a full import adds it' }]);
    expect(await rows('SELECT price FROM products')).toEqual([{ price: 999000 }]);
    expect(await rows('SELECT external_id, stock FROM product_variants ORDER BY external_id')).toEqual([
      { external_id: 'yml:h1', stock: 7 },
      { external_id: 'yml:h2', stock: 3 },
    ]);
    expect(await rows('SELECT name, description FROM products')).toEqual(names);
    const before = await version();
    expect((await importYml(database, file('prices.yml', update), { pricesStock: true })).summary).toMatchObject({ changed: 0, unchanged: 2 });
    expect(await version()).toBe(before);
    // Read once and written at the end: a file cut short changes nothing.
    const cut = feed(dress('h1', '42', '', '5000') + dress('h2', '44', '', '5000')).slice(0, -40);
    const error = await importYml(database, file('cut.yml', cut), { pricesStock: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportInputError);
    expect(await rows('SELECT price FROM products')).toEqual([{ price: 999000 }]);
    expect(await version()).toBe(before);
  });

  it('--dry-run says what would change and writes nothing', async () => {
    const before = await version();
    const dry = await importYml(database, file('dry.yml', feed(dress('e1', '42'))), { dryRun: true });
    expect(dry.summary).toMatchObject({ new: 1 });
    expect(await rows('SELECT 1 FROM products')).toHaveLength(0);
    expect(await rows('SELECT 1 FROM categories')).toHaveLength(0);
    expect(await version()).toBe(before);
  });
});

describe('bad input leaves the catalogue as it was', () => {
  const cases: [string, string | Buffer, RegExp][] = [
    ['a truncated file', feed(dress('f1', '42') + dress('f2', '44')).slice(0, -60), /cut short|unclosed|end/i],
    [
      'billion laughs',
      `<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]>\n<yml_catalog><shop><offers><offer id="1"><name>&lol2;</name></offer></offers></shop></yml_catalog>`,
      /declares XML entities/,
    ],
    [
      'an external entity (XXE)',
      `<?xml version="1.0"?>\n<!DOCTYPE y [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n<yml_catalog><shop><offers><offer id="1"><name>&xxe;</name></offer></offers></shop></yml_catalog>`,
      /declares XML entities/,
    ],
    ['a CommerceML file', readFileSync(fixture('cml-bigperson-exchange1c-import.xml')), /a CommerceML file \(1C, MoySklad\); npm run import reads YML feeds/],
    ['not XML at all', 'offer;price\n1;100\n', /not a YML feed|text|non-whitespace|root/i],
    ['an empty file', '', /empty/],
    ['an encoding nobody reads', '<?xml version="1.0" encoding="EBCDIC-CP-US"?><yml_catalog/>', /encoding/],
  ];
  it.each(cases)('%s', async (_, text, message) => {
    const before = await version();
    const error = await importYml(database, file('bad.yml', text)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportInputError);
    expect((error as Error).message).toMatch(message);
    expect(await rows('SELECT 1 FROM products')).toHaveLength(0);
    expect(await version()).toBe(before);
  });

  it('refuses a file over the size limit before reading it', async () => {
    const error = await importYml(database, file('big.yml', feed(dress('g1', '42'))), { maxBytes: 100 }).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/over the import's limit of 100/);
  });
});

describe('npm run import', () => {
  it('exits 0 when every offer went in, 1 when one failed (with the CSV report), 2 when the file cannot be read; the last line is JSON', async () => {
    // A database of its own: an embedded database has one owner at a time.
    const own = await createFreshDatabase('import-cli');
    const cli = (args: string[]) =>
      spawnSync(process.execPath, ['scripts/import.ts', ...args, '--json', '--skip-photos', '--report', join(work, 'report.csv')], {
        env: { ...process.env, DATABASE_URL: own.databaseUrl ?? '', ...own.env, NODE_ENV: 'test' },
        encoding: 'utf8',
      });
    const last = (stdout: string) => JSON.parse(stdout.trim().split('\n').at(-1) as string) as unknown;
    try {
      const whole = cli([fixture('yml-stefanitsky-yandex_market_language-valid_feed.xml'), '--partial']);
      expect(whole.status, whole.stderr).toBe(0);
      expect(last(whole.stdout)).toEqual({ new: 8, changed: 0, unchanged: 0, hidden: 0, images: 0, errors: 0 });
      const run = cli([file('one-broken.yml', feed(dress('k1', '42') + dress('k2', '44', '', 'abc'))), '--partial']);
      expect(run.status, run.stderr).toBe(1);
      expect(last(run.stdout)).toEqual({ new: 1, changed: 0, unchanged: 0, hidden: 0, images: 0, errors: 1 });
      expect(readFileSync(join(work, 'report.csv'), 'utf8')).toMatch(/^error,k2,\d+,"the price ""abc"" is not a positive amount"\r$/m);
      const unreadable = cli([join(work, 'missing.yml')]);
      expect(unreadable.status).toBe(2);
      expect(unreadable.stderr).toContain('no such file or folder');
    } finally {
      await own.drop();
    }
    // Three real runs of the command, each starting Node and its embedded database: a minute or more on a
    // busy two-core machine (81 s in one CI run), so the run's own limit, not the default's.
  }, 240_000);
  it('writes its report under DATA_DIR/import-reports without --report, never into the folder it was started from, and names it', async () => {
    const own = await initialisedDatabase('import-report');
    // The command reads ./drizzle, so it runs from the repository; what it leaves there is what is checked.
    const before = new Set(readdirSync('.'));
    try {
      const run = spawnSync(
        process.execPath,
        ['scripts/import.ts', file('report-default.yml', feed(dress('r1', '42') + dress('r2', '44', '', 'abc'))), '--partial', '--skip-photos'],
        {
          env: { ...process.env, DATABASE_URL: own.databaseUrl ?? '', ...own.env, NODE_ENV: 'test' },
          encoding: 'utf8',
        },
      );
      expect(run.status, run.stderr).toBe(1);
      expect(readdirSync('.').filter((name) => !before.has(name))).toEqual([]);
      const reports = readdirSync(join(own.dataDir, 'import-reports'));
      expect(reports).toEqual([expect.stringMatching(/^import-\d{4}-\d\d-\d\dT[\d-]+Z\.csv$/)]);
      const report = join(resolve(own.dataDir), 'import-reports', reports[0] as string);
      expect(run.stdout).toContain(`Every offer that cost a line: ${report}`);
      expect(readFileSync(report, 'utf8')).toMatch(/^error,r2,\d+,"the price ""abc"" is not a positive amount"\r$/m);
    } finally {
      await own.drop();
    }
  }, 120_000);
});

describe('npm run import while the shop runs on the embedded database', () => {
  // PostgreSQL has no single owner: the command opens it itself there, and this case does not arise.
  it.skipIf(Boolean(process.env['DATABASE_URL']))(
    'hands the run to the shop (DATA_DIR/shop.json), follows its progress, and prints, reports and exits as on its own',
    async () => {
      const server = await startTestServer({ seedProducts: 10, label: 'import-handoff' });
      const dataDir = server.database.dataDir;
      const cli = (args: string[]) =>
        new Promise<{ status: number | null; stdout: string; stderr: string }>((done) => {
          // Asynchronous: the shop answers the command's calls meanwhile.
          const child = spawn(process.execPath, ['scripts/import.ts', ...args, '--json', '--skip-photos', '--report', join(work, 'handoff.csv')], {
            env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, NODE_ENV: 'test' },
          });
          let stdout = '';
          let stderr = '';
          child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
          child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
          child.on('close', (status) => done({ status, stdout, stderr }));
        });
      try {
        expect(JSON.parse(readFileSync(join(dataDir, 'shop.json'), 'utf8'))).toMatchObject({ url: server.baseUrl });
        const whole = await cli([file('handoff.yml', feed(dress('h1', '42') + dress('h1b', '44') + dress('h2', '46', '', 'abc'))), '--partial']);
        expect(whole.stdout).toContain(`The shop at ${server.baseUrl} owns the database`);
        expect(whole.stdout).toMatch(/Done in [\d.]+ s by the shop: 3 offers/);
        expect(whole.status, whole.stderr).toBe(1);
        expect(JSON.parse(whole.stdout.trim().split('\n').at(-1) as string)).toEqual({ new: 2, changed: 0, unchanged: 0, hidden: 0, images: 0, errors: 1 });
        expect(readFileSync(join(work, 'handoff.csv'), 'utf8')).toMatch(/^error,h2,\d+,"the price ""abc"" is not a positive amount"\r$/m);
        // The shop serves what it imported, without a restart.
        await expect
          .poll(
            async () =>
              ((await (await fetch(`${server.baseUrl}/api/v1/ecommerce-core/products?per_page=50`)).json()) as { data: { total: number } }).data.total,
            {
              timeout: 15_000,
            },
          )
          .toBe(11);
        // A file the shop cannot read: exit 2 with its reason, nothing changed.
        const cut = await cli([file('handoff-cut.yml', feed(dress('h3', '42')).slice(0, 120))]);
        expect(cut.status).toBe(2);
        expect(cut.stderr).toMatch(/The file could not be imported: .*(cut short|line)/);
        // Without the operator's key the shop refuses the call.
        const refused = await fetch(`${server.baseUrl}/api/v1/ecommerce-core/ops/imports`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ path: '/etc/passwd' }),
        });
        expect(refused.status).toBe(403);
      } finally {
        await server.stop();
      }
      expect(existsSync(join(dataDir, 'shop.json'))).toBe(false);
    },
    120_000,
  );
});

describe("the shop's own feed", () => {
  it('round-trips: products, sizes, prices, old prices, stock, categories and brands come back the same', async () => {
    const shape = async (db: Database) =>
      (
        await db.query(
          `SELECT b.name AS brand, p.name, p.price, p.price_old, p.description, c.name AS category, pc.name AS parent, col.name AS color,
             (SELECT string_agg(v.label || ':' || v.stock, ' ' ORDER BY v.sort) FROM product_variants v WHERE v.product_id = p.id) AS sizes,
            (SELECT string_agg(i.width || 'x' || i.height || ':' || array_to_string(i.widths, '/'), ' ' ORDER BY i.position) FROM product_images i WHERE i.product_id = p.id) AS images
           FROM products p JOIN brands b ON b.id = p.brand_id JOIN categories c ON c.id = p.category_id
           LEFT JOIN categories pc ON pc.id = c.parent_id LEFT JOIN colors col ON col.id = p.color_id
           WHERE p.is_active ORDER BY b.name, p.name, p.price, sizes`,
        )
      ).rows.map((r) => ({ ...r, description: plainText(String(r['description'])) }));
    // The seeded shop's catalogue, read before its server opens the database; then its feed, imported
    // with its photos (fetched from the running shop: a private address, allowed here).
    const server = await startTestServer({ seedProducts: 40, label: 'import-rt', prepare: shape });
    const media = join(work, 'media-rt');
    let result;
    try {
      const text = await (await fetch(`${server.baseUrl}/feeds/yandex.yml`)).text();
      result = await importYml(database, file('own.yml', text), { photos: { dir: media, allowPrivate: true } });
    } finally {
      await server.stop();
    }
    const expected = server.prepared ?? [];
    expect(result.summary.errors, JSON.stringify(result.problems.slice(0, 3))).toBe(0);
    expect(result.summary.images).toBeGreaterThan(0);
    expect(await shape(database)).toEqual(expected);
    // The same photo in two products is stored once: as many stored photos as distinct sources.
    const sources = await rows<{ n: number }>('SELECT count(DISTINCT source_url)::int AS n FROM product_images');
    expect(readdirSync(media).filter((f) => f.endsWith('.json'))).toHaveLength(sources[0]?.n ?? -1);
    expect(expected.length).toBeGreaterThan(35);
  }, 300_000);
});

describe("the database's side of a large import", () => {
  // 1,200 offers of 400 products in three sizes each: past the rows after which a run tidies the tables.
  const many = (price: (product: number) => number) =>
    feed(
      Array.from({ length: 400 }, (_, p) =>
        ['S', 'M', 'L']
          .map(
            (size) =>
              `<offer id="${p}-${size}" group_id="${p}" available="true"><price>${price(p)}</price><currencyId>RUR</currencyId><categoryId>2</categoryId>` +
              `<vendor>GUCCI</vendor><name>Платье ${p}</name><param name="Размер">${size}</param><count>4</count></offer>\n`,
          )
          .join(''),
      ).join(''),
    );

  it('leaves the planner statistics of what it wrote (ANALYZE; on PGlite, which has no autovacuum, VACUUM too)', async () => {
    const result = await importYml(
      database,
      file(
        'many.yml',
        many(() => 5000),
      ),
    );
    expect(result.summary).toMatchObject({ new: 1200, errors: 0 });
    const [stats] = await rows<{ products: number; variants: number }>(
      "SELECT (SELECT reltuples FROM pg_class WHERE relname = 'products')::int AS products, (SELECT reltuples FROM pg_class WHERE relname = 'product_variants')::int AS variants",
    );
    const [counts] = await rows<{ products: number; variants: number }>(
      'SELECT (SELECT count(*) FROM products)::int AS products, (SELECT count(*) FROM product_variants)::int AS variants',
    );
    expect(stats).toEqual(counts);
  });

  it("a size's stock moves its own product's updated_at once per statement, and a price reads no search words", async () => {
    await importYml(
      database,
      file(
        'many.yml',
        many(() => 5000),
      ),
    );
    // Every product made old (past the trigger that would stamp the update itself).
    await database.query('ALTER TABLE products DISABLE TRIGGER products_updated_at_trg');
    await database.query("UPDATE products SET updated_at = '2020-01-01'");
    await database.query('ALTER TABLE products ENABLE TRIGGER products_updated_at_trg');
    const products = await rows<{ id: number }>("SELECT id FROM products WHERE external_id IN ('yml:g:1', 'yml:g:2', 'yml:g:3') ORDER BY id");
    const [one, two, three] = products.map((p) => p.id);
    await database.query('UPDATE product_variants SET stock = stock + 1 WHERE product_id = ANY($1::int[])', [[one, two]]);
    await database.query('DELETE FROM product_variants WHERE product_id = $1 AND label = $2', [three, 'S']);
    const touched = await rows<{ id: number; recent: boolean }>(
      "SELECT id, updated_at > now() - interval '1 hour' AS recent FROM products WHERE id = ANY($1::int[]) OR external_id = 'yml:g:4' ORDER BY id",
      [[one, two, three]],
    );
    expect(touched.map((t) => t.recent)).toEqual([true, true, true, false]);

    // A price change collects no words; a renamed product's searchable text is collected again (its name,
    // brand and category).
    await database.query('DELETE FROM search_words');
    await importYml(
      database,
      file(
        'many.yml',
        many((p) => 5000 + p),
      ),
      { pricesStock: true },
    );
    await database.query('UPDATE products SET price = price + 100');
    expect(await rows('SELECT word FROM search_words')).toEqual([]);
    await database.query("UPDATE products SET name = 'Жакет букле' WHERE id = $1", [one]);
    expect((await rows<{ word: string }>('SELECT word FROM search_words ORDER BY word')).map((w) => w.word)).toEqual(['gucci', 'букле', 'жакет', 'платья']);
  });
});
