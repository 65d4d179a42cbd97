// spec §7: GET customer/cart/cart-items-list — the customer's cart lines, priced now.
import { z } from '~/lib/zod.ts';
import { requireCustomer } from '~/features/auth/auth.server.ts';
import { cartLineSchema } from '~/features/cart/cart.schema.ts';
import { cartLinesOf } from '~/features/cart/cart.server.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { ok } from '~/lib/http/envelope.ts';

export const GET = endpoint({
  summary: "spec §7: the customer's cart lines with current prices, availability and limits",
  response: z.array(cartLineSchema),
  async handler({ request }) {
    const { customer } = await requireCustomer(request);
    return ok(await cartLinesOf(customer.id));
  },
});
