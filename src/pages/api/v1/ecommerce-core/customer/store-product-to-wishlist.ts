// spec §7: POST customer/store-product-to-wishlist — JSON product_id; answers the wishlist's ids after it.
import { z } from '~/lib/zod.ts';
import { requireCustomer } from '~/features/auth/auth.server.ts';
import { idSchema } from '~/features/catalog/listing.ts';
import { addToWishlist, WISHLIST_LIMIT, wishlistIds } from '~/features/wishlist/wishlist.server.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { fail, ok } from '~/lib/http/envelope.ts';

export const POST = endpoint({
  summary: `spec §7: adds a product to the wishlist (404 unknown product, 409 past ${WISHLIST_LIMIT}); data is the ids after it`,
  failures: [404, 409],
  response: z.object({ ids: z.array(z.number().int()) }),
  body: z.object({ product_id: idSchema }),
  async handler({ request, body, t }) {
    const { customer } = await requireCustomer(request);
    if ((await addToWishlist(customer.id, body.product_id)) === 'limit') return fail(409, t('wishlist.limit', { max: WISHLIST_LIMIT }));
    return ok({ ids: await wishlistIds(customer.id) }, { message: t('wishlist.added') });
  },
});
