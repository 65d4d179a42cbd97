// A promotion's code as a shopper types it (issue 56): what the cart and checkout accept, with field
// messages for junk, not a 500 (docs/promotions.md "Codes").
import { z } from '~/lib/zod.ts';
import type { MessageKey } from '~/lib/i18n/index.ts';

export const PROMO_CODE_MAX = 40;

export const promoCodeField = () =>
  z
    .string()
    .trim()
    .min(1)
    .max(PROMO_CODE_MAX)
    .regex(/^[\p{L}\p{N}_-]+$/u);

/** The kinds of rule a manager picks in the console, as the engine names them. */
export const PROMOTION_KINDS = ['percent', 'amount', 'buy_get', 'order_percent', 'order_amount', 'delivery'] as const;
export const PROMOTION_STATUSES = ['active', 'paused', 'archived'] as const;
export type PromotionStatus = (typeof PROMOTION_STATUSES)[number];

/** The most a promotion's amount, cap or threshold may be: 10 million roubles, in kopecks. */
export const PROMOTION_MONEY_MAX = 1_000_000_000;
/** The most products a promotion names one by one (categories and brands are ticked, not typed). */
export const PROMOTION_PRODUCTS_MAX = 200;
/** The most codes one batch makes. */
export const CODE_BATCH_MAX = 10_000;

/** A field left empty is null; anything typed is read by `inner`, whose message is the one shown. */
const blankOr = <T extends z.ZodType>(inner: T) =>
  z.preprocess((value) => (typeof value === 'string' && value.trim() === '' ? null : value), inner.nullable()).default(null);

/** Roubles as a manager types them ("12 500", "1 500,50"), in kopecks within `min`…`max`. */
const roubles = (message: MessageKey, min: number) =>
  z
    .string()
    .trim()
    .transform((text) => text.replace(/[\s\u00a0]/g, '').replace(',', '.'))
    .pipe(z.string().regex(/^\d{1,8}(\.\d{1,2})?$/, message))
    .transform((text) => Math.round(Number(text) * 100))
    .pipe(z.number().int().min(min, message).max(PROMOTION_MONEY_MAX, message));

const whole = (message: MessageKey, min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d{1,9}$/, message)
    .transform(Number)
    .pipe(z.number().int().min(min, message).max(max, message));

/**
 * A moment as the console's `datetime-local` field sends it, in the shop's time: Moscow keeps UTC+3 all year
 * (no daylight saving since 2014), so the offset is fixed.
 */
const moment = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2})?$/, 'ops.promotion.error.date')
  .transform((text) => new Date(`${text.replace(' ', 'T')}${text.length === 16 ? ':00' : ''}+03:00`))
  .refine((date) => !Number.isNaN(date.getTime()) && date.getUTCFullYear() >= 2000 && date.getUTCFullYear() <= 2100, 'ops.promotion.error.date');

/**
 * The console's promotion form (docs/promotions.md "The console"): every value checked here, so a negative
 * percent, a zero "buy" or an end before the start is the form's message, never a row. The ticked
 * categories, brands and delivery methods come as `category_<id>`, `brand_<id>` and `method_<id>`, read
 * by the server against what exists.
 */
export const promotionFormSchema = z
  .object({
    action: z.literal('save'),
    name: z.string().trim().min(1, 'ops.promotion.error.name').max(120, 'ops.promotion.error.name'),
    kind: z.enum(PROMOTION_KINDS),
    percent: blankOr(whole('ops.promotion.error.percent', 1, 100)),
    amount: blankOr(roubles('ops.promotion.error.amount', 100)),
    buy: blankOr(whole('ops.promotion.error.buyGet', 1, 99)),
    get: blankOr(whole('ops.promotion.error.buyGet', 1, 99)),
    threshold: blankOr(roubles('ops.promotion.error.threshold', 0)),
    cap: blankOr(roubles('ops.promotion.error.cap', 100)),
    applies: z.enum(['all', 'some']),
    products: z
      .string()
      .trim()
      .max(2_000, 'ops.promotion.error.products')
      .regex(/^[\d\s,;]*$/, 'ops.promotion.error.products')
      .transform((text) => [
        ...new Set(
          text
            .split(/[\s,;]+/)
            .filter(Boolean)
            .map(Number),
        ),
      ])
      .refine((ids) => ids.length <= PROMOTION_PRODUCTS_MAX && ids.every((id) => id > 0 && id <= 2_147_483_647), 'ops.promotion.error.products')
      .default([]),
    // Only these sizes (issue 56): labels separated by commas, as the sizes are named (XS, 38, 42/44, One size).
    sizes: z
      .string()
      .trim()
      .max(600, 'ops.promotion.error.sizes')
      .regex(/^[\p{L}\p{N} ./½,;-]*$/u, 'ops.promotion.error.sizes')
      .transform((text) => [
        ...new Set(
          text
            .split(/[,;]+/)
            .map((s) => s.trim().toUpperCase())
            .filter(Boolean),
        ),
      ])
      .refine((sizes) => sizes.length <= 50 && sizes.every((s) => s.length <= 20), 'ops.promotion.error.sizes')
      .default([]),
    needs_code: z.literal('on').optional(),
    status: z.enum(PROMOTION_STATUSES),
    starts_at: blankOr(moment),
    ends_at: blankOr(moment),
    limit_total: blankOr(whole('ops.promotion.error.limit', 1, 10_000_000)),
    limit_per_customer: blankOr(whole('ops.promotion.error.limit', 1, 10_000_000)),
  })
  .catchall(z.string().max(200))
  .superRefine((form, ctx) => {
    const need = (field: 'percent' | 'amount' | 'buy' | 'get' | 'threshold', message: MessageKey) => {
      if (form[field] === null) ctx.addIssue({ code: 'custom', path: [field], message });
    };
    if (form.kind === 'percent' || form.kind === 'order_percent') need('percent', 'ops.promotion.error.percent');
    if (form.kind === 'amount' || form.kind === 'order_amount') need('amount', 'ops.promotion.error.amount');
    if (form.kind === 'buy_get') {
      need('buy', 'ops.promotion.error.buyGet');
      need('get', 'ops.promotion.error.buyGet');
    }
    if (form.starts_at && form.ends_at && form.ends_at <= form.starts_at)
      ctx.addIssue({ code: 'custom', path: ['ends_at'], message: 'ops.promotion.error.dates' });
  });
export type PromotionForm = z.output<typeof promotionFormSchema>;

/** The codes' part of a promotion's page: one code typed, a batch made, or the promotion's status alone. */
export const promotionCodesSchema = z.discriminatedUnion('action', [
  z.object({
    action: z.literal('code'),
    code: z
      .string()
      .trim()
      .min(1, 'ops.promotion.error.code')
      .max(PROMO_CODE_MAX, 'ops.promotion.error.code')
      .regex(/^[\p{L}\p{N}_-]+$/u, 'ops.promotion.error.code'),
    code_limit: blankOr(whole('ops.promotion.error.limit', 1, 10_000_000)),
  }),
  z.object({
    action: z.literal('batch'),
    count: whole('ops.promotion.error.batch', 1, CODE_BATCH_MAX),
    prefix: z
      .string()
      .trim()
      .max(12, 'ops.promotion.error.prefix')
      .regex(/^[A-Za-z0-9]*$/, 'ops.promotion.error.prefix')
      .default(''),
    code_limit: blankOr(whole('ops.promotion.error.limit', 1, 10_000_000)),
  }),
]);
export type PromotionCodesAction = z.infer<typeof promotionCodesSchema>;

/** Everything a promotion's page posts: its form, a code, a batch, or a colleague's note. */
export const promotionActionSchema = z.discriminatedUnion('action', [
  promotionFormSchema,
  ...promotionCodesSchema.options,
  z.object({ action: z.literal('note'), note: z.string().trim().min(1, 'validation.required').max(2000, 'validation.tooLong') }),
]);
export type PromotionAction = z.output<typeof promotionActionSchema>;
