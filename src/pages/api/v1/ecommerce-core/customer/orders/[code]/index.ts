// Beyond the spec (docs/api.md "Orders"): one of the customer's orders with its lines, status history
// and tracking; another customer's order code answers 404, as an unknown one does.
import { z } from '~/lib/zod.ts';
import { requireCustomer } from '~/features/auth/auth.server.ts';
import { orderDetailSchema } from '~/features/orders/orders.schema.ts';
import { orderByCode, orderDetail } from '~/features/orders/orders.server.ts';
import { orderCodeSchema } from '~/features/orders/orders.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { ok } from '~/lib/http/envelope.ts';
import { notFound } from '~/lib/http/errors.ts';

export const GET = endpoint({
  summary: "One of the customer's orders: lines (spec §3 order line), status history, tracking (404 for anyone else's)",
  response: orderDetailSchema,
  params: z.object({ code: orderCodeSchema }),
  async handler({ request, params, locale }) {
    const { customer } = await requireCustomer(request);
    const order = await orderByCode(params.code);
    if (!order || order.customer_id !== customer.id) throw notFound();
    return ok(orderDetail(order, locale));
  },
});
