// spec §7: POST customer/cart/store-cart-item — form field item (JSON of id, quantity, uid, optional
// variant_code); the same size joins its line. Answers the cart's lines after it.
import { z } from '~/lib/zod.ts';
import { requireCustomer } from '~/features/auth/auth.server.ts';
import { cartLineSchema, storeCartItemBody } from '~/features/cart/cart.schema.ts';
import { cartLinesOf, storeItem } from '~/features/cart/cart.server.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { ok } from '~/lib/http/envelope.ts';

export const POST = endpoint({
  summary: 'spec §7: adds a product size to the cart (422 past the line maximum with the spec §5 message, 409 out of stock, 404 unknown size)',
  failures: [404, 409],
  response: z.array(cartLineSchema),
  body: storeCartItemBody,
  async handler({ request, body, t }) {
    const { customer } = await requireCustomer(request);
    await storeItem(customer.id, body.item);
    return ok(await cartLinesOf(customer.id), { message: t('cart.added') });
  },
});
