// Beyond the spec (docs/api.md "Orders"): the signed-in customer's orders, newest first.
import { z } from '~/lib/zod.ts';
import { requireCustomer } from '~/features/auth/auth.server.ts';
import { orderSummarySchema } from '~/features/orders/orders.schema.ts';
import { customerOrders } from '~/features/orders/orders.server.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { ok } from '~/lib/http/envelope.ts';

export const GET = endpoint({
  summary: "The customer's orders, newest first (the latest 100)",
  response: z.array(orderSummarySchema),
  async handler({ request, locale }) {
    const { customer } = await requireCustomer(request);
    return ok(await customerOrders(customer.id, locale));
  },
});
