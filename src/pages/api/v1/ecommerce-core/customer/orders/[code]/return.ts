// Beyond the spec (docs/api.md "Orders"): the order line's return action (spec §4: shown when can_return is 1).
import { z } from '~/lib/zod.ts';
import { requireCustomer } from '~/features/auth/auth.server.ts';
import { requestReturn } from '~/features/orders/orders.actions.server.ts';
import { orderDetailSchema } from '~/features/orders/orders.schema.ts';
import { orderDetail } from '~/features/orders/orders.server.ts';
import { orderCodeSchema } from '~/features/orders/orders.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { ok } from '~/lib/http/envelope.ts';

export const POST = endpoint({
  summary: 'Asks to return a delivered order within 14 days of delivery; the managers are told (409 outside the window or when already asked)',
  failures: [409],
  response: orderDetailSchema,
  params: z.object({ code: orderCodeSchema }),
  async handler({ request, params, locale, t }) {
    const { customer } = await requireCustomer(request);
    return ok(orderDetail(await requestReturn(customer.id, params.code), locale), { message: t('orders.returnRequested') });
  },
});
