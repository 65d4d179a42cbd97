// spec §7: POST cart/validate-cart-items — JSON items (the lines as the client holds them); the answer's
// items are those lines priced and bounded now, lines whose product or size is gone left out.
import { z } from '~/lib/zod.ts';
import { cartLineSchema, validateItemsBody } from '~/features/cart/cart.schema.ts';
import { validateItems } from '~/features/cart/cart.server.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { ok } from '~/lib/http/envelope.ts';

export const POST = endpoint({
  summary: 'spec §7: lines checked against the catalogue (current price, availability, limits)',
  failures: [404],
  response: z.object({ items: z.array(cartLineSchema) }),
  body: validateItemsBody,
  async handler({ body }) {
    return ok({ items: await validateItems(body.items) });
  },
});
