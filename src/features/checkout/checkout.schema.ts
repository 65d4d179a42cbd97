// Checkout's body (issue 9): what a shopper chooses — never a price. A guest names the lines; a customer
// checks out the selected lines of the server cart. A guest with one address fills at most 8 fields.
import { z } from 'zod';
import { emailField, mobilePhoneField, personNameField, postcodeField, textLine } from '~/lib/contact.schema.ts';
import { cartItemSchema } from '~/features/cart/cart.schema.ts';

export const DELIVERY_METHODS = ['courier', 'pickup', 'post'] as const;
export const PAYMENT_METHODS = ['card', 'sbp'] as const;

export const placeOrderSchema = z.object({
  items: z.array(cartItemSchema).min(1).max(100).optional(),
  contact: z.object({ name: personNameField(), email: emailField(), phone: mobilePhoneField() }),
  delivery: z.object({
    method: z.enum(DELIVERY_METHODS),
    city: textLine(100, true),
    address: textLine(300, true),
    postcode: postcodeField(),
    comment: textLine(500).default(''),
  }),
  payment: z.enum(PAYMENT_METHODS).default('card'),
  /** Kopecks of bonus points and of balance to spend (customers only; capped, see docs/api.md). */
  use_bonus: z.number().int().min(0).max(100_000_000).default(0),
  use_balance: z.number().int().min(0).max(100_000_000).default(0),
});
export type PlaceOrderInput = z.output<typeof placeOrderSchema>;

/** The Idempotency-Key header: one per checkout attempt, made by the client (a UUID does). */
export const idempotencyKeySchema = z.string().regex(/^[\w-]{8,100}$/);
