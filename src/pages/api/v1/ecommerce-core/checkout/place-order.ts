// Beyond the spec (docs/api.md): places an order from a guest's items or a customer's selected cart
// lines, in one transaction; the Idempotency-Key header makes a retry answer the first order.
import { z } from 'zod';
import { authenticate, bearerToken } from '~/features/auth/auth.server.ts';
import { idempotencyKeySchema, placeOrderSchema } from '~/features/checkout/checkout.schema.ts';
import { placeOrder } from '~/features/checkout/checkout.server.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { fail, ok } from '~/lib/http/envelope.ts';
import { enforce } from '~/lib/http/rate-limit.server.ts';

export const POST = endpoint({
  summary: 'Places an order (201; 200 with the same order for a repeated Idempotency-Key; 409 short of stock or an empty selection)',
  response: z.object({ code: z.string(), hash: z.string(), total: z.number().int(), status: z.string(), payment_status: z.string(), created: z.boolean() }),
  statuses: [201],
  body: placeOrderSchema,
  async handler({ body, request, context, t }) {
    const key = idempotencyKeySchema.safeParse(request.headers.get('idempotency-key') ?? '');
    if (!key.success) return fail(400, t('checkout.keyRequired'));
    // A Bearer token that is no longer valid is a 401, not a silent guest order.
    const token = bearerToken(request);
    const auth = token ? await authenticate(token) : null;
    if (token && !auth) return fail(401, t('error.unauthorized'));
    await enforce({ key: `checkout:${context.clientAddress}`, max: 200, windowSeconds: 600 });
    const order = await placeOrder(body, { customerId: auth?.customer.id ?? null }, key.data);
    return ok(order, { status: order.created ? 201 : 200, message: t('checkout.placed', { code: order.code }) });
  },
});
