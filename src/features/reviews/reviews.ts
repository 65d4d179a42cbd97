// Reviews with size fit (issue 57, docs/reviews.md): what pages and the server share — the fit answers, the
// fit summary's rule and the review list's query.
import { z } from '~/lib/zod.ts';
import type { MessageKey } from '~/lib/i18n/index.ts';

export const FITS = ['small', 'true', 'large'] as const;
export type Fit = (typeof FITS)[number];

/** A model's fit summary needs at least this many fit answers. */
export const FIT_ANSWERS_MIN = 5;

/**
 * What the size picker says of a model's fit: once it has FIT_ANSWERS_MIN answers, the answer at least half
 * of them give («чаще маломерит — возьмите на размер больше»), or that they differ; nothing before.
 */
export function fitSummary(counts: { small: number; true: number; large: number }): MessageKey | null {
  const total = counts.small + counts.true + counts.large;
  if (total < FIT_ANSWERS_MIN) return null;
  if (counts.small * 2 >= total) return 'reviews.fitSummary.small';
  if (counts.large * 2 >= total) return 'reviews.fitSummary.large';
  if (counts.true * 2 >= total) return 'reviews.fitSummary.true';
  return 'reviews.fitSummary.mixed';
}

export const FIT_LABELS: Record<Fit, MessageKey> = {
  small: 'reviews.fit.small',
  true: 'reviews.fit.true',
  large: 'reviews.fit.large',
};

export const REVIEWS_PER_PAGE = 20;
/** The product page shows the newest few; the rest are on the product's reviews page. */
export const REVIEWS_ON_PRODUCT_PAGE = 5;

/** The reviews page's query: newest or most useful first, one rating, only with photos, the page. */
export const reviewListQuerySchema = z.object({
  sort: z.enum(['new', 'useful']).catch('new'),
  rating: z.coerce.number().int().min(1).max(5).optional().catch(undefined),
  photos: z
    .literal('1')
    .optional()
    .catch(undefined)
    .transform((v) => v === '1'),
  page: z.coerce.number().int().min(1).max(1_000).catch(1),
});
export type ReviewListQuery = z.output<typeof reviewListQuerySchema>;

/** The reviews page's query parameters (page-cache.ts keys its pages by these alone). */
export const REVIEW_LIST_PARAMS = ['sort', 'rating', 'photos', 'page'] as const;

/** What one text of a review may hold (what was liked, what was not, the comment). */
export const REVIEW_TEXT_MAX = 2_000;
/** Photos one review may carry. */
export const REVIEW_PHOTOS_MAX = 5;
/** One photo's bytes as the shopper sends it (a phone's photo is 2–8 MB; five of them and the texts are the adapter's limit). */
export const REVIEW_PHOTO_MAX_BYTES = 10 * 1024 * 1024;
/** Pixels a shopper's photo may have (a 50-megapixel phone's): more is refused before it is decoded. */
export const REVIEW_PHOTO_MAX_PIXELS = 52_000_000;

/** A stored photo's name: the hash of its content its address begins with (what an edit keeps a photo by). */
export const photoHash = (photo: { urlTemplate: string }) => /\/media\/([0-9a-f]+)-w/.exec(photo.urlTemplate)?.[1] ?? '';
