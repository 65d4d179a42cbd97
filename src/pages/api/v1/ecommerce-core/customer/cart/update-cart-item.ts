// spec §7: POST customer/cart/update-cart-item — JSON item with the line's uid and a new quantity (or its
// selection); data is the updated line.
import { requireCustomer } from '~/features/auth/auth.server.ts';
import { cartLineSchema, updateCartItemBody } from '~/features/cart/cart.schema.ts';
import { updateItem } from '~/features/cart/cart.server.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { ok } from '~/lib/http/envelope.ts';

export const POST = endpoint({
  summary: "spec §7: changes a line's quantity within its bounds or its selection (404 not this customer's line)",
  failures: [404],
  response: cartLineSchema,
  body: updateCartItemBody,
  async handler({ request, body }) {
    const { customer } = await requireCustomer(request);
    return ok(await updateItem(customer.id, body.item));
  },
});
