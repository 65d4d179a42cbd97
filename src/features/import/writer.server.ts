// The import's writer (docs/import.md, "Read → map → write"): the mapper's rows written to the catalogue and
// counted in the run's summary. A batch is one transaction, applied whole or not at all. A product and its
// sizes as the last import left them cost no write at all, so a second import of the same file leaves the
// catalogue version where it was. Any database: PGlite or PostgreSQL, plain SQL through unnest().
import type { Database, RawQuery } from '../../lib/db/client.ts';
import { slugify } from '../../lib/slug.ts';
import { emptySummary, type ImportProblem, type ImportSummary, type SourceOffer } from './import.ts';
import {
  planSizes,
  stockOf,
  type CategoryDraft,
  type OfferBatch,
  type ProductPlan,
  type ProductRow,
  type RunState,
  type SizePlan,
  type StoredSize,
} from './mapper.server.ts';
import type { ImportedPhoto, PhotoStep } from './photos.server.ts';

export interface WriteOptions {
  dryRun: boolean;
  /** Stock of a size the source says is available without a count. */
  defaultStock: number;
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

/** Rows written by one run past which the tables are tidied (CatalogueWriter.tidy). */
const TIDY_AFTER_ROWS = 1000;

interface StoredProduct {
  id: number;
  hash: string | null;
  active: boolean;
  price: number;
  priceOld: number | null;
}

/** What one batch writes: products new and changed, their photos, and the ids products have so far. */
interface BatchWrite {
  batch: OfferBatch;
  fresh: ProductPlan[];
  changed: ProductPlan[];
  existing: ReadonlyMap<string, StoredProduct>;
  photos: ReadonlyMap<string, ImportedPhoto[]>;
  /** Whether the run has a photo step: without one, a changed product keeps its photos. */
  withPhotos: boolean;
  stored: ReadonlyMap<string, StoredSize>;
}

async function insertImages(query: RawQuery, plans: readonly ProductPlan[], ids: ReadonlyMap<string, number>, photos: BatchWrite['photos']) {
  const images = plans.flatMap((p) =>
    (photos.get(p.key) ?? []).map((photo, position) => ({ productId: ids.get(p.key) as number, position, photo, alt: position === 0 ? p.row.name : '' })),
  );
  if (images.length === 0) return;
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
}

async function insertAttributes(query: RawQuery, plans: readonly ProductPlan[], ids: ReadonlyMap<string, number>) {
  const rows = plans.flatMap((p) => p.attributes.map((a, position) => ({ productId: ids.get(p.key) as number, ...a, position })));
  if (rows.length === 0) return;
  await query(`INSERT INTO product_attributes (product_id, name, value, position) SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::smallint[])`, [
    rows.map((a) => a.productId),
    rows.map((a) => a.name),
    rows.map((a) => a.value),
    rows.map((a) => a.position),
  ]);
}

async function writeSizes(query: RawQuery, { inserts, updates }: SizePlan) {
  if (inserts.length > 0)
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
  if (updates.length > 0)
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
}

export class CatalogueWriter {
  /** `--prices-stock`'s changes, written together once the file has been read whole. */
  private staged = { stock: [] as { id: number; stock: number }[], prices: new Map<number, { price: number; priceOld: number | null }>() };
  readonly summary: ImportSummary = emptySummary();

  private readonly database: Database;
  private readonly options: WriteOptions;
  private readonly problems: ImportProblem[];
  private readonly tag: string;
  private readonly run: RunState;

  constructor(database: Database, options: WriteOptions, problems: ImportProblem[], tag: string, run: RunState) {
    this.database = database;
    this.options = options;
    this.problems = problems;
    this.tag = tag;
    this.run = run;
  }

  private write<T>(fn: (query: RawQuery) => Promise<T>): Promise<T> {
    return this.database.rawTransaction(fn);
  }

  /** The mapped category tree: new categories added, renamed or moved ones changed, the rest untouched; `ids` learns each one's id. */
  async writeCategories(rows: readonly CategoryDraft[], ids: Map<string, number>): Promise<void> {
    const existing = new Map<string, { id: number; parent_id: number | null; name: string; level: number; sort: number }>();
    const found = (
      await this.database.query('SELECT id, parent_id, name, level, sort, external_id FROM categories WHERE external_id = ANY($1::text[])', [
        rows.map((r) => r.external),
      ])
    ).rows as { id: number; parent_id: number | null; name: string; level: number; sort: number; external_id: string }[];
    for (const r of found) existing.set(r.external_id, r);
    const work = async (query: RawQuery | undefined) => {
      for (const row of rows) {
        const parentId = row.parent === null ? null : (ids.get(row.parent) ?? null);
        const now = existing.get(row.external);
        const values = [parentId, row.name, slugify(row.name) || 'category', row.level, row.sort];
        if (!now) {
          // Another run of the same source (another process, a retried exchange) may have added it meanwhile.
          const inserted = await query?.(
            `INSERT INTO categories (parent_id, name, slug, level, sort, external_id) VALUES ($1, $2, $3, $4, $5, $6)
             ON CONFLICT (external_id) DO UPDATE SET parent_id = EXCLUDED.parent_id, name = EXCLUDED.name, slug = EXCLUDED.slug,
               level = EXCLUDED.level, sort = EXCLUDED.sort
             RETURNING id`,
            [...values, row.external],
          );
          ids.set(row.external, inserted ? (inserted.rows[0] as { id: number }).id : this.run.placeholder());
        } else {
          ids.set(row.external, now.id);
          if (now.name !== row.name || now.parent_id !== parentId || now.level !== row.level || now.sort !== row.sort)
            await query?.('UPDATE categories SET parent_id = $2, name = $3, slug = $4, level = $5, sort = $6 WHERE id = $1', [now.id, ...values]);
        }
      }
    };
    if (this.options.dryRun) await work(undefined);
    else await this.write(work);
  }

  /** The stored products of these plans, by external key. */
  private async storedProducts(plans: readonly ProductPlan[]): Promise<Map<string, StoredProduct>> {
    const existing = new Map<string, StoredProduct>();
    if (plans.length === 0) return existing;
    const rows = (
      await this.database.query('SELECT id, external_id, import_hash, is_active, price, price_old FROM products WHERE external_id = ANY($1::text[])', [
        plans.map((p) => p.key),
      ])
    ).rows as { id: number; external_id: string; import_hash: string | null; is_active: boolean; price: number; price_old: number | null }[];
    for (const r of rows) existing.set(r.external_id, { id: r.id, hash: r.import_hash, active: r.is_active, price: r.price, priceOld: r.price_old });
    return existing;
  }

  /** The stored sizes of the batch's offers, by external key. */
  private async storedSizes(batch: OfferBatch): Promise<Map<string, StoredSize>> {
    const keys = [...batch.unique.values()].map((o) => `${this.tag}:${o.id}`);
    const rows = (
      await this.database.query('SELECT id, external_id, product_id, label, stock, barcode, sort FROM product_variants WHERE external_id = ANY($1::text[])', [
        keys,
      ])
    ).rows as { id: number; external_id: string; product_id: number; label: string; stock: number; barcode: string; sort: number }[];
    return new Map(rows.map((r) => [r.external_id, { id: r.id, productId: r.product_id, label: r.label, stock: r.stock, barcode: r.barcode, sort: r.sort }]));
  }

  /**
   * One batch, in one transaction: new products inserted, changed ones rewritten with their attributes and
   * photos, sizes added or changed. Photos of new products and of those that may have changed are fetched and
   * converted before the transaction opens. A product whose pictures failed last time differs until they are
   * resolved, so its pictures are tried again every run; whether it changed is decided on what they gave this time.
   */
  async writeOffers(batch: OfferBatch, plans: readonly ProductPlan[], photoStep: PhotoStep | undefined): Promise<void> {
    const existing = await this.storedProducts(plans);
    const fresh = plans.filter((p) => !existing.has(p.key));
    const differs = (p: ProductPlan) => {
      const now = existing.get(p.key);
      return now !== undefined && (now.hash !== p.hash || !now.active || now.price !== p.row.price || now.priceOld !== p.row.priceOld);
    };
    const candidates = plans.filter(differs);
    const photos = photoStep && !this.options.dryRun ? await photoStep.resolve([...fresh, ...candidates]) : new Map<string, ImportedPhoto[]>();
    const stored = await this.storedSizes(batch);
    const work: BatchWrite = { batch, fresh, changed: candidates.filter(differs), existing, photos, withPhotos: photoStep !== undefined, stored };
    if (!this.options.dryRun && work.fresh.length === 0 && work.changed.length === 0) {
      // Every product is as it was: the sizes alone decide whether anything is written.
      const sizes = await this.sizes(work, this.knownIds(work), this.database.query);
      if (sizes.inserts.length === 0 && sizes.updates.length === 0) return this.settle(batch, sizes);
    }
    this.settle(batch, this.options.dryRun ? await this.writeBatch(work, undefined) : await this.write((query) => this.writeBatch(work, query)));
  }

  /** The batch's products that already have an id: met earlier in this run, or in the database. */
  private knownIds({ batch, existing }: BatchWrite): Map<string, number> {
    const ids = new Map<string, number>();
    for (const [key, id] of this.run.seenProducts) if (batch.groups.has(key)) ids.set(key, id);
    for (const [key, now] of existing) ids.set(key, now.id);
    return ids;
  }

  /** The batch's sizes planned against the stored ones, with the codes its products' sizes already hold. */
  private async sizes(work: BatchWrite, ids: ReadonlyMap<string, number>, read: RawQuery): Promise<SizePlan> {
    const codesTaken = new Set<string>();
    const productIds = [...new Set([...work.batch.groups.keys()].map((k) => ids.get(k)).filter((id): id is number => id !== undefined && id > 0))];
    if (productIds.length > 0)
      for (const r of (await read('SELECT code FROM product_variants WHERE product_id = ANY($1::int[])', [productIds])).rows as { code: string }[])
        codesTaken.add(r.code);
    const written = new Set([...work.fresh, ...work.changed].map((p) => p.key));
    return planSizes({
      batch: work.batch,
      ids,
      stored: work.stored,
      codesTaken,
      run: this.run,
      written,
      tag: this.tag,
      defaultStock: this.options.defaultStock,
    });
  }

  private async writeBatch(work: BatchWrite, query: RawQuery | undefined): Promise<SizePlan> {
    const ids = this.knownIds(work);
    const { fresh, changed } = work;
    if (fresh.length > 0) {
      if (query) {
        const inserted = await query(INSERT_PRODUCTS, [...productColumns(fresh), fresh.map((p) => p.key), fresh.map((p) => p.hash)]);
        for (const r of inserted.rows as { id: number; external_id: string }[]) ids.set(r.external_id, r.id);
      } else for (const p of fresh) ids.set(p.key, this.run.placeholder());
    }
    if (!query) return this.sizes(work, ids, this.database.query);
    const changedIds = changed.map((p) => work.existing.get(p.key)?.id);
    if (changed.length > 0) {
      await query(UPDATE_PRODUCTS, [changedIds, ...productColumns(changed), changed.map((p) => p.hash)]);
      await query('DELETE FROM product_attributes WHERE product_id = ANY($1::int[])', [changedIds]);
      // Without the photo step (--skip-photos) a changed product keeps the photos it has.
      if (work.withPhotos) await query('DELETE FROM product_images WHERE product_id = ANY($1::int[])', [changedIds]);
    }
    await insertImages(query, [...fresh, ...changed], ids, work.photos);
    await insertAttributes(query, [...fresh, ...changed], ids);
    const sizes = await this.sizes(work, ids, query);
    await writeSizes(query, sizes);
    return sizes;
  }

  private settle(batch: OfferBatch, sizes: SizePlan): void {
    this.summary.new += sizes.counts.new;
    this.summary.changed += sizes.counts.changed;
    this.summary.unchanged += sizes.counts.unchanged;
    for (const [key, sort] of sizes.sorts) this.run.sizesPerProduct.set(key, sort);
    for (const key of batch.groups.keys()) this.run.seenProducts.set(key, sizes.ids.get(key) as number);
    for (const offer of batch.unique.values()) this.run.seenOffers.add(offer.id);
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
      const key = `${this.tag}:${offer.productKey}`;
      if (!prices.has(key) && !this.run.seenProducts.has(key)) prices.set(key, { price: offer.price, priceOld: offer.priceOld });
    }
    const variants = (
      await this.database.query(
        `SELECT v.id, v.external_id, v.stock, p.id AS product_id, p.external_id AS product_key, p.price, p.price_old
           FROM product_variants v JOIN products p ON p.id = v.product_id WHERE v.external_id = ANY($1::text[])`,
        [[...unique.keys()].map((id) => `${this.tag}:${id}`)],
      )
    ).rows as { id: number; external_id: string; stock: number; product_id: number; product_key: string; price: number; price_old: number | null }[];
    const byExternal = new Map(variants.map((v) => [v.external_id, v]));
    for (const offer of unique.values()) {
      const now = byExternal.get(`${this.tag}:${offer.id}`);
      if (!now) {
        this.problems.push({ severity: 'warning', id: offer.id, line: offer.line, reason: 'not in the catalogue: a full import adds it' });
        continue;
      }
      const stock = stockOf(offer, this.options.defaultStock);
      const price = prices.get(`${this.tag}:${offer.productKey}`);
      let changed = false;
      if (stock !== now.stock) {
        this.staged.stock.push({ id: now.id, stock });
        changed = true;
      }
      if (price && (price.price !== now.price || price.priceOld !== now.price_old)) {
        this.staged.prices.set(now.product_id, price);
        changed = true;
      }
      if (changed) this.summary.changed++;
      else this.summary.unchanged++;
      this.run.seenOffers.add(offer.id);
    }
    for (const key of prices.keys()) this.run.seenProducts.set(key, 0);
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
    const keys = [...this.run.seenProducts.keys()];
    const offers = [...this.run.seenOffers].map((id) => `${this.tag}:${id}`);
    // An offer the feed lists but that could not be read keeps its product as it was.
    const unread = this.problems.filter((p) => p.severity === 'error' && p.id && !p.id.startsWith('category:')).map((p) => `${this.tag}:${p.id}`);
    const q = this.database.query;
    const missing = `is_active AND (external_id IS NULL OR NOT (external_id = ANY($1::text[])))
      AND id NOT IN (SELECT product_id FROM product_variants WHERE external_id = ANY($2::text[]))`;
    const hide = (await q(`SELECT count(*)::int AS n FROM products WHERE ${missing}`, [keys, unread])).rows[0] as { n: number };
    const gone = `stock > 0 AND external_id LIKE $2 AND NOT (external_id = ANY($1::text[]))
      AND product_id IN (SELECT id FROM products WHERE external_id = ANY($3::text[]))`;
    const soldOut = (await q(`SELECT count(*)::int AS n FROM product_variants WHERE ${gone}`, [offers, `${this.tag}:%`, keys])).rows[0] as { n: number };
    if (!this.options.dryRun && (hide.n > 0 || soldOut.n > 0))
      await this.write(async (query) => {
        if (hide.n > 0) await query(`UPDATE products SET is_active = false WHERE ${missing}`, [keys, unread]);
        if (soldOut.n > 0) await query(`UPDATE product_variants SET stock = 0 WHERE ${gone}`, [offers, `${this.tag}:%`, keys]);
      });
    this.summary.hidden = hide.n;
    return hide.n;
  }
}
