// spec §7: POST customer/cart/remove-item — JSON uid; answers the cart's lines after it.
import { z } from '~/lib/zod.ts';
import { requireCustomer } from '~/features/auth/auth.server.ts';
import { cartLineSchema, removeCartItemBody } from '~/features/cart/cart.schema.ts';
import { cartLinesOf, removeItem } from '~/features/cart/cart.server.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { ok } from '~/lib/http/envelope.ts';

export const POST = endpoint({
  summary: "spec §7: removes a line (404 not this customer's line)",
  failures: [404],
  response: z.array(cartLineSchema),
  body: removeCartItemBody,
  async handler({ request, body, t }) {
    const { customer } = await requireCustomer(request);
    await removeItem(customer.id, body.uid);
    return ok(await cartLinesOf(customer.id), { message: t('cart.removed') });
  },
});
