// spec §7: POST customer/get-customer-wishlist-product — the signed-in customer's wishlist as product cards.
import { z } from '~/lib/zod.ts';
import { requireCustomer } from '~/features/auth/auth.server.ts';
import { productCardSchema } from '~/features/catalog/catalog.schema.ts';
import { wishlistProducts } from '~/features/wishlist/wishlist.server.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { ok } from '~/lib/http/envelope.ts';

export const POST = endpoint({
  summary: "spec §7: the customer's wishlist, newest first (401 without a session)",
  response: z.array(productCardSchema),
  async handler({ request }) {
    const { customer } = await requireCustomer(request);
    return ok(await wishlistProducts(customer.id));
  },
});
