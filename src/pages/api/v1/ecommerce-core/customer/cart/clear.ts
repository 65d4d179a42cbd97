// spec §7: POST customer/cart/clear — no payload.
import { z } from '~/lib/zod.ts';
import { requireCustomer } from '~/features/auth/auth.server.ts';
import { cartLineSchema } from '~/features/cart/cart.schema.ts';
import { clearCart } from '~/features/cart/cart.server.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { ok } from '~/lib/http/envelope.ts';

export const POST = endpoint({
  summary: "spec §7: empties the customer's cart",
  response: z.array(cartLineSchema),
  async handler({ request, t }) {
    const { customer } = await requireCustomer(request);
    await clearCart(customer.id);
    return ok([], { message: t('cart.cleared') });
  },
});
