// The import's mapper (docs/import.md, "Read → map → write"): the records every reader yields — SourceCategory
// and SourceOffer, the same from a YML feed and from 1C's CommerceML — turned into the shop's rows: categories
// by the source's ids, brands by name whatever the case and script, colours, one product per group of offers
// with its attributes, parcel and prices, and a size per offer with its stock and GTINs. It reads and adds
// only what rows point at (brands, colours, the fallback category); the writer (writer.server.ts) writes the
// rest. Reached from the CLI import and the 1C exchange alike through import.pipeline.server.ts.
import { createHash } from 'node:crypto';
import type { Database } from '../../lib/db/client.ts';
import { COLORS } from '../../lib/seed/vocabulary.ts';
import { slugify } from '../../lib/slug.ts';
import { t } from '../../lib/i18n/index.ts';
import aliasesFile from './brand-aliases.json' with { type: 'json' };
import { ONE_SIZE, type ImportProblem, type SourceCategory, type SourceOffer } from './import.ts';

/** Bumped when the mapping changes what a product row holds: every product is then rewritten once. */
const MAPPING_VERSION = 3;
export const UNCATEGORIZED = { external: 'import:uncategorized', name: t('ru', 'import.uncategorized') };
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

/** What the import writes of a product, as the mapping makes it. */
export interface ProductRow {
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

export interface ProductPlan {
  key: string;
  row: ProductRow;
  attributes: { name: string; value: string }[];
  /** Over the row (prices apart), the attributes and the pictures the product gets: all of the offer's until they are resolved. */
  hash: string;
  pictures: string[];
  offer: SourceOffer;
}

/** One category as the shop stores it, by external keys (`<source>:<id>`); parents before children. */
export interface CategoryDraft {
  external: string;
  parent: string | null;
  name: string;
  level: number;
  sort: number;
}

/** A batch of offers, one per id (the later of two wins), grouped by the product they are sizes of. */
export interface OfferBatch {
  unique: Map<string, SourceOffer>;
  groups: Map<string, SourceOffer[]>;
}

/** What one run has met so far, shared by the mapper and the writer: later offers of a group add sizes only. */
export interface RunState {
  /** Products written (or found) in this run, by their external key. */
  seenProducts: Map<string, number>;
  seenOffers: Set<string>;
  sizesPerProduct: Map<string, number>;
  /** Ids handed out where nothing is written (--dry-run), counting down from -1. */
  placeholder: () => number;
}

export function newRunState(): RunState {
  let next = -1;
  return { seenProducts: new Map(), seenOffers: new Set(), sizesPerProduct: new Map(), placeholder: () => next-- };
}

const sha = (value: unknown) => createHash('sha1').update(JSON.stringify(value)).digest('base64url');

/**
 * products.import_hash: what the import wrote of a product — its row without the prices (`--prices-stock`
 * changes them apart), its attributes, and the pictures it has. A picture that could not be fetched is not
 * among them, so the same feed with the same picture failing again matches what is stored: the product is
 * unchanged, and nothing moves the catalogue version. Once the picture comes, the product differs and is
 * written again. The shape is the one stored before, so products whose photos all came keep their hash.
 */
export const productHash = (row: ProductRow, attributes: readonly { name: string; value: string }[], pictures: readonly string[]) => {
  const { price: _price, priceOld: _priceOld, weightG, lengthCm, widthCm, heightCm, ...hashed } = row;
  // The parcel joins the hash only when the feed gives one: products without keep the hash they had.
  const parcel = [weightG, lengthCm, widthCm, heightCm];
  return sha([MAPPING_VERSION, hashed, attributes, pictures, ...(parcel.some((v) => v !== null) ? [parcel] : [])]);
};

/** The stock a size gets: the source's count, else the default when it says available, else none. */
export const stockOf = (offer: SourceOffer, defaultStock: number): number => offer.stock ?? (offer.available ? defaultStock : 0);

/**
 * The source's category tree as the shop's rows, parents first. A category declared twice is the later one;
 * an undeclared parent or a loop makes a category top-level; each costs a warning line.
 */
export function mapCategories(source: readonly SourceCategory[], tag: string, problems: ImportProblem[]): CategoryDraft[] {
  const byId = new Map<string, SourceCategory>();
  for (const c of source) {
    if (byId.has(c.id))
      problems.push({ severity: 'warning', id: `category:${c.id}`, line: c.line, reason: 'the category id is declared twice: the later one is used' });
    byId.set(c.id, c);
  }
  const parentOf = (c: SourceCategory): string | null => (c.parentId !== null && byId.has(c.parentId) ? c.parentId : null);
  const depth = new Map<string, number>();
  // Depth by walking up; -1 for a loop.
  const levelOf = (c: SourceCategory): number => {
    const known = depth.get(c.id);
    if (known !== undefined) return known;
    const trail = new Set<string>([c.id]);
    let level = 0;
    for (let at = parentOf(c); at !== null; at = parentOf(byId.get(at) as SourceCategory)) {
      if (trail.has(at)) return -1;
      trail.add(at);
      level++;
    }
    depth.set(c.id, level);
    return level;
  };
  const rows: CategoryDraft[] = [];
  [...byId.values()].forEach((c, sort) => {
    let parent = parentOf(c);
    if (c.parentId !== null && parent === null)
      problems.push({
        severity: 'warning',
        id: `category:${c.id}`,
        line: c.line,
        reason: `the parent category ${c.parentId} is not in the feed: a top-level category`,
      });
    let level = levelOf(c);
    if (level < 0) {
      problems.push({ severity: 'warning', id: `category:${c.id}`, line: c.line, reason: 'the categories form a loop: this one is made top-level' });
      parent = null;
      level = 0;
      depth.set(c.id, 0);
    }
    rows.push({ external: `${tag}:${c.id}`, parent: parent === null ? null : `${tag}:${parent}`, name: c.name, level, sort });
  });
  return rows.sort((a, b) => a.level - b.level);
}

/** A batch's offers, each id once (the later wins, the earlier costs a line), grouped by their product's key. */
export function groupOffers(offers: readonly SourceOffer[], tag: string, seenOffers: ReadonlySet<string>, problems: ImportProblem[]): OfferBatch {
  const unique = new Map<string, SourceOffer>();
  for (const offer of offers) {
    if (seenOffers.has(offer.id) || unique.has(offer.id))
      problems.push({ severity: 'warning', id: offer.id, line: offer.line, reason: 'the offer id appears again in the feed: the later offer is used' });
    unique.set(offer.id, offer);
  }
  const groups = new Map<string, SourceOffer[]>();
  for (const offer of unique.values()) {
    const key = `${tag}:${offer.productKey}`;
    groups.set(key, [...(groups.get(key) ?? []), offer]);
  }
  return { unique, groups };
}

/** A product's row from the first offer of its group, with the ids of what it points at. */
function productRow(first: SourceOffer, ids: Pick<ProductRow, 'brandId' | 'categoryId' | 'colorId'>): ProductRow {
  return {
    ...ids,
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
}

/** The offer's attributes, with its article (vendorCode) as one unless the source named one so. */
function productAttributes(first: SourceOffer): { name: string; value: string }[] {
  const attributes = [...first.attributes];
  if (first.vendorCode && !attributes.some((a) => a.name === ARTICLE)) attributes.push({ name: ARTICLE, value: first.vendorCode });
  return attributes;
}

/** A size the catalogue lacks, and one whose fields changed. */
export interface NewSize {
  productId: number;
  code: string;
  label: string;
  sort: number;
  stock: number;
  barcode: string;
  external: string;
}
export type ChangedSize = Omit<NewSize, 'code' | 'external'> & { id: number };
export type StoredSize = Omit<ChangedSize, 'id'> & { id: number };

export interface SizePlan {
  inserts: NewSize[];
  updates: ChangedSize[];
  counts: { new: number; changed: number; unchanged: number };
  ids: ReadonlyMap<string, number>;
  sorts: Map<string, number>;
}

/**
 * The batch's sizes against those stored: new ones with a code unique in the shop (`codesTaken` holds the
 * codes of the batch's products), changed ones, and how many of each; a size of a new or changed product
 * counts as changed.
 */
export function planSizes(input: {
  batch: OfferBatch;
  ids: ReadonlyMap<string, number>;
  stored: ReadonlyMap<string, StoredSize>;
  codesTaken: Set<string>;
  run: RunState;
  written: ReadonlySet<string>;
  tag: string;
  defaultStock: number;
}): SizePlan {
  const { batch, ids, stored, codesTaken, run, written, tag, defaultStock } = input;
  const plan: SizePlan = { inserts: [], updates: [], counts: { new: 0, changed: 0, unchanged: 0 }, ids, sorts: new Map() };
  for (const [key, group] of batch.groups) {
    const productId = ids.get(key) as number;
    let sort = run.sizesPerProduct.get(key) ?? 0;
    for (const offer of group) {
      const external = `${tag}:${offer.id}`;
      const size = { productId, label: offer.size ?? ONE_SIZE, sort, stock: stockOf(offer, defaultStock), barcode: offer.barcodes.join(',') };
      const now = stored.get(external);
      if (!now) {
        const base = `${productId}-${slugify(size.label) || 'os'}`;
        let code = base;
        for (let n = 2; codesTaken.has(code); n++) code = `${base}-${n}`;
        codesTaken.add(code);
        plan.inserts.push({ ...size, code, external });
        plan.counts.new++;
      } else if (now.productId !== productId || now.label !== size.label || now.stock !== size.stock || now.barcode !== size.barcode || now.sort !== sort) {
        plan.updates.push({ id: now.id, ...size });
        plan.counts.changed++;
      } else if (written.has(key)) plan.counts.changed++;
      else plan.counts.unchanged++;
      sort++;
    }
    plan.sorts.set(key, sort);
  }
  return plan;
}

/**
 * Maps one source's records onto the shop's catalogue. Holds what matching needs — brands (names, Cyrillic
 * names, aliases), colours, the categories imported — and adds a brand, a colour or the fallback category
 * when an offer names one the catalogue lacks (nothing under --dry-run: a placeholder id instead).
 */
export class CatalogueMapper {
  private brands = new Map<string, number>();
  private colors = new Map<string, number>();
  /** Categories by external key, as loaded and as the writer adds them. */
  readonly categories = new Map<string, number>();

  private readonly database: Database;
  private readonly tag: string;
  private readonly dryRun: boolean;
  private readonly problems: ImportProblem[];
  private readonly run: RunState;

  constructor(database: Database, tag: string, dryRun: boolean, problems: ImportProblem[], run: RunState) {
    this.database = database;
    this.tag = tag;
    this.dryRun = dryRun;
    this.problems = problems;
    this.run = run;
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

  /** The source's category tree as rows, parents first (the writer adds and changes them). */
  mapCategories(source: readonly SourceCategory[]): CategoryDraft[] {
    return mapCategories(source, this.tag, this.problems);
  }

  /** The batch's offers, each id once, grouped by product. */
  group(offers: readonly SourceOffer[]): OfferBatch {
    return groupOffers(offers, this.tag, this.run.seenOffers, this.problems);
  }

  /** The products of the batch not met earlier in this run, each from the first offer of its group. */
  async products(batch: OfferBatch): Promise<ProductPlan[]> {
    const plans: ProductPlan[] = [];
    for (const [key, group] of batch.groups) {
      if (this.run.seenProducts.has(key)) continue;
      const first = group[0] as SourceOffer;
      const brandId = await this.brandId(first.vendor, first);
      const row = productRow(first, { brandId, categoryId: await this.categoryId(first), colorId: await this.colorId(first.color) });
      const attributes = productAttributes(first);
      plans.push({ key, row, attributes, hash: productHash(row, attributes, first.pictures), pictures: first.pictures, offer: first });
    }
    return plans;
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
    let id = this.run.placeholder();
    if (!this.dryRun) {
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
    let id = this.run.placeholder();
    if (!this.dryRun) {
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
    const known = offer.categoryId === null ? undefined : this.categories.get(`${this.tag}:${offer.categoryId}`);
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
    const id = this.dryRun ? this.run.placeholder() : await this.uncategorized();
    this.categories.set(UNCATEGORIZED.external, id);
    return id;
  }

  /** «Без категории», found or added. */
  private async uncategorized(): Promise<number> {
    const q = this.database.query;
    const found = (await q('SELECT id FROM categories WHERE external_id = $1', [UNCATEGORIZED.external])).rows[0] as { id: number } | undefined;
    if (found) return found.id;
    const inserted = await q(
      "INSERT INTO categories (parent_id, name, slug, level, sort, external_id) VALUES (NULL, $1, 'bez-kategorii', 0, 100000, $2) RETURNING id",
      [UNCATEGORIZED.name, UNCATEGORIZED.external],
    );
    return (inserted.rows[0] as { id: number }).id;
  }
}
