// spec §7: POST customer/product-remove-from-wishlist — JSON product_id; answers the wishlist's ids after it.
import { z } from '~/lib/zod.ts';
import { requireCustomer } from '~/features/auth/auth.server.ts';
import { idSchema } from '~/features/catalog/listing.ts';
import { removeFromWishlist, wishlistIds } from '~/features/wishlist/wishlist.server.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { ok } from '~/lib/http/envelope.ts';

export const POST = endpoint({
  summary: 'spec §7: removes a product from the wishlist (absent is fine); data is the ids after it',
  failures: [404],
  response: z.object({ ids: z.array(z.number().int()) }),
  body: z.object({ product_id: idSchema }),
  async handler({ request, body, t }) {
    const { customer } = await requireCustomer(request);
    await removeFromWishlist(customer.id, body.product_id);
    return ok({ ids: await wishlistIds(customer.id) }, { message: t('wishlist.removed') });
  },
});
