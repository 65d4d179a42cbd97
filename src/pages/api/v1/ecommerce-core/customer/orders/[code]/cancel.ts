// Beyond the spec (docs/api.md "Orders"): the order line's cancel action (spec §4: shown when can_cancel is 1).
import { z } from '~/lib/zod.ts';
import { requireCustomer } from '~/features/auth/auth.server.ts';
import { cancelByCustomer } from '~/features/fulfilment/fulfilment.server.ts';
import { orderDetailSchema } from '~/features/orders/orders.schema.ts';
import { orderDetail } from '~/features/orders/orders.server.ts';
import { orderCodeSchema } from '~/features/orders/orders.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { ok } from '~/lib/http/envelope.ts';

export const POST = endpoint({
  summary:
    "Cancels one of the customer's orders while it is pending or processing; a paid one's money goes back to the card first (409 when it can no longer be cancelled; 502 when the provider refuses the refund)",
  failures: [409],
  response: orderDetailSchema,
  params: z.object({ code: orderCodeSchema }),
  async handler({ request, params, locale, t }) {
    const { customer } = await requireCustomer(request);
    return ok(orderDetail(await cancelByCustomer(customer.id, params.code), locale), { message: t('orders.cancelled') });
  },
});
