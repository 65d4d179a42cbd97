// The cart calls' bodies (spec §7), shared by the endpoints and the tests. Quantities are whole numbers;
// prices never travel from the client (DESIGN §4).
import { z } from '~/lib/zod.ts';
import { idSchema } from '~/features/catalog/catalog.schema.ts';

/** Form fields carry the item as JSON text (spec §7 "form field item"); JSON bodies may send the object. */
function jsonField<T extends z.ZodType>(schema: T) {
  return z.preprocess((value) => {
    if (typeof value !== 'string') return value;
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  }, schema);
}

const quantity = z.number().int('cart.quantityWhole').min(1, 'cart.quantityMin').max(999, 'cart.quantityMax');
const uid = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[\w-]+$/);

export const cartItemSchema = z.object({
  id: idSchema,
  quantity,
  uid: uid.optional(),
  variant_code: z.string().trim().min(1).max(64).optional(),
  is_selected: z.boolean().optional(),
});

export const storeCartItemBody = z.object({ item: jsonField(cartItemSchema) });
export const updateCartItemBody = z.object({
  item: jsonField(z.object({ uid, quantity: quantity.optional(), is_selected: z.boolean().optional() })),
});
export const removeCartItemBody = z.object({ uid });
/** spec §7 validate-cart-items: the lines as the client holds them; unknown fields are ignored. */
export const validateItemsBody = z.object({ items: z.array(cartItemSchema.extend({ quantity: z.number().int().min(0).max(999) })).max(100) });

export const cartLineSchema = z
  .object({
    uid: z.string(),
    id: z.number().int(),
    name: z.string(),
    brand: z.string(),
    brand_id: z.number().int(),
    url: z.string(),
    image: z.string().nullable(),
    price: z.number().int(),
    price_old: z.number().int().nullable(),
    discount_percent: z.number().int(),
    currency_symbol: z.string(),
    variant_code: z.string(),
    variant: z.string(),
    min_item: z.number().int(),
    max_item: z.number().int(),
    quantity: z.number().int(),
    is_available: z.boolean(),
    is_selected: z.boolean(),
  })
  .meta({ id: 'CartLine' });
