// Beyond the spec (docs/api.md, DESIGN §6): YooKassa's HTTP notifications. They carry no signature, so
// the body only names a payment; the shop reads that payment back from YooKassa and applies what it
// says. A repeated, late or forged notification therefore changes nothing that is not already true.
import { z } from '~/lib/zod.ts';
import { notified, ProviderUnavailable } from '~/features/payments/payments.server.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { fail, ok } from '~/lib/http/envelope.ts';
import { enforce } from '~/lib/http/rate-limit.server.ts';

export const POST = endpoint({
  summary: "YooKassa's notification: the named payment is read back from YooKassa and applied (200 whether or not it changed anything)",
  failures: [429],
  response: z.object({ known: z.boolean() }),
  body: z.looseObject({
    type: z.string().max(50).optional(),
    event: z.string().max(100),
    object: z.looseObject({ id: z.string().regex(/^[\w-]{1,100}$/) }),
  }),
  async handler({ body, context, t }) {
    await enforce({ key: `notify:${context.clientAddress}`, max: 600, windowSeconds: 60 });
    try {
      return ok({ known: await notified('yookassa', body.object.id) });
    } catch (error) {
      // Not answered 200, YooKassa sends it again later — what it should do while it cannot be asked.
      if (error instanceof ProviderUnavailable) return fail(503, t('payment.unavailable'), {}, { 'retry-after': '60' });
      throw error;
    }
  },
});
