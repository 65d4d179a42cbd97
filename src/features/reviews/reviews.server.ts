// Reviews in the database (issue 57, migration 0038): the approved reviews a product's pages show — newest or
// most useful first, by rating, with photos — and their counts. Only approved ones ever leave this file for a
// storefront page; the figures on the product row are the triggers' (one source for ratings).
import { sql } from 'drizzle-orm';
import { selectRows } from '~/lib/db/client.ts';
import { getDb } from '~/lib/db/index.ts';
import { REVIEWS_PER_PAGE, type Fit, type ReviewListQuery } from './reviews.ts';

export interface ReviewPhoto {
  urlTemplate: string;
  widths: number[];
  width: number;
  height: number;
  color: string;
}

/** What a review says, as its author wrote it (and the shop's reply): the storefront's and the console's. */
export interface ReviewText {
  id: number;
  author: string;
  rating: number;
  fit: Fit | null;
  size_label: string;
  liked: string;
  disliked: string;
  comment: string;
  photos: ReviewPhoto[];
  reply: string;
}

/** One review as a storefront page shows it. */
export interface PublicReview extends ReviewText {
  useful: number;
  published_at: string;
  /** Bought here (a demo review is not). */
  verified: boolean;
}

interface ReviewRow extends ReviewText, Record<string, unknown> {
  useful: number;
  published_at: Date | string;
  source: string;
}

const toPublic = (r: ReviewRow): PublicReview => ({
  id: Number(r.id),
  author: r.author,
  rating: Number(r.rating),
  fit: r.fit,
  size_label: r.size_label,
  liked: r.liked,
  disliked: r.disliked,
  comment: r.comment,
  photos: r.photos,
  reply: r.reply,
  useful: Number(r.useful),
  published_at: new Date(r.published_at).toISOString(),
  verified: r.source === 'customer',
});

/**
 * A product's approved reviews for one page of its list, with how many match and how many there are of each
 * rating (the filter's counts).
 */
export async function productReviews(
  productId: number,
  query: Pick<ReviewListQuery, 'sort' | 'rating' | 'photos' | 'page'>,
  perPage = REVIEWS_PER_PAGE,
): Promise<{ reviews: PublicReview[]; total: number; byRating: Record<1 | 2 | 3 | 4 | 5, number>; withPhotos: number }> {
  const db = await getDb();
  const where = sql`product_id = ${productId} AND status = 'approved'
    ${query.rating ? sql`AND rating = ${query.rating}` : sql``}
    ${query.photos ? sql`AND jsonb_array_length(photos) > 0` : sql``}`;
  const order = query.sort === 'useful' ? sql`useful DESC, published_at DESC, id DESC` : sql`published_at DESC, id DESC`;
  const rows = await selectRows<ReviewRow>(
    db,
    sql`SELECT id, author, rating, fit, size_label, liked, disliked, comment, photos, reply, useful, published_at, source
          FROM reviews WHERE ${where} ORDER BY ${order} LIMIT ${perPage} OFFSET ${(query.page - 1) * perPage}`,
  );
  const [matching] = await selectRows<{ n: number }>(db, sql`SELECT count(*) AS n FROM reviews WHERE ${where}`);
  const [counts] = await selectRows<{ r1: number; r2: number; r3: number; r4: number; r5: number; photos: number }>(
    db,
    sql`SELECT count(*) FILTER (WHERE rating = 1) AS r1, count(*) FILTER (WHERE rating = 2) AS r2, count(*) FILTER (WHERE rating = 3) AS r3,
               count(*) FILTER (WHERE rating = 4) AS r4, count(*) FILTER (WHERE rating = 5) AS r5,
               count(*) FILTER (WHERE jsonb_array_length(photos) > 0) AS photos
          FROM reviews WHERE product_id = ${productId} AND status = 'approved'`,
  );
  return {
    reviews: rows.map(toPublic),
    total: Number(matching?.n ?? 0),
    byRating: { 1: Number(counts?.r1 ?? 0), 2: Number(counts?.r2 ?? 0), 3: Number(counts?.r3 ?? 0), 4: Number(counts?.r4 ?? 0), 5: Number(counts?.r5 ?? 0) },
    withPhotos: Number(counts?.photos ?? 0),
  };
}

/**
 * A visitor finds a review useful: counted once per visitor (a customer, or the browser's vote cookie). The
 * review's count as it is now and whether this vote was new; null when no approved review has this id.
 */
export async function voteUseful(reviewId: number, voter: string): Promise<{ useful: number; counted: boolean; productId: number } | null> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const [review] = await selectRows<{ product_id: number }>(
      tx,
      sql`SELECT product_id FROM reviews WHERE id = ${reviewId} AND status = 'approved' FOR UPDATE`,
    );
    if (!review) return null;
    const added = await selectRows(
      tx,
      sql`INSERT INTO review_votes (review_id, voter) VALUES (${reviewId}, ${voter}) ON CONFLICT DO NOTHING RETURNING review_id`,
    );
    const [row] = await selectRows<{ useful: number }>(
      tx,
      added.length > 0
        ? sql`UPDATE reviews SET useful = useful + 1 WHERE id = ${reviewId} RETURNING useful`
        : sql`SELECT useful FROM reviews WHERE id = ${reviewId}`,
    );
    return { useful: Number(row?.useful ?? 0), counted: added.length > 0, productId: Number(review.product_id) };
  });
}
