// Beyond the spec (docs/api.md "Orders"): the order line's return action (spec §4: shown when can_return is 1).
import { z } from '~/lib/zod.ts';
import { requireCustomer } from '~/features/auth/auth.server.ts';
import { returnThroughCarrier } from '~/features/delivery/delivery.shipments.server.ts';
import { requestReturn } from '~/features/fulfilment/fulfilment.server.ts';
import { orderDetailSchema } from '~/features/orders/orders.schema.ts';
import { orderByCode, orderDetail } from '~/features/orders/orders.server.ts';
import { orderCodeSchema } from '~/features/orders/orders.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { ok } from '~/lib/http/envelope.ts';

export const POST = endpoint({
  summary:
    'Asks to return a delivered order within 14 days of delivery; the managers are told, and an order delivered by a carrier that takes client returns (CDEK) is returned through it — `delivery.carrier.return` says how to hand it in (409 outside the window or when already asked)',
  failures: [409],
  response: orderDetailSchema,
  params: z.object({ code: orderCodeSchema }),
  async handler({ request, params, locale, t }) {
    const { customer } = await requireCustomer(request);
    const asked = await requestReturn(customer.id, params.code);
    // Made with the carrier where it can (issue 55): the buyer then hands the parcel in at its point.
    const order = (await returnThroughCarrier(params.code)) ? ((await orderByCode(params.code)) ?? asked) : asked;
    return ok(orderDetail(order, locale), { message: t('orders.returnRequested') });
  },
});
