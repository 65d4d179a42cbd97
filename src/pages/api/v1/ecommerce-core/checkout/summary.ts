// Beyond the spec (docs/api.md): what an order would cost now — the checkout page's summary, recomputed
// by the server from the database at every change of delivery, points or balance. Writes nothing.
import { optionalCustomer } from '~/features/auth/auth.server.ts';
import { summaryResponse, summarySchema } from '~/features/checkout/checkout.schema.ts';
import { summarize } from '~/features/checkout/checkout.server.ts';
import { codReasonKey } from '~/features/payments/payments.on-delivery.ts';
import { env } from '~/lib/env.ts';
import { formatPrice } from '~/lib/format.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { ok } from '~/lib/http/envelope.ts';

export const POST = endpoint({
  summary:
    "Prices a checkout: a guest's items or a customer's selected cart lines, delivery, points and balance, and the payment chosen (payment on delivery: whether it is offered for this delivery and point, why not, and its fee); 409 short of stock or nothing selected",
  failures: [409],
  response: summaryResponse,
  body: summarySchema,
  async handler({ body, request, t }) {
    // Any Authorization header that is not a live session is a 401, not a silent guest order.
    const auth = await optionalCustomer(request);
    const p = await summarize(body, { customerId: auth?.customer.id ?? null });
    const { reason } = p.on_delivery;
    return ok({
      ...p,
      on_delivery: {
        available: p.on_delivery.available,
        reason: reason ? t(codReasonKey(reason), { limit: formatPrice(env().COD_MAX_TOTAL * 100) }) : null,
      },
      lines: p.lines.map(({ variant: v, quantity }) => ({
        id: v.product_id,
        variant_code: v.code,
        name: v.name,
        brand: v.brand,
        variant: v.label,
        image: v.image,
        price: Number(v.price),
        price_old: v.price_old === null ? null : Number(v.price_old),
        quantity,
      })),
    });
  },
});
