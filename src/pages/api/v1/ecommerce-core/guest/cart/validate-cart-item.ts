// spec §7: POST guest/cart/validate-cart-item — form field item; data is the line as the shop sees it
// now (price, availability, min/max, the quantity brought within them).
import { cartLineSchema, storeCartItemBody } from '~/features/cart/cart.schema.ts';
import { validateItems } from '~/features/cart/cart.server.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { ok } from '~/lib/http/envelope.ts';
import { notFound } from '~/lib/http/errors.ts';

export const POST = endpoint({
  summary: "spec §7: a guest's line checked against the catalogue (404 unknown product or size)",
  failures: [404],
  response: cartLineSchema,
  body: storeCartItemBody,
  async handler({ body }) {
    const [line] = await validateItems([body.item]);
    if (!line) throw notFound();
    return ok(line);
  },
});
