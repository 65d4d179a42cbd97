// Gift certificates' inputs (issue 56): the purchase form, a code typed at checkout, and the console's
// nominal values. Junk, 10 KB or NUL is a field message, never a 500.
import { z } from '~/lib/zod.ts';
import { emailField, mobilePhoneField, personNameField, textLine } from '~/lib/contact.schema.ts';
import { GIFT_CODES_MAX } from './promotions.gifts.ts';

/** A code as typed: the signs, with spaces or dashes between groups (normalized by the server). */
export const giftCodeField = () =>
  z
    .string()
    .trim()
    .min(1, 'validation.required')
    .max(40, 'gift.codeShape')
    .regex(/^[A-Za-z0-9 -]+$/, 'gift.codeShape');

export const giftCodesField = () => z.array(giftCodeField()).max(GIFT_CODES_MAX, 'gift.tooMany');

/** Plain text without control characters (a NUL or an escape is refused, not stored). */
const plain = (max: number) => textLine(max).regex(/^[^\p{Cc}]*$/u, 'validation.invalid');

/** Buying a certificate: its nominal (one the console offers), who gets it, who pays. */
export const giftPurchaseSchema = z.object({
  /** Kopecks: one of GET /gift-certificates/nominals. */
  nominal: z.number().int().min(1).max(50_000_000),
  recipient: z.object({
    email: emailField(),
    name: plain(100).default(''),
  }),
  from: plain(100).default(''),
  // Lines may break; no other control character.
  message: textLine(500)
    .regex(/^(?:[^\p{Cc}]|\n)*$/u, 'validation.invalid')
    .default(''),
  contact: z.object({ name: personNameField(), email: emailField(), phone: mobilePhoneField() }),
  payment: z.enum(['card', 'sbp']).default('card'),
});
export type GiftPurchaseInput = z.output<typeof giftPurchaseSchema>;

export const giftPurchasedResponse = z.object({
  /** The purchase's order code and result page; the provider's page to pay on. */
  code: z.string(),
  result_url: z.string(),
  payment_url: z.string().nullable(),
});

/** The console's nominal values: add one (roubles, as typed) or remove one (kopecks, from the list). */
export const giftNominalActionSchema = z.discriminatedUnion('action', [
  z.object({
    action: z.literal('add'),
    roubles: z
      .string()
      .trim()
      .regex(/^\d{1,6}$/, 'gift.nominalRange')
      .transform(Number)
      .refine((r) => r >= 100 && r <= 500_000, 'gift.nominalRange'),
  }),
  z.object({ action: z.literal('remove'), amount: z.coerce.number().int().min(1).max(50_000_000) }),
  z.object({ action: z.literal('void'), id: z.coerce.number().int().min(1).max(2_147_483_647) }),
]);

/** The console's list: a search by code or e-mail, and the page. */
export const giftListQuerySchema = z.object({
  q: z.string().trim().max(100).catch(''),
  page: z.coerce.number().int().min(1).max(10_000).catch(1),
});
