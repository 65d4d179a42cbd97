// A promotion's code as a shopper types it (issue 56): what the cart and checkout accept, with field
// messages for junk, not a 500 (docs/promotions.md "Codes").
import { z } from '~/lib/zod.ts';

export const PROMO_CODE_MAX = 40;

export const promoCodeField = () =>
  z
    .string()
    .trim()
    .min(1)
    .max(PROMO_CODE_MAX)
    .regex(/^[\p{L}\p{N}_-]+$/u);
