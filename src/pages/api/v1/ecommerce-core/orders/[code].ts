// Beyond the spec (docs/api.md "Orders"): an order for whoever holds its signed hash — the guest who
// placed it (the hash is in the result page's address and the confirmation e-mail). A wrong hash is a 404.
import { z } from '~/lib/zod.ts';
import { orderDetailSchema } from '~/features/orders/orders.schema.ts';
import { orderByCode, orderDetail, verifyOrderHash } from '~/features/orders/orders.server.ts';
import { orderCodeSchema } from '~/features/orders/orders.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { ok } from '~/lib/http/envelope.ts';
import { notFound } from '~/lib/http/errors.ts';

export const GET = endpoint({
  summary: 'An order by its code and signed hash (?hash=, from the result page): what a guest sees of their order (404 on a wrong hash)',
  response: orderDetailSchema,
  params: z.object({ code: orderCodeSchema }),
  query: z.object({ hash: z.string().max(64).default('') }),
  async handler({ params, query, locale }) {
    const order = query.hash && (await verifyOrderHash(params.code, query.hash)) ? await orderByCode(params.code) : null;
    if (!order) throw notFound();
    return ok(orderDetail(order, locale));
  },
});
