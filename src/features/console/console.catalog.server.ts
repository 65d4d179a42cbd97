// The console's catalogue (issue 24, admins): find a product by name, article or brand; change its price,
// old price, stock per size and visibility; add, reorder and remove its photos through the photo pipeline.
// Every write moves the catalogue version (the triggers of migration 0003, and the product touched when only
// its photos change), so the storefront's index and cached pages follow within seconds; every change is a
// line of the audit log with the values before and after.
import { sql, type SQL } from 'drizzle-orm';
import { z } from '~/lib/zod.ts';
import { selectRows } from '~/lib/db/client.ts';
import { getDb } from '~/lib/db/index.ts';
import { HttpError } from '~/lib/http/errors.ts';
import { likePattern, listCursorField, listSearchField, roublesField } from '~/features/ops/ops.ts';
import { audit, type Actor } from '~/features/ops/ops.audit.server.ts';
import { MAX_PHOTO_BYTES, PhotoError, storePhoto } from '~/features/media/media.server.ts';
import { mediaStorage } from '~/features/media/media.storage.server.ts';
import type { Parcel } from '~/features/delivery/delivery.ts';
import { ITEM_PARCEL } from '~/features/delivery/delivery.parcel.ts';
import { itemParcels } from '~/features/delivery/delivery.parcel.server.ts';
import { gtin14 } from '~/features/marking/marking.ts';
import { categoryMarked } from '~/features/marking/marking.server.ts';
import { catalogueChanged } from '../catalog/read-model.server.ts';

export const PRODUCTS_PAGE_SIZE = 50;
/** A photo uploaded in the console: the pipeline's own limit. */
export const PHOTO_UPLOAD_MAX_BYTES = MAX_PHOTO_BYTES;
/** The photos one product may have. */
export const MAX_PHOTOS = 20;

export const consoleProductsQuerySchema = z.object({
  q: listSearchField(),
  hidden: z.literal('1').optional().catch(undefined),
  after: listCursorField(),
});
export type ConsoleProductsQuery = z.infer<typeof consoleProductsQuerySchema>;

export interface ConsoleProductRow extends Record<string, unknown> {
  id: number;
  name: string;
  brand: string;
  vendor_code: string;
  price: number;
  price_old: number | null;
  is_active: boolean;
  stock: number;
  photo: string | null;
}

export async function consoleProducts(query: ConsoleProductsQuery) {
  const where: SQL[] = [];
  const q = query.q?.trim();
  if (q) {
    const id = /^#\s*(\d{1,9})$/.exec(q);
    // An article matches whole (case aside); the name, brand, category and colour in search_text by words.
    where.push(id ? sql`p.id = ${Number(id[1])}` : sql`(lower(p.vendor_code) = ${q.toLowerCase()} OR lower(p.search_text) LIKE ${likePattern(q)})`);
  }
  if (query.hidden) where.push(sql`NOT p.is_active`);
  if (query.after) where.push(sql`p.id < ${query.after}`);
  const rows = await selectRows<ConsoleProductRow>(
    await getDb(),
    sql`SELECT p.id, p.name, b.name AS brand, p.vendor_code, p.price, p.price_old, p.is_active,
               (SELECT coalesce(sum(v.stock), 0)::int FROM product_variants v WHERE v.product_id = p.id) AS stock,
               (SELECT replace(i.url_template, '{w}', '360') FROM product_images i WHERE i.product_id = p.id ORDER BY i.position, i.id LIMIT 1) AS photo
          FROM products p JOIN brands b ON b.id = p.brand_id
          WHERE ${where.length ? sql.join(where, sql` AND `) : sql`TRUE`}
          ORDER BY p.id DESC LIMIT ${PRODUCTS_PAGE_SIZE + 1}`,
  );
  const more = rows.length > PRODUCTS_PAGE_SIZE;
  const page = rows.slice(0, PRODUCTS_PAGE_SIZE);
  return { rows: page, next: more ? (page.at(-1)?.id ?? null) : null };
}

export interface ConsoleProduct {
  product: ConsoleProductRow & { slug: string; category: string; own_parcel: boolean; marked: boolean | null };
  /** Whether the product's category (or a parent) is marked by MARKED_CATEGORIES: what "as the category" means. */
  markedByCategory: boolean;
  /** One item as a carrier is told it (docs/delivery.md "Parcels"): its own or its category's default. */
  parcel: Parcel;
  variants: { id: number; label: string; code: string; stock: number; barcode: string }[];
  photos: { id: number; url: string; position: number }[];
}

export async function consoleProduct(id: number): Promise<ConsoleProduct | null> {
  const db = await getDb();
  const [product] = await selectRows<ConsoleProduct['product']>(
    db,
    sql`SELECT p.id, p.name, p.slug, b.name AS brand, c.name AS category, p.vendor_code, p.price, p.price_old, p.is_active,
               (p.weight_g IS NOT NULL OR p.length_cm IS NOT NULL) AS own_parcel, p.marked,
               (SELECT coalesce(sum(v.stock), 0)::int FROM product_variants v WHERE v.product_id = p.id) AS stock, NULL AS photo
          FROM products p JOIN brands b ON b.id = p.brand_id JOIN categories c ON c.id = p.category_id WHERE p.id = ${id}`,
  );
  if (!product) return null;
  const [variants, photos, parcels, markedByCategory] = await Promise.all([
    selectRows<ConsoleProduct['variants'][number]>(
      db,
      sql`SELECT id, label, code, stock, barcode FROM product_variants WHERE product_id = ${id} ORDER BY sort, id`,
    ),
    selectRows<ConsoleProduct['photos'][number]>(
      db,
      sql`SELECT id, replace(url_template, '{w}', '360') AS url, position FROM product_images WHERE product_id = ${id} ORDER BY position, id`,
    ),
    itemParcels([id]),
    categoryMarked(id),
  ]);
  return { product, markedByCategory, variants, photos, parcel: parcels.get(id) ?? ITEM_PARCEL };
}

/** Roubles as typed ("12 500", "12500,50"), in kopecks; '' is "none" for the old price. */
const price = roublesField('ops.product.priceInvalid', { digits: 8, min: 100, max: 1_000_000_000 });

const stockField = z
  .string()
  .trim()
  .regex(/^\d{1,6}$/, 'ops.product.stockInvalid')
  .transform(Number);

const imageId = z.coerce.number().int().positive().max(2_147_483_647);

export const productActionSchema = z.discriminatedUnion('action', [
  z
    .object({
      action: z.literal('save'),
      price,
      price_old: z
        .union([
          z
            .string()
            .trim()
            .length(0)
            .transform(() => null),
          price,
        ])
        .default(null),
      visible: z.literal('on').optional(),
    })
    // Stock per size comes as stock_<variant id>: read below, against the product's own sizes.
    .catchall(z.string().max(200)),
  z
    .object({ action: z.literal('marking'), marked: z.enum(['category', 'yes', 'no']) })
    // Each size's GTINs come as gtin_<variant id>: read below, against the product's own sizes.
    .catchall(z.string().max(200)),
  z.object({ action: z.literal('photo_up'), image: imageId }),
  z.object({ action: z.literal('photo_down'), image: imageId }),
  z.object({ action: z.literal('photo_delete'), image: imageId }),
  z.object({ action: z.literal('photo_add') }),
]);
export type ProductAction = z.infer<typeof productActionSchema>;

/** The product's whole state the audit log keeps before and after a save. */
type Saved = { price: number; price_old: number | null; visible: boolean; stock: Record<string, number> };

/** Carries out one of the product page's actions; what the page confirms. */
export async function productAction(id: number, action: ProductAction, actor: Actor, files: Record<string, File>): Promise<string> {
  const done = await changeProduct(id, action, actor, files);
  // The manager's next look at the shop shows the change (this process's pages; others within their poll).
  if (done !== 'unchanged') void catalogueChanged();
  return done;
}

async function changeProduct(id: number, action: ProductAction, actor: Actor, files: Record<string, File>): Promise<string> {
  const view = await consoleProduct(id);
  if (!view) throw new HttpError(404, 'error.notFound');
  const db = await getDb();
  const key = String(id);
  const photoOf = (imageId: number) => {
    const photo = view.photos.find((p) => p.id === imageId);
    // Another product's photo, or one just removed: nothing to do here.
    if (!photo) throw new HttpError(404, 'ops.product.noSuchPhoto');
    return photo;
  };
  const touch = sql`UPDATE products SET updated_at = now() WHERE id = ${id}`;
  switch (action.action) {
    case 'save': {
      const stock: Record<string, number> = {};
      for (const variant of view.variants) {
        const given = action[`stock_${variant.id}`];
        if (given === undefined) continue;
        const parsed = stockField.safeParse(given);
        if (!parsed.success) throw new HttpError(422, 'ops.product.stockInvalid');
        stock[variant.label] = parsed.data;
      }
      if (action.price_old !== null && action.price_old <= action.price) throw new HttpError(422, 'ops.product.oldPriceLower');
      const before: Saved = {
        price: view.product.price,
        price_old: view.product.price_old,
        visible: view.product.is_active,
        stock: Object.fromEntries(view.variants.map((v) => [v.label, v.stock])),
      };
      const after: Saved = { price: action.price, price_old: action.price_old, visible: action.visible === 'on', stock: { ...before.stock, ...stock } };
      if (JSON.stringify(before) === JSON.stringify(after)) return 'unchanged';
      await db.transaction(async (tx) => {
        await tx.execute(
          sql`UPDATE products SET price = ${after.price}, price_old = ${after.price_old}, is_active = ${after.visible}, updated_at = now() WHERE id = ${id}`,
        );
        for (const variant of view.variants) {
          const to = after.stock[variant.label];
          if (to !== undefined && to !== variant.stock) await tx.execute(sql`UPDATE product_variants SET stock = ${to} WHERE id = ${variant.id}`);
        }
      });
      // Only what changed, both ways: the log reads "price: 1200000 → 990000", not the whole product.
      const changed = (Object.keys(after) as (keyof Saved)[]).filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]));
      await audit(
        actor,
        'product.save',
        'product',
        key,
        Object.fromEntries(changed.map((k) => [k, before[k]])),
        Object.fromEntries(changed.map((k) => [k, after[k]])),
      );
      return 'saved';
    }
    case 'marking': {
      const barcodes: Record<number, string> = {};
      for (const variant of view.variants) {
        const given = action[`gtin_${variant.id}`];
        if (given === undefined) continue;
        const parts = given
          .split(/[\s,;]+/)
          .map((b) => b.trim())
          .filter(Boolean);
        // Every barcode a GTIN with its check digit: a typo here would refuse every code of the size at packing.
        if (parts.some((b) => gtin14(b) === null)) throw new HttpError(422, 'ops.product.gtinInvalid', undefined, undefined, { size: variant.label });
        barcodes[variant.id] = [...new Set(parts)].join(',');
      }
      const marked = action.marked === 'category' ? null : action.marked === 'yes';
      const before = { marked: view.product.marked, barcodes: Object.fromEntries(view.variants.map((v) => [v.label, v.barcode])) };
      const after = {
        marked,
        barcodes: Object.fromEntries(view.variants.map((v) => [v.label, barcodes[v.id] ?? v.barcode])),
      };
      if (JSON.stringify(before) === JSON.stringify(after)) return 'unchanged';
      await db.transaction(async (tx) => {
        await tx.execute(sql`UPDATE products SET marked = ${marked}, updated_at = now() WHERE id = ${id}`);
        for (const variant of view.variants) {
          const to = barcodes[variant.id];
          if (to !== undefined && to !== variant.barcode) await tx.execute(sql`UPDATE product_variants SET barcode = ${to} WHERE id = ${variant.id}`);
        }
      });
      await audit(actor, 'product.marking', 'product', key, before, after);
      return 'marking';
    }
    case 'photo_up':
    case 'photo_down': {
      const at = view.photos.indexOf(photoOf(action.image));
      const other = view.photos[action.action === 'photo_up' ? at - 1 : at + 1];
      if (!other) return 'photos';
      const order = view.photos.map((p) => p.id);
      order[at] = other.id;
      order[view.photos.indexOf(other)] = action.image;
      await db.transaction(async (tx) => {
        // Positions rewritten 0…n-1: older photos may share a position.
        for (const [position, photoId] of order.entries()) await tx.execute(sql`UPDATE product_images SET position = ${position} WHERE id = ${photoId}`);
        await tx.execute(touch);
      });
      await audit(actor, 'product.photos', 'product', key, { order: view.photos.map((p) => p.id) }, { order });
      return 'photos';
    }
    case 'photo_delete': {
      const photo = photoOf(action.image);
      await db.transaction(async (tx) => {
        await tx.execute(sql`DELETE FROM product_images WHERE id = ${photo.id}`);
        await tx.execute(touch);
      });
      await audit(actor, 'product.photo_delete', 'product', key, { photo: photo.url }, null);
      return 'photos';
    }
    case 'photo_add': {
      const file = files['photo'];
      if (!file || file.size === 0) throw new HttpError(422, 'ops.product.photoMissing');
      if (view.photos.length >= MAX_PHOTOS) throw new HttpError(409, 'ops.product.tooManyPhotos', undefined, undefined, { max: MAX_PHOTOS });
      let stored;
      try {
        stored = await storePhoto(new Uint8Array(await file.arrayBuffer()), mediaStorage());
      } catch (error) {
        if (error instanceof PhotoError) throw new HttpError(422, 'ops.product.photoUnusable');
        throw error;
      }
      const position = view.photos.length === 0 ? 0 : Math.max(...view.photos.map((p) => p.position)) + 1;
      await db.transaction(async (tx) => {
        await tx.execute(
          sql`INSERT INTO product_images (product_id, position, url_template, widths, width, height, alt, color)
              VALUES (${id}, ${position}, ${stored.urlTemplate}, ${`{${stored.widths.join(',')}}`}::int[], ${stored.width}, ${stored.height}, ${view.product.name}, ${stored.color})`,
        );
        await tx.execute(touch);
      });
      await audit(actor, 'product.photo_add', 'product', key, null, { photo: stored.urlTemplate.replace('{w}', '360') });
      return 'photos';
    }
  }
}
