// Checkout's body (issue 9): what a shopper chooses — never a price. A guest names the lines; a customer
// checks out the selected lines of the server cart. A guest with one address fills at most 8 fields.
import { z } from '~/lib/zod.ts';
import { emailField, mobilePhoneField, personNameField, postcodeField, textLine } from '~/lib/contact.schema.ts';
import { cartItemSchema } from '~/features/cart/cart.schema.ts';
import { QUOTE_MAX_CHARS } from '~/features/delivery/delivery.ts';
import { promoCodeField } from '~/features/promotions/promotions.schema.ts';
import { giftCodesField } from '~/features/promotions/promotions.gifts.schema.ts';

export const DELIVERY_METHODS = ['courier', 'pickup', 'post'] as const;
// on_delivery: paid at the door or the pickup point (issue 55), where the shop, the carrier and the point allow it.
// sber_pay: SberPay through YooKassa (issue 55; its API type is `sberbank`).
export const PAYMENT_METHODS = ['card', 'sbp', 'sber_pay', 'on_delivery'] as const;

export const placeOrderSchema = z.object({
  items: z.array(cartItemSchema).min(1).max(100).optional(),
  contact: z.object({ name: personNameField(), email: emailField(), phone: mobilePhoneField() }),
  delivery: z.object({
    method: z.enum(DELIVERY_METHODS),
    city: textLine(100, true),
    address: textLine(300, true),
    postcode: postcodeField(),
    comment: textLine(500).default(''),
    // Delivery by a carrier (issue 38): the offer as sealed by POST /delivery/options, and for a pickup
    // point or postamat the point's code. The quote decides the way and the price, not `method`.
    quote: z.string().min(1).max(QUOTE_MAX_CHARS).optional(),
    point: z.string().trim().min(1).max(50).optional(),
    // Paid at the door (issue 55): trying on, and keeping only part of the order, where the carrier offers them.
    try_on: z.boolean().default(false),
    partial: z.boolean().default(false),
  }),
  payment: z.enum(PAYMENT_METHODS).default('card'),
  /** Kopecks of bonus points and of balance to spend (customers only; capped, see docs/api.md). */
  use_bonus: z.number().int().min(0).max(100_000_000).default(0),
  use_balance: z.number().int().min(0).max(100_000_000).default(0),
  /** A promotion's code the shopper typed (issue 56): letters, digits, '-' and '_', up to 40 (docs/promotions.md). */
  promo_code: promoCodeField().optional(),
  /** Gift certificates' codes (issue 56), up to 5: they pay what is left after points and balance (docs/promotions.md). */
  gift_codes: giftCodesField().optional(),
  /**
   * Kopecks the summary showed promotions taking off (goods and delivery): a promotion ended or edited since
   * then makes placement refuse with 409 instead of charging more than the shopper saw (docs/promotions.md).
   */
  shown_promo_discount: z.number().int().min(0).max(1_000_000_000).optional(),
});
export type PlaceOrderInput = z.output<typeof placeOrderSchema>;

/** What the checkout page's form holds (the lines and the points come from elsewhere). */
export const checkoutFormSchema = placeOrderSchema.pick({ contact: true, delivery: true, payment: true });

/** The summary call's body: what prices an order, without the contact or the address. */
export const summarySchema = placeOrderSchema
  .pick({ items: true, use_bonus: true, use_balance: true, payment: true, promo_code: true, gift_codes: true })
  .extend({
    delivery: z.object({
      method: z.enum(DELIVERY_METHODS),
      quote: z.string().min(1).max(QUOTE_MAX_CHARS).optional(),
      // The point chosen, if any: whether it takes payment on delivery.
      point: z.string().trim().min(1).max(50).optional(),
    }),
  });

const money = z.number().int();
const summaryLine = z.object({
  id: z.number().int(),
  variant_code: z.string(),
  name: z.string(),
  brand: z.string(),
  variant: z.string(),
  image: z.string().nullable(),
  price: money,
  price_old: money.nullable(),
  quantity: z.number().int(),
  /** Kopecks promotions took off this line (issue 56). */
  promo_discount: money,
});

/** The summary's answer: every figure the server computed, in kopecks. */
export const summaryResponse = z.object({
  lines: z.array(summaryLine),
  items_total: money,
  discount_total: money,
  delivery_price: money,
  /** Kopecks promotions took off the goods and off delivery (issue 56), and each promotion applied. */
  promo_discount: money,
  delivery_discount: money,
  promotions: z.array(
    z.object({
      name: z.string(),
      class: z.enum(['item', 'order', 'delivery']),
      amount: money,
      /** The code that brought this promotion in; null for an automatic one. */
      code: z.string().nullable(),
    }),
  ),
  /** The code sent, whether it applies, and why not (in the request's language). */
  promo_code: z.object({ code: z.string(), applied: z.boolean(), reason: z.string().nullable() }).nullable(),
  bonus_available: money,
  bonus_cap: money,
  balance_available: money,
  bonus_used: money,
  balance_used: money,
  /** Each gift certificate typed (issue 56): its code as printed, what this order takes from it, what is left on it, or why not. */
  gift_certificates: z.array(z.object({ code: z.string(), applied: money, left: money, reason: z.string().nullable() })),
  certificate_used: money,
  /** The carrier's fee for taking the money at the door, when the order is paid so and the shop passes it on. */
  cod_fee: money,
  total: money,
  /** Payment on delivery for this order: offered or not, and why not (in the request's language). */
  on_delivery: z.object({ available: z.boolean(), reason: z.string().nullable() }),
  /** Trying on and a partial buy-out, offered for this delivery when it is paid at the door. */
  services: z.object({ try_on: z.boolean(), partial: z.boolean() }),
});
export type CheckoutSummary = z.output<typeof summaryResponse>;

export const placedResponse = z.object({
  code: z.string(),
  hash: z.string(),
  total: money,
  status: z.string(),
  payment_status: z.string(),
  created: z.boolean(),
  /** The provider's page to pay on; null when nothing is left to pay. */
  payment_url: z.string().nullable(),
  /** The order's result page (where a paid order goes at once). */
  result_url: z.string(),
});
export type PlacedAnswer = z.output<typeof placedResponse>;

/** The Idempotency-Key header: one per checkout attempt, made by the client (a UUID does). */
export const idempotencyKeySchema = z.string().regex(/^[\w-]{8,100}$/);
