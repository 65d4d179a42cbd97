// Beyond the spec (docs/operations.md "Orders"): the operator's calls behind `npm run order`, for the
// holder of the operator token (header x-operator-token): read an order, move it along, set its tracking.
import { z } from '~/lib/zod.ts';
import { operatorUpdate } from '~/features/fulfilment/fulfilment.server.ts';
import { orderDetailSchema } from '~/features/orders/orders.schema.ts';
import { orderByCode, orderDetail } from '~/features/orders/orders.server.ts';
import { ORDER_STATUSES, orderCodeSchema } from '~/features/orders/orders.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { ok } from '~/lib/http/envelope.ts';
import { forbidden, notFound } from '~/lib/http/errors.ts';
import { isOperator } from '~/lib/operator-token.ts';

const params = z.object({ code: orderCodeSchema });
const line = (max: number) => z.string().trim().min(1).max(max);

export const GET = endpoint({
  summary: 'The operator reads an order (403 without the operator token)',
  response: orderDetailSchema,
  params,
  async handler({ request, params: { code }, locale }) {
    if (!isOperator(request.headers.get('x-operator-token'))) throw forbidden();
    const order = await orderByCode(code);
    if (!order) throw notFound();
    return ok(orderDetail(order, locale));
  },
});

export const POST = endpoint({
  summary:
    'The operator moves an order along its statuses, sets the tracking id or records a tracking event (403 without the operator token; 409 for a move backwards)',
  failures: [409],
  response: orderDetailSchema,
  params,
  body: z.object({
    status: z.enum(ORDER_STATUSES).optional(),
    tracking_id: z
      .string()
      .trim()
      .regex(/^[\w-]{4,40}$/)
      .optional(),
    event: z.object({ status: line(200), place: z.string().trim().max(200).default('') }).optional(),
    note: line(200).optional(),
  }),
  async handler({ request, params: { code }, body, locale, context }) {
    if (!isOperator(request.headers.get('x-operator-token'))) throw forbidden();
    return ok(orderDetail(await operatorUpdate(code, body, { operatorId: null, name: 'operator-token', ip: context.clientAddress }), locale));
  },
});
