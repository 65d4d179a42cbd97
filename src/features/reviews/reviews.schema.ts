// Reviews' inputs (issue 57): a shopper's review and the console's moderation. Junk, 10 KB or a NUL is the form's message, never a row.
import { z } from '~/lib/zod.ts';
import { textLine } from '~/lib/contact.schema.ts';
import { FITS, REVIEW_PHOTOS_MAX, REVIEW_TEXT_MAX } from './reviews.ts';

/** Lines may break; no other control character. */
const text = (max: number) => textLine(max).regex(/^(?:[^\p{Cc}]|\n)*$/u, 'validation.invalid');

export const REVIEW_TABS = ['pending', 'approved', 'rejected', 'hidden'] as const;
export type ReviewTab = (typeof REVIEW_TABS)[number];

/** A manager's action on one review (the form names the review by `id`). */
export const reviewActionSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('approve'), id: z.coerce.number().int().min(1).max(2_147_483_647) }),
  z.object({ action: z.literal('hide'), id: z.coerce.number().int().min(1).max(2_147_483_647) }),
  z.object({
    action: z.literal('reject'),
    id: z.coerce.number().int().min(1).max(2_147_483_647),
    reason: text(500).pipe(z.string().min(1, 'reviews.ops.reasonRequired')),
  }),
  z.object({ action: z.literal('reply'), id: z.coerce.number().int().min(1).max(2_147_483_647), reply: text(2_000) }),
]);
export type ReviewAction = z.output<typeof reviewActionSchema>;

export const reviewQueueQuerySchema = z.object({
  tab: z.enum(REVIEW_TABS).catch('pending'),
  page: z.coerce.number().int().min(1).max(10_000).catch(1),
});

/** A stored photo of a review kept on an edit: named by its content's hash. */
const PHOTO_HASH = /^[0-9a-f]{24}$/;

/** A shopper's review of one bought line (the review page's form; up to REVIEW_PHOTOS_MAX photos beside it). */
export const reviewInputSchema = z.object({
  line: z.coerce.number().int().min(1).max(2_147_483_647),
  rating: z.coerce
    .number({ error: 'reviews.write.ratingRequired' })
    .int('reviews.write.ratingRequired')
    .min(1, 'reviews.write.ratingRequired')
    .max(5, 'reviews.write.ratingRequired'),
  fit: z.preprocess((v) => (v === '' ? undefined : v), z.enum(FITS, { error: 'validation.invalid' }).optional()),
  size_label: text(40).default(''),
  author: text(60).pipe(z.string().min(1, 'validation.required')),
  liked: text(REVIEW_TEXT_MAX).default(''),
  disliked: text(REVIEW_TEXT_MAX).default(''),
  comment: text(REVIEW_TEXT_MAX).default(''),
  /** The photos already on the review that stay (an edit); the rest are taken off. */
  keep_photos: z.array(z.string().regex(PHOTO_HASH, 'validation.invalid')).max(REVIEW_PHOTOS_MAX).default([]),
});
export type ReviewInput = z.output<typeof reviewInputSchema>;
