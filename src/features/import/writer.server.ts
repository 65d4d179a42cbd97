// Applies plain offers to the shop's catalogue: categories by the feed's ids, brands by name whatever the
// case and script, offers of one group as one product with a size each. A batch is one transaction,
// applied whole or not at all. An offer whose product and size are as the last import left them costs no
// write at all, so a second import of the same file leaves the catalogue version where it was
// (docs/import.md). Any database: PGlite or PostgreSQL, plain SQL through unnest().
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import type { Database, RawQuery } from '../../lib/db/client.ts';
import { COLORS } from '../../lib/seed/vocabulary.ts';
import { slugify } from '../../lib/slug.ts';
import { t } from '../../lib/i18n/index.ts';
import { downloadWithRetries, limiter, PhotoError, storePhoto, type StoredPhoto } from '../media/media.server.ts';
import { photoStorage } from '../media/media.storage.server.ts';
import aliasesFile from './brand-aliases.json' with { type: 'json' };
import { emptySummary, ONE_SIZE, type ImportProblem, type ImportSummary, type SourceCategory, type SourceOffer } from './import.ts';

/** Bumped when the mapping changes what a product row holds: every product is then rewritten once. */
const MAPPING_VERSION = 3;
const UNCATEGORIZED = { external: 'import:uncategorized', name: t('ru', 'import.uncategorized') };
const NO_BRAND = t('ru', 'import.noBrand');
const ARTICLE = t('ru', 'import.article');
const FALLBACK_HEX = '#b8b4ad';

// Cyrillic letters that look like Latin ones: 'НP' typed with a Cyrillic Н is the brand HP.
const HOMOGLYPHS: Record<string, string> = {
  А: 'A',
  В: 'B',
  Е: 'E',
  К: 'K',
  М: 'M',
  Н: 'H',
  О: 'O',
  Р: 'P',
  С: 'C',
  Т: 'T',
  Х: 'X',
  а: 'a',
  е: 'e',
  о: 'o',
  р: 'p',
  с: 'c',
  у: 'y',
  х: 'x',
};

/** The key a brand is matched on: 'GUCCI', 'Gucci' and ' gucci ' are one; so are 'НP' (Cyrillic Н) and 'HP'. */
export function brandKey(name: string): string {
  let text = name.trim();
  if (/[a-z]/i.test(text)) text = [...text].map((ch) => HOMOGLYPHS[ch] ?? ch).join('');
  return slugify(text).replaceAll('-', '');
}

// Marks dropped: a colour written with ё or with е is one colour.
const colorKey = (name: string) => name.trim().toLowerCase().normalize('NFD').replace(/\p{M}/gu, '');

export interface WriteOptions {
  dryRun: boolean;
  /** Stock of a size the feed says is available without a count. */
  defaultStock: number;
  /** Where photos go, and where a feed's relative picture paths are read from; none: pictures are not imported. */
  photos?: PhotoOptions;
}

export interface PhotoOptions {
  /** DATA_DIR/media. */
  dir: string;
  /** The folder a relative `picture` path is read from (the feed's own folder), never outside it. */
  baseDir?: string;
  allowPrivate?: boolean;
  /** Photos fetched and converted at once. */
  concurrency?: number;
  /** The wait before a failed fetch is tried again (0.5 s, then three times it); the tests shorten it. */
  retryDelayMs?: number;
}

interface CategoryRow {
  id: number;
  parentId: number | null;
  name: string;
  level: number;
  sort: number;
}

/** What the import writes of a product, as the mapping makes it. */
interface ProductRow {
  brandId: number;
  categoryId: number;
  colorId: number | null;
  name: string;
  slug: string;
  description: string;
  price: number;
  priceOld: number | null;
  vendorCode: string;
  salesNotes: string;
  weightG: number | null;
  lengthCm: number | null;
  widthCm: number | null;
  heightCm: number | null;
}

interface ProductPlan {
  key: string;
  row: ProductRow;
  attributes: { name: string; value: string }[];
  /** Over the row (prices apart), the attributes and the pictures the product gets: all of the offer's until they are resolved. */
  hash: string;
  pictures: string[];
  offer: SourceOffer;
}

/** A product row's fields, their columns and SQL types, in the order the INSERT and the UPDATE pass them. */
const PRODUCT_COLUMNS = [
  ['brandId', 'brand_id', 'int'],
  ['categoryId', 'category_id', 'int'],
  ['colorId', 'color_id', 'int'],
  ['name', 'name', 'text'],
  ['slug', 'slug', 'text'],
  ['description', 'description', 'text'],
  ['price', 'price', 'int'],
  ['priceOld', 'price_old', 'int'],
  ['vendorCode', 'vendor_code', 'text'],
  ['salesNotes', 'sales_notes', 'text'],
  ['weightG', 'weight_g', 'int'],
  ['lengthCm', 'length_cm', 'int'],
  ['widthCm', 'width_cm', 'int'],
  ['heightCm', 'height_cm', 'int'],
] as const satisfies readonly (readonly [keyof ProductRow, string, 'int' | 'text'])[];

/** The plans' rows as one array per column, for unnest(). */
const productColumns = (plans: readonly ProductPlan[]) => PRODUCT_COLUMNS.map(([field]) => plans.map((p) => p.row[field]));
const COLUMN_NAMES = PRODUCT_COLUMNS.map(([, column]) => column).join(', ');
/** unnest()'s typed parameters for the columns, numbered from `first`. */
const columnParams = (first: number) => PRODUCT_COLUMNS.map(([, , type], i) => `$${first + i}::${type}[]`).join(', ');
const AFTER = PRODUCT_COLUMNS.length + 1;
/** New products: the columns, then external_id and import_hash. */
const INSERT_PRODUCTS = `INSERT INTO products (${COLUMN_NAMES}, external_id, import_hash)
  SELECT * FROM unnest(${columnParams(1)}, $${AFTER}::text[], $${AFTER + 1}::text[]) RETURNING id, external_id`;
/** Changed products: their ids, the columns, then import_hash; shown again if they were hidden. */
const UPDATE_PRODUCTS = `UPDATE products p SET ${PRODUCT_COLUMNS.map(([, column]) => `${column} = u.${column}`).join(', ')}, import_hash = u.import_hash, is_active = true
  FROM unnest($1::int[], ${columnParams(2)}, $${AFTER + 1}::text[]) AS u(id, ${COLUMN_NAMES}, import_hash)
  WHERE p.id = u.id`;

const sha = (value: unknown) => createHash('sha1').update(JSON.stringify(value)).digest('base64url');

/**
 * products.import_hash: what the import wrote of a product — its row without the prices (`--prices-stock`
 * changes them apart), its attributes, and the pictures it has. A picture that could not be fetched is not
 * among them, so the same feed with the same picture failing again matches what is stored: the product is
 * unchanged, and nothing moves the catalogue version. Once the picture comes, the product differs and is
 * written again. The shape is the one stored before, so products whose photos all came keep their hash.
 */
const productHash = (row: ProductRow, attributes: readonly { name: string; value: string }[], pictures: readonly string[]) => {
  const { price: _price, priceOld: _priceOld, weightG, lengthCm, widthCm, heightCm, ...hashed } = row;
  // The parcel joins the hash only when the feed gives one: products without keep the hash they had.
  const parcel = [weightG, lengthCm, widthCm, heightCm];
  return sha([MAPPING_VERSION, hashed, attributes, pictures, ...(parcel.some((v) => v !== null) ? [parcel] : [])]);
};

/** Rows written by one run past which the tables are tidied (CatalogueWriter.tidy). */
const TIDY_AFTER_ROWS = 1000;

export class CatalogueWriter {
  private brands = new Map<string, number>();
  private colors = new Map<string, number>();
  private categories = new Map<string, number>();
  /** Products written (or found) in this run, by their external key: later offers of a group add sizes only. */
  private seenProducts = new Map<string, number>();
  private seenOffers = new Set<string>();
  private sizesPerProduct = new Map<string, number>();
  private placeholder = -1;
  /** `--prices-stock`'s changes, written together once the file has been read whole. */
  private staged = { stock: [] as { id: number; stock: number }[], prices: new Map<number, { price: number; priceOld: number | null }>() };
  readonly summary: ImportSummary = emptySummary();

  private readonly database: Database;
  private readonly options: WriteOptions;
  private readonly problems: ImportProblem[];
  private readonly source: string;
  private readonly photos: PhotoOptions | undefined;
  private readonly limit: ReturnType<typeof limiter>;

  constructor(database: Database, options: WriteOptions, problems: ImportProblem[], source = 'yml') {
    this.database = database;
    this.options = options;
    this.problems = problems;
    this.source = source;
    this.photos = options.photos;
    this.limit = limiter(options.photos?.concurrency ?? 8);
  }

  /** One photo's bytes: from its address, or from a file beside the feed. */
  private async photoBytes(source: string): Promise<Uint8Array> {
    const photos = this.photos as PhotoOptions;
    if (/^https?:\/\//i.test(source))
      return downloadWithRetries(source, {
        allowPrivate: photos.allowPrivate ?? false,
        ...(photos.retryDelayMs === undefined ? {} : { retryDelayMs: photos.retryDelayMs }),
      });
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(source)?.[1];
    if (scheme && scheme.toLowerCase() !== 'file') throw new PhotoError(`${scheme}: addresses are not fetched`);
    if (!photos.baseDir) throw new PhotoError('a relative path, and the feed is not read from a folder');
    const base = resolve(photos.baseDir);
    const path = resolve(base, source.replace(/^file:\/\//i, '').replace(/^\/+/, ''));
    if (!path.startsWith(base + sep)) throw new PhotoError("the path leads outside the feed's folder");
    try {
      return await readFile(path);
    } catch {
      throw new PhotoError('no such file beside the feed');
    }
  }

  /**
   * The products' photos, each fetched and converted once (a photo already imported from the same address
   * is reused), at most `concurrency` at once. A photo that fails is one error line, every run it fails;
   * its product keeps the others, and its hash covers only those (productHash).
   */
  private async resolvePhotos(plans: ProductPlan[], out: Map<string, (StoredPhoto & { source: string })[]>) {
    const photos = this.photos as PhotoOptions;
    const sources = [...new Set(plans.flatMap((p) => p.pictures))];
    const known = new Map<string, StoredPhoto>();
    if (sources.length > 0)
      for (const r of (
        await this.database.query(
          'SELECT DISTINCT ON (source_url) source_url, url_template, widths, width, height, color FROM product_images WHERE source_url = ANY($1::text[])',
          [sources],
        )
      ).rows as { source_url: string; url_template: string; widths: number[]; width: number; height: number; color: string | null }[])
        known.set(r.source_url, { urlTemplate: r.url_template, widths: r.widths, width: r.width, height: r.height, color: r.color ?? '' });
    const pending = new Map<string, Promise<StoredPhoto>>();
    const photoOf = (source: string) => {
      let promise = pending.get(source);
      if (!promise) {
        promise = this.limit(async () => {
          const stored = await storePhoto(await this.photoBytes(source), photoStorage(photos.dir));
          this.summary.images++;
          return stored;
        });
        pending.set(source, promise);
      }
      return promise;
    };
    await Promise.all(
      plans.map(async (plan) => {
        const list: (StoredPhoto & { source: string })[] = [];
        for (const source of plan.pictures) {
          try {
            list.push({ ...(known.get(source) ?? (await photoOf(source))), source });
          } catch (error) {
            this.problems.push({ severity: 'error', id: plan.offer.id, line: plan.offer.line, reason: `photo ${source}: ${(error as Error).message}` });
          }
        }
        out.set(plan.key, list);
        if (list.length < plan.pictures.length)
          plan.hash = productHash(
            plan.row,
            plan.attributes,
            list.map((photo) => photo.source),
          );
      }),
    );
  }

  /** The stock a size gets: the feed's count, else the default when it says available, else none. */
  private stockOf(offer: SourceOffer): number {
    return offer.stock ?? (offer.available ? this.options.defaultStock : 0);
  }

  private write<T>(fn: (query: RawQuery) => Promise<T>): Promise<T> {
    return this.database.rawTransaction(fn);
  }

  /** Loads what matching needs: brands (names, Cyrillic names, aliases), colours, imported categories. */
  async load(): Promise<void> {
    const q = this.database.query;
    const brands = (await q('SELECT id, name, name_ru FROM brands')).rows as { id: number; name: string; name_ru: string }[];
    for (const b of brands) {
      this.brands.set(brandKey(b.name), b.id);
      if (b.name_ru) this.brands.set(brandKey(b.name_ru), b.id);
    }
    for (const [name, aliases] of Object.entries(aliasesFile.aliases as Record<string, string[]>)) {
      const id = this.brands.get(brandKey(name));
      if (id !== undefined) for (const alias of aliases) if (!this.brands.has(brandKey(alias))) this.brands.set(brandKey(alias), id);
    }
    // The managers' names of brands (/ops/search): a feed's «Гуччи» is the shop's Gucci.
    for (const a of (await q('SELECT alias, brand_id FROM brand_aliases')).rows as { alias: string; brand_id: number }[])
      if (!this.brands.has(brandKey(a.alias))) this.brands.set(brandKey(a.alias), a.brand_id);
    for (const c of (await q('SELECT id, name FROM colors')).rows as { id: number; name: string }[]) this.colors.set(colorKey(c.name), c.id);
    for (const c of (await q('SELECT id, external_id FROM categories WHERE external_id IS NOT NULL')).rows as { id: number; external_id: string }[])
      this.categories.set(c.external_id, c.id);
  }

  /** The feed's category tree: new categories added, renamed or moved ones changed, the rest untouched. */
  async applyCategories(source: readonly SourceCategory[]): Promise<void> {
    const byId = new Map<string, SourceCategory>();
    for (const c of source) {
      if (byId.has(c.id))
        this.problems.push({ severity: 'warning', id: `category:${c.id}`, line: c.line, reason: 'the category id is declared twice: the later one is used' });
      byId.set(c.id, c);
    }
    // Depth by walking up; an undeclared parent or a loop makes a category a root, with a warning.
    const depth = new Map<string, number>();
    const parentOf = (c: SourceCategory): string | null => {
      if (c.parentId === null) return null;
      if (!byId.has(c.parentId)) return null;
      return c.parentId;
    };
    const levelOf = (c: SourceCategory): number => {
      const known = depth.get(c.id);
      if (known !== undefined) return known;
      const trail = new Set<string>([c.id]);
      let level = 0;
      let at = parentOf(c);
      while (at !== null) {
        if (trail.has(at)) return -1;
        trail.add(at);
        level++;
        at = parentOf(byId.get(at) as SourceCategory);
      }
      depth.set(c.id, level);
      return level;
    };
    const rows: { external: string; parent: string | null; name: string; level: number; sort: number }[] = [];
    [...byId.values()].forEach((c, sort) => {
      let parent = parentOf(c);
      if (c.parentId !== null && parent === null)
        this.problems.push({
          severity: 'warning',
          id: `category:${c.id}`,
          line: c.line,
          reason: `the parent category ${c.parentId} is not in the feed: a top-level category`,
        });
      let level = levelOf(c);
      if (level < 0) {
        this.problems.push({ severity: 'warning', id: `category:${c.id}`, line: c.line, reason: 'the categories form a loop: this one is made top-level' });
        parent = null;
        level = 0;
        depth.set(c.id, 0);
      }
      rows.push({ external: `${this.source}:${c.id}`, parent: parent === null ? null : `${this.source}:${parent}`, name: c.name, level, sort });
    });
    rows.sort((a, b) => a.level - b.level);

    const existing = new Map<string, CategoryRow>();
    const found = (
      await this.database.query('SELECT id, parent_id, name, level, sort, external_id FROM categories WHERE external_id = ANY($1::text[])', [
        rows.map((r) => r.external),
      ])
    ).rows as { id: number; parent_id: number | null; name: string; level: number; sort: number; external_id: string }[];
    for (const r of found) existing.set(r.external_id, { id: r.id, parentId: r.parent_id, name: r.name, level: r.level, sort: r.sort });

    const work = async (query: RawQuery | undefined) => {
      for (const row of rows) {
        const parentId = row.parent === null ? null : (this.categories.get(row.parent) ?? null);
        const now = existing.get(row.external);
        if (!now) {
          let id = this.placeholder--;
          if (query) {
            const inserted = await query(
              // Another run of the same feed (another process, a retried exchange) may have added it meanwhile.
              `INSERT INTO categories (parent_id, name, slug, level, sort, external_id) VALUES ($1, $2, $3, $4, $5, $6)
               ON CONFLICT (external_id) DO UPDATE SET parent_id = EXCLUDED.parent_id, name = EXCLUDED.name, slug = EXCLUDED.slug,
                 level = EXCLUDED.level, sort = EXCLUDED.sort
               RETURNING id`,
              [parentId, row.name, slugify(row.name) || 'category', row.level, row.sort, row.external],
            );
            id = (inserted.rows[0] as { id: number }).id;
          }
          this.categories.set(row.external, id);
        } else {
          this.categories.set(row.external, now.id);
          if (now.name !== row.name || now.parentId !== parentId || now.level !== row.level || now.sort !== row.sort)
            await query?.('UPDATE categories SET parent_id = $2, name = $3, slug = $4, level = $5, sort = $6 WHERE id = $1', [
              now.id,
              parentId,
              row.name,
              slugify(row.name) || 'category',
              row.level,
              row.sort,
            ]);
        }
      }
    };
    if (this.options.dryRun) await work(undefined);
    else await this.write(work);
  }

  private async brandId(vendor: string, offer: SourceOffer): Promise<number> {
    let name = vendor.trim();
    if (!name) {
      this.problems.push({ severity: 'warning', id: offer.id, line: offer.line, reason: `no <vendor>: the brand «${NO_BRAND}»` });
      name = NO_BRAND;
    }
    const key = brandKey(name) || name.toLowerCase();
    const known = this.brands.get(key);
    if (known !== undefined) return known;
    let id = this.placeholder--;
    if (!this.options.dryRun) {
      const base = slugify(name) || 'brand';
      const taken = (await this.database.query('SELECT count(*)::int AS n FROM brands WHERE slug = $1 OR slug LIKE $2', [base, `${base}-%`])).rows[0] as {
        n: number;
      };
      const slug = taken.n === 0 ? base : `${base}-${taken.n + 1}`;
      const inserted = await this.database.query('INSERT INTO brands (name, slug) VALUES ($1, $2) RETURNING id', [name, slug]);
      id = (inserted.rows[0] as { id: number }).id;
    }
    this.brands.set(key, id);
    return id;
  }

  private async colorId(name: string | null): Promise<number | null> {
    if (!name) return null;
    const key = colorKey(name);
    const known = this.colors.get(key);
    if (known !== undefined) return known;
    const preset = COLORS.find((c) => colorKey(c.name) === key);
    let id = this.placeholder--;
    if (!this.options.dryRun) {
      const slug = preset?.slug ?? (slugify(name) || 'color');
      const inserted = await this.database.query(
        'INSERT INTO colors (name, slug, hex) VALUES ($1, $2, $3) ON CONFLICT (slug) DO UPDATE SET slug = EXCLUDED.slug RETURNING id',
        [preset?.name ?? name, slug, preset?.hex ?? FALLBACK_HEX],
      );
      id = (inserted.rows[0] as { id: number }).id;
    }
    this.colors.set(key, id);
    return id;
  }

  private async categoryId(offer: SourceOffer): Promise<number> {
    const known = offer.categoryId === null ? undefined : this.categories.get(`${this.source}:${offer.categoryId}`);
    if (known !== undefined) return known;
    this.problems.push({
      severity: 'warning',
      id: offer.id,
      line: offer.line,
      reason:
        offer.categoryId === null
          ? `no <categoryId>: the category «${UNCATEGORIZED.name}»`
          : `the category ${offer.categoryId} is not in the feed: the category «${UNCATEGORIZED.name}»`,
    });
    const fallback = this.categories.get(UNCATEGORIZED.external);
    if (fallback !== undefined) return fallback;
    let id = this.placeholder--;
    if (!this.options.dryRun) {
      const found = (await this.database.query('SELECT id FROM categories WHERE external_id = $1', [UNCATEGORIZED.external])).rows[0] as
        { id: number } | undefined;
      id =
        found?.id ??
        (
          (
            await this.database.query(
              "INSERT INTO categories (parent_id, name, slug, level, sort, external_id) VALUES (NULL, $1, 'bez-kategorii', 0, 100000, $2) RETURNING id",
              [UNCATEGORIZED.name, UNCATEGORIZED.external],
            )
          ).rows[0] as { id: number }
        ).id;
    }
    this.categories.set(UNCATEGORIZED.external, id);
    return id;
  }

  /** One batch of offers, in one transaction. */
  async applyOffers(offers: readonly SourceOffer[]): Promise<void> {
    // The later of two offers with one id wins, and the earlier costs a line.
    const unique = new Map<string, SourceOffer>();
    for (const offer of offers) {
      if (this.seenOffers.has(offer.id) || unique.has(offer.id))
        this.problems.push({ severity: 'warning', id: offer.id, line: offer.line, reason: 'the offer id appears again in the feed: the later offer is used' });
      unique.set(offer.id, offer);
    }
    const groups = new Map<string, SourceOffer[]>();
    for (const offer of unique.values()) {
      const key = `${this.source}:${offer.productKey}`;
      groups.set(key, [...(groups.get(key) ?? []), offer]);
    }

    // Products: the first offer of a group in this run gives the product's own fields.
    const plans: ProductPlan[] = [];
    for (const [key, group] of groups) {
      if (this.seenProducts.has(key)) continue;
      const first = group[0] as SourceOffer;
      const brandId = await this.brandId(first.vendor, first);
      const attributes = [...first.attributes];
      if (first.vendorCode && !attributes.some((a) => a.name === ARTICLE)) attributes.push({ name: ARTICLE, value: first.vendorCode });
      const row = {
        brandId,
        categoryId: await this.categoryId(first),
        colorId: await this.colorId(first.color),
        name: first.name,
        slug: slugify(`${first.name} ${first.vendor}`) || 'product',
        description: first.description,
        price: first.price,
        priceOld: first.priceOld,
        vendorCode: first.vendorCode,
        salesNotes: first.salesNotes,
        weightG: first.parcel.weight,
        lengthCm: first.parcel.length,
        widthCm: first.parcel.width,
        heightCm: first.parcel.height,
      };
      plans.push({ key, row, attributes, hash: productHash(row, attributes, first.pictures), pictures: first.pictures, offer: first });
    }

    const q = this.database.query;
    const existing = new Map<string, { id: number; hash: string | null; active: boolean; price: number; priceOld: number | null }>();
    if (plans.length > 0)
      for (const r of (
        await q('SELECT id, external_id, import_hash, is_active, price, price_old FROM products WHERE external_id = ANY($1::text[])', [plans.map((p) => p.key)])
      ).rows as { id: number; external_id: string; import_hash: string | null; is_active: boolean; price: number; price_old: number | null }[])
        existing.set(r.external_id, { id: r.id, hash: r.import_hash, active: r.is_active, price: r.price, priceOld: r.price_old });
    const fresh = plans.filter((p) => !existing.has(p.key));
    const differs = (p: ProductPlan) => {
      const now = existing.get(p.key);
      return now !== undefined && (now.hash !== p.hash || !now.active || now.price !== p.row.price || now.priceOld !== p.row.priceOld);
    };
    // Photos of new products and of those that may have changed, fetched and converted before the batch's
    // transaction opens. A product whose pictures failed last time differs until they are resolved, so its
    // pictures are tried again every run; whether it changed is decided on what they gave this time.
    const photos = new Map<string, (StoredPhoto & { source: string })[]>();
    const candidates = plans.filter(differs);
    if (this.photos && !this.options.dryRun) await this.resolvePhotos([...fresh, ...candidates], photos);
    const changed = candidates.filter(differs);
    const changedKeys = new Set(changed.map((p) => p.key));
    const freshKeys = new Set(fresh.map((p) => p.key));

    // Sizes.
    const offerKeys = [...unique.values()].map((o) => `${this.source}:${o.id}`);
    const variantsNow = new Map<string, { id: number; productId: number; label: string; stock: number; barcode: string; sort: number }>();
    for (const r of (
      await q('SELECT id, external_id, product_id, label, stock, barcode, sort FROM product_variants WHERE external_id = ANY($1::text[])', [offerKeys])
    ).rows as { id: number; external_id: string; product_id: number; label: string; stock: number; barcode: string; sort: number }[])
      variantsNow.set(r.external_id, { id: r.id, productId: r.product_id, label: r.label, stock: r.stock, barcode: r.barcode, sort: r.sort });

    // Sizes: new ones inserted with a code unique in the shop, changed ones updated, the rest left alone.
    const planSizes = async (ids: ReadonlyMap<string, number>, read: RawQuery) => {
      const counts = { new: 0, changed: 0, unchanged: 0 };
      const sorts = new Map<string, number>();
      const codesTaken = new Set<string>();
      const productIds = [...new Set([...groups.keys()].map((k) => ids.get(k)).filter((id): id is number => id !== undefined && id > 0))];
      if (productIds.length > 0)
        for (const r of (await read('SELECT code FROM product_variants WHERE product_id = ANY($1::int[])', [productIds])).rows as { code: string }[])
          codesTaken.add(r.code);
      const inserts: { productId: number; code: string; label: string; sort: number; stock: number; barcode: string; external: string }[] = [];
      const updates: { id: number; productId: number; label: string; sort: number; stock: number; barcode: string }[] = [];
      for (const [key, group] of groups) {
        const productId = ids.get(key) as number;
        const productChanged = changedKeys.has(key) || freshKeys.has(key);
        let sort = this.sizesPerProduct.get(key) ?? 0;
        for (const offer of group) {
          const external = `${this.source}:${offer.id}`;
          const label = offer.size ?? ONE_SIZE;
          const stock = this.stockOf(offer);
          const barcode = offer.barcodes.join(',');
          const now = variantsNow.get(external);
          if (!now) {
            const base = `${productId}-${slugify(label) || 'os'}`;
            let code = base;
            for (let n = 2; codesTaken.has(code); n++) code = `${base}-${n}`;
            codesTaken.add(code);
            inserts.push({ productId, code, label, sort, stock, barcode, external });
            counts.new++;
          } else if (now.productId !== productId || now.label !== label || now.stock !== stock || now.barcode !== barcode || now.sort !== sort) {
            updates.push({ id: now.id, productId, label, sort, stock, barcode });
            counts.changed++;
          } else if (productChanged) counts.changed++;
          else counts.unchanged++;
          sort++;
        }
        sorts.set(key, sort);
      }
      return { inserts, updates, counts, ids, sorts };
    };
    const settle = (sizes: Awaited<ReturnType<typeof planSizes>>) => {
      this.summary.new += sizes.counts.new;
      this.summary.changed += sizes.counts.changed;
      this.summary.unchanged += sizes.counts.unchanged;
      for (const [key, sort] of sizes.sorts) this.sizesPerProduct.set(key, sort);
      for (const key of groups.keys()) this.seenProducts.set(key, sizes.ids.get(key) as number);
      for (const offer of unique.values()) this.seenOffers.add(offer.id);
    };

    // The batch's products that already have an id: met earlier in this run, or in the database.
    const knownIds = () => {
      const ids = new Map<string, number>();
      for (const [key, id] of this.seenProducts) if (groups.has(key)) ids.set(key, id);
      for (const [key, now] of existing) ids.set(key, now.id);
      return ids;
    };
    const changedIds = changed.map((p) => existing.get(p.key)?.id);

    const writeBatch = async (query: RawQuery | undefined) => {
      const ids = knownIds();
      if (fresh.length > 0) {
        if (query) {
          const inserted = await query(INSERT_PRODUCTS, [...productColumns(fresh), fresh.map((p) => p.key), fresh.map((p) => p.hash)]);
          for (const r of inserted.rows as { id: number; external_id: string }[]) ids.set(r.external_id, r.id);
        } else for (const p of fresh) ids.set(p.key, this.placeholder--);
      }
      if (changed.length > 0 && query) {
        await query(UPDATE_PRODUCTS, [changedIds, ...productColumns(changed), changed.map((p) => p.hash)]);
        await query('DELETE FROM product_attributes WHERE product_id = ANY($1::int[])', [changedIds]);
      }
      if (changed.length > 0 && query && this.photos) await query('DELETE FROM product_images WHERE product_id = ANY($1::int[])', [changedIds]);
      const images = [...fresh, ...changed].flatMap((p) =>
        (photos.get(p.key) ?? []).map((photo, position) => ({ productId: ids.get(p.key) as number, position, photo, alt: position === 0 ? p.row.name : '' })),
      );
      if (images.length > 0 && query)
        await query(
          `INSERT INTO product_images (product_id, position, url_template, widths, width, height, alt, color, source_url)
           SELECT u.product_id, u.position, u.url_template, u.widths::int[], u.width, u.height, u.alt, u.color, u.source_url
           FROM unnest($1::int[], $2::smallint[], $3::text[], $4::text[], $5::int[], $6::int[], $7::text[], $8::text[], $9::text[])
             AS u(product_id, position, url_template, widths, width, height, alt, color, source_url)`,
          [
            images.map((i) => i.productId),
            images.map((i) => i.position),
            images.map((i) => i.photo.urlTemplate),
            images.map((i) => `{${i.photo.widths.join(',')}}`),
            images.map((i) => i.photo.width),
            images.map((i) => i.photo.height),
            images.map((i) => i.alt),
            images.map((i) => i.photo.color),
            images.map((i) => i.photo.source),
          ],
        );
      const withAttributes = [...fresh, ...changed].flatMap((p) =>
        p.attributes.map((a, position) => ({ productId: ids.get(p.key) as number, ...a, position })),
      );
      if (withAttributes.length > 0 && query)
        await query(
          `INSERT INTO product_attributes (product_id, name, value, position) SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::smallint[])`,
          [
            withAttributes.map((a) => a.productId),
            withAttributes.map((a) => a.name),
            withAttributes.map((a) => a.value),
            withAttributes.map((a) => a.position),
          ],
        );

      const sizes = await planSizes(ids, query ?? q);
      const { inserts, updates } = sizes;
      if (inserts.length > 0 && query)
        await query(
          `INSERT INTO product_variants (product_id, code, label, sort, stock, barcode, external_id)
           SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::smallint[], $5::int[], $6::text[], $7::text[])`,
          [
            inserts.map((v) => v.productId),
            inserts.map((v) => v.code),
            inserts.map((v) => v.label),
            inserts.map((v) => v.sort),
            inserts.map((v) => v.stock),
            inserts.map((v) => v.barcode),
            inserts.map((v) => v.external),
          ],
        );
      if (updates.length > 0 && query)
        await query(
          `UPDATE product_variants v SET product_id = u.product_id, label = u.label, sort = u.sort, stock = u.stock, barcode = u.barcode
           FROM unnest($1::int[], $2::int[], $3::text[], $4::smallint[], $5::int[], $6::text[]) AS u(id, product_id, label, sort, stock, barcode)
           WHERE v.id = u.id`,
          [
            updates.map((v) => v.id),
            updates.map((v) => v.productId),
            updates.map((v) => v.label),
            updates.map((v) => v.sort),
            updates.map((v) => v.stock),
            updates.map((v) => v.barcode),
          ],
        );
      return sizes;
    };
    if (!this.options.dryRun && fresh.length === 0 && changed.length === 0) {
      // Every product is as it was: the sizes alone decide whether anything is written.
      const sizes = await planSizes(knownIds(), q);
      if (sizes.inserts.length === 0 && sizes.updates.length === 0) return settle(sizes);
    }
    settle(this.options.dryRun ? await writeBatch(undefined) : await this.write(writeBatch));
  }

  /**
   * `--prices-stock`: only prices and stock, for offers the catalogue already has (a full import adds the
   * rest). Values are compared first and only what differs is staged for commitPricesStock, so an unchanged
   * file moves nothing.
   */
  async applyPricesStock(offers: readonly SourceOffer[]): Promise<void> {
    const unique = new Map<string, SourceOffer>();
    for (const offer of offers) unique.set(offer.id, offer);
    const prices = new Map<string, { price: number; priceOld: number | null }>();
    for (const offer of unique.values()) {
      const key = `${this.source}:${offer.productKey}`;
      if (!prices.has(key) && !this.seenProducts.has(key)) prices.set(key, { price: offer.price, priceOld: offer.priceOld });
    }
    const q = this.database.query;
    const variants = (
      await q(
        `SELECT v.id, v.external_id, v.stock, p.id AS product_id, p.external_id AS product_key, p.price, p.price_old
           FROM product_variants v JOIN products p ON p.id = v.product_id WHERE v.external_id = ANY($1::text[])`,
        [[...unique.keys()].map((id) => `${this.source}:${id}`)],
      )
    ).rows as { id: number; external_id: string; stock: number; product_id: number; product_key: string; price: number; price_old: number | null }[];
    const byExternal = new Map(variants.map((v) => [v.external_id, v]));
    const stockUpdates: { id: number; stock: number }[] = [];
    const priceUpdates = new Map<number, { price: number; priceOld: number | null }>();
    for (const offer of unique.values()) {
      const now = byExternal.get(`${this.source}:${offer.id}`);
      if (!now) {
        this.problems.push({ severity: 'warning', id: offer.id, line: offer.line, reason: 'not in the catalogue: a full import adds it' });
        continue;
      }
      const stock = this.stockOf(offer);
      const price = prices.get(`${this.source}:${offer.productKey}`);
      let changed = false;
      if (stock !== now.stock) {
        stockUpdates.push({ id: now.id, stock });
        changed = true;
      }
      if (price && (price.price !== now.price || price.priceOld !== now.price_old)) {
        priceUpdates.set(now.product_id, price);
        changed = true;
      }
      if (changed) this.summary.changed++;
      else this.summary.unchanged++;
      this.seenOffers.add(offer.id);
    }
    for (const key of prices.keys()) this.seenProducts.set(key, 0);
    this.staged.stock.push(...stockUpdates);
    for (const [id, price] of priceUpdates) this.staged.prices.set(id, price);
  }

  /**
   * Writes what `applyPricesStock` staged, in one transaction, once the whole file has been read: a file cut
   * short changes nothing. Nothing at all when nothing differs.
   */
  async commitPricesStock(): Promise<void> {
    const { stock, prices } = this.staged;
    if (this.options.dryRun || (stock.length === 0 && prices.size === 0)) return;
    const CHUNK = 10_000;
    await this.write(async (query) => {
      for (let i = 0; i < stock.length; i += CHUNK) {
        const part = stock.slice(i, i + CHUNK);
        await query('UPDATE product_variants v SET stock = u.stock FROM unnest($1::int[], $2::int[]) AS u(id, stock) WHERE v.id = u.id', [
          part.map((u) => u.id),
          part.map((u) => u.stock),
        ]);
      }
      const ids = [...prices.keys()];
      for (let i = 0; i < ids.length; i += CHUNK) {
        const part = ids.slice(i, i + CHUNK);
        await query(
          'UPDATE products p SET price = u.price, price_old = u.price_old FROM unnest($1::int[], $2::int[], $3::int[]) AS u(id, price, price_old) WHERE p.id = u.id',
          [part, part.map((id) => prices.get(id)?.price), part.map((id) => prices.get(id)?.priceOld ?? null)],
        );
      }
    });
  }

  /**
   * After a run that wrote many rows: the planner's statistics brought up to date, and on the embedded
   * database the tables vacuumed too. PGlite has no autovacuum: after a first import of 100,000 offers the
   * next `--prices-stock` spent 12.2 s setting every new row's hint bits instead of 7.8 s; the vacuum takes
   * 0.8 s once (docs/performance.md, issue 23). PostgreSQL's autovacuum does the rest there.
   */
  async tidy(): Promise<void> {
    const { new: added, changed, hidden } = this.summary;
    if (this.options.dryRun || added + changed + hidden < TIDY_AFTER_ROWS) return;
    const tables = 'products, product_variants';
    if (this.database.kind === 'postgres') return void (await this.database.query(`ANALYZE ${tables}`));
    // On PGlite the statistics' sample is taken inside this process: 30,000 product rows (the default
    // target of 100) took the import's memory up by 49 MB, 9,000 (a target of 30) by 11 MB, and the shop's
    // queries over one catalogue need no finer histogram than that.
    await this.database.query('SET default_statistics_target = 30');
    try {
      await this.database.query(`VACUUM (ANALYZE) ${tables}`);
    } finally {
      await this.database.query('RESET default_statistics_target');
    }
  }

  /**
   * After a whole feed: products it no longer lists are hidden (orders refer to them), and sizes of listed
   * products that it no longer lists are sold out. Returns the number of products hidden.
   */
  async hideMissing(): Promise<number> {
    const keys = [...this.seenProducts.keys()];
    const offers = [...this.seenOffers].map((id) => `${this.source}:${id}`);
    // An offer the feed lists but that could not be read keeps its product as it was.
    const unread = this.problems.filter((p) => p.severity === 'error' && p.id && !p.id.startsWith('category:')).map((p) => `${this.source}:${p.id}`);
    const q = this.database.query;
    const missing = `is_active AND (external_id IS NULL OR NOT (external_id = ANY($1::text[])))
      AND id NOT IN (SELECT product_id FROM product_variants WHERE external_id = ANY($2::text[]))`;
    const hide = (await q(`SELECT count(*)::int AS n FROM products WHERE ${missing}`, [keys, unread])).rows[0] as { n: number };
    const gone = `stock > 0 AND external_id LIKE $2 AND NOT (external_id = ANY($1::text[]))
      AND product_id IN (SELECT id FROM products WHERE external_id = ANY($3::text[]))`;
    const soldOut = (await q(`SELECT count(*)::int AS n FROM product_variants WHERE ${gone}`, [offers, `${this.source}:%`, keys])).rows[0] as { n: number };
    if (!this.options.dryRun && (hide.n > 0 || soldOut.n > 0))
      await this.write(async (query) => {
        if (hide.n > 0) await query(`UPDATE products SET is_active = false WHERE ${missing}`, [keys, unread]);
        if (soldOut.n > 0) await query(`UPDATE product_variants SET stock = 0 WHERE ${gone}`, [offers, `${this.source}:%`, keys]);
      });
    this.summary.hidden = hide.n;
    return hide.n;
  }
}
