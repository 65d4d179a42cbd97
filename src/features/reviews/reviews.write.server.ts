// Writing a review (issue 57, docs/reviews.md): only of a line the writer received — a delivered order's line
// that was kept at the door — reached by the order's holder (its customer signed in, or whoever holds the
// order's hash from the delivery mail). One review a line; it may be changed until a manager publishes it
// (a rejected one is fixed and goes back to the queue). Photos go through the photo pipeline without the
// original (the renditions carry no metadata), the pipeline's limits smaller for a shopper's upload.
import { sql } from 'drizzle-orm';
import { selectRows } from '~/lib/db/client.ts';
import { getDb } from '~/lib/db/index.ts';
import { HttpError } from '~/lib/http/errors.ts';
import { readFormData } from '~/lib/http/limits.ts';
import { enforce } from '~/lib/http/rate-limit.server.ts';
import type { FieldErrors } from '~/lib/http/envelope.ts';
import { PhotoError, storePhoto } from '~/features/media/media.server.ts';
import { mediaStorage } from '~/features/media/media.storage.server.ts';
import { orderByCode, verifyOrderHash } from '~/features/orders/orders.server.ts';
import { ORDER_CODE } from '~/features/orders/orders.ts';
import { photoHash, REVIEW_PHOTO_MAX_BYTES, REVIEW_PHOTO_MAX_PIXELS, REVIEW_PHOTOS_MAX } from './reviews.ts';
import type { ReviewInput } from './reviews.schema.ts';
import type { ReviewPhoto, ReviewText } from './reviews.server.ts';

/** A review form's largest body: five photos at their limit and the texts. */
export const REVIEW_FORM_MAX_BYTES = REVIEW_PHOTOS_MAX * REVIEW_PHOTO_MAX_BYTES + 64 * 1024;

/** A review as its author sees it on the review page (any status; the shop's reply is the product page's). */
export interface OwnReview extends Omit<ReviewText, 'reply'> {
  status: 'pending' | 'approved' | 'rejected' | 'hidden';
  reject_reason: string;
}

export interface ReviewLine {
  id: number;
  product_id: number;
  brand: string;
  name: string;
  variant_label: string;
  image: string;
  /** Received: the order delivered and the line kept at the door. */
  reviewable: boolean;
  review: OwnReview | null;
}

export interface ReviewOrder {
  id: number;
  code: string;
  customer_id: number | null;
  contact_name: string;
  contact_email: string;
  lines: ReviewLine[];
}

/** Whether a review may still be changed by its author. */
export const editable = (review: OwnReview | null) => review === null || review.status === 'pending' || review.status === 'rejected';

/**
 * An order of goods and its lines with their reviews, for the visitor who holds it: the hash of its result
 * page, or (no hash) its customer signed in. Null for anyone else, as for an unknown code.
 */
export async function reviewOrder(code: string, hash: string, customerId: number | null): Promise<ReviewOrder | null> {
  if (!ORDER_CODE.test(code)) return null;
  const order = await orderByCode(code);
  if (!order || order.kind !== 'goods') return null;
  if (!(hash ? await verifyOrderHash(code, hash) : customerId !== null && order.customer_id === customerId)) return null;
  const rows = await selectRows<Omit<ReviewLine, 'review'> & { review: OwnReview | null }>(
    await getDb(),
    sql`SELECT l.id, l.product_id, l.brand, l.name, l.variant_label, l.image,
               (o.delivered_at IS NOT NULL AND coalesce(l.kept, l.quantity) > 0) AS reviewable,
               CASE WHEN r.id IS NULL THEN NULL ELSE jsonb_build_object(
                 'id', r.id, 'status', r.status, 'reject_reason', r.reject_reason, 'author', r.author, 'rating', r.rating, 'fit', r.fit,
                 'size_label', r.size_label, 'liked', r.liked, 'disliked', r.disliked, 'comment', r.comment, 'photos', r.photos) END AS review
          FROM order_lines l JOIN orders o ON o.id = l.order_id LEFT JOIN reviews r ON r.order_line_id = l.id
         WHERE l.order_id = ${order.id} ORDER BY l.id`,
  );
  return {
    id: order.id,
    code: order.code,
    customer_id: order.customer_id,
    contact_name: order.contact_name,
    contact_email: order.contact_email,
    lines: rows.map((r) => ({ ...r, id: Number(r.id), product_id: Number(r.product_id), reviewable: Boolean(r.reviewable) })),
  };
}

/** A review form's fields and its photos, or null when it is not a form or too large (413 then). */
export async function readReviewForm(request: Request): Promise<{ fields: Record<string, string | string[]>; photos: File[] } | 'bad' | 'large'> {
  const form = await readFormData(request, REVIEW_FORM_MAX_BYTES);
  if (typeof form === 'string') return form;
  const fields: Record<string, string | string[]> = {};
  const photos: File[] = [];
  for (const [name, value] of form) {
    if (typeof value !== 'string') {
      // An empty file input sends a nameless, empty part.
      if (name === 'photos' && (value.size > 0 || value.name !== '')) photos.push(value);
      continue;
    }
    const text = value.replace(/\r\n/g, '\n');
    if (name === 'keep_photos') fields[name] = [...((fields[name] as string[] | undefined) ?? []), text];
    else if (!(name in fields)) fields[name] = text;
  }
  return { fields, photos };
}

/** Who writes: for the flood limits. */
export interface Writer {
  address: string;
}

/**
 * Saves the review of one of the order's lines: new, or the author's change of one not yet published (a
 * rejected one goes back to the queue). 403 for a line not received, 409 once published, 422 for photos
 * that cannot be used, 429 past the limits (20 reviews an hour from an address, 10 an hour on one order).
 */
export async function writeReview(order: ReviewOrder, input: ReviewInput, files: File[], writer: Writer): Promise<{ id: number; created: boolean }> {
  const line = order.lines.find((l) => l.id === input.line);
  if (!line || !line.reviewable) throw new HttpError(403, 'reviews.write.notBought');
  if (!editable(line.review)) throw new HttpError(409, 'reviews.write.published');
  const kept = (line.review?.photos ?? []).filter((p) => input.keep_photos.includes(photoHash(p)));
  if (kept.length + files.length > REVIEW_PHOTOS_MAX) throw photoRefusal('reviews.write.tooManyPhotos');
  if (files.some((f) => f.size > REVIEW_PHOTO_MAX_BYTES)) throw photoRefusal('reviews.write.photoTooLarge');
  // Counted before the photos are converted: a flood costs a row in the throttles, not sharp's time.
  await enforce({ key: `review:${writer.address}`, max: 20, windowSeconds: 3600 });
  await enforce({ key: `review:order:${order.id}`, max: 10, windowSeconds: 3600 });
  const photos: ReviewPhoto[] = [...kept];
  for (const file of files) {
    try {
      photos.push(
        await storePhoto(new Uint8Array(await file.arrayBuffer()), mediaStorage(), {
          keepOriginal: false,
          maxBytes: REVIEW_PHOTO_MAX_BYTES,
          maxPixels: REVIEW_PHOTO_MAX_PIXELS,
        }),
      );
    } catch (error) {
      if (error instanceof PhotoError) throw photoRefusal('reviews.write.photoUnusable');
      throw error;
    }
  }
  const db = await getDb();
  const values = {
    author: input.author,
    rating: input.rating,
    fit: input.fit ?? null,
    size: input.size_label,
    liked: input.liked,
    disliked: input.disliked,
    comment: input.comment,
    photos: JSON.stringify(photos),
  };
  const update = () =>
    selectRows<{ id: number }>(
      db,
      sql`UPDATE reviews SET author = ${values.author}, rating = ${values.rating}, fit = ${values.fit}, size_label = ${values.size},
                 liked = ${values.liked}, disliked = ${values.disliked}, comment = ${values.comment}, photos = ${values.photos}::jsonb,
                 status = 'pending', reject_reason = '', updated_at = now()
           WHERE order_line_id = ${line.id} AND status IN ('pending', 'rejected') RETURNING id`,
    );
  if (line.review) {
    const [row] = await update();
    if (!row) throw new HttpError(409, 'reviews.write.published');
    return { id: Number(row.id), created: false };
  }
  const [row] = await selectRows<{ id: number }>(
    db,
    sql`INSERT INTO reviews (product_id, order_line_id, customer_id, source, author, email, rating, fit, size_label, liked, disliked, comment, photos)
        VALUES (${line.product_id}, ${line.id}, ${order.customer_id}, 'customer', ${values.author}, ${order.contact_email}, ${values.rating}, ${values.fit},
                ${values.size}, ${values.liked}, ${values.disliked}, ${values.comment}, ${values.photos}::jsonb)
        ON CONFLICT (order_line_id) DO NOTHING RETURNING id`,
  );
  if (row) return { id: Number(row.id), created: true };
  // The same form sent twice at once: the second is the first one's change.
  const [again] = await update();
  if (!again) throw new HttpError(409, 'reviews.write.published');
  return { id: Number(again.id), created: false };
}

const photoRefusal = (key: 'reviews.write.tooManyPhotos' | 'reviews.write.photoTooLarge' | 'reviews.write.photoUnusable') =>
  new HttpError(422, 'error.validation', { photos: [key] } as FieldErrors);
