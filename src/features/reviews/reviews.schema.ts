// Reviews' inputs (issue 57): the console's moderation. Junk, 10 KB or a NUL is the form's message, never a row.
import { z } from '~/lib/zod.ts';
import { textLine } from '~/lib/contact.schema.ts';

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
