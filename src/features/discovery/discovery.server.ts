// Sitemaps and the product feed read from the database (issue 12, docs/operations.md "Search engines and
// marketplaces"). Both are produced in batches of rows read by primary key, so a catalogue of any size
// never sits in memory at once: sitemap files are streamed on request; the feed is written to a gzip file
// under DATA_DIR and renewed in the background once it is older than FEED_REFRESH_MINUTES.
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { and, asc, count, eq, gt, gte, max, sql } from 'drizzle-orm';
import { brandUrl, categoryUrl, imageFromTemplate, productUrl } from '~/features/catalog/catalog.ts';
import { jsonList, listingQuerySchema } from '~/features/catalog/catalog.server.ts';
import { getCatalogIndex, shownPrice } from '~/features/catalog/read-model.server.ts';
import { editorsPagesForSitemap } from '~/features/content/content.server.ts';
import { getDb } from '~/lib/db/index.ts';
import { CRAWLER_FILE } from '~/lib/http/cache.ts';
import { publicMediaUrl } from '~/features/media/media.storage.server.ts';
import { preferredEncoding, streamedBody } from '~/lib/http/compression.ts';
import { brands, categories, colors, productImages, products, productVariants } from '~/lib/db/schema.ts';
import { env } from '~/lib/env.ts';
import { loggableError, logger } from '~/lib/log.ts';
import {
  FEED_TAIL,
  SITEMAP_FILE_URLS,
  SITEMAP_INDEX_CLOSE,
  SITEMAP_INDEX_OPEN,
  URLSET_CLOSE,
  URLSET_OPEN,
  feedHead,
  feedOffers,
  sitemapEntry,
  sitemapFiles,
  urlEntry,
  type FeedCategory,
  type FeedProduct,
} from './discovery.ts';

const BATCH = 2_000;

/** How many products are on sale and when the newest change among them was: one pass over the table. */
async function activeProducts(): Promise<{ total: number; lastmod: Date }> {
  const db = await getDb();
  const [row] = await db
    .select({ total: count(), at: max(products.updatedAt) })
    .from(products)
    .where(eq(products.isActive, true));
  return { total: row?.total ?? 0, lastmod: row?.at ?? new Date(0) };
}

/** The sitemap index: the pages file, then one file per SITEMAP_FILE_URLS active products. */
export async function* sitemapIndex(origin: string): AsyncGenerator<string> {
  const { total, lastmod } = await activeProducts();
  yield SITEMAP_INDEX_OPEN;
  for (const name of sitemapFiles(total)) yield sitemapEntry(`${origin}/sitemaps/${name}.xml`, lastmod);
  yield SITEMAP_INDEX_CLOSE;
}

/**
 * Home, /brands, /catalog (the tree as a page), every category with active products in its subtree, every brand with active products and
 * each brand within each category it stocks, then the editors' pages. A listing's lastmod is its newest
 * product change.
 */
export async function* pagesSitemap(origin: string): AsyncGenerator<string> {
  const db = await getDb();
  const [pairs, categoryRows, brandRows] = await Promise.all([
    db
      .select({ brandId: products.brandId, categoryId: products.categoryId, at: max(products.updatedAt) })
      .from(products)
      .where(eq(products.isActive, true))
      .groupBy(products.brandId, products.categoryId),
    db.select({ id: categories.id, parentId: categories.parentId, slug: categories.slug }).from(categories).orderBy(asc(categories.id)),
    db.select({ id: brands.id, slug: brands.slug }).from(brands).orderBy(asc(brands.id)),
  ]);
  const later = (map: Map<number, Date>, id: number, at: Date) => {
    const seen = map.get(id);
    if (!seen || seen < at) map.set(id, at);
  };
  const parent = new Map(categoryRows.map((c) => [c.id, c.parentId]));
  const perCategory = new Map<number, Date>();
  const perBrand = new Map<number, Date>();
  let newest = new Date(0);
  for (const { brandId, categoryId, at } of pairs) {
    if (!at) continue;
    if (at > newest) newest = at;
    later(perBrand, brandId, at);
    // A category lists its whole subtree, so each ancestor is as new as its newest descendant.
    for (let id: number | null | undefined = categoryId; id != null; id = parent.get(id)) later(perCategory, id, at);
  }

  let out = URLSET_OPEN + urlEntry(`${origin}/`, newest) + urlEntry(`${origin}/brands`, newest) + urlEntry(`${origin}/catalog`, newest);
  for (const c of categoryRows) {
    const at = perCategory.get(c.id);
    if (at) out += urlEntry(origin + categoryUrl(c.id, c.slug), at);
  }
  yield out;
  out = '';
  const slugOf = new Map(brandRows.map((b) => [b.id, b.slug]));
  for (const b of brandRows) {
    const at = perBrand.get(b.id);
    if (at) out += urlEntry(origin + brandUrl(b.id, b.slug), at);
  }
  for (const { brandId, categoryId, at } of [...pairs].sort((a, b) => a.brandId - b.brandId || a.categoryId - b.categoryId)) {
    const slug = slugOf.get(brandId);
    if (at && slug) out += urlEntry(`${origin}${brandUrl(brandId, slug)}/${categoryId}`, at);
  }
  yield out;
  out = '';
  for (const page of await editorsPagesForSitemap()) out += urlEntry(origin + page.url, page.lastmod);
  yield out + URLSET_CLOSE;
}

/** The first id of products file `part` (1-based), or undefined when there is no such file. */
async function firstIdOfPart(part: number): Promise<number | undefined> {
  const db = await getDb();
  const [row] = await db
    .select({ id: products.id })
    .from(products)
    .where(eq(products.isActive, true))
    .orderBy(asc(products.id))
    .offset((part - 1) * SITEMAP_FILE_URLS)
    .limit(1);
  return row?.id;
}

/** Products file `part`: SITEMAP_FILE_URLS active products in id order; null when the file does not exist. */
export async function productsSitemap(origin: string, part: number): Promise<AsyncGenerator<string> | null> {
  const first = await firstIdOfPart(part);
  if (first === undefined) return part === 1 ? emptyUrlset() : null;
  return (async function* () {
    const db = await getDb();
    yield URLSET_OPEN;
    let from = first;
    let left = SITEMAP_FILE_URLS;
    while (left > 0) {
      const rows = await db
        .select({ id: products.id, slug: products.slug, at: products.updatedAt })
        .from(products)
        .where(and(eq(products.isActive, true), gte(products.id, from)))
        .orderBy(asc(products.id))
        .limit(Math.min(BATCH, left));
      if (rows.length === 0) break;
      yield rows.map((r) => urlEntry(origin + productUrl(r.id, r.slug), r.at)).join('');
      left -= rows.length;
      from = (rows.at(-1)?.id ?? from) + 1;
    }
    yield URLSET_CLOSE;
  })();
}

async function* emptyUrlset(): AsyncGenerator<string> {
  yield URLSET_OPEN + URLSET_CLOSE;
}

// ---------------------------------------------------------------- the product feed

interface FeedRow {
  id: number;
  slug: string;
  name: string;
  description: string;
  price: number;
  priceOld: number | null;
  categoryId: number;
  brandId: number;
  brand: string;
  color: string | null;
  images: unknown;
  variants: unknown;
}

/** The whole feed as text, batch by batch: the shop, the category tree, then the offers of active products. */
export async function* feed(origin: string, now = new Date()): AsyncGenerator<string> {
  const db = await getDb();
  const tree: (FeedCategory & { slug: string })[] = await db
    .select({ id: categories.id, parentId: categories.parentId, name: categories.name, slug: categories.slug })
    .from(categories)
    .orderBy(asc(categories.level), asc(categories.sort), asc(categories.id));
  const byId = new Map(tree.map((c) => [c.id, c]));
  const department = (id: number): string => {
    let c = byId.get(id);
    while (c && c.parentId !== null) c = byId.get(c.parentId);
    return c?.slug ?? '';
  };
  yield feedHead({ name: 'Brandshop', company: 'Brandshop', url: `${origin}/`, date: now }, tree);
  // The prices the storefront shows (issue 56): after the automatic promotions its index holds.
  const pricing = await getCatalogIndex();
  let after = 0;
  for (;;) {
    const rows: FeedRow[] = await db
      .select({
        id: products.id,
        slug: products.slug,
        name: products.name,
        description: products.description,
        price: products.price,
        priceOld: products.priceOld,
        categoryId: products.categoryId,
        brandId: products.brandId,
        brand: brands.name,
        color: colors.name,
        images: sql<unknown>`(SELECT json_agg(json_build_object('urlTemplate', ${productImages.urlTemplate}, 'widths', ${productImages.widths},
                 'width', ${productImages.width}, 'height', ${productImages.height}) ORDER BY ${productImages.position})
               FROM ${productImages} WHERE ${productImages.productId} = ${products.id})`,
        variants: sql<unknown>`(SELECT json_agg(json_build_object('id', ${productVariants.id}, 'code', ${productVariants.code}, 'label', ${productVariants.label},
                 'stock', ${productVariants.stock}) ORDER BY ${productVariants.sort}, ${productVariants.id})
               FROM ${productVariants} WHERE ${productVariants.productId} = ${products.id})`,
      })
      .from(products)
      .innerJoin(brands, eq(brands.id, products.brandId))
      .leftJoin(colors, eq(colors.id, products.colorId))
      .where(and(eq(products.isActive, true), gt(products.id, after)))
      .orderBy(asc(products.id))
      .limit(BATCH);
    if (rows.length === 0) break;
    const shownPriceOf = (r: FeedRow) => {
      const shown = shownPrice(pricing, { ...r, discountPercent: 0 });
      return { price: shown.price, priceOld: shown.priceOld };
    };
    yield rows
      .map((r) => {
        const product: FeedProduct = {
          id: r.id,
          url: productUrl(r.id, r.slug),
          name: r.name,
          description: r.description,
          brand: r.brand,
          categoryId: r.categoryId,
          ...shownPriceOf(r),
          color: r.color,
          department: department(r.categoryId),
          pictures: jsonList<{ urlTemplate: string; widths: number[]; width: number; height: number }>(r.images).map(
            (i) => imageFromTemplate(publicMediaUrl(i.urlTemplate), i.widths, i.width, i.height, '').src,
          ),
          variants: jsonList<FeedProduct['variants'][number]>(r.variants),
        };
        return feedOffers(product, origin);
      })
      .join('');
    after = rows.at(-1)?.id ?? after;
  }
  yield FEED_TAIL;
}

const FEED_FILE = 'yandex.yml.gz';
let renewing: Promise<void> | undefined;

function feedDir(): string {
  return join(env().DATA_DIR, 'feeds');
}

/** Writes the feed to a temporary file and moves it into place, so readers only ever see a whole file. */
async function writeFeed(origin: string): Promise<void> {
  const dir = feedDir();
  await mkdir(dir, { recursive: true });
  const temporary = join(dir, `${FEED_FILE}.${process.pid}.tmp`);
  const started = performance.now();
  try {
    await pipeline(
      Readable.from(
        (async function* () {
          for await (const text of feed(origin)) yield Buffer.from(text);
        })(),
      ),
      createGzip({ level: 6 }),
      createWriteStream(temporary),
    );
    await rename(temporary, join(dir, FEED_FILE));
    logger.info({ ms: Math.round(performance.now() - started) }, 'product feed written');
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** One renewal at a time in this process; callers share it. */
function renew(origin: string): Promise<void> {
  renewing ??= writeFeed(origin).finally(() => (renewing = undefined));
  return renewing;
}

/**
 * The feed file to serve: written now when there is none; when it is older than FEED_REFRESH_MINUTES the
 * current one is served and a new one written in the background (a marketplace never waits on it).
 */
export async function feedFile(origin: string): Promise<{ path: string; modified: Date }> {
  const path = join(feedDir(), FEED_FILE);
  let info = await stat(path).catch(() => undefined);
  if (!info) {
    await renew(origin);
    info = await stat(path);
  } else if (Date.now() - info.mtimeMs > env().FEED_REFRESH_MINUTES * 60_000) {
    renew(origin).catch((error: unknown) => logger.error({ err: loggableError(error) }, 'product feed renewal failed'));
  }
  return { path, modified: info.mtime };
}

export function openFeed(path: string): Readable {
  return createReadStream(path);
}

/** An XML answer streamed and compressed as it is produced (or, for the feed, read from its gzip file). */
export function xmlAnswer(request: Request, source: AsyncIterable<string> | Readable, extra: Record<string, string> = {}, gzipped = false): Response {
  const { body, encoding } = streamedBody(source, preferredEncoding(request.headers.get('accept-encoding')), gzipped);
  const headers = new Headers({ 'content-type': 'application/xml; charset=utf-8', vary: 'accept-encoding', ...CRAWLER_FILE, ...extra });
  if (encoding) headers.set('content-encoding', encoding);
  if (request.method === 'HEAD') {
    void body.cancel();
    return new Response(null, { headers });
  }
  return new Response(body, { headers });
}

/** The shop's public address (SITE_URL at run time): every address in these files is absolute. */
export function siteOrigin(): string {
  return new URL(env().SITE_URL).origin;
}

/** Listing parameters that only filter or re-order a category's products: not pages of their own. */
export function listingFilters(): string[] {
  return Object.keys(listingQuerySchema.shape).filter((name) => name !== 'page');
}

/**
 * Housekeeping: the product feed written again once it is older than FEED_REFRESH_MINUTES (or missing),
 * so a marketplace's next fetch finds it fresh without waiting for a visit. True when it was written.
 */
export async function refreshFeedIfDue(): Promise<boolean> {
  const info = await stat(join(feedDir(), FEED_FILE)).catch(() => undefined);
  if (info && Date.now() - info.mtimeMs < env().FEED_REFRESH_MINUTES * 60_000) return false;
  await renew(siteOrigin());
  return true;
}
