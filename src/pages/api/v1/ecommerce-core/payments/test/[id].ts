// Beyond the spec (docs/api.md): the built-in test provider's payment page submits here — a card, a
// 3-D Secure code, SBP or a refusal. The provider settles its side, then tells the shop as a real one
// would notify it, and answers where to send the shopper.
import { z } from '~/lib/zod.ts';
import { notified } from '~/features/payments/payments.server.ts';
import { payTestPayment } from '~/features/payments/test-provider.server.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { ok } from '~/lib/http/envelope.ts';
import { notFound } from '~/lib/http/errors.ts';
import { enforce } from '~/lib/http/rate-limit.server.ts';
import { env } from '~/lib/env.ts';

const text = (max: number) => z.string().trim().max(max);

export const POST = endpoint({
  summary: "The test provider's payment page: pay with a test card (a 3-D Secure card answers status 'challenge' first), pay by SBP, or decline",
  failures: [409, 429],
  response: z.object({ status: z.enum(['pending', 'challenge', 'succeeded', 'canceled']), redirect: z.string() }),
  params: z.object({ id: z.string().regex(/^tp_[0-9a-f]{24}$/) }),
  body: z.discriminatedUnion('action', [
    z.object({ action: z.literal('card'), card_number: text(23), expiry: text(7), cvc: text(4) }),
    z.object({ action: z.literal('code'), code: text(12) }),
    z.object({ action: z.literal('sbp') }),
    z.object({ action: z.literal('sber_pay') }),
    z.object({ action: z.literal('sber_pay_decline') }),
    z.object({ action: z.literal('expire') }),
    z.object({ action: z.literal('decline') }),
  ]),
  async handler({ params, body, context }) {
    if (env().PAYMENT_PROVIDER !== 'test') throw notFound();
    await enforce({ key: `test-pay:${context.clientAddress}`, max: 60, windowSeconds: 60 });
    const result = await payTestPayment(params.id, body);
    if (result.status === 'succeeded' || result.status === 'canceled') await notified('test', params.id);
    return ok({ status: result.status as 'pending' | 'challenge' | 'succeeded' | 'canceled', redirect: result.returnUrl });
  },
});
